/** Fulfillment vocabulary (document 2.18, 3.5–3.7; resolutions §4, §6). */

export const FULFILLMENT_ORDER_STATUSES = [
  'FULFILLMENT_ORDER_STATUS_UNSPECIFIED',
  'FULFILLMENT_ORDER_STATUS_NEW',
  'FULFILLMENT_ORDER_STATUS_ACCEPTED',
  'FULFILLMENT_ORDER_STATUS_PARTIALLY_SHIPPED',
  'FULFILLMENT_ORDER_STATUS_SHIPPED',
  'FULFILLMENT_ORDER_STATUS_CANCELLED',
  'FULFILLMENT_ORDER_STATUS_PARTIALLY_CANCELLED',
  'FULFILLMENT_ORDER_STATUS_REJECTED',
] as const;
export type FulfillmentOrderStatus = (typeof FULFILLMENT_ORDER_STATUSES)[number];

/** Proto enum order: index = enum number (proto3 JSON input may send numbers). */
export const REJECTION_REASONS = [
  'REJECTION_REASON_UNSPECIFIED',
  'REJECTION_REASON_OUT_OF_STOCK',
  'REJECTION_REASON_DAMAGED',
  'REJECTION_REASON_UNDELIVERABLE_ADDRESS',
  'REJECTION_REASON_SKU_NOT_FOUND',
  'REJECTION_REASON_OTHER',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export const ALERT_TYPES = [
  'ALERT_TYPE_UNSPECIFIED',
  'ALERT_TYPE_FULFILL',
  'ALERT_TYPE_LATE_SHIPMENT',
  'ALERT_TYPE_LOST',
  'ALERT_TYPE_OTHER',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

/** Quantities of one fulfillment order, summed over the routes of its (order, warehouse). */
export interface RouteTotals {
  owed: number;
  shipped: number;
  cancelled: number;
}

/**
 * The status shown to the partner. Only NEW / ACCEPTED / REJECTED / WITHDRAWN are stored; the rest is derived
 * from the routes so that it can never disagree with need_to_ship (3.5: "informational only"). WITHDRAWN (the
 * seller unmapped the warehouse from the integration, or uninstalled it) reads as cancelled: the work was
 * taken back from this integration, whatever the warehouse's next integration does with the units.
 */
export function derivedStatus(stored: string, totals: RouteTotals): FulfillmentOrderStatus {
  if (stored === 'REJECTED') return 'FULFILLMENT_ORDER_STATUS_REJECTED';
  if (stored === 'WITHDRAWN') return 'FULFILLMENT_ORDER_STATUS_CANCELLED';
  if (totals.owed === 0) return totals.shipped > 0 ? 'FULFILLMENT_ORDER_STATUS_SHIPPED' : 'FULFILLMENT_ORDER_STATUS_CANCELLED';
  if (totals.shipped > 0) return 'FULFILLMENT_ORDER_STATUS_PARTIALLY_SHIPPED';
  if (totals.cancelled > 0) return 'FULFILLMENT_ORDER_STATUS_PARTIALLY_CANCELLED';
  return stored === 'ACCEPTED' ? 'FULFILLMENT_ORDER_STATUS_ACCEPTED' : 'FULFILLMENT_ORDER_STATUS_NEW';
}

/** Orders carry no currency (document 2.10); every v2 Money amount is reported in this one. */
export const ORDER_CURRENCY = 'USD';
