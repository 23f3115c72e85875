import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * The seller console's home counts what needs attention on every visit (issue 12). Each count is a capped
 * range read on one of these account-led indexes, so it costs the same however large the account grows:
 * rejected and late (NEW, assigned long ago) fulfillment orders, dead callback deliveries, ingestion plans
 * waiting in PLANNED. Open alerts already have one: (account_id, open_key), open_key being set while open.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema.createIndex('fulfillment_orders_status').on('fulfillment_orders').columns(['account_id', 'status', 'assigned_ts']).execute();
  await db.schema.createIndex('callback_deliveries_account_state').on('callback_deliveries').columns(['account_id', 'state', 'id']).execute();
  await db.schema.createIndex('ingestion_sessions_status').on('ingestion_sessions').columns(['account_id', 'status', 'id']).execute();
}
