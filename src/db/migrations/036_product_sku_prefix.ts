import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * The console's SKU lookup as you type (src/domain/catalog/sku-suggestions.ts): the account's SKUs starting
 * with what was typed, in any capitals, as one index range. SQLite's products_account_sku_lower (001) already
 * compares bytes (BINARY); PostgreSQL's compares in the database's locale, where the SKUs starting with a
 * prefix need not sit in one range, so it gets the same key compared byte by byte (COLLATE "C").
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`create index products_account_sku_lower_c on products (account_id, (sku_lower collate "C"))`.execute(db);
}
