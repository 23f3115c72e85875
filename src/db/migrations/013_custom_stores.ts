import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Custom stores (document 2.6, resolutions §8): the seller's own order channels (API, file upload, UI).
 * At most one default per account (a partial unique index); every account has "Manual orders" as its
 * default, created with the account and here for the accounts that already exist.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { idType, idColumn }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('custom_stores')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('custom_stores_account').on('custom_stores').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('custom_stores_account_name').on('custom_stores').columns(['account_id', 'name']).unique().execute();
  await sql`create unique index custom_stores_one_default on custom_stores (account_id) where is_default = 1`.execute(db);
  await sql`insert into custom_stores (account_id, name, is_default, created_at)
            select id, 'Manual orders', 1, ${new Date().toISOString()} from accounts`.execute(db);
}
