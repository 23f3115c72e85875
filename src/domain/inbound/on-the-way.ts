import type { DbHandle } from '../../db/connect.js';
import { prepareQuery } from '../../db/fast-paths.js';
import type { Db } from '../../db/tx.js';
import type { InboundPort, OpenInboundLine } from '../inventory/inbound-port.js';
import { OPEN_STATUSES } from './model.js';

/**
 * The inventory record's `inboundShipments[]` (document 2.3): lines of open shipments still expecting units,
 * read through the inventory area's port (src/domain/inventory/inbound-port.ts).
 */

interface LineRow {
  product_id: number;
  warehouse_id: number;
  warehouse_name: string;
  shipment_id: number;
  purchase_order_number: string;
  status: string;
  quantity: number;
  received_quantity: number;
  expected_delivery_date: string | null;
  tracking: string | null;
  carrier: string | null;
}

function openLinesQuery(db: Db, accountId: number | ((name: string) => number)) {
  const account = typeof accountId === 'number' ? accountId : accountId('accountId');
  return db
    .selectFrom('inbound_shipment_lines as l')
    .innerJoin('inbound_shipments as s', (j) => j.onRef('s.id', '=', 'l.shipment_id').onRef('s.account_id', '=', 'l.account_id'))
    .innerJoin('warehouses as w', (j) => j.onRef('w.id', '=', 's.warehouse_id').onRef('w.account_id', '=', 's.account_id'))
    .select([
      'l.product_id',
      's.warehouse_id',
      'w.name as warehouse_name',
      's.id as shipment_id',
      's.purchase_order_number',
      's.status',
      'l.quantity',
      'l.received_quantity',
      's.expected_delivery_date',
      's.tracking',
      's.carrier',
    ])
    .where('l.account_id', '=', account)
    .where('s.status', 'in', [...OPEN_STATUSES])
    .whereRef('l.received_quantity', '<', 'l.quantity');
}

const toLine = (r: LineRow): OpenInboundLine => ({
  productId: r.product_id,
  warehouseId: r.warehouse_id,
  warehouseName: r.warehouse_name,
  inboundShipmentId: r.shipment_id,
  purchaseOrderNumber: r.purchase_order_number,
  status: r.status,
  quantity: r.quantity,
  receivedQuantity: r.received_quantity,
  expectedDeliveryDate: r.expected_delivery_date,
  tracking: r.tracking,
  carrier: r.carrier,
});

function productQuery(handle: DbHandle) {
  return prepareQuery<LineRow, { accountId: number; productId: number }>(handle, (arg) =>
    openLinesQuery(handle.db, (name) => arg<number>(name))
      .where('l.product_id', '=', arg<number>('productId'))
      .orderBy('s.id'),
  );
}

const queries = new WeakMap<DbHandle, ReturnType<typeof productQuery>>();

export const inboundOnTheWay: InboundPort = {
  async openLinesOfProduct(handle, accountId, productId) {
    let query = queries.get(handle);
    if (!query) {
      query = productQuery(handle);
      queries.set(handle, query);
    }
    return (await query.all({ accountId, productId })).map(toLine);
  },
  async openLinesOfProducts(db, accountId, productIds, warehouseIds) {
    if (productIds.length === 0 || (warehouseIds !== null && warehouseIds.length === 0)) return [];
    let query = openLinesQuery(db, accountId).where('l.product_id', 'in', productIds);
    if (warehouseIds !== null) query = query.where('s.warehouse_id', 'in', warehouseIds);
    return (await query.orderBy('s.id').execute()).map(toLine);
  },
};
