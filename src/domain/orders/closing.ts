import type { Tx } from '../../db/tx.js';

/**
 * When an order is closed for the personal-data retention (resolutions §10): no unit is owed and no return
 * is open. The derived statuses say exactly that (status.ts): SHIPPED, RETURNED, REFUNDED and CANCELLED are
 * reached only once nothing is owed and no return is open; PENDING*, PARTIALLY_SHIPPED and RETURN_REQUESTED
 * are the open ones. Kept in orders, whose status changes it follows; the personal-data area reads it.
 */
export const CLOSED_STATUSES = ['SHIPPED', 'RETURNED', 'REFUNDED', 'CANCELLED'] as const;

export function isClosedStatus(status: string): boolean {
  return (CLOSED_STATUSES as readonly string[]).includes(status);
}

/**
 * Keeps sales_orders.closed_ts, the closing event's time the retention counts from, as recomputeOrderStatus
 * moves an order between open and closed (it runs in the transaction of every change to an order):
 * - open → closed: the event that closed it happened now (a cancellation, a return received or closed),
 *   except a shipment reported in this transaction, whose own shippedTs is the closing event (a carrier
 *   scan reported late must not push the redaction back); a shippedTs in the future counts as now.
 * - closed → open (a return requested later): null, the next closing sets it again.
 * - closed → closed (a refund on a shipped order): unchanged, no new closing event.
 * Stored rather than derived on each sweep: the sweep then reads one index range, never every order's
 * packages and returns.
 */
export async function trackOrderClosing(tx: Tx, accountId: number, orderId: number, before: string, after: string, now: Date): Promise<void> {
  const wasClosed = isClosedStatus(before);
  const isClosed = isClosedStatus(after);
  if (wasClosed === isClosed) return;
  let closedTs: string | null = null;
  if (isClosed) {
    const iso = now.toISOString();
    const shipped = await tx
      .selectFrom('sales_order_packages')
      .select((eb) => eb.fn.max('shipped_ts').as('latest'))
      .where('account_id', '=', accountId)
      .where('order_id', '=', orderId)
      .where('created_at', '=', iso)
      .executeTakeFirst();
    const latest = shipped?.latest ?? null;
    closedTs = latest !== null && latest < iso ? latest : iso;
  }
  await tx.updateTable('sales_orders').set({ closed_ts: closedTs }).where('account_id', '=', accountId).where('id', '=', orderId).execute();
}
