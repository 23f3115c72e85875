import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Inbound receipts fill the backorders of the SKU received in the warehouse it arrived at
 * (src/domain/orders/fill-backorders.ts). A partial index holds only the routes still waiting for stock, so
 * that lookup stays small however many routes a busy default warehouse has.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createIndex('order_line_routes_backorders')
    .on('order_line_routes')
    .columns(['account_id', 'warehouse_id', 'product_id'])
    .where(sql<boolean>`backorder_quantity > 0`)
    .execute();
}
