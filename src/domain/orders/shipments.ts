import type { Tx } from '../../db/tx.js';
import { emitNudge } from '../callbacks/nudges.js';
import { invalidArgument, invalidField } from '../errors.js';
import { takeKitComponentUnits } from './kit-routing.js';
import { touchProductInventory } from '../inventory/stock-touch.js';
import { checkShipDate } from './ship-date.js';
import { recomputeOrderStatus } from './status.js';
import { reduceReservation, shipReservedStock } from '../inventory/reserved-stock.js';

/**
 * Shipments as one truth: v1 POST /v1/salesOrder/shipments and v2 POST /v2/shipping/shipments both record
 * through recordShipment, so packages, shippedQuantity and the order status agree whichever way a shipment
 * arrives.
 *
 * Units shipped from a warehouse are consumed from the line's route there, reserved units first, then
 * backordered ones:
 * - a reserved unit leaves the stock: route and inventory reserved_quantity −= 1 and inventory on-hand −= 1,
 *   so available (= on-hand − reserved) does not move;
 * - a backordered unit held no stock in our counters, so shipping it touches no inventory counter (the
 *   warehouse evidently had the unit; its next stock update brings the counters in line).
 * Every counter change is one conditional UPDATE; parallel shipments of the last owed units cannot both win.
 */

/** v1-only package fields (document 2.10 Package), stored as given. */
export interface PackageExtra {
  rma?: string | null;
  labelUrl?: string | null;
  packageWeight?: string | null;
  packageWeightUom?: string | null;
  packageHeight?: string | null;
  packageWidth?: string | null;
  packageLength?: string | null;
  /** JSON text of the address the package left from / went to. */
  shippedFrom?: string | null;
  shippedTo?: string | null;
}

export interface RecordShipmentInput {
  accountId: number;
  orderId: number;
  warehouseId: number;
  /** fulfillmentPackageId (v1) or externalShipmentId (v2): the replay key within the order. */
  externalPackageId: string;
  source: 'V1' | 'V2';
  carrier: string | null;
  serviceLevel: string | null;
  tracking: string | null;
  /**
   * v2 trackingUrl, stored in sales_order_packages.tracking_url. No output of the contract has a field for it
   * (2.10 labelUrl is the label, 2.16 packages have none), so it is kept for support, not shown.
   */
  trackingUrl?: string | null;
  shippedTs: Date;
  /**
   * Where the package is in the caller's request (`packages[2]`, `shipments[0]`), so a refused shippedTs names
   * it; empty when the request holds one package.
   */
  fieldPrefix?: string;
  /** Decimal string. */
  cost?: string | null;
  /** Units per line; null = everything still owed in that warehouse; [] = a tracking-only package. */
  lines: { lineId: number; quantity: number }[] | null;
  extra?: PackageExtra;
  now: Date;
}

export interface RecordShipmentResult {
  packageId: number;
  alreadyRecorded: boolean;
}

const CAS_ATTEMPTS = 8;

/**
 * Records one package and the units it ships. The caller has checked that the order is visible to it and
 * that the warehouse is the account's (and the caller's, for an integration). A new package must be dated
 * within the order's life (ship-date.ts: not before orderTs, at most a day ahead of now); a replay is not
 * checked again, it answers as it did. Throws invalidArgument, and
 * the caller's transaction must then roll back: run each batch entry that may fail on its own in its own
 * transaction (or savepoint).
 */
