import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * The sandbox's partner simulator (issue 24 item 10; src/domain/sandbox-partner/, docs/operators/sandbox.md):
 * - sandbox_partner_apps: the apps `npm run cli -- sandbox` pointed at the simulator. The simulator answers
 *   only for these (any other app id is a 404), verifying each call with that app's own signing secret.
 * - sandbox_partner_calls: what the simulator received (method, path, delivery id, which callback, whether the
 *   signature verified, the status it answered), newest kept, a bounded number per app (simulator.ts).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { idType, idColumn }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('sandbox_partner_apps')
    .addColumn('app_id', 'integer', (c) => c.primaryKey().references('apps.id'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sandbox_partner_calls')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('app_id', 'integer', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    // ingestion-initiate, storefront-status, delete-configuration, nudge; null when the path matched none.
    .addColumn('kind', 'text')
    .addColumn('verified', 'integer', (c) => c.notNull())
    // Why verification failed (missing-signature, signature-mismatch…); null when it passed.
    .addColumn('rejection', 'text')
    .addColumn('status', 'integer', (c) => c.notNull())
    .execute();
  // The log reads an account's (or an app's) calls newest first; pruning keeps the newest per app.
  await db.schema.createIndex('sandbox_partner_calls_account').on('sandbox_partner_calls').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('sandbox_partner_calls_app').on('sandbox_partner_calls').columns(['app_id', 'id']).execute();
}
