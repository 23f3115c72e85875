import { sql, type CompiledQuery, type Selectable } from 'kysely';
import { argList, argRow, compiledBySize, compiledStatement, everyColumn, listArgsOf, readAhead, rowArgsOf, runEach } from '../../db/fast-paths.js';
import { mostAvailableOf } from './most-available.js';
import type { InventoryReservationsTable } from '../../db/schema.js';
import { isPostgres } from '../../db/dialect.js';
import type { Tx } from '../../db/tx.js';
import { ensureStockRow } from './stock.js';

/**
 * Stock held by order lines, as the inventory area keeps it: reserved_quantity of the counters and the
 * inventory_reservations ledger (one row per line and warehouse; POST /v1/inventory reads it for pulled_ts).
 * The orders area decides what to hold and calls these. Every counter change is ONE conditional UPDATE that
 * keeps available = on-hand − reserved and never takes available below zero, so parallel orders for the
 * last units cannot oversell and parallel releases never give back more than was held.
 */

const reserveStatement = compiledStatement<{ available_quantity: number }, { accountId: number; productId: number; warehouseId: number; units: number; iso: string }>((db, arg) =>
  db
    .updateTable('inventory')
    .set((eb) => ({
      available_quantity: eb('available_quantity', '-', arg<number>('units')),
      reserved_quantity: eb('reserved_quantity', '+', arg<number>('units')),
      updated_at: arg('iso'),
    }))
    .where('account_id', '=', arg<number>('accountId'))
    .where('product_id', '=', arg<number>('productId'))
    .where('warehouse_id', '=', arg<number>('warehouseId'))
    .where('available_quantity', '>=', arg<number>('units'))
    .returning('available_quantity'),
);

/** Moves `units` from available to reserved when at least that many are available; false otherwise. */
export async function reserveStock(tx: Tx, accountId: number, productId: number, warehouseId: number, units: number, now: Date): Promise<boolean> {
  return (await reserveStockLeaving(tx, accountId, productId, warehouseId, units, now)) !== null;
}

/** reserveStock that answers the units still available afterwards (null: not reserved, too few available). */
export async function reserveStockLeaving(tx: Tx, accountId: number, productId: number, warehouseId: number, units: number, now: Date): Promise<number | null> {
  const row = await reserveStatement.first(tx, { accountId, productId, warehouseId, units, iso: now.toISOString() });
  return row ? Number(row.available_quantity) : null;
}

/** One row of reserveStockRowsAhead: `units` to move from available to reserved in a warehouse. */
export interface StockTake {
  productId: number;
  warehouseId: number;
  units: number;
}

const reserveRowsStatement = compiledBySize<{ product_id: number; warehouse_id: number; available_quantity: number }, Record<string, unknown>>((db, arg, n) => {
  const withValues = db
    // Casts give PostgreSQL the values' types (bare parameters in VALUES would be text); SQLite takes them as is.
    .with('v(product_id, warehouse_id, units)', () =>
      sql<{ product_id: number; warehouse_id: number; units: number }>`(values ${sql.join(
        Array.from({ length: n }, (_, i) => sql`(cast(${arg(`p${i}`)} as bigint), cast(${arg(`w${i}`)} as bigint), cast(${arg(`u${i}`)} as bigint))`),
      )})`,
    );
  // PostgreSQL: the rows are locked first, by product then warehouse (the lock order of every stock writer,
  // stock-locks.ts); an UPDATE … FROM alone locks them in whatever order its join reads them (a hash join
  // reads the table in storage order), and parallel orders deadlocked. SQLite has one writer at a time: the
  // same statement without the lock.
  return (
    withValues
      .with('locked', (qb) =>
        qb
          .selectFrom('inventory as i')
          .innerJoin('v', (j) => j.onRef('v.product_id', '=', 'i.product_id').onRef('v.warehouse_id', '=', 'i.warehouse_id'))
          .select('i.id')
          .where('i.account_id', '=', arg<number>('accountId'))
          .orderBy('i.product_id')
          .orderBy('i.warehouse_id')
          .$if(isPostgres(db), (q) => q.forUpdate('i')),
      )
      .updateTable('inventory')
      .from('v')
      // reserveStatement's change, row by row: only where at least that many units are available.
      .set((eb) => ({
        available_quantity: eb('available_quantity', '-', eb.ref('v.units')),
        reserved_quantity: eb('reserved_quantity', '+', eb.ref('v.units')),
        updated_at: arg('iso'),
      }))
      .where('inventory.account_id', '=', arg<number>('accountId'))
      .whereRef('inventory.product_id', '=', 'v.product_id')
      .whereRef('inventory.warehouse_id', '=', 'v.warehouse_id')
      .where('inventory.id', 'in', (eb) => eb.selectFrom('locked').select('locked.id'))
      .where(sql<boolean>`${sql.ref('inventory.available_quantity')} >= ${sql.ref('v.units')}`)
      .returning(['inventory.product_id', 'inventory.warehouse_id', 'inventory.available_quantity'])
  );
});

