import type { Db } from '../../db/tx.js';

/**
 * The store every account starts with (custom-stores.ts has the rest of custom stores). Apart from them
 * because createAccount writes it, and custom-stores.ts builds on accounts.ts (getAccount, requireName).
 */
export const DEFAULT_CUSTOM_STORE_NAME = 'Manual orders';

/** The default store of a new account (called in the account's own transaction). */
export async function createDefaultCustomStore(db: Db, accountId: number, now: Date): Promise<void> {
  await db
    .insertInto('custom_stores')
    .values({ account_id: accountId, name: DEFAULT_CUSTOM_STORE_NAME, is_default: 1, created_at: now.toISOString() })
    .execute();
}
