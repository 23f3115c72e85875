import type { Db, Tx } from '../../db/tx.js';

/** Document 2.20. */
export const CHECK_STATES = ['CHECK_STATE_UNSPECIFIED', 'CHECK_STATE_PASS', 'CHECK_STATE_FAIL', 'CHECK_STATE_WARNING'] as const;
export type CheckState = (typeof CHECK_STATES)[number];

export interface StatusCheck {
  name: string;
  state: CheckState;
  stateShortDescription: string;
  details: string;
}

const MAX_CHECKS = 100;
const MAX_TEXT = 2000;

function text(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, MAX_TEXT) : '';
}

/**
 * The checks[] of a storefront status answer (2.20), normalised as v2 output is (proto3 JSON: missing
 * strings are "", a missing or unknown state is CHECK_STATE_UNSPECIFIED, enum numbers accepted); null when
 * the body is not an object with a checks list. An empty list is a valid answer.
 */
export function parseStatusChecks(body: string): StatusCheck[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const list = (parsed as { checks?: unknown }).checks;
  if (list === undefined) return [];
  if (!Array.isArray(list)) return null;
  return list.slice(0, MAX_CHECKS).map((entry: unknown) => {
    const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const raw = e.state;
    const state: CheckState =
      typeof raw === 'number' && CHECK_STATES[raw] !== undefined
        ? CHECK_STATES[raw]!
        : typeof raw === 'string' && (CHECK_STATES as readonly string[]).includes(raw)
          ? (raw as CheckState)
          : 'CHECK_STATE_UNSPECIFIED';
    return { name: text(e.name), state, stateShortDescription: text(e.stateShortDescription ?? e.state_short_description), details: text(e.details) };
  });
}

export async function saveStatusChecks(tx: Tx, accountId: number, storefrontId: number, checks: StatusCheck[], checkedAt: string, deliveryId: string): Promise<void> {
  await tx
    .insertInto('storefront_status_checks')
    .values({ account_id: accountId, storefront_id: storefrontId, checks: JSON.stringify(checks), checked_at: checkedAt, delivery_id: deliveryId })
    .onConflict((oc) => oc.columns(['account_id', 'storefront_id']).doUpdateSet({ checks: JSON.stringify(checks), checked_at: checkedAt, delivery_id: deliveryId }))
    .execute();
}

export async function lastStatusChecks(db: Db, accountId: number, storefrontId: number): Promise<{ checks: StatusCheck[]; checkedAt: string; deliveryId: string } | null> {
  const row = await db
    .selectFrom('storefront_status_checks')
    .select(['checks', 'checked_at', 'delivery_id'])
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .executeTakeFirst();
  return row ? { checks: JSON.parse(row.checks) as StatusCheck[], checkedAt: row.checked_at, deliveryId: row.delivery_id } : null;
}

/**
 * Storefronts of the account whose last status check has a failing check (the console's home). One row per
 * storefront, so the account's rows are few; FAIL is the only state that means "broken" (WARNING does not).
 */
export async function storefrontsFailingStatusCheck(db: Db, accountId: number): Promise<number[]> {
  const rows = await db.selectFrom('storefront_status_checks').select(['storefront_id', 'checks']).where('account_id', '=', accountId).execute();
  return rows.filter((r) => (JSON.parse(r.checks) as StatusCheck[]).some((c) => c.state === 'CHECK_STATE_FAIL')).map((r) => r.storefront_id);
}
