import { sql, type Insertable, type RawBuilder } from 'kysely';
import type { InventoryTable } from '../../db/schema.js';
import { compiledByShape, compiledStatement } from '../../db/fast-paths.js';
import type { Db } from '../../db/tx.js';
import { touchProductInventory } from './stock-touch.js';

/**
 * Stock counters per (product, warehouse). Every change is one conditional UPDATE … RETURNING (never
 * read-modify-write), so parallel updates neither lose nor double units. Invariant kept by every mode:
 * available = on-hand − reserved (reserved = units held by PENDING / PENDING_PAYMENT lines routed here).
 */
export type StockChange =
  /** v1 `quantity`: sets available; orders routed after `asOf` are subtracted (resolutions §3). */
  | { mode: 'available'; quantity: number; asOf?: Date | null }
  /** v1 `delta_quantity`: adds to available and on-hand (may be negative, never below zero). */
  | { mode: 'delta'; delta: number }
  /** v1 `onhand_quantity` and v2 absolute updates: sets on-hand. */
  | { mode: 'onhand'; quantity: number; asOf?: Date | null };

export interface StockRow {
  productId: number;
  warehouseId: number;
  available: number;
  onhand: number;
  reserved: number;
  assembled: number | null;
  binLocation: string | null;
  updatedAt: string;
}

export type StockResult =
  | { ok: true; row: StockRow }
  | { ok: false; reason: 'NEGATIVE'; message: string }
  | { ok: false; reason: 'STALE'; message: string };

export interface StockChangeOptions {
  binLocation?: string | null;
  /**
   * Observation time of an absolute update: an update observed before the one already held is
   * discarded as stale (v2 observedTs).
   */
  observedAt?: Date | null;
  rejectStale?: boolean;
  /**
   * Batch writers: the product is added here instead of being touched at once, and the caller touches
   * every collected product once before its transaction commits (touchProductsInventory).
   */
  touchLater?: Set<number>;
}

const RETURNING = [
  'product_id',
  'warehouse_id',
  'available_quantity',
  'onhand_quantity',
  'reserved_quantity',
  'assembled_quantity',
  'bin_location',
  'updated_at',
] as const;

type StockRowColumns = {
  product_id: number;
  warehouse_id: number;
  available_quantity: number;
  onhand_quantity: number;
  reserved_quantity: number;
  assembled_quantity: number | null;
  bin_location: string | null;
  updated_at: string;
};

function toStockRow(r: StockRowColumns): StockRow {
  return {
    productId: r.product_id,
    warehouseId: r.warehouse_id,
    available: r.available_quantity,
    onhand: r.onhand_quantity,
    reserved: r.reserved_quantity,
    assembled: r.assembled_quantity,
    binLocation: r.bin_location,
    updatedAt: r.updated_at,
  };
}

/** Units of still-open reservations routed to each stock row after `asOf`, keyed productId:warehouseId (0 when none). */
export async function unitsRoutedAfter(db: Db, accountId: number, keys: readonly { productId: number; warehouseId: number }[], asOf: Date): Promise<Map<string, number>> {
  const units = new Map<string, number>();
  if (keys.length === 0) return units;
  const rows = await db
    .selectFrom('inventory_reservations')
    .select(['product_id', 'warehouse_id'])
    .select((eb) => eb.fn.sum<number>('quantity').as('units'))
    .where('account_id', '=', accountId)
    .where('product_id', 'in', [...new Set(keys.map((k) => k.productId))])
    .where('warehouse_id', 'in', [...new Set(keys.map((k) => k.warehouseId))])
    .where('routed_at', '>', asOf.toISOString())
    .groupBy(['product_id', 'warehouse_id'])
    .execute();
  for (const r of rows) units.set(`${r.product_id}:${r.warehouse_id}`, Number(r.units));
  return units;
}

/** What an `available` count observed at asOf sets: the count less the units routed since, never below zero. */
export function availableAfterCount(quantity: number, routedSince: number): number {
  return Math.max(0, quantity - routedSince);
}

