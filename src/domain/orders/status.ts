import type { Tx } from '../../db/tx.js';
import type { OrderStatus } from './model.js';
import { trackOrderClosing } from './closing.js';
import { countOrderInDayFigures } from './order-day-figures.js';
import { orderSortTotal } from './order-search.js';
import { accountingFacts, lineTotal, orderRefundTotal, orderTotal, refundsCover } from './refund-totals.js';

/**
 * Order and line statuses are DERIVED from quantities, returns and refunds (resolutions §6, third review),
 * never set by hand: every change to an order (cancel, shipment, re-route, return, refund, payment) ends
 * with recomputeOrderStatus in the same transaction.
 *
 * Fulfillment comes first. While any unit is still owed (ordered, neither shipped nor cancelled) the status
 * says only how far fulfillment got: some shipped → PARTIALLY_SHIPPED; unpaid → PENDING_PAYMENT; else
 * PENDING. A refund or a return then changes nothing: the owed units stay reserved and in the shipper's
 * queue (need_to_ship reads fulfillment orders, never this status), and a seller filtering on PENDING
 * still finds the work. Once nothing is owed, the after-sale states apply, first match wins:
 *   an open return (requested, not cancelled, not yet received) → RETURN_REQUESTED;
 *   at least one unit shipped and every shipped unit received back → RETURNED;
 *   refunds adding up to the total (refund-totals.ts) → REFUNDED;
 *   every unit cancelled → CANCELLED; otherwise SHIPPED.
 * For the order the refunds are its refund total (order-level + every line's refund) against the order's
 * total; for a line, the line's refund against quantity × unitPrice. A line that still owes units is
 * never RETURN_REQUESTED, RETURNED or REFUNDED either.
 *
 * The derivation is pure (deriveStatuses) so migration 025 can apply the same rule to stored orders.
 */

export interface LineFacts {
  quantity: number;
  cancelQuantity: number;
  shippedQuantity: number;
  /** Units received back on returns. */
  returnedQuantity: number;
  unitPrice: string | null;
  refund: string | null;
  /** An open return (requested, not cancelled, not yet received) names this line. */
  onOpenReturn: boolean;
}

export interface OrderFacts {
  paid: boolean;
  /** accounting.payment: the order's total when the channel sent it. */
  payment: string | null;
  /** accounting.refund: the order-level refund. */
  orderRefund: string | null;
  lines: readonly LineFacts[];
}

export interface DerivedStatuses {
  order: OrderStatus;
  /** In the order of OrderFacts.lines. */
  lines: OrderStatus[];
}

/** Units of the line neither shipped nor cancelled: what a warehouse still owes. */
export function owedUnits(line: Pick<LineFacts, 'quantity' | 'cancelQuantity' | 'shippedQuantity'>): number {
  return Math.max(0, line.quantity - line.cancelQuantity - line.shippedQuantity);
}

interface Settled {
  openReturn: boolean;
  shipped: number;
  allReturned: boolean;
  refunded: boolean;
  allCancelled: boolean;
}

/** The after-sale precedence, for an order or a line that owes nothing. */
function settledStatus(s: Settled): OrderStatus {
  if (s.openReturn) return 'RETURN_REQUESTED';
  if (s.shipped > 0 && s.allReturned) return 'RETURNED';
  if (s.refunded) return 'REFUNDED';
  if (s.allCancelled) return 'CANCELLED';
  return 'SHIPPED';
}

function fulfillmentStatus(shipped: number, paid: boolean): OrderStatus {
  if (shipped > 0) return 'PARTIALLY_SHIPPED';
  return paid ? 'PENDING' : 'PENDING_PAYMENT';
}

export function deriveLineStatus(line: LineFacts, paid: boolean): OrderStatus {
  if (owedUnits(line) > 0) return fulfillmentStatus(line.shippedQuantity, paid);
  return settledStatus({
    openReturn: line.onOpenReturn,
    shipped: line.shippedQuantity,
    allReturned: line.returnedQuantity >= line.shippedQuantity,
    refunded: refundsCover(line.refund, lineTotal(line)),
    allCancelled: line.cancelQuantity >= line.quantity,
  });
}

