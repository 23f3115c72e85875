import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Ingestion plans apply in checkpointed chunks (src/domain/listings/ingestion-apply-chunks.ts): the session
 * keeps how far the apply got (apply_after_id, the last ingestion listing applied; apply_done of
 * apply_total listings, the progress the operator and the console show) and the duplicate-SKU decisions of
 * its plan (duplicates, JSON: they depend on the whole ingestion, which a chunk does not read). Each
 * ingestion listing keeps what was done with it (applied_entry, JSON), from which the applied plan is
 * assembled at the end. Both read a session's listings in arrival order, page by page: hence the index.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('ingestion_sessions').addColumn('apply_total', 'integer').execute();
  await db.schema.alterTable('ingestion_sessions').addColumn('apply_done', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('ingestion_sessions').addColumn('apply_after_id', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('ingestion_sessions').addColumn('duplicates', 'text').execute();
  await db.schema.alterTable('ingestion_listings').addColumn('applied_entry', 'text').execute();
  // Planning and applying read a session's listings page by page in arrival order.
  await db.schema.createIndex('ingestion_listings_order').on('ingestion_listings').columns(['account_id', 'session_id', 'id']).execute();
}
