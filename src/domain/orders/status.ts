import type { Tx } from '../../db/tx.js';
import type { OrderStatus } from './model.js';

/**
 * Order and line statuses are DERIVED from quantities and returns (resolutions §6), never set by hand:
 * every change to an order (cancel, shipment, re-route, return, refund, payment) ends with
 * recomputeOrderStatus in the same transaction.
 *
 * Per line (q units, c cancelled, s shipped, r received back):
 * - c = q → CANCELLED;
 * - a refund recorded on the line → REFUNDED;
 * - s > 0, every shipped unit received back and nothing left owed → RETURNED;
 * - an open return (requested, not cancelled, not yet received) names the line → RETURN_REQUESTED;
 * - s + c = q with s ≥ 1 → SHIPPED; s ≥ 1 → PARTIALLY_SHIPPED;
 * - unpaid order → PENDING_PAYMENT; else PENDING.
 * The order, in that precedence: a refund recorded (on a line, or the order-level accounting.refund > 0)
 * → REFUNDED; every non-cancelled line RETURNED → RETURNED; an open return → RETURN_REQUESTED; then the
 * quantities: all lines cancelled → CANCELLED; every unit shipped or cancelled with ≥1 shipped →
 * SHIPPED; some shipped → PARTIALLY_SHIPPED; unpaid → PENDING_PAYMENT; else PENDING.
 */

interface LineState {
  id: number;
  status: string;
  quantity: number;
  cancel_quantity: number;
  shipped_quantity: number;
  returned_quantity: number;
  refund: string | null;
}

function isPositiveDecimal(text: string | null | undefined): boolean {
  return typeof text === 'string' && /^\d+(\.\d+)?$/.test(text) && /[1-9]/.test(text);
}

function lineStatus(line: LineState, paid: boolean, openReturn: boolean): OrderStatus {
  const { quantity: q, cancel_quantity: c, shipped_quantity: s, returned_quantity: r } = line;
  if (c >= q) return 'CANCELLED';
  if (isPositiveDecimal(line.refund)) return 'REFUNDED';
  if (s > 0 && r >= s && s + c >= q) return 'RETURNED';
  if (openReturn) return 'RETURN_REQUESTED';
  if (s > 0 && s + c >= q) return 'SHIPPED';
  if (s > 0) return 'PARTIALLY_SHIPPED';
  return paid ? 'PENDING' : 'PENDING_PAYMENT';
}

function orderStatus(lines: LineState[], statuses: OrderStatus[], paid: boolean, orderRefund: boolean, openReturn: boolean): OrderStatus {
  if (orderRefund || statuses.includes('REFUNDED')) return 'REFUNDED';
  const live = statuses.filter((s) => s !== 'CANCELLED');
  if (live.length > 0 && live.every((s) => s === 'RETURNED')) return 'RETURNED';
  if (openReturn) return 'RETURN_REQUESTED';
  if (lines.length > 0 && live.length === 0) return 'CANCELLED';
  const shipped = lines.reduce((n, l) => n + l.shipped_quantity, 0);
  const settled = lines.every((l) => l.shipped_quantity + l.cancel_quantity >= l.quantity);
  if (shipped > 0 && settled) return 'SHIPPED';
  if (shipped > 0) return 'PARTIALLY_SHIPPED';
  return paid ? 'PENDING' : 'PENDING_PAYMENT';
}

/**
 * Derives and writes every line's status and the order's status. Statuses are written only where they
 * differ; last_updated_ts moves to `now` (never backwards) because callers call this after they changed
 * something on the order. Returns the order's status.
 */
export async function recomputeOrderStatus(tx: Tx, accountId: number, orderId: number, now: Date): Promise<string> {
  const order = await tx
    .selectFrom('sales_orders')
    .select(['status', 'paid', 'accounting', 'last_updated_ts'])
    .where('account_id', '=', accountId)
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const [lines, openReturnLines] = await Promise.all([
    tx
      .selectFrom('sales_order_lines')
      .select(['id', 'status', 'quantity', 'cancel_quantity', 'shipped_quantity', 'returned_quantity', 'refund'])
      .where('account_id', '=', accountId)
      .where('order_id', '=', orderId)
      .orderBy('position')
      .execute(),
    tx
      .selectFrom('sales_order_return_items as i')
      .innerJoin('sales_order_returns as r', 'r.id', 'i.return_id')
      .select('i.line_id')
      .where('r.account_id', '=', accountId)
      .where('i.account_id', '=', accountId)
      .where('r.order_id', '=', orderId)
      .where('r.cancelled', '=', 0)
      .where('r.received_ts', 'is', null)
      .execute(),
  ]);
  const paid = order.paid === 1;
  const openLines = new Set(openReturnLines.map((r) => r.line_id));
  const statuses = lines.map((l) => lineStatus(l, paid, openLines.has(l.id)));
  const accounting = order.accounting === null ? null : (JSON.parse(order.accounting) as Record<string, string | null>);
  const status = orderStatus(lines, statuses, paid, isPositiveDecimal(accounting?.refund), openLines.size > 0);

  const iso = now.toISOString();
  for (const [i, line] of lines.entries()) {
    if (line.status === statuses[i]) continue;
    await tx
      .updateTable('sales_order_lines')
      .set({ status: statuses[i]!, updated_at: iso })
      .where('account_id', '=', accountId)
      .where('id', '=', line.id)
      .execute();
  }
  await tx
    .updateTable('sales_orders')
    .set({ status, ...(iso > order.last_updated_ts ? { last_updated_ts: iso } : {}) })
    .where('account_id', '=', accountId)
    .where('id', '=', orderId)
    .execute();
  return status;
}
