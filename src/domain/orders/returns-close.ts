import type { Tx } from '../../db/tx.js';
import { findReturn } from './returns-find.js';
import { recomputeOrderStatus } from './status.js';

/**
 * Closing a return (issue 23): the seller is done with it. Nothing about a closed return changes afterwards.
 * - A received return is closed as it is: its units stay returned and any restock stays where it went.
 * - A return still requested (nothing came back: the buyer kept the item, the channel cancelled the return)
 *   is closed without being received, which is what the contract calls a cancelled return (document 2.10
 *   `cancelled: true`): none of its units count as returned, stock does not move, and the units can be
 *   requested again on a new return.
 * Either way the return is no longer open, so an order that was RETURN_REQUESTED only because of it goes back
 * to the status its quantities give (resolutions §6). Closing a closed return again changes nothing.
 */

export interface ReturnClosure {
  /** True when the return was closed already: nothing changed. */
  alreadyClosed: boolean;
  /** True when it was closed without being received (a cancelled return). */
  cancelled: boolean;
}

export async function closeReturn(tx: Tx, accountId: number, orderId: number, returnId: number, now: Date): Promise<ReturnClosure> {
  const found = await findReturn(tx, accountId, orderId, returnId);
  if (found.closed_ts !== null || found.cancelled === 1) return { alreadyClosed: true, cancelled: found.cancelled === 1 };
  const iso = now.toISOString();
  // One conditional UPDATE per state, so a receipt running at the same time either lands first (the return
  // is then closed as received) or finds the return cancelled and refuses.
  const closed = await tx
    .updateTable('sales_order_returns')
    .set((eb) => ({ closed_ts: iso, cancelled: eb.case().when('received_ts', 'is', null).then(1).else(0).end() }))
    .where('account_id', '=', accountId)
    .where('id', '=', returnId)
    .where('closed_ts', 'is', null)
    .where('cancelled', '=', 0)
    .returning(['cancelled'])
    .executeTakeFirst();
  if (!closed) {
    const current = await findReturn(tx, accountId, orderId, returnId);
    return { alreadyClosed: true, cancelled: current.cancelled === 1 };
  }
  await recomputeOrderStatus(tx, accountId, orderId, now);
  return { alreadyClosed: false, cancelled: closed.cancelled === 1 };
}
