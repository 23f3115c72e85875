import type { Tx } from '../../../db/tx.js';
import { sellerPrincipalFor } from '../../../domain/accounts/principal.js';
import { findVisibleOrder } from '../../../domain/orders/find-order.js';
import { getSalesOrder } from '../../../domain/orders/order-actions.js';
import type { SalesOrderV1 } from '../../../domain/orders/view.js';

/**
 * Runs a change on one of the account's orders (404 when it has no such order) and answers the order. The
 * operator acts as the account's seller: it sees the whole account (every scope, no narrowing), and gets the
 * order in the v1 shape the seller would read.
 */
export async function changeOrder(
  tx: Tx,
  accountId: number,
  orderNumber: string,
  change: (orderId: number) => Promise<unknown>,
): Promise<SalesOrderV1> {
  const principal = sellerPrincipalFor(accountId);
  const { order } = await findVisibleOrder(tx, principal, orderNumber);
  await change(order.id);
  return getSalesOrder(tx, principal, orderNumber);
}
