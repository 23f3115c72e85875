import { sql } from 'kysely';
import type { Tx } from '../../db/tx.js';
import { recordReservation, reserveStock, unreserveStock } from '../inventory/reserved-stock.js';
import type { StockKey } from '../inventory/stock-batch.js';
import { touchProductsInventory } from '../inventory/stock-touch.js';
import type { FulfillmentPort } from './fulfillment-port.js';
import { buildable, buildWaitingKits, kitsContaining, WarehouseStock, type RecipeLine } from './kit-backorders.js';
import { routeUnroutedLines } from './route-unrouted-lines.js';
import { recomputeOrderStatus } from './status.js';
import { WAITING, waitingWork } from './waiting-work.js';
import { accountFilterById } from '../../db/tenancy.js';

/**
 * Stock that becomes available fills the orders waiting for it, oldest order first, in the transaction that
 * made it available (issue 23: v1 and v2 inventory updates, imports, inbound receipts, kit assembly,
 * restocked returns, re-routes and cancellations that give stock back).
 *
 * A backorder is a route's backorder_quantity: units routed to the warehouse without stock (routing.ts). For
 * the routes waiting in a warehouse for these products, oldest order first (sales_orders.order_ts, then route
 * id), each takes what the warehouse can give:
 * - its own SKU's available units (for a kit, assembled kits: assembled_quantity rises with them), reserved
 *   with the inventory area's conditional UPDATE, then moved on the route from backorder_quantity to
 *   reserved_quantity with a conditional UPDATE (backorder_quantity >= n);
 * - for a kit, kits built from the warehouse's component stock (kit-backorders.ts), so component stock that
 *   arrives builds the kits waiting there.
 * When a parallel change took the route's backorder first (a cancel, a shipment, a re-route), the stock is
 * given back and the route read again; when a parallel order took the stock first, it is read again; these
 * re-reads are bounded, and whatever is left waits for the next stock change. The units owed on a route
 * (reserved + backorder) do not change, so fulfillment orders and routing_info stay as they are: only where
 * the units come from changes.
 *
 * With a fulfillment port, lines still waiting for a place (an unknown SKU now carried by one of these
 * products, or no warehouse to wait in) are routed first, like a new order's lines
 * (route-unrouted-lines.ts): they are the oldest demand for the SKU (an order naming a known SKU never
 * waits unrouted). Their new routes need the fulfillment side (syncOrder), hence the port.
 *
 * Every order that got units moves its lastUpdatedTs (recomputeOrderStatus, as every change to an order
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

/**
 * Stock of one product arrived in one warehouse (an inbound receipt, a restocked return). Kept for its
 * callers; fillWaitingOrders does the work for any number of stock rows at once.
 */
export async function fillBackorders(
  tx: Tx,
  accountId: number,
  productId: number,
  warehouseId: number,
  now: Date,
  fulfillment?: FulfillmentPort,
): Promise<BackorderFill[]> {
  return fillWaitingOrders(tx, accountId, [{ productId, warehouseId }], now, fulfillment);
}

/**
 * These stock rows have units available after a change of this transaction: the orders waiting for them
 * take them. One existence check when nothing waits (waiting-work.ts).
 */
export async function fillWaitingOrders(
  tx: Tx,
  accountId: number,
  keys: readonly StockKey[],
  now: Date,
  fulfillment?: FulfillmentPort,
): Promise<BackorderFill[]> {
  const byWarehouse = new Map<number, number[]>();
  for (const k of keys) {
    const products = byWarehouse.get(k.warehouseId) ?? [];
    if (!products.includes(k.productId)) products.push(k.productId);
    byWarehouse.set(k.warehouseId, products);
  }
  if (byWarehouse.size === 0) return [];
  const work = await waitingWork(tx, accountId, byWarehouse);
  const changed = new Set<number>();
  if (work.unrouted && fulfillment) {
    const productIds = [...new Set(keys.map((k) => k.productId))];
    for (const orderId of await routeUnroutedLines(tx, accountId, productIds, now, fulfillment)) changed.add(orderId);
  }
  const fills: BackorderFill[] = [];
  const touched = new Set<number>();
  if (work.routes || work.kits) {
    for (const [warehouseId, productIds] of [...byWarehouse].sort((a, b) => a[0] - b[0])) {
      fills.push(...(await fillWarehouse(tx, accountId, warehouseId, productIds, work.kits, now, touched)));
    }
  }
  for (const f of fills) changed.add(f.orderId);
  if (touched.size > 0) await touchProductsInventory(tx, accountId, [...touched], now);
  for (const orderId of [...changed].sort((a, b) => a - b)) await recomputeOrderStatus(tx, accountId, orderId, now);
  return fills;
}

interface WaitingRoute {
  id: number;
  order_id: number;
  line_id: number;
  product_id: number;
  backorder_quantity: number;
  order_ts: string;
}

