import type { CompiledQuery, Selectable } from 'kysely';
import { argRow, compiledBySize, everyColumn, rowArgsOf, runEach, savepointAhead, writeWithCompanions } from '../../db/fast-paths.js';
import type { OrderLineRoutesTable } from '../../db/schema.js';
import type { Tx } from '../../db/tx.js';
import type { WarehouseRow } from '../accounts/warehouses.js';
import { availableByProduct, holdStockRow, reservationWrites, reserveStockLeaving, reserveStockRowsAhead, type LedgerEntry, type StockTake } from '../inventory/reserved-stock.js';
import { mostAvailableOf } from '../inventory/most-available.js';
import { productTouchWrites, refreshProductCopies, touchAndLockAhead, type CopiesHeld } from '../inventory/stock-touch.js';
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
const insertRoutes = compiledBySize<never, Record<string, unknown>>((db, arg, n) =>
  db.insertInto('order_line_routes').values(Array.from({ length: n }, (_, i) => argRow<RouteInsert>(arg, i, ROUTE_COLUMNS))),
);

/** The next placement of `remaining` units: as many as the routing rule's pick holds, at most all of them. */
function nextTake(stock: Map<number, number>, candidates: readonly number[], remaining: number): { warehouseId: number; available: number; units: number } | null {
  const top = mostAvailableOf(stock, candidates);
  return top && { ...top, units: Math.min(remaining, top.available) };
}

/**
 * The common case in one statement: when the lines' SKUs are distinct and each line can be placed whole in
 * the candidates by the snapshot `stock`, the reservations the line by line placement would make (the same
 * warehouses, the same units: nextTake on the snapshot, a line at a time) are made by one conditional
 * UPDATE (reserveStockRowsAhead) instead of one each. Anything else (a repeated SKU, a line that needs the default
 * warehouse or a backorder) reserves nothing here.
 *
 * The products' inventory timestamps and their listing variants' lock go right behind that UPDATE, before its
 * answer (touchAndLockAhead): on PostgreSQL the three share one round trip. All of it is an attempt behind a
 * savepoint: if a parallel order left any row too short, the attempt is rolled back, and with it every lock it
 * took (the rows it locked to reserve, the products, the variants), the planned products' stock is read again
 * and every line goes on line by line, as after a lost race there. Keeping those locks while reserving other
 * rows would take them out of the order every stock writer uses, and parallel orders deadlocked.
 * Answers, by line, what was reserved, and what was touched and locked (null when nothing was); updates
 * `stock` to what the database answered.
 */
async function reserveWhollyPlaceableLines(
  tx: Tx,
  accountId: number,
  lines: readonly Omit<LineToRoute, 'orderId'>[],
  stock: Map<number, Map<number, number>>,
  candidates: readonly number[],
  now: Date,
): Promise<{ byLine: Map<number, StockTake[]>; held: CopiesHeld | null }> {
  const byLine = new Map<number, StockTake[]>();
  const nothing = { byLine, held: null };
  if (lines.length === 0 || candidates.length === 0 || new Set(lines.map((l) => l.productId)).size !== lines.length) return nothing;
  const planned: { lineId: number; take: StockTake }[] = [];
  for (const line of lines) {
    const snapshot = new Map(stock.get(line.productId)!);
    let remaining = line.quantity;
    for (let attempt = 0; remaining > 0 && attempt < MAX_PLACEMENT_ATTEMPTS; attempt++) {
      const take = nextTake(snapshot, candidates, remaining);
      if (!take) break;
      snapshot.set(take.warehouseId, take.available - take.units);
      planned.push({ lineId: line.lineId, take: { productId: line.productId, warehouseId: take.warehouseId, units: take.units } });
      remaining -= take.units;
    }
    if (remaining > 0) return nothing;
  }
  // Distinct products, distinct warehouses per line: every take is a row of its own, in the lock order.
  planned.sort((a, b) => a.take.productId - b.take.productId || a.take.warehouseId - b.take.warehouseId);
  // Behind a savepoint: if any row falls short, the whole attempt is rolled back, locks included (see above).
  const attempt = await savepointAhead(tx);
  const reserved = await reserveStockRowsAhead(tx, accountId, planned.map((p) => p.take), now);
  const lock = await touchAndLockAhead(tx, accountId, planned.map((p) => p.take.productId), now);
  // The lock's answer is the last of the round trip: by then the reservation's has come too (one wait, not two).
  const held = await lock();
  const left = await reserved();
  if (planned.some(({ take }) => !left.has(`${take.productId}:${take.warehouseId}`))) {
    await attempt.undo();
    const fresh = await availableByProduct(tx, accountId, [...new Set(planned.map((p) => p.take.productId))]);
    for (const [productId, rows] of fresh) stock.set(productId, rows);
    return nothing;
  }
  for (const { lineId, take } of planned) {
    stock.get(take.productId)!.set(take.warehouseId, left.get(`${take.productId}:${take.warehouseId}`)!);
    const list = byLine.get(lineId) ?? [];
    list.push(take);
    byLine.set(lineId, list);
  }
  return { byLine, held };
}

