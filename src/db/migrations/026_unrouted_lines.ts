import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Unroutable lines (resolutions §6, issue 23): a line whose SKU is unknown, or that found no warehouse to be
 * backordered in (an account without a warehouse that is not channel-fulfilled), is kept with its units
 * counted as backordered and an alert on the order until they are routed or cancelled.
 *
 * - sales_order_lines.unrouted_quantity: units of the line on no route (never placed, not cancelled). Order
 *   creation sets it, a cancellation takes these units first, and stock arriving for the SKU routes them
 *   (src/domain/orders/route-unrouted-lines.ts), each with a conditional UPDATE.
 * - Existing lines get it from their quantities: ordered − cancelled − shipped − what their routes still owe.
 * - sales_order_lines_unrouted holds only lines with such units (an anomaly, so a handful), so the check every
 *   stock increase makes ("does a waiting line want this SKU?") and the alert list read a tiny index.
 * - kit_components_component_kits: the same check asks which kits a SKU is a component of (component stock
 *   builds waiting kits); with the kit in the index, that is an index-only range per SKU.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('sales_order_lines')
    .addColumn('unrouted_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    update sales_order_lines
    set unrouted_quantity = quantity - cancel_quantity - shipped_quantity - coalesce((
      select sum(r.reserved_quantity + r.backorder_quantity) from order_line_routes r
      where r.account_id = sales_order_lines.account_id and r.line_id = sales_order_lines.id
    ), 0)
    where quantity > cancel_quantity + shipped_quantity
      and quantity - cancel_quantity - shipped_quantity > coalesce((
        select sum(r.reserved_quantity + r.backorder_quantity) from order_line_routes r
        where r.account_id = sales_order_lines.account_id and r.line_id = sales_order_lines.id
      ), 0)
  `.execute(db);
  await db.schema
    .createIndex('sales_order_lines_unrouted')
    .on('sales_order_lines')
    .columns(['account_id', 'order_id'])
    .where(sql<boolean>`unrouted_quantity > 0`)
    .execute();
  await db.schema
    .createIndex('kit_components_component_kits')
    .on('kit_components')
    .columns(['account_id', 'component_product_id', 'kit_product_id'])
    .execute();
}
