import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Sales orders (document 2.10) with their lines, the routes that place line units in warehouses, and
 * the tables later slices fill (packages, returns, status confirmations). Money is decimal TEXT; JSON
 * objects (accounting, addresses, dimensions) are TEXT parsed in the app.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { idType, idColumn }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('sales_orders')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    // The storefront (sales-channel installation id) that sent the order; null for seller-created orders.
    .addColumn('storefront_id', 'integer')
    // What channelOrderId is unique within: "s:<storefrontId>" for a storefront, "c:<channel>" for a seller.
    .addColumn('channel_key', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('channel_label', 'text')
    .addColumn('channel_order_id', 'text', (c) => c.notNull())
    .addColumn('channel_order_reference_number', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('paid', 'integer', (c) => c.notNull())
    .addColumn('paid_ts', 'text')
    .addColumn('cancellation_reason', 'text')
    .addColumn('customer_notes', 'text')
    .addColumn('marketplace_id', 'text')
    .addColumn('customer_name', 'text')
    .addColumn('customer_email', 'text')
    .addColumn('order_ts', 'text', (c) => c.notNull())
    .addColumn('requested_service_level', 'text')
    .addColumn('standard_service_level', 'text', (c) => c.notNull())
    .addColumn('accounting', 'text')
    .addColumn('shipping_address', 'text')
    .addColumn('billing_address', 'text')
    .addColumn('fba', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('channel_will_fulfill', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('prime', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('business_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('accepted_ts', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_updated_ts', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sales_orders_channel_order')
    .on('sales_orders')
    .columns(['account_id', 'channel_key', 'channel_order_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('sales_orders_account_updated')
    .on('sales_orders')
    .columns(['account_id', 'last_updated_ts', 'id'])
    .execute();
  await db.schema
    .createIndex('sales_orders_storefront_updated')
    .on('sales_orders')
    .columns(['account_id', 'storefront_id', 'last_updated_ts', 'id'])
    .execute();

  await db.schema
    .createTable('sales_order_lines')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sales_orders.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('channel_line_item_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requested_title', 'text')
    .addColumn('requested_sku', 'text', (c) => c.notNull())
    // Null when the requested SKU is not in the catalog: the line is kept but not routed.
    .addColumn('product_id', 'integer')
    .addColumn('sku', 'text')
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('cancel_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('shipped_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('returned_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unit_price', 'text')
    .addColumn('cost', 'text')
    .addColumn('total_weight', 'text')
    .addColumn('package_dimensions', 'text')
    .addColumn('hazmat', 'text')
    .addColumn('refund', 'text')
    .addColumn('refund_reason', 'text')
    .addColumn('gift_wrap_message', 'text')
    .addColumn('gift_wrap_level', 'text')
    .addColumn('earliest_ship_by', 'text')
    .addColumn('latest_ship_by', 'text')
    .addColumn('earliest_deliver_by', 'text')
    .addColumn('latest_deliver_by', 'text')
    .addColumn('requested_service_level', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint(
      'sales_order_lines_quantities',
      sql`quantity >= 1 and cancel_quantity >= 0 and shipped_quantity >= 0 and cancel_quantity + shipped_quantity <= quantity`,
    )
    .execute();
  await db.schema
    .createIndex('sales_order_lines_order')
    .on('sales_order_lines')
    .columns(['account_id', 'order_id', 'position'])
    .execute();

  // Units of a line placed in a warehouse. reserved_quantity is held in inventory.reserved_quantity (and
  // the inventory_reservations ledger); backorder_quantity was routed without stock and reserves nothing.
  await db.schema
    .createTable('order_line_routes')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sales_orders.id'))
    .addColumn('line_id', 'integer', (c) => c.notNull().references('sales_order_lines.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouses.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('reserved_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('backorder_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('shipped_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancelled_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('assembled_quantity', 'integer')
    .addColumn('routed_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint(
      'order_line_routes_quantities',
      sql`quantity >= 0 and reserved_quantity >= 0 and backorder_quantity >= 0 and shipped_quantity >= 0 and cancelled_quantity >= 0`,
    )
    .execute();
  await db.schema
    .createIndex('order_line_routes_line_warehouse')
    .on('order_line_routes')
    .columns(['account_id', 'line_id', 'warehouse_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('order_line_routes_order')
    .on('order_line_routes')
    .columns(['account_id', 'order_id', 'warehouse_id'])
    .execute();
  await db.schema
    .createIndex('order_line_routes_warehouse')
    .on('order_line_routes')
    .columns(['account_id', 'warehouse_id', 'order_id'])
    .execute();

  await db.schema
    .createIndex('inventory_reservations_line')
    .on('inventory_reservations')
    .columns(['account_id', 'order_line_id', 'warehouse_id'])
    .unique()
    .execute();

  // The channel's acknowledgements of service-started status changes (confirmStatus): recorded only.
  await db.schema
    .createTable('sales_order_status_confirmations')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sales_orders.id'))
    .addColumn('token_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('line_items', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sales_order_status_confirmations_order')
    .on('sales_order_status_confirmations')
    .columns(['account_id', 'order_id', 'id'])
    .execute();

  // Packages (document 2.10 Package), filled by the shipments slice; one per (order, fulfillment package id).
  await db.schema
    .createTable('sales_order_packages')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sales_orders.id'))
    .addColumn('warehouse_id', 'integer')
    .addColumn('external_package_id', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('carrier', 'text')
    .addColumn('service_level', 'text')
    .addColumn('cost', 'text')
    .addColumn('tracking', 'text')
    .addColumn('shipped_ts', 'text', (c) => c.notNull())
    .addColumn('rma', 'text')
    .addColumn('label_url', 'text')
    .addColumn('package_weight', 'text')
    .addColumn('package_weight_uom', 'text')
    .addColumn('package_height', 'text')
    .addColumn('package_width', 'text')
    .addColumn('package_length', 'text')
    .addColumn('shipped_from', 'text')
    .addColumn('shipped_to', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sales_order_packages_external')
    .on('sales_order_packages')
    .columns(['account_id', 'order_id', 'external_package_id'])
    .unique()
    .execute();
  await db.schema
    .createTable('sales_order_package_items')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('package_id', 'integer', (c) => c.notNull().references('sales_order_packages.id'))
    .addColumn('line_id', 'integer', (c) => c.notNull().references('sales_order_lines.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sales_order_package_items_package')
    .on('sales_order_package_items')
    .columns(['account_id', 'package_id', 'line_id'])
    .execute();

  // Returns (document 2.10 Return order), filled by the returns slice.
  await db.schema
    .createTable('sales_order_returns')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sales_orders.id'))
    .addColumn('channel_return_id', 'text')
    .addColumn('request_ts', 'text', (c) => c.notNull())
    .addColumn('cancelled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sales_order_returns_order')
    .on('sales_order_returns')
    .columns(['account_id', 'order_id', 'id'])
    .execute();
  await db.schema
    .createTable('sales_order_return_items')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('return_id', 'integer', (c) => c.notNull().references('sales_order_returns.id'))
    .addColumn('line_id', 'integer', (c) => c.notNull().references('sales_order_lines.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('original_quantity', 'integer', (c) => c.notNull())
    .addColumn('refund_amount', 'text')
    .execute();
  await db.schema
    .createIndex('sales_order_return_items_return')
    .on('sales_order_return_items')
    .columns(['account_id', 'return_id', 'line_id'])
    .execute();
}
