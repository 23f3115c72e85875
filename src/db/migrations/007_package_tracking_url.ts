import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * v2 shipments carry trackingUrl (the carrier's tracking page). It is not labelUrl (document 2.10: the
 * shipping label's URL), so it gets its own column; null for v1 packages and v2 shipments without one.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('sales_order_packages').addColumn('tracking_url', 'text').execute();
}
