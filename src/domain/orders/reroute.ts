import type { Tx } from '../../db/tx.js';
import { conflict, invalidField } from '../errors.js';
import type { FulfillmentPort } from './fulfillment-port.js';
import { addReservedUnitsToRoute, releaseRouteUnits } from './reservations.js';
import { touchProductInventory } from '../inventory/stock-touch.js';
import { fillWaitingOrders, stockKeysOfRoutes } from './fill-backorders.js';
import { recomputeOrderStatus } from './status.js';
import { recordReservation, reserveStock } from '../inventory/reserved-stock.js';

/**
 * The seller moves units of a line from one warehouse to another (operator API). The new warehouse must
 * have the units available: they are reserved there with one conditional UPDATE (409 when it lacks them,
 * nothing changes). Then the old warehouse's fulfillment order is pulled back (REROUTED: a NEW one just
 * loses the units, an ACCEPTED one gets a cancellation request), the units leave the old route (its
 * quantity drops; backordered units first, then reserved ones, whose stock goes back to available), they
 * join the route in the new warehouse as reserved units, and the new warehouse's fulfillment order is
 * created when it is mapped to a shipping/3PL integration. Stock the move gave back in the old warehouse
 * fills the backorders waiting there (fill-backorders.ts).
 */
export interface RerouteInput {
  lineId: number;
  fromWarehouseId: number;
  toWarehouseId: number;
  quantity: number;
}

export async function rerouteLine(tx: Tx, accountId: number, orderId: number, input: RerouteInput, now: Date, fulfillment: FulfillmentPort): Promise<void> {
  const { lineId, fromWarehouseId, toWarehouseId, quantity } = input;
  if (!Number.isInteger(quantity) || quantity < 1) throw invalidField('quantity', 'must be at least 1');
  if (fromWarehouseId === toWarehouseId) throw invalidField('toWarehouseId', 'must differ from fromWarehouseId').because('order.reroute_same_warehouse', {});
  const line = await tx
    .selectFrom('sales_order_lines')
    .select(['id', 'product_id', 'sku', 'requested_sku'])
    .where('account_id', '=', accountId)
    .where('order_id', '=', orderId)
    .where('id', '=', lineId)
    .executeTakeFirst();
  if (!line) throw invalidField('lineItemId', `line item ${lineId} is not a line of this order`).because('order.not_a_line', {});
  const order = await tx
    .selectFrom('sales_orders')
    .select(['fba', 'channel_will_fulfill'])
    .where('account_id', '=', accountId)
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const target = await tx
    .selectFrom('warehouses')
    .select(['id', 'name', 'channel_fulfilled'])
    .where('account_id', '=', accountId)
    .where('id', '=', toWarehouseId)
    .executeTakeFirst();
  if (!target) throw invalidField('toWarehouseId', `unknown warehouse id ${toWarehouseId}`).because('order.reroute_unknown_warehouse', {});
  if (target.channel_fulfilled === 1 && order.fba !== 1 && order.channel_will_fulfill !== 1) {
    throw invalidField('toWarehouseId', `warehouse ${toWarehouseId} is channel-fulfilled and this order is not fulfilled by the channel`).because(
      'order.reroute_channel_warehouse',
      { warehouse: target.name },
    );
  }
  // A REJECTED fulfillment order stays REJECTED (its partner declined this order): units moved there would be
  // owed on an order no queue shows and no one would ship them. Refuse the target instead.
  const rejected = await tx
    .selectFrom('fulfillment_orders')
    .select('id')
    .where('account_id', '=', accountId)
    .where('order_id', '=', orderId)
    .where('warehouse_id', '=', toWarehouseId)
    .where('status', '=', 'REJECTED')
    .executeTakeFirst();
  if (rejected) {
    throw conflict(
      `warehouse ${toWarehouseId}'s fulfillment partner rejected this order (fulfillment order ${rejected.id}); ` +
        'choose another warehouse',
    ).because('order.reroute_rejected_there', { warehouse: target.name });
  }
  const route = await tx
    .selectFrom('order_line_routes')
    .select(['id', 'reserved_quantity', 'backorder_quantity'])
    .where('account_id', '=', accountId)
    .where('line_id', '=', lineId)
    .where('warehouse_id', '=', fromWarehouseId)
    .executeTakeFirst();
  const owed = route ? route.reserved_quantity + route.backorder_quantity : 0;
  if (!route || quantity > owed || line.product_id === null) {
    const from = await tx.selectFrom('warehouses').select('name').where('account_id', '=', accountId).where('id', '=', fromWarehouseId).executeTakeFirst();
    throw invalidField('quantity', `line item ${lineId} has ${owed} units owed in warehouse ${fromWarehouseId}; cannot move ${quantity}`).because('order.reroute_too_many', {
      sku: line.sku ?? line.requested_sku,
      warehouse: from?.name ?? String(fromWarehouseId),
      asked: quantity,
      owed,
    });
  }
  const productId = line.product_id;

  if (!(await reserveStock(tx, accountId, productId, toWarehouseId, quantity, now))) {
    throw conflict(`warehouse ${toWarehouseId} does not have ${quantity} units of this line's SKU available`).because('order.reroute_not_enough_stock', {
      sku: line.sku ?? line.requested_sku,
      warehouse: target.name,
      asked: quantity,
    });
  }
  await fulfillment.pullBack(tx, {
    accountId,
    orderId,
    lineId,
    warehouseId: fromWarehouseId,
    quantity,
    reason: 'CANCELLATION_REASON_REROUTED',
    now,
  });
  const released = await releaseRouteUnits(tx, { accountId, routeId: route.id, quantity, now, reroute: true });
  if (released < quantity) throw conflict(`the units of line item ${lineId} changed meanwhile (shipped or cancelled); try again`).because('order.changed_meanwhile', {});

  await recordReservation(tx, accountId, productId, toWarehouseId, lineId, quantity, now);
  await addReservedUnitsToRoute(tx, accountId, { order_id: orderId, line_id: lineId, product_id: productId }, toWarehouseId, quantity, now);
  await touchProductInventory(tx, accountId, productId, now);
  await fulfillment.syncOrder(tx, accountId, orderId, now);
  await recomputeOrderStatus(tx, accountId, orderId, now);
  // Reserved units left the old warehouse (backordered ones go first and hold nothing): that stock is
  // available there again, and the orders waiting for it take it, oldest first.
  if (quantity > route.backorder_quantity) {
    await fillWaitingOrders(tx, accountId, await stockKeysOfRoutes(tx, accountId, [route.id]), now, fulfillment);
  }
}