/**
 * reserveStockLeaving for several stock rows in one statement, sent ahead (src/db/unanswered.ts): what the
 * caller sends next shares its round trip, and the answer is taken after. Each row is reserved or not on its
 * own, by the same rule; takes must name distinct rows, sorted by product then warehouse (the lock order). The
 * answer: the units still available in each row reserved, by "product:warehouse"; a row missing from it was not
 * reserved (too few available, or no stock row).
 */
export async function reserveStockRowsAhead(tx: Tx, accountId: number, takes: readonly StockTake[], now: Date): Promise<() => Promise<Map<string, number>>> {
  if (takes.length === 0) return () => Promise.resolve(new Map());
  const args: Record<string, unknown> = { accountId, iso: now.toISOString() };
  takes.forEach((t, i) => {
    args[`p${i}`] = t.productId;
    args[`w${i}`] = t.warehouseId;
    args[`u${i}`] = t.units;
  });
  const answer = await readAhead(tx, reserveRowsStatement.bound(tx, takes.length, args));
  return async () => new Map((await answer()).map((r) => [`${Number(r.product_id)}:${Number(r.warehouse_id)}`, Number(r.available_quantity)]));
}

const holdStatement = compiledStatement<{ available_quantity: number }, { accountId: number; productId: number; warehouseId: number }>((db, arg) =>
  db
    .updateTable('inventory')
    .set((eb) => ({ available_quantity: eb.ref('available_quantity') }))
    .where('account_id', '=', arg<number>('accountId'))
    .where('product_id', '=', arg<number>('productId'))
    .where('warehouse_id', '=', arg<number>('warehouseId'))
    .returning('available_quantity'),
);

/**
 * Holds a product's stock row in a warehouse until the transaction ends (creating it at zero when missing)
 * and answers the units available there now. Routing places a backorder only while holding the row, so a
 * parallel change adding stock there cannot miss it: either that change committed first (then the units
 * show here and are reserved instead of backordered), or its conditional UPDATE waits for this transaction
 * and its backorder fill, which runs after that UPDATE, sees the backorder. (On PostgreSQL an UPDATE that
 * waited reads the row as the other transaction left it; SQLite runs one writer at a time anyway.)
 */
export async function holdStockRow(tx: Tx, accountId: number, productId: number, warehouseId: number, now: Date): Promise<number> {
  await ensureStockRow(tx, accountId, productId, warehouseId, now);
  const row = await holdStatement.first(tx, { accountId, productId, warehouseId });
  return row ? Number(row.available_quantity) : 0;
}