/** The routes waiting in one warehouse for the stock of some products, oldest order first. */
async function fillWarehouse(
  tx: Tx,
  accountId: number,
  warehouseId: number,
  productIds: readonly number[],
  withKits: boolean,
  now: Date,
  touched: Set<number>,
): Promise<BackorderFill[]> {
  // The products whose waiting routes this stock serves: the products themselves, and kits built from them.
  const kits: Map<number, RecipeLine[]> = withKits ? await kitsContaining(tx, accountId, productIds) : new Map();
  const served = [...new Set([...productIds, ...kits.keys()])];
  const stock = new WarehouseStock(tx, accountId, warehouseId);
  await stock.load([...served, ...[...kits.values()].flat().map((c) => c.componentProductId)]);
  // Only products the warehouse can still give something of are worth reading routes for.
  const stillServed = () => served.filter((id) => stock.available(id) > 0 || buildable(kits.get(id) ?? [], stock) > 0);
  const backorderOf = async (routeId: number): Promise<number> => {
    const row = await tx.selectFrom('order_line_routes').select('backorder_quantity').where('account_id', '=', accountId).where('id', '=', routeId).executeTakeFirst();
    return row?.backorder_quantity ?? 0;
  };

  const fills: BackorderFill[] = [];
  let after: { ts: string; id: number } | null = null;
  let races = 0;
  for (let serving = stillServed(); serving.length > 0 && races <= MAX_RACE_RETRIES; serving = stillServed()) {
    const routes: WaitingRoute[] = await waitingRoutes(tx, accountId, warehouseId, serving, after);
    for (const route of routes) {
      const productId = route.product_id;
      let backorder = route.backorder_quantity;
      // The route's own SKU first (for a kit: assembled kits), as routing takes it first.
      while (backorder > 0 && stock.available(productId) > 0 && races <= MAX_RACE_RETRIES) {
        const units = Math.min(backorder, stock.available(productId));
        if (!(await reserveStock(tx, accountId, productId, warehouseId, units, now))) {
          races += 1;
          await stock.load([productId]);
          continue;
        }
        const moved = await tx
          .updateTable('order_line_routes')
          .set((eb) => ({
            backorder_quantity: eb('backorder_quantity', '-', units),
            reserved_quantity: eb('reserved_quantity', '+', units),
            assembled_quantity: sql<number | null>`case when ${eb.ref('assembled_quantity')} is null then null else ${eb.ref('assembled_quantity')} + ${units} end`,
            updated_at: now.toISOString(),
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
          await stock.load([productId]);
          continue;
        }
        await recordReservation(tx, accountId, productId, warehouseId, route.line_id, units, now);
        fills.push({ orderId: route.order_id, lineId: route.line_id, routeId: route.id, units });
        touched.add(productId);
        stock.take(productId, units);
        backorder -= units;
      }
      // Then, for a kit, kits built from the components here.
      while (backorder > 0 && kits.has(productId) && races <= MAX_RACE_RETRIES) {
        const build = await buildWaitingKits(tx, accountId, route.id, backorder, stock, now);
        if ('race' in build) {
          races += 1;
          backorder = await backorderOf(route.id);
          continue;
        }
        if (build.built === 0) break;
        fills.push({ orderId: route.order_id, lineId: route.line_id, routeId: route.id, units: build.built });
        for (const id of [productId, ...build.components]) touched.add(id);
        backorder -= build.built;
      }
      if (stillServed().length === 0) break;
    }
    const last = routes[routes.length - 1];
    if (routes.length < BATCH || !last) break;
    after = { ts: last.order_ts, id: last.id };
  }
  return fills;
}

/** The next batch of backordered routes of these products in the warehouse, oldest order first. */
function waitingRoutes(tx: Tx, accountId: number, warehouseId: number, productIds: readonly number[], after: { ts: string; id: number } | null) {
  let query = tx
    .selectFrom('order_line_routes as r')
    .innerJoin('sales_orders as o', (j) => j.onRef('o.id', '=', 'r.order_id').on('o.account_id', '=', accountId))
    .select(['r.id', 'r.order_id', 'r.line_id', 'r.product_id', 'r.backorder_quantity', 'o.order_ts'])
    .where('r.account_id', '=', accountId)
    .where('r.warehouse_id', '=', warehouseId)
    .where('r.product_id', 'in', [...productIds])
    .where('r.backorder_quantity', '>', WAITING);
  if (after !== null) query = query.where((eb) => eb(eb.refTuple('o.order_ts', 'r.id'), '>', eb.tuple(after.ts, after.id)));
  return query.orderBy('o.order_ts').orderBy('r.id').limit(BATCH).execute();
}

/**
 * The stock rows some routes' reserved units come from: the routes' own SKU and, for kit routes, their
 * components (in the route's warehouse). What a release of those units (a cancellation, a re-route) made
 * available again, for fillWaitingOrders.
 */
export async function stockKeysOfRoutes(tx: Tx, accountId: number, routeIds: readonly number[]): Promise<StockKey[]> {
  if (routeIds.length === 0) return [];
  const ids = [...new Set(routeIds)];
  const [own, components] = await Promise.all([
    tx.selectFrom('order_line_routes').select(['product_id', 'warehouse_id']).where(accountFilterById(accountId)).where('id', 'in', ids).execute(),
    tx
      .selectFrom('order_route_kit_components as c')
      .innerJoin('order_line_routes as r', (j) => j.onRef('r.id', '=', 'c.route_id').on('r.account_id', '=', accountId))
      .select(['c.component_product_id as product_id', 'r.warehouse_id'])
      .where('c.account_id', '=', accountId)
      .where('c.route_id', 'in', ids)
      .execute(),
  ]);
  return [...own, ...components].map((r) => ({ productId: Number(r.product_id), warehouseId: Number(r.warehouse_id) }));
}
