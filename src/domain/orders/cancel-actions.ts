import type { Tx } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { invalidField, notFound, permissionDenied } from '../errors.js';
import { cancelOrderUnits } from './cancel.js';
import type { FulfillmentPort } from './fulfillment-port.js';
import { checkCancellationReason, fulfillmentReasonFor } from './cancel-reasons.js';
import { findVisibleOrder, parseOrderNumber } from './find-order.js';
import { getSalesOrder } from './order-actions.js';
import type { SalesOrderV1 } from './view.js';

/** The partner-facing cancel operations: v1 (channel or seller) and v2 storefront. */

export interface V1CancelBody {
  cancellationReason: string;
  lineItems?: { lineItemId: string; quantity: number }[] | undefined;
}

function lineIdOf(field: string, lineItemId: string): number {
  const id = parseOrderNumber(lineItemId.trim());
  if (id === null) throw invalidField(field, `"${lineItemId}" is not a line item id`);
  return id;
}

/**
 * POST /v1/salesOrder/cancel/{orderNumber} (resolutions §3). Without lineItems everything not shipped is
 * cancelled; the reason is checked against the channel's list when the channel's list is public. A
 * fulfillment integration sees orders narrowed to its warehouses and cannot cancel them (it rejects work
 * through v2 shipping instead).
 */
export async function cancelOrderV1(
  tx: Tx,
  principal: Principal,
  orderNumber: string,
  body: V1CancelBody,
  now: Date,
  fulfillment: FulfillmentPort,
): Promise<SalesOrderV1> {
  const { order, scope } = await findVisibleOrder(tx, principal, orderNumber);
  if (scope.warehouseIds !== null) {
    throw permissionDenied('a fulfillment or inventory integration cannot cancel sales orders; reject the work through v2 shipping');
  }
  const reason = checkCancellationReason(order.channel, body.cancellationReason);
  const lines = body.lineItems?.map((l, i) => ({ lineId: lineIdOf(`lineItems[${i}].lineItemId`, l.lineItemId), quantity: l.quantity })) ?? null;
  const bySeller = principal.storefrontId === null;
  await cancelOrderUnits(tx, {
    accountId: principal.accountId,
    orderId: order.id,
    lines,
    reason,
    fulfillmentReason: bySeller ? 'CANCELLATION_REASON_MERCHANT_CANCELLED' : fulfillmentReasonFor(reason),
    linesField: 'lineItems',
    now,
    fulfillment,
  });
  return getSalesOrder(tx, principal, orderNumber);
}

export interface StorefrontCancelBody {
  channelOrderId: string;
  cancelQuantities: Record<string, string | number>;
}

/**
 * POST /v2/storefront/orders/cancel: the storefront cancels units of one of its own orders, named by the
 * channel's order id; cancelQuantities maps line item ids (the service's lineItemId) to int64 units.
 * The fulfillment side sees CHANNEL_CANCELLED. The reason stored on the order is "channel cancelled".
 */
export async function cancelStorefrontOrder(
  tx: Tx,
  principal: Principal,
  body: StorefrontCancelBody,
  now: Date,
  fulfillment: FulfillmentPort,
): Promise<Record<string, never>> {
  const storefrontId = principal.storefrontId;
  if (storefrontId === null) throw permissionDenied('only a storefront token can cancel storefront orders');
  const channelOrderId = body.channelOrderId.trim();
  if (channelOrderId === '') throw invalidField('channelOrderId', 'is required');
  const entries = Object.entries(body.cancelQuantities);
  if (entries.length === 0) throw invalidField('cancelQuantities', 'name at least one line item id and its quantity');
  const lines = entries.map(([lineItemId, quantity]) => {
    const field = `cancelQuantities.${lineItemId}`;
    const units = typeof quantity === 'number' ? quantity : Number(quantity);
    if (!Number.isSafeInteger(units)) throw invalidField(field, 'must be an integer');
    return { lineId: lineIdOf(field, lineItemId), quantity: units };
  });
  const order = await tx
    .selectFrom('sales_orders')
    .select('id')
    .where('account_id', '=', principal.accountId)
    .where('channel_key', '=', `s:${storefrontId}`)
    .where('channel_order_id', '=', channelOrderId)
    .executeTakeFirst();
  if (!order) throw notFound(`no order with channelOrderId ${channelOrderId} from this storefront`);
  await cancelOrderUnits(tx, {
    accountId: principal.accountId,
    orderId: order.id,
    lines,
    reason: 'CHANNEL_CANCELLED',
    fulfillmentReason: 'CANCELLATION_REASON_CHANNEL_CANCELLED',
    linesField: 'cancelQuantities',
    now,
    fulfillment,
  });
  return {};
}
