import type { RefusalSentences } from '../../refusal-sentences.js';

/**
 * The order pages' statuses and reasons in a seller's words: one mapping per enum the API uses, so no raw
 * enum (PENDING_PAYMENT, ALERT_TYPE_FULFILL, REJECTION_REASON_DAMAGED…) reaches the page. A value the
 * mapping does not know yet reads as its words in lower case rather than as the enum.
 */

function fallback(value: string, prefix = ''): string {
  const words = value.replace(prefix, '').replace(/_/g, ' ').toLowerCase().trim();
  return words === '' ? 'unknown' : words.charAt(0).toUpperCase() + words.slice(1);
}

const ORDER_STATUS: Record<string, string> = {
  PENDING: 'To ship',
  PENDING_PAYMENT: 'Awaiting payment',
  PARTIALLY_SHIPPED: 'Partly shipped',
  SHIPPED: 'Shipped',
  CANCELLED: 'Cancelled',
  RETURN_REQUESTED: 'Return requested',
  RETURNED: 'Returned',
  REFUNDED: 'Refunded',
};

/** An order's or a line's status (resolutions §6). */
export const orderStatusText = (status: string): string => ORDER_STATUS[status] ?? fallback(status);

const FULFILLMENT_STATUS: Record<string, string> = {
  NEW: 'Sent, not yet accepted',
  ACCEPTED: 'Accepted by the shipper',
  PARTIALLY_SHIPPED: 'Partly shipped',
  SHIPPED: 'Shipped',
  CANCELLED: 'Cancelled',
  PARTIALLY_CANCELLED: 'Partly cancelled',
  REJECTED: 'Rejected by the shipper',
  UNSPECIFIED: 'Unknown',
};

/** A fulfillment order's status (FULFILLMENT_ORDER_STATUS_*). */
export const fulfillmentStatusText = (status: string): string => {
  const short = status.replace('FULFILLMENT_ORDER_STATUS_', '');
  return FULFILLMENT_STATUS[short] ?? fallback(short);
};

const ALERT_TYPE: Record<string, string> = {
  ALERT_TYPE_FULFILL: 'Cannot be fulfilled',
  ALERT_TYPE_LATE_SHIPMENT: 'Late shipment',
  ALERT_TYPE_LOST: 'Lost in transit',
  ALERT_TYPE_OTHER: 'Other problem',
  ALERT_TYPE_UNSPECIFIED: 'Problem',
  UNROUTABLE_LINE: 'Line not sent to a warehouse',
};

export const alertTypeText = (type: string): string => ALERT_TYPE[type] ?? fallback(type, 'ALERT_TYPE_');

const ALERT_STATUS: Record<string, string> = { OPEN: 'Open', RESOLVED: 'Resolved' };

export const alertStatusText = (status: string): string => ALERT_STATUS[status] ?? fallback(status);

const REJECTION_REASON: Record<string, string> = {
  REJECTION_REASON_DAMAGED: 'Damaged',
  REJECTION_REASON_OUT_OF_STOCK: 'Out of stock',
  REJECTION_REASON_SKU_NOT_FOUND: 'SKU unknown to the shipper',
  REJECTION_REASON_UNDELIVERABLE_ADDRESS: 'Address cannot be delivered to',
  REJECTION_REASON_OTHER: 'Other reason',
  REJECTION_REASON_UNSPECIFIED: 'No reason given',
};

/** A shipper's rejection reason, with its detail when there is one. */
export function rejectionText(reason: string | null, detail: string | null): string {
  if (!reason) return '–';
  const text = REJECTION_REASON[reason] ?? fallback(reason, 'REJECTION_REASON_');
  return detail ? `${text}: ${detail}` : text;
}

/** Words of an enum-like value inside a service message (the rejection reason in an alert's text). */
export function messageInWords(message: string): string {
  return message.replace(/\bREJECTION_REASON_[A-Z_]+\b/g, (m) => (REJECTION_REASON[m] ?? fallback(m, 'REJECTION_REASON_')).toLowerCase());
}

