import type { Tx } from '../../db/tx.js';
import { enqueueJob } from '../../db/outbox.js';
import { cancelOrderUnits } from './cancel.js';
import type { FulfillmentPort } from './fulfillment-port.js';

/**
 * Unpaid orders expire (resolutions §6): an order still PENDING_PAYMENT and unpaid 30 days after its
 * orderTs is cancelled and its reservation released.
 *
 * How: creating a PENDING_PAYMENT order enqueues, in the same transaction, one delayed job per order
 * (type orders.expire-unpaid, run_at = orderTs + 30 days, dedupe key order.expire:<id>), so the operator
 * sees each pending expiry in the jobs list and nothing scans the orders table. The job re-checks the
 * order in its own transaction: an order paid (markPaid), shipped or cancelled meanwhile is left alone,
 * and a second run finds nothing to do. An order whose orderTs is already 30 days old expires at once.
 */
export const UNPAID_ORDER_LIFETIME_MS = 30 * 24 * 60 * 60_000;
export const UNPAID_EXPIRY_REASON = 'Payment not received within 30 days';
export const EXPIRE_UNPAID_ORDER = 'orders.expire-unpaid';

export interface ExpiryPayload {
  orderId: number;
}

/** Called by order creation for a PENDING_PAYMENT order. */
export async function scheduleUnpaidExpiry(tx: Tx, accountId: number, orderId: number, orderTs: string, now: Date): Promise<void> {
  await enqueueJob(
    tx,
    {
      type: EXPIRE_UNPAID_ORDER,
      accountId,
      payload: { orderId } satisfies ExpiryPayload,
      runAt: new Date(Date.parse(orderTs) + UNPAID_ORDER_LIFETIME_MS),
      dedupeKey: `order.expire:${orderId}`,
    },
    now,
  );
}

/** Cancels the order when it is still due; true when it was cancelled. */
export async function expireUnpaidOrder(tx: Tx, accountId: number, orderId: number, now: Date, fulfillment: FulfillmentPort): Promise<boolean> {
  // A no-op conditional UPDATE that locks the row (PostgreSQL): a markPaid committing meanwhile is seen
  // here, so a paid order is never cancelled.
  const order = await tx
    .updateTable('sales_orders')
    .set((eb) => ({ status: eb.ref('status') }))
    .where('account_id', '=', accountId)
    .where('id', '=', orderId)
    .where('status', '=', 'PENDING_PAYMENT')
    .where('paid', '=', 0)
    .returning(['order_ts'])
    .executeTakeFirst();
  if (!order) return false;
  if (Date.parse(order.order_ts) + UNPAID_ORDER_LIFETIME_MS > now.getTime()) return false;
  await cancelOrderUnits(tx, {
    accountId,
    orderId,
    lines: null,
    reason: UNPAID_EXPIRY_REASON,
    fulfillmentReason: 'CANCELLATION_REASON_MERCHANT_CANCELLED',
    linesField: 'lineItems',
    now,
    fulfillment,
  });
  return true;
}