export async function recordShipment(tx: Tx, input: RecordShipmentInput): Promise<RecordShipmentResult> {
  const { accountId, orderId, warehouseId, now } = input;
  const nowIso = now.toISOString();
  if (input.externalPackageId.trim() === '') throw invalidArgument('the package id must not be empty');

  // The replay key claims the package first: a concurrent replay waits on the unique index and then finds
  // the row, so one shipment is recorded once however many times it arrives.
  const inserted = await tx
    .insertInto('sales_order_packages')
    .values({
      account_id: accountId,
      order_id: orderId,
      warehouse_id: warehouseId,
      external_package_id: input.externalPackageId,
      source: input.source,
      carrier: input.carrier,
      service_level: input.serviceLevel,
      cost: input.cost ?? null,
      tracking: input.tracking,
      tracking_url: input.trackingUrl?.trim() || null,
      shipped_ts: input.shippedTs.toISOString(),
      rma: input.extra?.rma ?? null,
      label_url: input.extra?.labelUrl ?? null,
      package_weight: input.extra?.packageWeight ?? null,
      package_weight_uom: input.extra?.packageWeightUom ?? null,
      package_height: input.extra?.packageHeight ?? null,
      package_width: input.extra?.packageWidth ?? null,
      package_length: input.extra?.packageLength ?? null,
      shipped_from: input.extra?.shippedFrom ?? null,
      shipped_to: input.extra?.shippedTo ?? null,
      created_at: nowIso,
    })
    .onConflict((oc) => oc.columns(['account_id', 'order_id', 'external_package_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted === undefined) {
    const existing = await tx
      .selectFrom('sales_order_packages')
      .select('id')
      .where('account_id', '=', accountId)
      .where('order_id', '=', orderId)
      .where('external_package_id', '=', input.externalPackageId)
      .executeTakeFirstOrThrow();
    return { packageId: Number(existing.id), alreadyRecorded: true };
  }
  const packageId = Number(inserted.id);
  const { order_ts: orderTs } = await tx
    .selectFrom('sales_orders')
    .select('order_ts')
    .where('account_id', '=', accountId)
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const field = input.fieldPrefix ? `${input.fieldPrefix}.shippedTs` : 'shippedTs';
  checkShipDate(field, input.externalPackageId, input.shippedTs, orderTs, now);

  const wanted = await unitsToShip(tx, input);
  for (const [lineId, quantity] of wanted) {
    await consumeOwedUnits(tx, accountId, lineId, warehouseId, quantity, now);
    const line = await tx
      .updateTable('sales_order_lines')
      .set((eb) => ({ shipped_quantity: eb('shipped_quantity', '+', quantity), updated_at: nowIso }))
      .where('account_id', '=', accountId)
      .where('id', '=', lineId)
      .returning('id')
      .executeTakeFirst();
    if (!line) throw invalidArgument(`line item ${lineId} is not a line of this order`);
    await tx.insertInto('sales_order_package_items').values({ account_id: accountId, package_id: packageId, line_id: lineId, quantity }).execute();
  }

  // A new package changes the order's view even when it ships nothing (tracking only).
  const order = await tx
    .updateTable('sales_orders')
    .set({ last_updated_ts: nowIso })
    .where('account_id', '=', accountId)
    .where('id', '=', orderId)
    .returning('storefront_id')
    .executeTakeFirst();
  if (wanted.size > 0) await recomputeOrderStatus(tx, accountId, orderId, now);
  // The storefront that sent the order hears of the package (a seller-created order has none to tell).
  if (order?.storefront_id != null) {
    await emitNudge(
      tx,
      { accountId, eventType: 'ORDER_SHIPPED', installationId: order.storefront_id, objectType: 'ORDER', objectId: String(orderId), version: nowIso },
      now,
    );
  }
  return { packageId, alreadyRecorded: false };
}

/** Units per line this shipment ships, checked against the order's lines (quantities summed per line). */
async function unitsToShip(tx: Tx, input: RecordShipmentInput): Promise<Map<number, number>> {
  const { accountId, orderId, warehouseId } = input;
  const wanted = new Map<number, number>();
  if (input.lines === null) {
    const owed = await tx
      .selectFrom('order_line_routes')
      .select(['line_id', 'reserved_quantity', 'backorder_quantity'])
      .where('account_id', '=', accountId)
      .where('order_id', '=', orderId)
      .where('warehouse_id', '=', warehouseId)
      .orderBy('line_id')
      .execute();
    for (const r of owed) {
      const units = r.reserved_quantity + r.backorder_quantity;
      if (units > 0) wanted.set(Number(r.line_id), units);
    }
    if (wanted.size === 0) throw invalidArgument(`nothing is owed on this order in warehouse ${warehouseId}`);
    return wanted;
  }
  for (const [i, l] of input.lines.entries()) {
    if (!Number.isInteger(l.quantity) || l.quantity < 1) {
      throw invalidField(`lines[${i}].quantity`, `must be an integer of at least 1, got ${l.quantity}`);
    }
    wanted.set(l.lineId, (wanted.get(l.lineId) ?? 0) + l.quantity);
  }
  if (wanted.size === 0) return wanted;
  const lines = await tx
    .selectFrom('sales_order_lines')
    .select('id')
    .where('account_id', '=', accountId)
    .where('order_id', '=', orderId)
    .where('id', 'in', [...wanted.keys()])
    .execute();
  const known = new Set(lines.map((l) => Number(l.id)));
  for (const lineId of wanted.keys()) {
    if (!known.has(lineId)) throw invalidArgument(`line item ${lineId} is not a line of this order`);
  }
  return wanted;
}

/**
 * Takes `quantity` owed units of the line's route in the warehouse (reserved first, then backordered) with a
 * compare-and-set UPDATE, re-reading on a lost race; refuses more than is owed.
 */
async function consumeOwedUnits(tx: Tx, accountId: number, lineId: number, warehouseId: number, quantity: number, now: Date): Promise<void> {
  const nowIso = now.toISOString();
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const route = await tx
      .selectFrom('order_line_routes')
      .select(['id', 'product_id', 'reserved_quantity', 'backorder_quantity'])
      .where('account_id', '=', accountId)
      .where('line_id', '=', lineId)
      .where('warehouse_id', '=', warehouseId)
      .executeTakeFirst();
    const owed = route ? route.reserved_quantity + route.backorder_quantity : 0;
    if (!route || owed < quantity) {
      throw invalidArgument(`line item ${lineId}: ${quantity} units is more than the ${owed} still owed in warehouse ${warehouseId}`);
    }
    const fromReserved = Math.min(route.reserved_quantity, quantity);
    const fromBackorder = quantity - fromReserved;
    const updated = await tx
      .updateTable('order_line_routes')
      .set((eb) => ({
        reserved_quantity: eb('reserved_quantity', '-', fromReserved),
        backorder_quantity: eb('backorder_quantity', '-', fromBackorder),
        shipped_quantity: eb('shipped_quantity', '+', quantity),
        updated_at: nowIso,
      }))
      .where('id', '=', route.id)
      .where('reserved_quantity', '=', route.reserved_quantity)
      .where('backorder_quantity', '=', route.backorder_quantity)
      .returning('id')
      .executeTakeFirst();
    if (!updated) continue;
    // A kit route ships its component-built kits first (kit-routing.ts); the rest leaves the route's own SKU.
    const ownUnits = fromReserved > 0 ? await takeKitComponentUnits(tx, { accountId, routeId: route.id, warehouseId, kits: fromReserved, mode: 'ship', now }) : 0;
    if (ownUnits > 0) await releaseShippedStock(tx, accountId, route.product_id, warehouseId, lineId, ownUnits, now);
    return;
  }
  throw invalidArgument(`line item ${lineId}: the units owed changed while shipping; send the shipment again`);
}

/** Reserved units that left the warehouse: the counters and the ledger let them go. */
async function releaseShippedStock(tx: Tx, accountId: number, productId: number, warehouseId: number, lineId: number, units: number, now: Date) {
  // The route held these units, so the counters hold them too; anything else is a broken invariant.
  if (!(await shipReservedStock(tx, accountId, productId, warehouseId, units, now))) {
    throw new Error(`inventory counters of product ${productId} in warehouse ${warehouseId} do not hold ${units} reserved units`);
  }
  await reduceReservation(tx, accountId, lineId, warehouseId, units);
  await touchProductInventory(tx, accountId, productId, now);
}
