import type { Db } from '../../db/tx.js';

/**
 * The state of the tokens issued for each installation of an account. Token use is not recorded (the auth
 * lookup stays a read on the hot path), so the newest issue time is what the seller can be shown.
 */
export interface InstallationTokenState {
  active: number;
  revoked: number;
  lastIssuedAt: string | null;
}

export async function tokenStatesByInstallation(db: Db, accountId: number): Promise<Map<number, InstallationTokenState>> {
  const rows = await db
    .selectFrom('access_tokens')
    .select((eb) => [
      'installation_id',
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.max('created_at').as('last_issued_at'),
      eb.fn.count<number | string>('revoked_at').as('revoked'),
    ])
    .where('account_id', '=', accountId)
    .where('installation_id', 'is not', null)
    .groupBy('installation_id')
    .execute();
  const out = new Map<number, InstallationTokenState>();
  for (const r of rows) {
    // pg returns counts as strings.
    const total = Number(r.n);
    const revoked = Number(r.revoked);
    out.set(r.installation_id!, { active: total - revoked, revoked, lastIssuedAt: r.last_issued_at ?? null });
  }
  return out;
}
