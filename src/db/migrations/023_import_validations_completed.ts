import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * The retention sweep (src/jobs/handlers/report-retention-sweep.ts) deletes finished import validations
 * oldest first by completed_at, in batches. Reports have had the index for that since migration 014; without
 * it every batch read and sorted the whole import_validations table.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema.createIndex('import_validations_completed').on('import_validations').columns(['completed_at', 'id']).execute();
}
