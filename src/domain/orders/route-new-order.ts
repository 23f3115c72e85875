import type { Selectable } from 'kysely';
import { argRow, compiledBySize, everyColumn, rowArgsOf } from '../../db/compiled.js';
import type { OrderLineRoutesTable } from '../../db/schema.js';
import type { Tx } from '../../db/tx.js';
import type { WarehouseRow } from '../accounts/warehouses.js';
import { availableByProduct, holdStockRow, recordReservations, reserveStockLeaving, type LedgerEntry } from '../inventory/reserved-stock.js';
import { touchProductsInventory } from '../inventory/stock-touch.js';
import { routeLine, routeRowOf, type LineToRoute, type RoutingPlace } from './routing.js';

/**
 * Routing of a new order's lines (the rules are routing.ts's), in as few statements as the rules allow:
 * the candidates' stock of every SKU is read once, each placement is still one conditional UPDATE (a lost
 * race re-reads that SKU, as routeLine does), and the ledger rows, routes and inventory timestamps of all
 * lines are written with one statement each. An order with a kit line takes routeLine line by line (kits
 * reserve component stock, which the one read could not see).
 */

export type RouteRow = Selectable<OrderLineRoutesTable>;

/** As routing.ts: re-reads after lost races are bounded; what is still unplaced is backordered. */
const MAX_PLACEMENT_ATTEMPTS = 50;

const ROUTE_COLUMNS = everyColumn<RouteInsert>()([
  'account_id',
  'order_id',
  'line_id',
  'warehouse_id',
  'product_id',
  'quantity',
  'reserved_quantity',
  'backorder_quantity',
  'shipped_quantity',
  'cancelled_quantity',
  'assembled_quantity',
  'routed_at',
  'updated_at',
]);
type RouteInsert = Omit<RouteRow, 'id'>;
const insertRoutes = compiledBySize<RouteRow, Record<string, unknown>>((db, arg, n) =>
  db
    .insertInto('order_line_routes')
    .values(Array.from({ length: n }, (_, i) => argRow<RouteInsert>(arg, i, ROUTE_COLUMNS)))
    .returningAll(),
);

/** The candidate with the most available units (ties: lowest warehouse id), as mostAvailable picks it. */
function bestCandidate(stock: Map<number, number>, candidates: readonly number[]): { warehouseId: number; available: number } | null {
  let best: { warehouseId: number; available: number } | null = null;
  for (const warehouseId of candidates) {
    const available = stock.get(warehouseId) ?? 0;
    if (available <= 0) continue;
    if (!best || available > best.available || (available === best.available && warehouseId < best.warehouseId)) best = { warehouseId, available };
  }
  return best;
}

/** What routing a new order's lines did: its routes, and the units of each line that found no place. */
export interface NewOrderRouting {
  /** The routes written, or null when the order has a kit line (the caller reads them back). */
  routes: RouteRow[] | null;
  /** Line id → units routed nowhere (no default warehouse): the line's unrouted_quantity. */
  unrouted: Map<number, number>;
}

/**
 * Routes the lines of a new order (sorted by product, then line: the lock order). An order with a kit line
 * (`hasKitLine`) takes routeLine line by line and answers routes null: the caller reads them back.
 */
export async function routeNewOrderLines(
  tx: Tx,
  accountId: number,
  orderId: number,
  lines: readonly Omit<LineToRoute, 'orderId'>[],
  candidates: number[],
  fallback: WarehouseRow | null,
  now: Date,
  hasKitLine: boolean,
): Promise<NewOrderRouting> {
  const unrouted = new Map<number, number>();
  if (lines.length === 0) return { routes: [], unrouted };
  const productIds = [...new Set(lines.map((l) => l.productId))];
  if (hasKitLine) {
    for (const line of lines) {
      const places = await routeLine(tx, accountId, { ...line, orderId }, candidates, fallback, now);
      const left = line.quantity - places.reduce((n, p) => n + p.reserved + p.backordered, 0);
      if (left > 0) unrouted.set(line.lineId, left);
    }
    return { routes: null, unrouted };
  }
  const stock = candidates.length > 0 ? await availableByProduct(tx, accountId, productIds) : new Map<number, Map<number, number>>();
  const ledger: LedgerEntry[] = [];
  const iso = now.toISOString();
  const routes: RouteInsert[] = [];
  const touched = new Set<number>();
  for (const line of lines) {
    const placed = new Map<number, RoutingPlace>();
    const place = (warehouseId: number) => {
      let entry = placed.get(warehouseId);
      if (!entry) placed.set(warehouseId, (entry = { warehouseId, reserved: 0, backordered: 0 }));
      return entry;
    };
    let remaining = line.quantity;
    const placeFrom = async (where: readonly number[]) => {
      for (let attempt = 0; remaining > 0 && where.length > 0 && attempt < MAX_PLACEMENT_ATTEMPTS; attempt++) {
        const productStock = stock.get(line.productId)!;
        const top = bestCandidate(productStock, where);
        if (!top) break;
        const take = Math.min(remaining, top.available);
        const left = await reserveStockLeaving(tx, accountId, line.productId, top.warehouseId, take, now);
        if (left === null) {
          // A parallel order took units first: read this SKU's stock again, as routeLine would.
          stock.set(line.productId, (await availableByProduct(tx, accountId, [line.productId])).get(line.productId)!);
          continue;
        }
        productStock.set(top.warehouseId, left);
        place(top.warehouseId).reserved += take;
        remaining -= take;
      }
    };
    await placeFrom(candidates);
    if (remaining > 0 && fallback) {
      // As routeLine: the backorder is placed while holding the default warehouse's stock row, taking what
      // a parallel change added there meanwhile.
      const free = await holdStockRow(tx, accountId, line.productId, fallback.id, now);
      if (free > 0) {
        stock.get(line.productId)!.set(fallback.id, free);
        await placeFrom([fallback.id]);
      }
      if (remaining > 0) place(fallback.id).backordered += remaining;
    } else if (remaining > 0) unrouted.set(line.lineId, remaining);
    for (const p of placed.values()) {
      if (p.reserved > 0) {
        ledger.push({ productId: line.productId, warehouseId: p.warehouseId, lineId: line.lineId, units: p.reserved });
        touched.add(line.productId);
      }
      routes.push(routeRowOf(accountId, { ...line, orderId }, p, null, iso));
    }
  }
  await recordReservations(tx, accountId, ledger, now);
  const written = routes.length === 0 ? [] : await insertRoutes.all(tx, routes.length, rowArgsOf(routes, ROUTE_COLUMNS));
  await touchProductsInventory(tx, accountId, [...touched], now);
  return { routes: written, unrouted };
}
