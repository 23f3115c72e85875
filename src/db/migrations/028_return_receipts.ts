import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * A return is received with a restock choice and then closed (resolutions §6, issue 23; domain in
 * src/domain/orders/returns-receive.ts and returns-close.ts):
 * - restock_warehouse_id: the warehouse the received units went back into; null when they were not put back
 *   in stock (every return received before this migration, whose units never moved stock);
 * - restocked_quantity: how many units that added (0 when not restocked);
 * - closed_ts: when the seller closed the return; a return closed before it was received is also cancelled.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('sales_order_returns').addColumn('restock_warehouse_id', 'integer').execute();
  await db.schema
    .alterTable('sales_order_returns')
    .addColumn('restocked_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('sales_order_returns').addColumn('closed_ts', 'text').execute();
}
