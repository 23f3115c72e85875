import type { Db } from '../../../../db/tx.js';
import { sellerPrincipalFor } from '../../../../domain/accounts/principal.js';
import { findVisibleOrder } from '../../../../domain/orders/find-order.js';
import { orderViews, type SalesOrderV1 } from '../../../../domain/orders/view.js';

/**
 * One order of the seller's account as the API shows it (GET /v1/salesOrder/{orderNumber}), with the
 * storefront it came from (null for orders typed in by the seller), which picks the listing whose title and
 * image its lines show. Another account's order, or a number that names none, is a 404.
 */
export async function loadSellerOrder(db: Db, accountId: number, orderNumber: string): Promise<{ order: SalesOrderV1; storefrontId: number | null }> {
  const principal = sellerPrincipalFor(accountId);
  const { order, scope } = await findVisibleOrder(db, principal, orderNumber);
  return { order: (await orderViews(db, principal, [order], scope))[0]!, storefrontId: order.storefront_id };
}
