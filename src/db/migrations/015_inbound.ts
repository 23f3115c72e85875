import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Inbound shipments and vendors (document 2.3, 2.5, 2.8, 3.1, 4.3; resolutions §3, §8):
 * - the seller's vendors (names unique per account, compared case-insensitively; archived ones kept);
 * - inbound shipments (purchase orders) with their lines; received_quantity never exceeds quantity;
 * - receipts: each arrival of units, per line, with the unit cost and the share of shipping it carried;
 * - on products, the weighted-average landed unit cost and the units and total it is computed from.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { idType, idColumn }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('vendors')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lower', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('lead_time_days', 'integer')
    .addColumn('payment_window_days', 'integer')
    .addColumn('notes', 'text')
    .addColumn('contact', 'text')
    .addColumn('archived_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('vendors_account_id').on('vendors').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('vendors_account_name').on('vendors').columns(['account_id', 'name_lower']).unique().execute();

  await db.schema
    .createTable('inbound_shipments')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('vendor_id', 'integer', (c) => c.notNull().references('vendors.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouses.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('purchase_order_number', 'text', (c) => c.notNull())
    .addColumn('shipping_cost', 'text')
    .addColumn('expected_delivery_date', 'text')
    .addColumn('tracking', 'text')
    .addColumn('carrier', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('shipped_at', 'text')
    .addColumn('received_at', 'text')
    .addColumn('cancelled_at', 'text')
    .execute();
  // GET /v1/inbound-shipment pages by (updated_at, id); the filters narrow by warehouse, status or vendor.
  await db.schema.createIndex('inbound_shipments_account_updated').on('inbound_shipments').columns(['account_id', 'updated_at', 'id']).execute();
  await db.schema.createIndex('inbound_shipments_account_warehouse').on('inbound_shipments').columns(['account_id', 'warehouse_id', 'status']).execute();
  await db.schema.createIndex('inbound_shipments_account_vendor').on('inbound_shipments').columns(['account_id', 'vendor_id']).execute();

  await db.schema
    .createTable('inbound_shipment_lines')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('shipment_id', 'integer', (c) => c.notNull().references('inbound_shipments.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('received_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unit_item_cost', 'text')
    .addCheckConstraint('inbound_shipment_lines_quantities', sql`quantity > 0 and received_quantity >= 0 and received_quantity <= quantity`)
    .execute();
  await db.schema.createIndex('inbound_shipment_lines_shipment').on('inbound_shipment_lines').columns(['shipment_id', 'product_id']).unique().execute();
  // The inventory record lists what is on the way per SKU.
  await db.schema.createIndex('inbound_shipment_lines_product').on('inbound_shipment_lines').columns(['account_id', 'product_id']).execute();

  await db.schema
    .createTable('inbound_receipts')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('shipment_id', 'integer', (c) => c.notNull().references('inbound_shipments.id'))
    /** Who recorded it: "seller", "operator" or "integration <installation id>". */
    .addColumn('received_by', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('inbound_receipts_shipment').on('inbound_receipts').columns(['account_id', 'shipment_id', 'id']).execute();

  await db.schema
    .createTable('inbound_receipt_lines')
    .addColumn('id', idType, idColumn)
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('receipt_id', 'integer', (c) => c.notNull().references('inbound_receipts.id'))
    .addColumn('shipment_line_id', 'integer', (c) => c.notNull().references('inbound_shipment_lines.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_item_cost', 'text')
    /** The share of the shipment's shipping cost these units carry (allocated by units). */
    .addColumn('shipping_cost', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('inbound_receipt_lines_receipt').on('inbound_receipt_lines').columns(['receipt_id', 'id']).execute();

  await db.schema.alterTable('products').addColumn('landed_cost', 'text').execute();
  await db.schema.alterTable('products').addColumn('landed_cost_units', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('products').addColumn('landed_cost_total', 'text', (c) => c.notNull().defaultTo('0')).execute();
}
