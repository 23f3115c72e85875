import type { Db } from '../../db/tx.js';
import { accountingFacts, orderRefundTotal, orderTotal } from './refund-totals.js';

/**
 * What an order's refunds add up to, from the stored decimal strings (the v1 view's numbers are for JSON,
 * not for arithmetic): the console shows it beside the lines, and it agrees with the v1 accounting.refund
 * and with what decides REFUNDED (resolutions §6, third review).
 */
export interface OrderRefunds {
  /** accounting.refund as recorded on the order itself; null when none. */
  orderLevel: string | null;
  /** Σ of the lines' refunds; null when no line has one. */
  lines: string | null;
  /** orderLevel + lines; null when nothing was refunded. */
  total: string | null;
  /** The order's total (accounting.payment, else Σ quantity × unitPrice); null when unknown. */
  orderTotal: string | null;
}

export async function readOrderRefunds(db: Db, accountId: number, orderId: number): Promise<OrderRefunds> {
  const [order, lines] = await Promise.all([
    db.selectFrom('sales_orders').select('accounting').where('account_id', '=', accountId).where('id', '=', orderId).executeTakeFirstOrThrow(),
    db.selectFrom('sales_order_lines').select(['quantity', 'unit_price', 'refund']).where('account_id', '=', accountId).where('order_id', '=', orderId).execute(),
  ]);
  const { payment, orderRefund } = accountingFacts(order.accounting);
  const lineRefunds = lines.map((l) => l.refund);
  return {
    orderLevel: orderRefund,
    lines: orderRefundTotal(null, lineRefunds),
    total: orderRefundTotal(orderRefund, lineRefunds),
    orderTotal: orderTotal(payment, lines.map((l) => ({ quantity: l.quantity, unitPrice: l.unit_price }))),
  };
}