/** A stock row before any change: zero of everything. */
export function newStockRow(accountId: number, productId: number, warehouseId: number, iso: string): Insertable<InventoryTable> {
  return {
    account_id: accountId,
    product_id: productId,
    warehouse_id: warehouseId,
    available_quantity: 0,
    onhand_quantity: 0,
    reserved_quantity: 0,
    assembled_quantity: null,
    bin_location: null,
    observed_at: null,
    updated_at: iso,
  };
}

const insertStockRowIfMissing = compiledStatement<never, { accountId: number; productId: number; warehouseId: number; iso: string }>((db, arg) =>
  db
    .insertInto('inventory')
    .values(newStockRow(arg<number>('accountId'), arg<number>('productId'), arg<number>('warehouseId'), arg('iso')))
    .onConflict((oc) => oc.columns(['account_id', 'product_id', 'warehouse_id']).doNothing()),
);

export async function ensureStockRow(db: Db, accountId: number, productId: number, warehouseId: number, now: Date) {
  await insertStockRowIfMissing.all(db, { accountId, productId, warehouseId, iso: now.toISOString() });
}

/** The largest count a stock row holds (the columns are 32-bit integers on PostgreSQL). */
export const MAX_STOCK_UNITS = 2147483647;

/**
 * What a change of `mode` by `value` makes of a stock row's counters, as SQL over the row's own columns (never
 * read first): the one statement of the stock arithmetic, used by the single-row UPDATE below and by the
 * set-based writes (stock-rounds.ts). `refusable` is the condition a delta must meet (the available units
 * stay at or above zero); absolute changes have none.
 */
export function stockCountersAfter(
  mode: StockChange['mode'],
  value: RawBuilder<number>,
): { available: RawBuilder<number>; onhand: RawBuilder<number>; refusable: RawBuilder<boolean> | null } {
  const available = sql.ref<number>('available_quantity');
  const onhand = sql.ref<number>('onhand_quantity');
  const reserved = sql.ref<number>('reserved_quantity');
  if (mode === 'delta') {
    return { available: sql<number>`${available} + ${value}`, onhand: sql<number>`${onhand} + ${value}`, refusable: sql<boolean>`${available} + ${value} >= 0` };
  }
  if (mode === 'available') return { available: value, onhand: sql<number>`${value} + ${reserved}`, refusable: null };
  // Units routed after the count are still reserved (not yet shipped), so on-hand − reserved already
  // subtracts them; the floor at zero covers a count lower than what orders hold.
  return { available: sql<number>`case when ${value} - ${reserved} > 0 then ${value} - ${reserved} else 0 end`, onhand: value, refusable: null };
}

type StockUpdateArgs = { accountId: number; productId: number; warehouseId: number; value: number; iso: string; observedAt?: string; bin?: string };
/** The optional parts of a change's UPDATE, as the shape its compiled statement is kept under. */
type StockUpdateShape = `${StockChange['mode']}|${'observed' | ''}|${'strict' | ''}|${'bin' | ''}`;

/**
 * The conditional UPDATE of applyStockChange, one compiled statement per shape (mode, whether it records an
 * observation time, rejects stale ones, sets a bin location): every stock write runs one of these.
 */
const updateStock = compiledByShape<StockRowColumns, StockUpdateArgs, StockUpdateShape>((db, arg, shape) => {
  const [mode, observed, strict, bin] = shape.split('|');
  const value = arg<number>('value');
  let query = db
    .updateTable('inventory')
    .where('account_id', '=', arg<number>('accountId'))
    .where('product_id', '=', arg<number>('productId'))
    .where('warehouse_id', '=', arg<number>('warehouseId'));
  const counters = stockCountersAfter(mode as StockChange['mode'], sql<number>`${value}`);
  query = query.set({ available_quantity: counters.available, onhand_quantity: counters.onhand });
  if (counters.refusable) query = query.where(counters.refusable);
  if (observed) {
    const observedAt = arg('observedAt');
    // Never move the observation time backwards: v1 absolute updates run without the staleness check
    // and may carry an older pulled_ts than the one held (with rejectStale this equals observedAt).
    query = query.set((eb) => ({
      observed_at: sql<string>`case when ${eb.ref('observed_at')} is null or ${eb.ref('observed_at')} < ${observedAt} then ${observedAt} else ${eb.ref('observed_at')} end`,
    }));
    if (strict) query = query.where((eb) => eb.or([eb('observed_at', 'is', null), eb('observed_at', '<=', observedAt)]));
  }
  if (bin) query = query.set({ bin_location: arg('bin') });
  return query.set({ updated_at: arg('iso') }).returning(RETURNING);
});

