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
