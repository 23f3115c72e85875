import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Fulfillment (document 2.18, 3.5–3.7; resolutions §4, §6): one fulfillment order per (sales order,
 * warehouse mapped to a SHIPPING or THIRD_PARTY_LOGISTICS integration). Its lines are NOT stored: they are
 * derived from order_line_routes (units still owed there), so shipments, cancellations and re-routes need no
 * bookkeeping here. Stored: the fulfillment order's own state, cancellation requests and alerts.
 *
 * "At most one open X" rules use an open_key column that holds a text key while open and null once closed:
 * a plain unique index then enforces them on both databases (nulls are distinct on both).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { idType, idColumn }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('fulfillment_orders')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sales_orders.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouses.id'))
    // The shipping / 3PL integration (installation) that owes the work.
    .addColumn('installation_id', 'integer', (c) => c.notNull())
    // Stored state: NEW, ACCEPTED or REJECTED. Shipped / cancelled states are derived from the routes.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('external_order_id', 'text')
    .addColumn('assigned_ts', 'text', (c) => c.notNull())
    .addColumn('acknowledged_ts', 'text')
    .addColumn('rejection_reason', 'text')
    .addColumn('rejection_detail', 'text')
    .addColumn('rejected_ts', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_updated_ts', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('fulfillment_orders_order_warehouse')
    .on('fulfillment_orders')
    .columns(['account_id', 'order_id', 'warehouse_id'])
    .unique()
    .execute();
  // externalOrderId is unique per integration (resolutions §4).
  await db.schema
    .createIndex('fulfillment_orders_external')
    .on('fulfillment_orders')
    .columns(['installation_id', 'external_order_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('fulfillment_orders_queue')
    .on('fulfillment_orders')
    .columns(['account_id', 'installation_id', 'id'])
    .execute();

  await db.schema
    .createTable('fulfillment_cancellation_requests')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('fulfillment_order_id', 'integer', (c) => c.notNull().references('fulfillment_orders.id'))
    // OPEN (in need_to_cancel), CONFIRMED, or CLOSED (the work left the partner another way, e.g. rejection).
    .addColumn('status', 'text', (c) => c.notNull())
    // The fulfillment order id while OPEN, null afterwards: one open request per fulfillment order.
    .addColumn('open_key', 'integer')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('requested_ts', 'text', (c) => c.notNull())
    .addColumn('confirmed_ts', 'text')
    .addColumn('already_shipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('fulfillment_cancellation_requests_open')
    .on('fulfillment_cancellation_requests')
    .columns(['account_id', 'open_key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('fulfillment_cancellation_requests_order')
    .on('fulfillment_cancellation_requests')
    .columns(['account_id', 'fulfillment_order_id', 'id'])
    .execute();
  await db.schema
    .createTable('fulfillment_cancellation_lines')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('request_id', 'integer', (c) => c.notNull().references('fulfillment_cancellation_requests.id'))
    .addColumn('line_id', 'integer', (c) => c.notNull().references('sales_order_lines.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('fulfillment_cancellation_lines_request_line')
    .on('fulfillment_cancellation_lines')
    .columns(['account_id', 'request_id', 'line_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('fulfillment_alerts')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('fulfillment_order_id', 'integer', (c) => c.notNull().references('fulfillment_orders.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('line_id', 'integer')
    // The integration that raised it; null when the service raised it (shown to the seller).
    .addColumn('raised_by_installation_id', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    // "<fulfillmentOrderId>:<type>:<installation id or 'service'>" while OPEN, null once resolved.
    .addColumn('open_key', 'text')
    .addColumn('resolution', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('resolved_ts', 'text')
    .execute();
  await db.schema
    .createIndex('fulfillment_alerts_open')
    .on('fulfillment_alerts')
    .columns(['account_id', 'open_key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('fulfillment_alerts_order')
    .on('fulfillment_alerts')
    .columns(['account_id', 'fulfillment_order_id', 'id'])
    .execute();
}
