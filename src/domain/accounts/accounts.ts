import type { Db } from '../../db/tx.js';
import { notFound } from '../errors.js';

export interface AccountView {
  accountId: number;
  name: string;
}

export async function createAccount(db: Db, input: { name: string }, now: Date): Promise<AccountView> {
  const row = await db
    .insertInto('accounts')
    .values({ name: input.name, created_at: now.toISOString() })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
  return { accountId: row.id, name: row.name };
}

export async function getAccount(db: Db, accountId: number): Promise<AccountView> {
  const row = await db.selectFrom('accounts').select(['id', 'name']).where('id', '=', accountId).executeTakeFirst();
  if (!row) throw notFound(`account ${accountId} not found`);
  return { accountId: row.id, name: row.name };
}

export async function listAccounts(db: Db): Promise<AccountView[]> {
  const rows = await db.selectFrom('accounts').select(['id', 'name']).orderBy('id').execute();
  return rows.map((r) => ({ accountId: r.id, name: r.name }));
}
