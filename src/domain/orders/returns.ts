import type { Tx } from '../../db/tx.js';
import { invalidField } from '../errors.js';
import { decimalInput } from '../decimal-input.js';
import { recomputeOrderStatus } from './status.js';

/**
 * Returns (document 2.10 "Return order", resolutions §6), recorded by the seller through the operator API and
 * the console. A return is requested (open), then received (returns-receive.ts: its units count as returned,
 * and go back in stock in a warehouse the seller chooses, or not), and closed (returns-close.ts; closing a
 * return that was never received cancels it). An open return shows on the order (RETURN_REQUESTED once
 * nothing is owed; status.ts decides). Only shipped units can be returned: a line's units on returns not
 * cancelled never exceed what it shipped.
 */

export interface ReturnRequestInput {
  channelReturnId?: string | null | undefined;
  items: { lineId: number; quantity: number; refundAmount?: number | string | null | undefined }[];
}

/** Requests a return. The same channelReturnId on the same order again is a replay: nothing changes. */
export async function requestReturn(tx: Tx, accountId: number, orderId: number, input: ReturnRequestInput, now: Date): Promise<number> {
  // Row lock on the order (PostgreSQL): parallel requests for the same units are checked one after the other.
  await tx.updateTable('sales_orders').set((eb) => ({ status: eb.ref('status') })).where('account_id', '=', accountId).where('id', '=', orderId).execute();
  const channelReturnId = input.channelReturnId?.trim() || null;
  if (channelReturnId !== null) {
    const existing = await tx
      .selectFrom('sales_order_returns')
      .select('id')
      .where('account_id', '=', accountId)
      .where('order_id', '=', orderId)
      .where('channel_return_id', '=', channelReturnId)
      .executeTakeFirst();
    if (existing) return existing.id;
  }
  if (input.items.length === 0) throw invalidField('items', 'name at least one line item to return');
  const lines = await tx
    .selectFrom('sales_order_lines')
    .select(['id', 'quantity', 'shipped_quantity', 'sku', 'requested_sku'])
    .where('account_id', '=', accountId)
    .where('order_id', '=', orderId)
    .execute();
  const byId = new Map(lines.map((l) => [l.id, l]));
  const onReturns = await tx
    .selectFrom('sales_order_return_items as i')
    .innerJoin('sales_order_returns as r', 'r.id', 'i.return_id')
    .select(['i.line_id', 'i.quantity'])
    .where('r.account_id', '=', accountId)
    .where('r.order_id', '=', orderId)
    .where('r.cancelled', '=', 0)
    .execute();
  const wanted = new Map<number, number>();
  for (const r of onReturns) wanted.set(r.line_id, (wanted.get(r.line_id) ?? 0) + r.quantity);
  const items = input.items.map((item, i) => {
    const field = `items[${i}]`;
    if (!byId.has(item.lineId)) throw invalidField(`${field}.lineItemId`, `line item ${item.lineId} is not a line of this order`).because('order.not_a_line', {});
    if (!Number.isInteger(item.quantity) || item.quantity < 1) throw invalidField(`${field}.quantity`, 'must be at least 1');
    wanted.set(item.lineId, (wanted.get(item.lineId) ?? 0) + item.quantity);
    return { ...item, refundAmount: decimalInput(`${field}.refundAmount`, item.refundAmount) };
  });
  for (const item of items) {
    const line = byId.get(item.lineId)!;
    if (wanted.get(item.lineId)! > line.shipped_quantity) {
      throw invalidField(
        'items',
        `line item ${item.lineId} shipped ${line.shipped_quantity} units; returns would cover ${wanted.get(item.lineId)} (only shipped units can be returned)`,
      ).because('order.return_too_many', { sku: line.sku ?? line.requested_sku, asked: item.quantity, left: line.shipped_quantity - (wanted.get(item.lineId)! - item.quantity) });
    }
  }
  const iso = now.toISOString();
  const created = await tx
    .insertInto('sales_order_returns')
    .values({ account_id: accountId, order_id: orderId, channel_return_id: channelReturnId, request_ts: iso, cancelled: 0, received_ts: null, created_at: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx
    .insertInto('sales_order_return_items')
    .values(
      items.map((item) => ({
        account_id: accountId,
        return_id: created.id,
        line_id: item.lineId,
        quantity: item.quantity,
        original_quantity: byId.get(item.lineId)!.quantity,
        refund_amount: item.refundAmount,
      })),
    )
    .execute();
  await recomputeOrderStatus(tx, accountId, orderId, now);
  return created.id;
}
