import type { Db } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { invalidArgument, invalidField, notFound, permissionDenied } from '../errors.js';
import { shippedOrderRows, shippedOrderViews, type ShippedOrderV2 } from './shipped-orders.js';

/**
 * GET /v2/storefront/order (resolutions §7): one of the storefront's own orders, whatever its status, in
 * the same ShippedOrder view as the shipped feed (2.16). The production definition names the order by one
 * of three identifiers; here orderNumber and purchaseOrderId both are the service's order number (the
 * service has one number per order). Another storefront's or account's order is a 404, whatever scopes the
 * token holds: storefront routes act for the token's storefront only.
 */

export interface OrderIdentifiers {
  channelOrderId: string | null;
  /** int64 as text, unparsed. */
  orderNumber: string | null;
  purchaseOrderId: string | null;
}

/** An int64 identifier: not a whole number is a 400 (protojson), a number no order can have is not found. */
function orderId(field: string, text: string): number | null {
  if (!/^[+-]?\d+$/.test(text)) throw invalidField(field, 'must be an int64 (a whole number)');
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export async function getStorefrontOrder(db: Db, principal: Principal, by: OrderIdentifiers): Promise<ShippedOrderV2> {
  const storefrontId = principal.storefrontId;
  if (storefrontId === null) throw permissionDenied('this route needs a token bound to a storefront');
  const given = (Object.entries(by) as [keyof OrderIdentifiers, string | null][]).filter(([, v]) => v !== null);
  if (given.length !== 1) {
    throw invalidArgument(
      `give exactly one of channelOrderId, orderNumber and purchaseOrderId${given.length > 1 ? ` (got ${given.map(([k]) => k).join(', ')})` : ''}`,
    );
  }
  const [field, value] = given[0]! as [keyof OrderIdentifiers, string];
  let query = shippedOrderRows(db, principal.accountId, storefrontId);
  if (field === 'channelOrderId') {
    query = query.where('o.channel_key', '=', `s:${storefrontId}`).where('o.channel_order_id', '=', value);
  } else {
    const id = orderId(field, value);
    if (id === null) throw notFound(`sales order ${value} not found`);
    query = query.where('o.id', '=', id);
  }
  const row = await query.executeTakeFirst();
  if (!row) throw notFound(`sales order ${value} not found`);
  return (await shippedOrderViews(db, principal.accountId, [row]))[0]!;
}
