import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * The /metrics scrape groups the unfinished and DEAD jobs by type (src/jobs/metrics.ts): with the type
 * beside the status, each status is one index-only range read, never a visit of the SUCCEEDED rows the
 * retention sweep keeps, and the oldest due run_at of a type is in the same entries.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema.createIndex('jobs_status_type').on('jobs').columns(['status', 'type', 'run_at']).execute();
}