const units = (n: number) => `${n} unit${n === 1 ? '' : 's'}`;
const OTHER_WAREHOUSE = 'That warehouse is not one of yours. Pick a warehouse from the list.';

/** The order page's refusals (cancel, re-route, mark paid, returns, refunds, alerts) in the seller's words. */
export const ORDER_REFUSALS: RefusalSentences<'order'> = {
  'order.not_found': () => 'There is no such order in your account. Find it under Orders by its number, channel order id or customer.',
  'order.not_a_line': () => 'That item is not on this order (the page may be out of date). Reload the order and try again.',
  'order.cancel_too_many': ({ sku, asked, left }) =>
    left === 0
      ? `Nothing is left to cancel of ${sku}: its units shipped or were cancelled already.`
      : `Only ${units(left)} of ${sku} can still be cancelled, not ${asked} (the rest shipped or were cancelled already). Cancel ${left} or fewer.`,
  'order.changed_meanwhile': () => 'The units changed while you were on the page (shipped or cancelled). Reload the order to see them as they are now, then try again.',
  'order.nothing_to_cancel': () => 'Nothing is left to cancel on this order: shipped units cannot be cancelled. To take units back, record a return.',
  'order.reroute_same_warehouse': () => 'The units are already in that warehouse. Pick another warehouse to move them to.',
  'order.reroute_unknown_warehouse': () => OTHER_WAREHOUSE,
  'order.reroute_channel_warehouse': ({ warehouse }) =>
    `${warehouse} ships only orders the sales channel fulfils itself, and this order is not one of them. Pick another warehouse.`,
  'order.reroute_rejected_there': ({ warehouse }) => `The shipper of ${warehouse} already rejected this order. Pick another warehouse.`,
  'order.reroute_too_many': ({ sku, warehouse, asked, owed }) =>
    `Only ${units(owed)} of ${sku} wait in ${warehouse}, so ${asked} cannot move. Move ${owed} or fewer.`,
  'order.reroute_not_enough_stock': ({ sku, warehouse, asked }) =>
    `${warehouse} does not have ${units(asked)} of ${sku} available. Add stock there first, move fewer units, or pick another warehouse.`,
  'order.not_awaiting_payment': ({ status }) => `This order is not awaiting payment (it is ${orderStatusText(status).toLowerCase()}), so there is nothing to mark paid.`,
  'order.return_too_many': ({ sku, asked, left }) =>
    left <= 0
      ? `No shipped unit of ${sku} is left to return: units must ship before they come back, and units already on a return count.`
      : `Only ${units(left)} of ${sku} can still be returned, not ${asked}: units must ship before they come back, and units already on a return count. Return ${left} or fewer.`,
  'order.amount_not_a_number': () => 'Type the amount as a number, like 12.50.',
  'order.amount_not_positive': () => 'The amount must be more than zero.',
  'order.reason_missing': () => 'Say why in the reason box, then try again.',
  'order.return_closed': () => 'This return was closed without being received, so it cannot be received now. Record a new return if the units came back.',
  'order.restock_unknown_warehouse': () => 'That warehouse is not one of yours. Choose one from the list, or not to put the units back in stock.',
  'order.restock_controlled_by_app': ({ warehouse }) =>
    `The stock of ${warehouse} is kept by the inventory or 3PL app connected to it. Put the units back in another warehouse, or receive the return without restocking and let that app count them.`,
  'order.restock_not_in_catalog': ({ sku }) =>
    `${sku} is not in your catalog, so its units cannot go back in stock. Receive the return without restocking, or add the product under Catalog first.`,
  'order.return_received_otherwise': ({ restockedIn }) =>
    restockedIn === null
      ? 'This return was already received without putting its units back in stock; receiving it again changes nothing.'
      : `This return was already received and its units went back in stock at ${restockedIn}; receiving it again changes nothing.`,
  'order.return_not_found': () => 'That return is not on this order. Reload the order to see its returns.',
  'order.alert_not_found': () => 'That alert is not on this order any more. Reload the order to see its alerts.',
};
