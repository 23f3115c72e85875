import type { Tx } from '../../db/tx.js';
import { listAccountWarehouses } from '../accounts/warehouses.js';
import { addReservedUnitsToRoute, releaseRouteUnits } from '../orders/reservations.js';
import { touchProductInventory } from '../inventory/stock-touch.js';
import { candidateWarehouses } from '../orders/routing.js';
import type { FulfillmentOrderRow } from './access.js';
import { fillWaitingOrders, stockKeysOfRoutes } from '../orders/fill-backorders.js';
import { fulfillmentPort } from './port.js';
import { mostAvailable, recordReservation, reserveStock } from '../inventory/reserved-stock.js';

/**
 * Re-routing the units of a rejected fulfillment order (document 3.5: "the service reroutes or surfaces it
 * to a user"). Units go only where stock is AVAILABLE now, by the order routing's own preference (most
 * available first, ties by lowest warehouse id), never back to a warehouse whose integration rejected this
 * order, and to channel-fulfilled warehouses only when the order is channel-fulfilled. Each placement is a
 * conditional reservation; the same number of units is then taken off the rejected route (releaseRouteUnits
 * with reroute: the route's quantity drops, its stock is released). Units that find no stock stay reserved
 * on the rejected route, out of every queue, and the caller surfaces them to the seller. Stock released in
 * the rejected warehouse fills the orders backordered there (fill-backorders.ts).
 */

export interface Unplaced {
  lineId: number;
  sku: string;
  quantity: number;
}

const MAX_PLACEMENT_ATTEMPTS = 50;

export async function rerouteRejectedUnits(tx: Tx, fo: FulfillmentOrderRow, now: Date): Promise<Unplaced[]> {
  const accountId = fo.account_id;
  const order = await tx
    .selectFrom('sales_orders')
    .select(['fba', 'channel_will_fulfill'])
    .where('account_id', '=', accountId)
    .where('id', '=', fo.order_id)
    .executeTakeFirstOrThrow();
  const rejectedWarehouses = (
    await tx
      .selectFrom('fulfillment_orders')
      .select('warehouse_id')
      .where('account_id', '=', accountId)
      .where('order_id', '=', fo.order_id)
      .where('status', '=', 'REJECTED')
      .execute()
  ).map((r) => r.warehouse_id);
  const warehouses = await listAccountWarehouses(tx, accountId);
  const candidates = candidateWarehouses(warehouses, order.fba === 1 || order.channel_will_fulfill === 1).filter(
    (w) => w !== fo.warehouse_id && !rejectedWarehouses.includes(w),
  );
  const routes = await tx
    .selectFrom('order_line_routes as r')
    .innerJoin('sales_order_lines as l', 'l.id', 'r.line_id')
    .select(['r.id', 'r.order_id', 'r.line_id', 'r.product_id', 'r.reserved_quantity', 'r.backorder_quantity', 'l.sku', 'l.requested_sku'])
    .where('r.account_id', '=', accountId)
    .where('r.order_id', '=', fo.order_id)
    .where('r.warehouse_id', '=', fo.warehouse_id)
    // Same lock order as order creation (by product), so parallel work does not deadlock on PostgreSQL.
    .orderBy('r.product_id')
    .orderBy('r.line_id')
    .execute();
  const unplaced: Unplaced[] = [];
  const released: number[] = [];
  for (const route of routes) {
    const owed = route.reserved_quantity + route.backorder_quantity;
    let placed = 0;
    for (let attempt = 0; placed < owed && attempt < MAX_PLACEMENT_ATTEMPTS; attempt++) {
      const top = await mostAvailable(tx, accountId, route.product_id, candidates);
      if (!top) break;
      const take = Math.min(owed - placed, top.available_quantity);
      if (!(await reserveStock(tx, accountId, route.product_id, top.warehouse_id, take, now))) continue;
      await recordReservation(tx, accountId, route.product_id, top.warehouse_id, route.line_id, take, now);
      await addReservedUnitsToRoute(tx, accountId, route, top.warehouse_id, take, now);
      placed += take;
    }
    if (placed > 0) {
      await releaseRouteUnits(tx, { accountId, routeId: route.id, quantity: placed, now, reroute: true });
      await touchProductInventory(tx, accountId, route.product_id, now);
      // Backordered units leave first and hold nothing; beyond them, stock went back to available here.
      if (placed > route.backorder_quantity) released.push(route.id);
    }
    if (owed - placed > 0) unplaced.push({ lineId: route.line_id, sku: route.sku ?? route.requested_sku, quantity: owed - placed });
  }
  // Stock given back in the rejected warehouse is available again there, like any stock that comes back.
  if (released.length > 0) await fillWaitingOrders(tx, accountId, await stockKeysOfRoutes(tx, accountId, released), now, fulfillmentPort);
  return unplaced;
}
