import type { Db } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { invalidArgument, notFound, permissionDenied } from '../errors.js';
import { parseOrderNumber } from '../orders/find-order.js';
import { orderViews, type SalesOrderV1 } from '../orders/view.js';

/**
 * GET /v2/storefront/order (resolutions §4): one of the storefront's own orders by channelOrderId or
 * orderNumber (exactly one of them), answered as {order} in the v1 order shape (document 2.10), the one
 * order shape the service has. Another storefront's or account's order is a 404, whatever scopes the
 * token holds: storefront routes act for the token's storefront only.
 */
export async function getStorefrontOrder(
  db: Db,
  principal: Principal,
  by: { channelOrderId: string | null; orderNumber: string | null },
): Promise<SalesOrderV1> {
  const storefrontId = principal.storefrontId;
  if (storefrontId === null) throw permissionDenied('this route needs a token bound to a storefront');
  const { channelOrderId, orderNumber } = by;
  if ((channelOrderId === null) === (orderNumber === null)) {
    throw invalidArgument('give exactly one of channelOrderId and orderNumber');
  }
  let query = db.selectFrom('sales_orders').selectAll().where('account_id', '=', principal.accountId).where('storefront_id', '=', storefrontId);
  if (orderNumber !== null) {
    const id = parseOrderNumber(orderNumber);
    if (id === null) throw notFound(`sales order ${orderNumber} not found`);
    query = query.where('id', '=', id);
  } else {
    query = query.where('channel_key', '=', `s:${storefrontId}`).where('channel_order_id', '=', channelOrderId!);
  }
  const order = await query.executeTakeFirst();
  if (!order) throw notFound(`sales order ${orderNumber ?? channelOrderId} not found`);
  return (await orderViews(db, principal, [order], { storefrontId, warehouseIds: null }))[0]!;
}
