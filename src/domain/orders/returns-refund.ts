import type { Tx } from '../../db/tx.js';
import { invalidField } from '../errors.js';
import { add } from '../../lib/decimal.js';
import { decimalInput } from '../decimal-input.js';
import { recomputeOrderStatus } from './status.js';

/**
 * Refunds recorded by the seller (operator API): on a line they add to the line's refund and set its
 * refundReason (document 2.10 line fields); without a line they add to the order-level refund kept in the
 * stored accounting.refund (the reason is kept beside it, the 2.10 shape has no order-level field for it).
 * The views show the order's refund total, order-level plus lines (refund-totals.ts); the status becomes
 * REFUNDED only when that total reaches the order's total and nothing is owed (status.ts, resolutions §6).
 * Amounts are decimal strings added exactly, never as floats.
 */

export interface RefundInput {
  lineId?: number | undefined;
  amount: string;
  reason: string;
}

export async function recordRefund(tx: Tx, accountId: number, orderId: number, input: RefundInput, now: Date): Promise<void> {
  if (typeof input.amount !== 'string') throw invalidField('amount', 'must be a decimal string, e.g. "12.50"').because('order.amount_not_a_number', {});
  const amount = decimalInput('amount', input.amount)!;
  if (amount.startsWith('-') || amount === '0') throw invalidField('amount', 'must be greater than zero').because('order.amount_not_positive', {});
  const reason = input.reason.trim();
  if (reason === '') throw invalidField('reason', 'must not be empty').because('order.reason_missing', {});
  const iso = now.toISOString();
  if (input.lineId !== undefined) {
    const line = await tx
      .selectFrom('sales_order_lines')
      .select(['id', 'refund'])
      .where('account_id', '=', accountId)
      .where('order_id', '=', orderId)
      .where('id', '=', input.lineId)
      .executeTakeFirst();
    if (!line) throw invalidField('lineItemId', `line item ${input.lineId} is not a line of this order`).because('order.not_a_line', {});
    // Conditional on the refund read, so two parallel refunds of one line both count.
    const updated = await tx
      .updateTable('sales_order_lines')
      .set({ refund: add(line.refund ?? '0', amount), refund_reason: reason, updated_at: iso })
      .where('account_id', '=', accountId)
      .where('id', '=', line.id)
      .where((eb) => (line.refund === null ? eb('refund', 'is', null) : eb('refund', '=', line.refund)))
      .returning('id')
      .executeTakeFirst();
    if (!updated) return recordRefund(tx, accountId, orderId, input, now);
  } else {
    const order = await tx.selectFrom('sales_orders').select('accounting').where('account_id', '=', accountId).where('id', '=', orderId).executeTakeFirstOrThrow();
    const accounting = order.accounting === null ? {} : (JSON.parse(order.accounting) as Record<string, string | null>);
    const next = { ...accounting, refund: add(accounting.refund ?? '0', amount), refundReason: reason };
    const updated = await tx
      .updateTable('sales_orders')
      .set({ accounting: JSON.stringify(next) })
      .where('account_id', '=', accountId)
      .where('id', '=', orderId)
      .where((eb) => (order.accounting === null ? eb('accounting', 'is', null) : eb('accounting', '=', order.accounting)))
      .returning('id')
      .executeTakeFirst();
    if (!updated) return recordRefund(tx, accountId, orderId, input, now);
  }
  await recomputeOrderStatus(tx, accountId, orderId, now);
}
