import { sql } from 'kysely';
import type { Tx } from '../../db/tx.js';
import { recordReservation, reserveStock, unreserveStock } from '../inventory/reserved-stock.js';
import { touchProductInventory } from '../inventory/stock-touch.js';
import { recomputeOrderStatus } from './status.js';

/**
 * Stock arrived in a warehouse (an inbound receipt): the orders waiting there for it get it, oldest order
 * first (DESIGN.md "Inbound shipment → … reserve waiting backorders oldest first").
 *
 * A backorder is a route's backorder_quantity: units routed to the warehouse without stock (routing.ts). For
 * each such route of the product, oldest order first (sales_orders.order_ts, then route id), min(backorder,
 * available) units are reserved with the inventory area's conditional UPDATE, then moved on the route from
 * backorder_quantity to reserved_quantity with a conditional UPDATE (backorder_quantity >= n). When a
 * parallel change took the route's backorder first (a cancel, a shipment, a re-route), the stock is given
 * back and the route read again; when a parallel order took the stock first, available is read again. The
 * units owed on the route (reserved + backorder) do not change, so fulfillment orders, need_to_ship and
 * routing_info quantities stay as they are: only where the units come from changes.
 *
 * A kit route's assembled_quantity counts the kits taken from the kit's own stock; the units reserved here
 * are the kit's own stock, so it rises with them. Kits are only filled from their own stock: stock of a
 * component arriving does not build waiting kits (they wait for a re-route or assembled stock).
 *
 * Each order that got units moves its lastUpdatedTs (recomputeOrderStatus, as every change to an order
 * does), so channels polling orders by last update see that the backorder is now held.
 */

export interface BackorderFill {
  orderId: number;
  lineId: number;
  routeId: number;
  units: number;
}

/** Routes read per query; the loop stops as soon as the stock runs out. */
const BATCH = 100;
/** Re-reads after lost races are bounded; whatever is left waits for the next stock change. */
const MAX_RACE_RETRIES = 50;

interface WaitingRoute {
  id: number;
  order_id: number;
  line_id: number;
  backorder_quantity: number;
  order_ts: string;
}

export async function fillBackorders(tx: Tx, accountId: number, productId: number, warehouseId: number, now: Date): Promise<BackorderFill[]> {
  const iso = now.toISOString();
  const availableHere = async (): Promise<number> => {
    const row = await tx
      .selectFrom('inventory')
      .select('available_quantity')
      .where('account_id', '=', accountId)
      .where('product_id', '=', productId)
      .where('warehouse_id', '=', warehouseId)
      .executeTakeFirst();
    return row?.available_quantity ?? 0;
  };
  const backorderOf = async (routeId: number): Promise<number> => {
    const row = await tx
      .selectFrom('order_line_routes')
      .select('backorder_quantity')
      .where('account_id', '=', accountId)
      .where('id', '=', routeId)
      .executeTakeFirst();
    return row?.backorder_quantity ?? 0;
  };

  const fills: BackorderFill[] = [];
  let available = await availableHere();
  let after: { ts: string; id: number } | null = null;
  let races = 0;
  while (available > 0) {
    const routes: WaitingRoute[] = await waitingRoutes(tx, accountId, productId, warehouseId, after);
    for (const route of routes) {
      let backorder = route.backorder_quantity;
      while (backorder > 0 && available > 0 && races <= MAX_RACE_RETRIES) {
        const units = Math.min(backorder, available);
        if (!(await reserveStock(tx, accountId, productId, warehouseId, units, now))) {
          races += 1;
          available = await availableHere();
          continue;
        }
        const moved = await tx
          .updateTable('order_line_routes')
          .set((eb) => ({
            backorder_quantity: eb('backorder_quantity', '-', units),
            reserved_quantity: eb('reserved_quantity', '+', units),
            assembled_quantity: sql<number | null>`case when ${eb.ref('assembled_quantity')} is null then null else ${eb.ref('assembled_quantity')} + ${units} end`,
            updated_at: iso,
          }))
          .where('account_id', '=', accountId)
          .where('id', '=', route.id)
          .where('backorder_quantity', '>=', units)
          .returning('id')
          .executeTakeFirst();
        if (!moved) {
          // The route changed meanwhile: give the stock back and look again.
          if (!(await unreserveStock(tx, accountId, productId, warehouseId, units, now))) {
            throw new Error(`inventory counters of product ${productId} in warehouse ${warehouseId} do not hold the ${units} units just reserved`);
          }
          races += 1;
          backorder = await backorderOf(route.id);
          available = await availableHere();
          continue;
        }
        await recordReservation(tx, accountId, productId, warehouseId, route.line_id, units, now);
        fills.push({ orderId: route.order_id, lineId: route.line_id, routeId: route.id, units });
        backorder -= units;
        available -= units;
      }
      if (available <= 0 || races > MAX_RACE_RETRIES) break;
    }
    const last = routes[routes.length - 1];
    if (routes.length < BATCH || !last || races > MAX_RACE_RETRIES) break;
    after = { ts: last.order_ts, id: last.id };
  }

  if (fills.length > 0) {
    await touchProductInventory(tx, accountId, productId, now);
    for (const orderId of new Set(fills.map((f) => f.orderId))) await recomputeOrderStatus(tx, accountId, orderId, now);
  }
  return fills;
}

/** The next batch of the product's backordered routes in the warehouse, oldest order first. */
function waitingRoutes(tx: Tx, accountId: number, productId: number, warehouseId: number, after: { ts: string; id: number } | null) {
  let query = tx
    .selectFrom('order_line_routes as r')
    .innerJoin('sales_orders as o', (j) => j.onRef('o.id', '=', 'r.order_id').on('o.account_id', '=', accountId))
    .select(['r.id', 'r.order_id', 'r.line_id', 'r.backorder_quantity', 'o.order_ts'])
    .where('r.account_id', '=', accountId)
    .where('r.warehouse_id', '=', warehouseId)
    .where('r.product_id', '=', productId)
    .where('r.backorder_quantity', '>', 0);
  if (after !== null) query = query.where((eb) => eb(eb.refTuple('o.order_ts', 'r.id'), '>', eb.tuple(after.ts, after.id)));
  return query.orderBy('o.order_ts').orderBy('r.id').limit(BATCH).execute();
}