/**
 * The conditional UPDATE of one change to an existing stock row, with `value` the delta or the quantity to
 * set (asOf already taken into account): the row after it, or undefined when the change was refused (a
 * delta below zero, a stale observation with rejectStale). Neither ensures the row nor touches the product.
 */
export async function updateStockRow(
  db: Db,
  accountId: number,
  productId: number,
  warehouseId: number,
  mode: StockChange['mode'],
  value: number,
  iso: string,
  options: { observedAt: string | null; rejectStale: boolean; bin: string | null },
): Promise<StockRowColumns | undefined> {
  const { observedAt, bin } = options;
  const shape: StockUpdateShape = `${mode}|${observedAt !== null ? 'observed' : ''}|${observedAt !== null && options.rejectStale ? 'strict' : ''}|${bin !== null ? 'bin' : ''}`;
  const args: StockUpdateArgs = { accountId, productId, warehouseId, value, iso };
  if (observedAt !== null) args.observedAt = observedAt;
  if (bin !== null) args.bin = bin;
  return (await updateStock.all(db, shape, args))[0];
}

/** Applies one change to one (product, warehouse) and moves the product's inventory timestamp. */
export async function applyStockChange(
  db: Db,
  accountId: number,
  productId: number,
  warehouseId: number,
  change: StockChange,
  now: Date,
  options: StockChangeOptions = {},
): Promise<StockResult> {
  await ensureStockRow(db, accountId, productId, warehouseId, now);
  const iso = now.toISOString();
  let value: number;
  if (change.mode === 'delta') value = change.delta;
  else if (change.mode === 'available') {
    const routed = change.asOf ? ((await unitsRoutedAfter(db, accountId, [{ productId, warehouseId }], change.asOf)).get(`${productId}:${warehouseId}`) ?? 0) : 0;
    value = availableAfterCount(change.quantity, routed);
  } else value = change.quantity;
  const observedAt = change.mode !== 'delta' ? (options.observedAt?.toISOString() ?? null) : null;
  const updated = await updateStockRow(db, accountId, productId, warehouseId, change.mode, value, iso, {
    observedAt,
    rejectStale: options.rejectStale === true,
    bin: options.binLocation ?? null,
  });

  if (!updated) {
    if (change.mode === 'delta') {
      return { ok: false, reason: 'NEGATIVE', message: `delta_quantity ${change.delta} would make the available quantity negative` };
    }
    return { ok: false, reason: 'STALE', message: 'a newer observation of this SKU in this warehouse is already recorded' };
  }
  // The product's inventory timestamp and the listing variants' stock copy follow.
  if (options.touchLater) options.touchLater.add(productId);
  else await touchProductInventory(db, accountId, productId, now);
  return { ok: true, row: toStockRow(updated) };
}

/** Stock rows of some products, optionally limited to some warehouses; ordered by product then warehouse. */
export async function stockRowsFor(
  db: Db,
  accountId: number,
  productIds: number[],
  warehouseIds: number[] | null,
): Promise<StockRow[]> {
  if (productIds.length === 0 || (warehouseIds !== null && warehouseIds.length === 0)) return [];
  let q = db
    .selectFrom('inventory')
    .select(RETURNING)
    .where('account_id', '=', accountId)
    .where('product_id', 'in', productIds);
  if (warehouseIds !== null) q = q.where('warehouse_id', 'in', warehouseIds);
  const rows = await q.orderBy('product_id').orderBy('warehouse_id').execute();
  return rows.map(toStockRow);
}
