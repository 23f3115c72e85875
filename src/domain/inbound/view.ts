import type { Db } from '../../db/tx.js';
import { warehouseUniqueIdFor, type Principal } from '../accounts/principal.js';
import { notFound } from '../errors.js';
import { decimalOutput } from '../../lib/decimal.js';
import { inboundWarehouseNarrowing } from './access.js';
import type { InboundReceiptV1, InboundShipmentRow, InboundShipmentV1, InboundStatus } from './model.js';

/** Shipment ids are positive 32-bit integers; anything else names no shipment. */
const MAX_ID = 2147483647;

/**
 * The shipment with this id as the caller may see it, or a 404: another account's shipment, or one bound
 * for a warehouse outside an inventory:self token's mappings, is simply not found.
 */
export async function findVisibleShipment(db: Db, principal: Principal, shipmentId: number): Promise<InboundShipmentRow> {
  const missing = () => notFound(`inbound shipment ${shipmentId} not found`);
  if (!Number.isInteger(shipmentId) || shipmentId < 1 || shipmentId > MAX_ID) throw missing();
  const narrowing = inboundWarehouseNarrowing(principal);
  if (narrowing !== null && narrowing.length === 0) throw missing();
  let query = db.selectFrom('inbound_shipments').selectAll().where('account_id', '=', principal.accountId).where('id', '=', shipmentId);
  if (narrowing !== null) query = query.where('warehouse_id', 'in', narrowing);
  const row = await query.executeTakeFirst();
  if (!row) throw missing();
  return row;
}

/** Records for shipment rows, in the order given: four reads however many shipments there are. */
export async function shipmentRecords(db: Db, principal: Principal, rows: InboundShipmentRow[]): Promise<InboundShipmentV1[]> {
  if (rows.length === 0) return [];
  const accountId = principal.accountId;
  const shipmentIds = rows.map((r) => r.id);
  const [lines, vendors, warehouses, receipts] = await Promise.all([
    db
      .selectFrom('inbound_shipment_lines as l')
      .innerJoin('products as p', 'p.id', 'l.product_id')
      .select(['l.id', 'l.shipment_id', 'l.product_id', 'p.sku', 'l.quantity', 'l.received_quantity', 'l.unit_item_cost'])
      .where('l.account_id', '=', accountId)
      .where('l.shipment_id', 'in', shipmentIds)
      .orderBy('l.shipment_id')
      .orderBy('l.id')
      .execute(),
    db
      .selectFrom('vendors')
      .select(['id', 'name'])
      .where('account_id', '=', accountId)
      .where('id', 'in', [...new Set(rows.map((r) => r.vendor_id))])
      .execute(),
    db
      .selectFrom('warehouses')
      .select(['id', 'name'])
      .where('account_id', '=', accountId)
      .where('id', 'in', [...new Set(rows.map((r) => r.warehouse_id))])
      .execute(),
    db
      .selectFrom('inbound_receipts as r')
      .innerJoin('inbound_receipt_lines as rl', 'rl.receipt_id', 'r.id')
      .innerJoin('products as p', 'p.id', 'rl.product_id')
      .select([
        'r.id as receipt_id',
        'r.shipment_id',
        'r.received_at',
        'r.received_by',
        'rl.product_id',
        'p.sku',
        'rl.quantity',
        'rl.unit_item_cost',
        'rl.shipping_cost',
      ])
      .where('r.account_id', '=', accountId)
      .where('r.shipment_id', 'in', shipmentIds)
      .orderBy('r.id')
      .orderBy('rl.id')
      .execute(),
  ]);
  const vendorNames = new Map(vendors.map((v) => [v.id, v.name]));
  const warehouseNames = new Map(warehouses.map((w) => [w.id, w.name]));
  const linesByShipment = new Map<number, typeof lines>();
  for (const l of lines) {
    const list = linesByShipment.get(l.shipment_id) ?? [];
    list.push(l);
    linesByShipment.set(l.shipment_id, list);
  }
  const receiptsByShipment = new Map<number, InboundReceiptV1[]>();
  for (const r of receipts) {
    const list = receiptsByShipment.get(r.shipment_id) ?? [];
    let receipt = list[list.length - 1];
    if (!receipt || receipt.receipt_id !== r.receipt_id) {
      receipt = { receipt_id: r.receipt_id, received_at: r.received_at, received_by: r.received_by, products: [] };
      list.push(receipt);
      receiptsByShipment.set(r.shipment_id, list);
    }
    receipt.products.push({
      product_id: r.product_id,
      sku: r.sku,
      quantity: r.quantity,
      unit_item_cost: decimalOutput(r.unit_item_cost),
      shipping_cost: decimalOutput(r.shipping_cost) ?? 0,
    });
  }
  return rows.map((row) => {
    const vendorName = vendorNames.get(row.vendor_id) ?? '';
    return {
      id: row.id,
      status: row.status as InboundStatus,
      vendor: { vendorId: row.vendor_id, name: vendorName },
      vendor_name: vendorName,
      warehouse: {
        warehouseId: row.warehouse_id,
        name: warehouseNames.get(row.warehouse_id) ?? '',
        warehouseUniqueId: warehouseUniqueIdFor(principal, row.warehouse_id),
      },
      destination_warehouse_id: row.warehouse_id,
      purchase_order_number: row.purchase_order_number,
      shipping_cost: decimalOutput(row.shipping_cost),
      expected_delivery_date: row.expected_delivery_date,
      tracking: row.tracking,
      carrier: row.carrier,
      inbound_shipment_products: (linesByShipment.get(row.id) ?? []).map((l) => ({
          product_id: l.product_id,
          sku: l.sku,
          quantity: l.quantity,
          received_quantity: l.received_quantity,
        unit_item_cost: decimalOutput(l.unit_item_cost),
      })),
      receipts: receiptsByShipment.get(row.id) ?? [],
      created_at: row.created_at,
      updated_at: row.updated_at,
      shipped_at: row.shipped_at,
      received_at: row.received_at,
      cancelled_at: row.cancelled_at,
    };
  });
}

export async function shipmentRecord(db: Db, principal: Principal, row: InboundShipmentRow): Promise<InboundShipmentV1> {
  const [record] = await shipmentRecords(db, principal, [row]);
  return record!;
}
