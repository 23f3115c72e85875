import type { Db } from '../../db/tx.js';
import { isUniqueViolation } from '../../db/tx.js';
import { alreadyExists, failedPrecondition, notFound } from '../errors.js';
import { getAccount, requireName } from './accounts.js';

/**
 * Custom stores (document 2.6, resolutions §8): the seller's own order channels, through which orders
 * arrive by API, file upload or UI. `integrationId` is the store's id. Every account has one default
 * store; "Manual orders" is created with the account (default-custom-store.ts).
 */
export interface CustomStoreView {
  integrationId: number;
  name: string;
  default: boolean;
}

/** GET /v1/customStores is one unpaged list: the count per account is capped so it stays small. */
export const MAX_CUSTOM_STORES = 1000;

const view = (row: { id: number; name: string; is_default: number }): CustomStoreView => ({
  integrationId: row.id,
  name: row.name,
  default: row.is_default === 1,
});

/** A new store; `default: true` makes it the account's default in place of the current one. */
export async function createCustomStore(
  db: Db,
  accountId: number,
  input: { name: string; default?: boolean },
  now: Date,
): Promise<CustomStoreView> {
  const name = requireName('name', input.name);
  await getAccount(db, accountId);
  const count = await db
    .selectFrom('custom_stores')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= MAX_CUSTOM_STORES) {
    throw failedPrecondition(`account ${accountId} already has ${MAX_CUSTOM_STORES} custom stores, the most it can have`);
  }
  if (input.default) {
    // Two stores made default at once on PostgreSQL would both clear the old default and then collide on the
    // one-default index: a no-op update of the account row makes them take turns (SQLite has one writer).
    await db.updateTable('accounts').set((eb) => ({ name: eb.ref('name') })).where('id', '=', accountId).execute();
    await db.updateTable('custom_stores').set({ is_default: 0 }).where('account_id', '=', accountId).where('is_default', '=', 1).execute();
  }
  try {
    const row = await db
      .insertInto('custom_stores')
      .values({ account_id: accountId, name, is_default: input.default ? 1 : 0, created_at: now.toISOString() })
      .returning(['id', 'name', 'is_default'])
      .executeTakeFirstOrThrow();
    return view(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyExists(`a custom store named "${name}" already exists in account ${accountId}`);
    throw error;
  }
}

export async function listCustomStores(db: Db, accountId: number): Promise<CustomStoreView[]> {
  const rows = await db
    .selectFrom('custom_stores')
    .select(['id', 'name', 'is_default'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  return rows.map(view);
}

/** One store of the account; another account's id is not found (never revealed). */
export async function findCustomStore(db: Db, accountId: number, integrationId: number): Promise<CustomStoreView> {
  const row = await db
    .selectFrom('custom_stores')
    .select(['id', 'name', 'is_default'])
    .where('account_id', '=', accountId)
    .where('id', '=', integrationId)
    .executeTakeFirst();
  if (!row) throw notFound(`custom store ${integrationId} not found`);
  return view(row);
}

/** The store with this id, or the account's default store when the id is null. */
export async function findCustomStoreOrDefault(db: Db, accountId: number, integrationId: number | null): Promise<CustomStoreView> {
  if (integrationId !== null) return findCustomStore(db, accountId, integrationId);
  const row = await db
    .selectFrom('custom_stores')
    .select(['id', 'name', 'is_default'])
    .where('account_id', '=', accountId)
    .where('is_default', '=', 1)
    .executeTakeFirst();
  if (!row) throw notFound('the account has no default custom store');
  return view(row);
}