/** Gives reserved units back to available; false when the counters hold fewer reserved units. */
export async function unreserveStock(tx: Tx, accountId: number, productId: number, warehouseId: number, units: number, now: Date): Promise<boolean> {
  const row = await tx
    .updateTable('inventory')
    .set((eb) => ({
      available_quantity: eb('available_quantity', '+', units),
      reserved_quantity: eb('reserved_quantity', '-', units),
      updated_at: now.toISOString(),
    }))
    .where('account_id', '=', accountId)
    .where('product_id', '=', productId)
    .where('warehouse_id', '=', warehouseId)
    .where('reserved_quantity', '>=', units)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Reserved units that left the warehouse: reserved and on-hand both drop, available stays. A stock count may
 * have set on-hand below what orders hold (available floored at zero): on-hand then floors at zero too, and
 * available stays max(0, on-hand − reserved), unchanged either way. Shipped assembled kits leave the seller's
 * assembled count too (null for other SKUs stays null). False when the counters hold fewer reserved units.
 */
export async function shipReservedStock(tx: Tx, accountId: number, productId: number, warehouseId: number, units: number, now: Date): Promise<boolean> {
  const row = await tx
    .updateTable('inventory')
    .set((eb) => ({
      reserved_quantity: eb('reserved_quantity', '-', units),
      assembled_quantity: sql<number | null>`case when ${eb.ref('assembled_quantity')} >= ${units} then ${eb.ref('assembled_quantity')} - ${units} when ${eb.ref('assembled_quantity')} is null then null else 0 end`,
      onhand_quantity: sql<number>`case when ${eb.ref('onhand_quantity')} >= ${units} then ${eb.ref('onhand_quantity')} - ${units} else 0 end`,
      available_quantity: sql<number>`case when ${eb.ref('onhand_quantity')} - ${eb.ref('reserved_quantity')} > 0 then ${eb.ref('onhand_quantity')} - ${eb.ref('reserved_quantity')} else 0 end`,
      updated_at: now.toISOString(),
    }))
    .where('account_id', '=', accountId)
    .where('product_id', '=', productId)
    .where('warehouse_id', '=', warehouseId)
    .where('reserved_quantity', '>=', units)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a line's reservation in the ledger (one row per line and warehouse; quantities add up). */
export async function recordReservation(
  tx: Tx,
  accountId: number,
  productId: number,
  warehouseId: number,
  lineId: number,
  units: number,
  now: Date,
): Promise<void> {
  await tx
    .insertInto('inventory_reservations')
    .values({ account_id: accountId, product_id: productId, warehouse_id: warehouseId, order_line_id: lineId, quantity: units, routed_at: now.toISOString() })
    .onConflict((oc) =>
      oc.columns(['account_id', 'order_line_id', 'warehouse_id']).doUpdateSet((eb) => ({
        quantity: eb('inventory_reservations.quantity', '+', eb.ref('excluded.quantity')),
      })),
    )
    .execute();
}

export interface LedgerEntry {
  productId: number;
  warehouseId: number;
  lineId: number;
  units: number;
}

const LEDGER_COLUMNS = everyColumn<LedgerInsert>()(['account_id', 'product_id', 'warehouse_id', 'order_line_id', 'quantity', 'routed_at']);
type LedgerInsert = Omit<Selectable<InventoryReservationsTable>, 'id'>;
const insertLedgerRows = compiledBySize<never, Record<string, unknown>>((db, arg, n) =>
  db
    .insertInto('inventory_reservations')
    .values(Array.from({ length: n }, (_, i) => argRow<LedgerInsert>(arg, i, LEDGER_COLUMNS)))
    .onConflict((oc) =>
      oc.columns(['account_id', 'order_line_id', 'warehouse_id']).doUpdateSet((eb) => ({
        quantity: eb('inventory_reservations.quantity', '+', eb.ref('excluded.quantity')),
      })),
    ),
);

/**
 * recordReservation for several lines in one statement. Entries must name distinct (line, warehouse)
 * pairs (one statement cannot update the same ledger row twice on PostgreSQL).
 */
export async function recordReservations(tx: Tx, accountId: number, entries: readonly LedgerEntry[], now: Date): Promise<void> {
  await runEach(tx, reservationWrites(tx, accountId, entries, now));
}

/** recordReservations' statement (none for no entries), to run with another write (src/db/companion-writes.ts). */
export function reservationWrites(tx: Tx, accountId: number, entries: readonly LedgerEntry[], now: Date): CompiledQuery[] {
  if (entries.length === 0) return [];
  const iso = now.toISOString();
  const rows: LedgerInsert[] = entries.map((e) => ({ account_id: accountId, product_id: e.productId, warehouse_id: e.warehouseId, order_line_id: e.lineId, quantity: e.units, routed_at: iso }));
  return [insertLedgerRows.bound(tx, rows.length, rowArgsOf(rows, LEDGER_COLUMNS))];
}

/** A line's ledger row in a warehouse holds `units` fewer (released or shipped). */
export async function reduceReservation(tx: Tx, accountId: number, lineId: number, warehouseId: number, units: number): Promise<void> {
  await tx
    .updateTable('inventory_reservations')
    .set((eb) => ({ quantity: eb('quantity', '-', units) }))
    .where('account_id', '=', accountId)
    .where('order_line_id', '=', lineId)
    .where('warehouse_id', '=', warehouseId)
    .where('quantity', '>=', units)
    .execute();
}

/** The candidate warehouse holding the most available units of the product (ties: lowest id), if any. */
export async function mostAvailable(tx: Tx, accountId: number, productId: number, candidates: number[]) {
  if (candidates.length === 0) return undefined;
  // The candidates' rows are read and the rule picks among them (most-available.ts), so the choice is made in
  // one place: a new order's one-statement plan picks from its snapshot with the same function.
  const rows = await tx
    .selectFrom('inventory')
    .select(['warehouse_id', 'available_quantity'])
    .where('account_id', '=', accountId)
    .where('product_id', '=', productId)
    .where('warehouse_id', 'in', candidates)
    .where('available_quantity', '>', 0)
    .execute();
  const top = mostAvailableOf(new Map(rows.map((r) => [Number(r.warehouse_id), Number(r.available_quantity)])), candidates);
  return top ? { warehouse_id: top.warehouseId, available_quantity: top.available } : undefined;
}

/** Available units (> 0) of some products in some warehouses, keyed "warehouseId:productId". */
export async function availableUnits(tx: Tx, accountId: number, productIds: number[], warehouseIds: number[]): Promise<Map<string, number>> {
  if (productIds.length === 0 || warehouseIds.length === 0) return new Map();
  const rows = await tx
    .selectFrom('inventory')
    .select(['warehouse_id', 'product_id', 'available_quantity'])
    .where('account_id', '=', accountId)
    .where('product_id', 'in', productIds)
    .where('warehouse_id', 'in', warehouseIds)
    .where('available_quantity', '>', 0)
    .execute();
  return new Map(rows.map((r) => [`${r.warehouse_id}:${r.product_id}`, r.available_quantity]));
}

const availableOfProducts = compiledBySize<{ product_id: number; warehouse_id: number; available_quantity: number }, Record<string, unknown>>((db, arg, n) =>
  db
    .selectFrom('inventory')
    .select(['product_id', 'warehouse_id', 'available_quantity'])
    .where('account_id', '=', arg<number>('accountId'))
    .where('product_id', 'in', argList<number>(arg, 'p', n))
    .where('available_quantity', '>', 0),
);

/** Available units (> 0) of some products in every warehouse of the account, by product then warehouse. */
export async function availableByProduct(tx: Tx, accountId: number, productIds: readonly number[]): Promise<Map<number, Map<number, number>>> {
  const byProduct = new Map<number, Map<number, number>>(productIds.map((id) => [id, new Map()]));
  if (productIds.length === 0) return byProduct;
  for (const r of await availableOfProducts.all(tx, productIds.length, { accountId, ...listArgsOf('p', productIds) })) {
    byProduct.get(Number(r.product_id))?.set(Number(r.warehouse_id), Number(r.available_quantity));
  }
  return byProduct;
}

const availableOfSkus = compiledBySize<{ product_id: number; warehouse_id: number; available_quantity: number }, Record<string, unknown>>((db, arg, n) =>
  db
    .selectFrom('products as p')
    .innerJoin('inventory as i', 'i.product_id', 'p.id')
    .select(['i.product_id', 'i.warehouse_id', 'i.available_quantity'])
    .where('p.account_id', '=', arg<number>('accountId'))
    .where('p.sku', 'in', argList<string>(arg, 's', n))
    .where('i.account_id', '=', arg<number>('accountId'))
    .where('i.available_quantity', '>', 0),
);

/**
 * availableByProduct for the products of these exact SKUs, sent ahead (src/db/unanswered.ts) before the products
 * are known: a new order reads its stock in the round trip of its SKU lookup. The answer is taken with the
 * products found; one whose SKU is not among `skus` (a case-insensitive match) is read by id then.
 */
export async function availableBySkuAhead(
  tx: Tx,
  accountId: number,
  skus: readonly string[],
): Promise<(products: readonly { id: number; sku: string }[]) => Promise<Map<number, Map<number, number>>>> {
  const answer = skus.length === 0 ? null : await readAhead(tx, availableOfSkus.bound(tx, skus.length, { accountId, ...listArgsOf('s', skus) }));
  const read = new Set(skus);
  return async (products) => {
    const byProduct = await availableByProduct(tx, accountId, products.filter((p) => !read.has(p.sku)).map((p) => p.id));
    for (const p of products) if (read.has(p.sku)) byProduct.set(p.id, new Map());
    for (const r of answer ? await answer() : []) byProduct.get(Number(r.product_id))?.set(Number(r.warehouse_id), Number(r.available_quantity));
    return byProduct;
  };
}

