import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * A return is requested (RETURN_REQUESTED) until the seller records the units as received (RETURNED):
 * received_ts says which, so receiving the same return twice changes nothing.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('sales_order_returns').addColumn('received_ts', 'text').execute();
}