export function deriveOrderStatus(order: OrderFacts): OrderStatus {
  const { lines, paid } = order;
  // Creation refuses an order without lines; were one stored, it would have nothing to fulfil or settle.
  if (lines.length === 0) return paid ? 'PENDING' : 'PENDING_PAYMENT';
  const shipped = lines.reduce((n, l) => n + l.shippedQuantity, 0);
  if (lines.some((l) => owedUnits(l) > 0)) return fulfillmentStatus(shipped, paid);
  return settledStatus({
    openReturn: lines.some((l) => l.onOpenReturn),
    shipped,
    allReturned: lines.every((l) => l.returnedQuantity >= l.shippedQuantity),
    refunded: refundsCover(orderRefundTotal(order.orderRefund, lines.map((l) => l.refund)), orderTotal(order.payment, lines)),
    allCancelled: lines.every((l) => l.cancelQuantity >= l.quantity),
  });
}

export function deriveStatuses(order: OrderFacts): DerivedStatuses {
  return { order: deriveOrderStatus(order), lines: order.lines.map((l) => deriveLineStatus(l, order.paid)) };
}

/**
 * Derives and writes every line's status and the order's status. Statuses are written only where they
 * differ; last_updated_ts moves to `now` (never backwards) because callers call this after they changed
 * something on the order. Returns the order's status.
 */
export async function recomputeOrderStatus(tx: Tx, accountId: number, orderId: number, now: Date): Promise<string> {
  const order = await tx
    .selectFrom('sales_orders')
    .select(['status', 'paid', 'accounting', 'last_updated_ts', 'order_ts'])
    .where('account_id', '=', accountId)
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const [lines, openReturnLines] = await Promise.all([
    tx
      .selectFrom('sales_order_lines')
      .select(['id', 'status', 'quantity', 'cancel_quantity', 'shipped_quantity', 'returned_quantity', 'unit_price', 'refund'])
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
  const openLines = new Set(openReturnLines.map((r) => r.line_id));
  const derived = deriveStatuses({
    paid: order.paid === 1,
    ...accountingFacts(order.accounting),
    lines: lines.map((l) => ({
      quantity: l.quantity,
      cancelQuantity: l.cancel_quantity,
      shippedQuantity: l.shipped_quantity,
      returnedQuantity: l.returned_quantity,
      unitPrice: l.unit_price,
      refund: l.refund,
      onOpenReturn: openLines.has(l.id),
    })),
  });

  const iso = now.toISOString();
  for (const [i, line] of lines.entries()) {
    if (line.status === derived.lines[i]) continue;
    await tx
      .updateTable('sales_order_lines')
      .set({ status: derived.lines[i]!, updated_at: iso })
      .where('account_id', '=', accountId)
      .where('id', '=', line.id)
      .execute();
  }
  if ((order.status === 'CANCELLED') !== (derived.order === 'CANCELLED')) {
    // The home chart's rollup leaves out orders cancelled in full (order-day-figures.ts). The move is taken
    // only by the transaction whose conditional UPDATE still finds the status it read: on PostgreSQL a parallel
    // recompute of the same order waits for this row and then finds it moved, so the order is counted once.
    const moved = await tx
      .updateTable('sales_orders')
      .set({ status: derived.order })
      .where('account_id', '=', accountId)
      .where('id', '=', orderId)
      .where('status', '=', order.status)
      .returning('id')
      .executeTakeFirst();
    if (moved) {
      const total = orderSortTotal(lines.map((l) => ({ requested_sku: '', sku: null, quantity: l.quantity, unit_price: l.unit_price })));
      await countOrderInDayFigures(tx, accountId, order.order_ts, total, derived.order === 'CANCELLED' ? -1 : 1);
    }
  }
  // The personal-data retention counts from the closing event (closing.ts).
  await trackOrderClosing(tx, accountId, orderId, order.status, derived.order, now);
  await tx
    .updateTable('sales_orders')
    .set({ status: derived.order, ...(iso > order.last_updated_ts ? { last_updated_ts: iso } : {}) })
    .where('account_id', '=', accountId)
    .where('id', '=', orderId)
    .execute();
  return derived.order;
}
