import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/** The finished-job retention sweep (jobs.retention-sweep) finds the oldest SUCCEEDED jobs by this index. */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema.createIndex('jobs_finished').on('jobs').columns(['status', 'finished_at']).execute();
}