/** What routing a new order's lines did: its routes, and the units of each line that found no place. */
export interface NewOrderRouting {
  /** The routes written (as sent: without their ids), or null when the order has a kit line (the caller reads them back). */
  routes: Omit<RouteRow, 'id'>[] | null;
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
  /**
   * The order's other writes nobody reads back (its search index): written with the routes, in the same
   * statement on PostgreSQL (src/db/companion-writes.ts), and always written, whatever is routed.
   */
  companions: readonly CompiledQuery[] = [],
  /** The candidates' stock of the lines' products, read ahead by the caller (else read here). */
  stockAhead: (() => Promise<Map<number, Map<number, number>>>) | null = null,
): Promise<NewOrderRouting> {
  const unrouted = new Map<number, number>();
  if (lines.length === 0) {
    await runEach(tx, companions);
    return { routes: [], unrouted };
  }
  const productIds = [...new Set(lines.map((l) => l.productId))];
  if (hasKitLine) {
    await runEach(tx, companions);
    for (const line of lines) {
      const places = await routeLine(tx, accountId, { ...line, orderId }, candidates, fallback, now);
      const left = line.quantity - places.reduce((n, p) => n + p.reserved + p.backordered, 0);
      if (left > 0) unrouted.set(line.lineId, left);
    }
    return { routes: null, unrouted };
  }
  const stock = stockAhead
    ? await stockAhead()
    : candidates.length > 0
      ? await availableByProduct(tx, accountId, productIds)
      : new Map<number, Map<number, number>>();
  const ledger: LedgerEntry[] = [];
  const iso = now.toISOString();
  const routes: RouteInsert[] = [];
  const touched = new Set<number>();
  const { byLine: reservedAhead, held } = await reserveWhollyPlaceableLines(tx, accountId, lines, stock, candidates, now);
  for (const line of lines) {
    const placed = new Map<number, RoutingPlace>();
    const place = (warehouseId: number) => {
      let entry = placed.get(warehouseId);
      if (!entry) placed.set(warehouseId, (entry = { warehouseId, reserved: 0, backordered: 0 }));
      return entry;
    };
    let remaining = line.quantity;
    // What the one statement below reserved for this line already (the line by line placement goes on
    // from there, as after any reservation).
    for (const take of reservedAhead.get(line.lineId) ?? []) {
      place(take.warehouseId).reserved += take.units;
      remaining -= take.units;
    }
    const placeFrom = async (where: readonly number[]) => {
      for (let attempt = 0; remaining > 0 && where.length > 0 && attempt < MAX_PLACEMENT_ATTEMPTS; attempt++) {
        const productStock = stock.get(line.productId)!;
        const take = nextTake(productStock, where, remaining);
        if (!take) break;
        const left = await reserveStockLeaving(tx, accountId, line.productId, take.warehouseId, take.units, now);
        if (left === null) {
          // A parallel order took units first: read this SKU's stock again, as routeLine would.
          stock.set(line.productId, (await availableByProduct(tx, accountId, [line.productId])).get(line.productId)!);
          continue;
        }
        productStock.set(take.warehouseId, left);
        place(take.warehouseId).reserved += take.units;
        remaining -= take.units;
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
  // The ledger, the inventory timestamps of products not touched ahead and the companions go with the routes:
  // one statement on PostgreSQL, whose answer is not waited for (the view is built from `routes`). The
  // products are still written before their listing variants are locked, as everywhere.
  const touchNow = [...touched].filter((id) => !held?.products.has(id));
  const alsoWrite = [...companions, ...reservationWrites(tx, accountId, ledger, now), ...productTouchWrites(tx, accountId, touchNow, now)];
  if (routes.length > 0) await writeWithCompanions(tx, insertRoutes.bound(tx, routes.length, rowArgsOf(routes, ROUTE_COLUMNS)), alsoWrite);
  else await runEach(tx, alsoWrite);
  await refreshProductCopies(tx, accountId, [...touched], now, held);
  return { routes, unrouted };
}
