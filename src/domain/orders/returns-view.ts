import type { Db } from '../../db/tx.js';
import { decimalOutput } from '../../lib/decimal.js';

/** returnOrders of the v1 order shape (document 2.10 "Return order"). */
export interface ReturnOrderV1 {
  returnOrderId: number;
  channelReturnId: string | null;
  requestTs: string;
  cancelled: boolean;
  returnItems: ReturnItemV1[];
}

export interface ReturnItemV1 {
  returnOrderItemId: number;
  SKU: string;
  /** Units being returned. */
  quantity: number;
  /** Units the order line was for (what was originally ordered). */
  originalQuantity: number;
  refundAmount: number | null;
}

/** Returns of the given orders, oldest first, each with its items; lineIds says which line each item is of. */
export async function returnOrdersByOrder(
  db: Db,
  accountId: number,
  orderIds: number[],
): Promise<Map<number, { view: ReturnOrderV1; lineIds: number[] }[]>> {
  const byOrder = new Map<number, { view: ReturnOrderV1; lineIds: number[] }[]>();
  if (orderIds.length === 0) return byOrder;
  const returns = await db
    .selectFrom('sales_order_returns')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('order_id', 'in', orderIds)
    .orderBy('id')
    .execute();
  if (returns.length === 0) return byOrder;
  const items = await db
    .selectFrom('sales_order_return_items as i')
    .innerJoin('sales_order_lines as l', 'l.id', 'i.line_id')
    .select(['i.id', 'i.return_id', 'i.line_id', 'i.quantity', 'i.original_quantity', 'i.refund_amount', 'l.sku', 'l.requested_sku'])
    .where('i.account_id', '=', accountId)
    .where('l.account_id', '=', accountId)
    .where(
      'i.return_id',
      'in',
      returns.map((r) => r.id),
    )
    .orderBy('i.id')
    .execute();
  const entries = new Map<number, { view: ReturnOrderV1; lineIds: number[] }>();
  for (const r of returns) {
    const entry = {
      view: { returnOrderId: r.id, channelReturnId: r.channel_return_id, requestTs: r.request_ts, cancelled: r.cancelled === 1, returnItems: [] },
      lineIds: [],
    };
    entries.set(r.id, entry);
    byOrder.set(r.order_id, [...(byOrder.get(r.order_id) ?? []), entry]);
  }
  for (const i of items) {
    const entry = entries.get(i.return_id)!;
    entry.view.returnItems.push({
      returnOrderItemId: i.id,
      SKU: i.sku ?? i.requested_sku,
      quantity: i.quantity,
      originalQuantity: i.original_quantity,
      refundAmount: decimalOutput(i.refund_amount),
    });
    entry.lineIds.push(i.line_id);
  }
  return byOrder;
}

/**
 * The returns as a caller sees them: a view narrowed to some lines (an integration's warehouses) keeps
 * only the items of those lines, and the returns left with items.
 */
export function returnOrdersFor(entries: { view: ReturnOrderV1; lineIds: number[] }[], visibleLines: Set<number> | null): ReturnOrderV1[] {
  if (visibleLines === null) return entries.map((e) => e.view);
  return entries
    .map((e) => ({ ...e.view, returnItems: e.view.returnItems.filter((_, i) => visibleLines.has(e.lineIds[i]!)) }))
    .filter((r) => r.returnItems.length > 0);
}

/** Where a return stands, for the seller (the console); the v1 shape only says whether it was cancelled. */
export type ReturnState = 'REQUESTED' | 'RECEIVED' | 'CLOSED' | 'CANCELLED';

export interface ReturnProgress {
  returnOrderId: number;
  state: ReturnState;
  receivedTs: string | null;
  closedTs: string | null;
  /** The warehouse the received units went back into; null when not restocked. */
  restockWarehouseId: number | null;
  restockedUnits: number;
}

export function returnStateOf(r: { cancelled: number; received_ts: string | null; closed_ts: string | null }): ReturnState {
  if (r.cancelled === 1) return 'CANCELLED';
  if (r.closed_ts !== null) return 'CLOSED';
  return r.received_ts !== null ? 'RECEIVED' : 'REQUESTED';
}

/** The order's returns with their receipt and closing, oldest first. */
export async function returnProgressOf(db: Db, accountId: number, orderId: number): Promise<ReturnProgress[]> {
  const rows = await db
    .selectFrom('sales_order_returns')
    .select(['id', 'cancelled', 'received_ts', 'closed_ts', 'restock_warehouse_id', 'restocked_quantity'])
    .where('account_id', '=', accountId)
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    returnOrderId: r.id,
    state: returnStateOf(r),
    receivedTs: r.received_ts,
    closedTs: r.closed_ts,
    restockWarehouseId: r.restock_warehouse_id,
    restockedUnits: r.restocked_quantity,
  }));
}
