import type { Db, Tx } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { failedPrecondition, invalidField } from '../errors.js';
import { findVisibleOrder } from './find-order.js';
import { recomputeOrderStatus } from './status.js';
import { orderViews, type SalesOrderV1 } from './view.js';

/** The channel's small writes on one order (resolutions §3): accept, markPaid, confirmStatus. */

/** GET /v1/salesOrder/{orderNumber}: the order as the caller may see it (404 otherwise). */
export async function getSalesOrder(db: Db, principal: Principal, orderNumber: string): Promise<SalesOrderV1> {
  const { order, scope } = await findVisibleOrder(db, principal, orderNumber);
  return (await orderViews(db, principal, [order], scope))[0]!;
}

const viewOf = getSalesOrder;

/**
 * POST /v1/salesOrder/accept/{orderNumber}: records the channel's acceptance once (acceptedTs); a repeat
 * changes nothing. A cancelled order can no longer be accepted.
 */
export async function acceptOrder(tx: Tx, principal: Principal, orderNumber: string, now: Date): Promise<SalesOrderV1> {
  const { order } = await findVisibleOrder(tx, principal, orderNumber);
  if (order.accepted_ts === null) {
    if (order.status === 'CANCELLED') throw failedPrecondition(`sales order ${orderNumber} is CANCELLED and can no longer be accepted`);
    const iso = now.toISOString();
    await tx
      .updateTable('sales_orders')
      .set({ accepted_ts: iso, last_updated_ts: iso })
      .where('account_id', '=', principal.accountId)
      .where('id', '=', order.id)
      .where('accepted_ts', 'is', null)
      .execute();
  }
  return viewOf(tx, principal, orderNumber);
}

/** POST /v1/salesOrder/markPaid/{orderNumber}: PENDING_PAYMENT → PENDING; already PENDING → no-op; else 400. */
export async function markOrderPaid(tx: Tx, principal: Principal, orderNumber: string, now: Date): Promise<SalesOrderV1> {
  const { order } = await findVisibleOrder(tx, principal, orderNumber);
  if (order.status === 'PENDING_PAYMENT') {
    const iso = now.toISOString();
    // Only the payment facts are written here; the order's and lines' statuses (and last_updated_ts) are
    // derived by recomputeOrderStatus like after any other change. The conditional UPDATE makes a
    // concurrent second markPaid a no-op. Reservations stay: PENDING and PENDING_PAYMENT both hold stock.
    const moved = await tx
      .updateTable('sales_orders')
      .set({ paid: 1, paid_ts: iso })
      .where('account_id', '=', principal.accountId)
      .where('id', '=', order.id)
      .where('status', '=', 'PENDING_PAYMENT')
      .where('paid', '=', 0)
      .returning('id')
      .executeTakeFirst();
    if (moved) await recomputeOrderStatus(tx, principal.accountId, order.id, now);
  } else if (order.status !== 'PENDING') {
    throw failedPrecondition(`sales order ${orderNumber} is ${order.status}; only a PENDING_PAYMENT order can be marked paid`).because('order.not_awaiting_payment', {
      status: order.status,
    });
  }
  return viewOf(tx, principal, orderNumber);
}

/**
 * POST /v1/salesOrder/{orderNumber}/confirmStatus: records that the channel received a status change the
 * service started (document 6.2); it changes no state. The line items must be lines of the order.
 */
export async function confirmOrderStatus(
  tx: Tx,
  principal: Principal,
  orderNumber: string,
  input: { status: string; lineItems: string[] },
  now: Date,
): Promise<'OK'> {
  const { order } = await findVisibleOrder(tx, principal, orderNumber);
  const lines = await tx
    .selectFrom('sales_order_lines')
    .select('id')
    .where('account_id', '=', principal.accountId)
    .where('order_id', '=', order.id)
    .execute();
  const known = new Set(lines.map((l) => String(l.id)));
  const unknown = input.lineItems.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw invalidField('lineItems', `not line items of sales order ${orderNumber}: ${unknown.join(', ')}`);
  }
  await tx
    .insertInto('sales_order_status_confirmations')
    .values({
      account_id: principal.accountId,
      order_id: order.id,
      token_id: principal.tokenId,
      status: input.status,
      line_items: JSON.stringify(input.lineItems),
      confirmed_at: now.toISOString(),
    })
    .execute();
  return 'OK';
}
