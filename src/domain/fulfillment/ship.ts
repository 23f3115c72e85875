import type { Tx } from '../../db/tx.js';
import { add, isPlainDecimal, normalizeDecimal } from '../../lib/decimal.js';
import type { Principal } from '../accounts/principal.js';
import { failedPrecondition, invalidArgument, notFound } from '../errors.js';
import { recordShipment } from '../orders/shipments.js';
import { findOwnFulfillmentOrder, parseFulfillmentOrderId, touchFulfillmentOrder, WITHDRAWN_MESSAGE } from './access.js';

export interface ShipmentEntry {
  fulfillmentOrderId: unknown;
  externalShipmentId: string | null;
  carrier: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
  serviceLevel: string | null;
  /** Already parsed; null = now. Not before the order's orderTs nor more than a day ahead (ship-date.ts). */
  shippedTs: Date | null;
  /** Where the entry is in the request (`shipments[1]`), so a refused shippedTs names it. */
  field?: string;
  /** null or [] = everything still owed on the fulfillment order. */
  lines: { lineItemId: unknown; quantity: unknown }[] | null;
  shippingCost: { amount?: unknown } | null;
  handlingCost: { amount?: unknown } | null;
}

function amountOf(field: string, money: { amount?: unknown } | null): string | null {
  const raw = money?.amount;
  if (raw === undefined || raw === null || raw === '') return null;
  const text = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
  if (typeof text !== 'string' || !isPlainDecimal(text.trim())) throw invalidArgument(`${field}.amount must be a decimal string`);
  return normalizeDecimal(text.trim());
}

/**
 * One v2 shipment (resolutions §4) recorded through the orders area's recordShipment, so v1 and v2
 * shipments are one truth. It ships only from the fulfillment order's own warehouse, so a shipment never
 * spans two fulfillment orders; its externalShipmentId is the replay key (a replay answers alreadyRecorded
 * and changes nothing; the same id on another fulfillment order of the order fails). A rejected order
 * cannot ship. Package cost = shippingCost + handlingCost.
 */
export async function shipFulfillmentOrder(tx: Tx, principal: Principal, entry: ShipmentEntry, now: Date): Promise<{ alreadyRecorded: boolean }> {
  const id = parseFulfillmentOrderId(entry.fulfillmentOrderId);
  const fo = id === null ? null : await findOwnFulfillmentOrder(tx, principal, { id });
  if (!fo) throw notFound(`fulfillment order ${String(entry.fulfillmentOrderId ?? '')} not found`);
  const externalShipmentId = entry.externalShipmentId?.trim() ?? '';
  if (externalShipmentId === '') throw invalidArgument('externalShipmentId is required: your id for this shipment (the replay key)');
  const trackingNumber = entry.trackingNumber?.trim() ?? '';
  if (trackingNumber === '') throw invalidArgument('trackingNumber is required');
  const serviceLevel = entry.serviceLevel?.trim() ?? '';
  if (serviceLevel === '') throw invalidArgument('serviceLevel is required');

  const earlier = await tx
    .selectFrom('sales_order_packages')
    .select('warehouse_id')
    .where('account_id', '=', fo.account_id)
    .where('order_id', '=', fo.order_id)
    .where('external_package_id', '=', externalShipmentId)
    .executeTakeFirst();
  if (earlier && earlier.warehouse_id !== fo.warehouse_id) {
    throw failedPrecondition(`externalShipmentId "${externalShipmentId}" was already used for another shipment of this order`);
  }
  if (!earlier && fo.status === 'REJECTED') throw failedPrecondition('the fulfillment order was rejected; nothing is owed on it');
  if (!earlier && fo.status === 'WITHDRAWN') throw failedPrecondition(WITHDRAWN_MESSAGE);

  let lines: { lineId: number; quantity: number }[] | null = null;
  if (entry.lines !== null && entry.lines.length > 0) {
    lines = entry.lines.map((l, i) => {
      const lineItemId = typeof l.lineItemId === 'number' ? String(l.lineItemId) : l.lineItemId;
      if (typeof lineItemId !== 'string' || !/^\d{1,15}$/.test(lineItemId)) {
        throw invalidArgument(`lines[${i}].lineItemId ${JSON.stringify(l.lineItemId ?? '')} is not a line of this fulfillment order (a SKU is not accepted)`);
      }
      const quantity = typeof l.quantity === 'string' && /^-?\d+$/.test(l.quantity) ? Number(l.quantity) : l.quantity;
      if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1) {
        throw invalidArgument(`lines[${i}].quantity must be an integer of at least 1`);
      }
      return { lineId: Number(lineItemId), quantity };
    });
  }
  const shipping = amountOf('shippingCost', entry.shippingCost);
  const handling = amountOf('handlingCost', entry.handlingCost);
  const cost = shipping !== null && handling !== null ? add(shipping, handling) : (shipping ?? handling);

  const result = await recordShipment(tx, {
    accountId: fo.account_id,
    orderId: fo.order_id,
    warehouseId: fo.warehouse_id,
    externalPackageId: externalShipmentId,
    source: 'V2',
    carrier: entry.carrier?.trim() || null,
    serviceLevel,
    tracking: trackingNumber,
    trackingUrl: entry.trackingUrl ?? null,
    shippedTs: entry.shippedTs ?? now,
    ...(entry.field ? { fieldPrefix: entry.field } : {}),
    cost,
    lines,
    now,
  });
  if (!result.alreadyRecorded) await touchFulfillmentOrder(tx, fo.account_id, fo.id, now);
  return { alreadyRecorded: result.alreadyRecorded };
}
