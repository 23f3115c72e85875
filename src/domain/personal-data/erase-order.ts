import type { Tx } from '../../db/tx.js';
import { recordPersonalDataAudit } from './audit.js';
import { isClosedStatus } from '../orders/closing.js';
import { redactOrders } from './redact.js';

export type OrderErasure = 'redacted' | 'pending' | 'already-redacted';

/**
 * Records the erasure of open orders, redacted by the sweep once they close (personal_data_erasures is
 * durable: a restart forgets nothing). Returns how many were newly recorded.
 */
export async function recordPendingErasures(tx: Tx, accountId: number, orderIds: readonly number[], requestedBy: string, now: Date): Promise<void> {
  if (orderIds.length === 0) return;
  await tx
    .insertInto('personal_data_erasures')
    .values(orderIds.map((orderId) => ({ account_id: accountId, order_id: orderId, requested_ts: now.toISOString(), requested_by: requestedBy })))
    .onConflict((oc) => oc.columns(['account_id', 'order_id']).doNothing())
    .execute();
}

/**
 * Erases one order's personal data on request (the console's per-order action): a closed order at once, an
 * open one recorded and redacted when it closes. Null for an order the account does not have. Writes the
 * audit entry in the same transaction.
 */
export async function eraseOrderPersonalData(tx: Tx, accountId: number, orderId: number, requestedBy: string, now: Date): Promise<OrderErasure | null> {
  const order = await tx
    .selectFrom('sales_orders')
    .select(['status', 'personal_data_redacted_ts'])
    .where('account_id', '=', accountId)
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order) return null;
  if (order.personal_data_redacted_ts !== null) return 'already-redacted';
  const closed = isClosedStatus(order.status);
  if (closed) await redactOrders(tx, accountId, [orderId], now);
  else await recordPendingErasures(tx, accountId, [orderId], requestedBy, now);
  await recordPersonalDataAudit(tx, { accountId, action: 'ERASE_ORDER', requestedBy, redactedOrders: closed ? 1 : 0, pendingOrders: closed ? 0 : 1 }, now);
  return closed ? 'redacted' : 'pending';
}
