import { sql } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import { runFixedText } from '../../db/fast-paths.js';
import type { Db } from '../../db/tx.js';
import { deleteNewStockRows, ensureStockRows, type StockKey } from './stock-batch.js';
import { MAX_STOCK_UNITS, stockCountersAfter, type StockChange } from './stock.js';

/**
 * A call's stock changes applied set-based, each with its own outcome (POST /v1/inventory): the same effects
 * as applyStockChange change after change, in a few statements instead of several round trips a change.
 *
 * - The stock rows the changes may need are created first, at zero, in one multi-row insert (ensureStockRows);
 *   a row only negative deltas name is not created (taking units from nothing is refused anyway).
 * - Changes run in rounds: round r holds the r-th change of every stock row, so a row's changes still apply in
 *   the order given, and each round is one UPDATE … FROM (VALUES …) per change mode, with the counters
 *   computed by the row's own columns (stockCountersAfter, the one statement of the arithmetic) and a change
 *   refused by the statement's condition: a delta that would take the available units below zero, or a count
 *   past what a row holds. A refused change matches no row and so changes nothing.
 * - Rows created for changes that were all refused are deleted again.
 *
 * Rows are created in (product, warehouse) order, and callers on PostgreSQL hold the existing rows in that
 * order first (stock-locks.ts), so parallel calls queue instead of deadlocking.
 */

export interface OrderedStockChange {
  key: StockKey;
  /** asOf already taken into account: an `available` change's quantity is what the row gets. */
  change: StockChange;
  /** Set when given; null keeps the row's bin location. */
  binLocation: string | null;
  /** An absolute change's observation time (ISO), recorded unless a later one is; null records none. */
  observedAt: string | null;
}

/**
 * Why a change was refused: units below zero (a delta), a count past MAX_STOCK_UNITS, or (with rejectStale) an
 * observation older than the one the row holds.
 */
export type StockRefusal = 'NEGATIVE' | 'TOO_LARGE' | 'STALE';

export interface StockRoundsOptions {
  /**
   * v2 counts: an absolute change observed before the observation the row already holds is refused as STALE.
   * Only for `onhand` changes, which cannot pass MAX_STOCK_UNITS, so a refused one is stale.
   */
  rejectStale?: boolean;
}

export type StockChangeOutcome = { ok: true; available: number } | { ok: false; reason: StockRefusal };

/** Rows per statement: 5 bound values a row, far below either database's parameter limit. */
const ROWS_PER_STATEMENT = 200;

const keyId = (k: StockKey) => `${k.productId}:${k.warehouseId}`;

/** The value a change writes: the delta, or the quantity to set. */
const valueOf = (change: StockChange) => (change.mode === 'delta' ? change.delta : change.quantity);

/** A change that a row at zero takes (an absolute one, or a delta that adds): its row is created if missing. */
const takenAtZero = (change: StockChange) => change.mode !== 'delta' || change.delta >= 0;

/** Applies the changes in the order given (per stock row) and answers each one's outcome, in the same order. */
export async function applyStockChangesInOrder(
  db: Db,
  accountId: number,
  changes: readonly OrderedStockChange[],
  now: Date,
  options: StockRoundsOptions = {},
): Promise<StockChangeOutcome[]> {
  const rejectStale = options.rejectStale === true;
  if (rejectStale && changes.some((c) => c.change.mode !== 'onhand' || c.observedAt === null)) throw new Error('rejectStale takes on-hand counts with an observation time only');
  const outcomes: StockChangeOutcome[] = new Array(changes.length);
  if (changes.length === 0) return outcomes;
  const created = await ensureStockRows(db, accountId, changes.filter((c) => takenAtZero(c.change)).map((c) => c.key), now);
  const rounds: number[][] = [];
  const seen = new Map<string, number>();
  changes.forEach((c, index) => {
    const id = keyId(c.key);
    const round = seen.get(id) ?? 0;
    seen.set(id, round + 1);
    (rounds[round] ??= []).push(index);
  });
  const iso = now.toISOString();
  const used = new Set<string>();
  for (const round of rounds) {
    for (const mode of ['delta', 'available', 'onhand'] as const) {
      const ofMode = round.filter((i) => changes[i]!.change.mode === mode);
      for (let start = 0; start < ofMode.length; start += ROWS_PER_STATEMENT) {
        const slice = ofMode.slice(start, start + ROWS_PER_STATEMENT);
        const after = await updateRound(db, accountId, mode, slice.map((i) => changes[i]!), iso, rejectStale);
        for (const i of slice) {
          const change = changes[i]!;
          const available = after.get(keyId(change.key));
          if (available !== undefined) {
            outcomes[i] = { ok: true, available };
            used.add(keyId(change.key));
          } else outcomes[i] = { ok: false, reason: refusalOf(change.change, rejectStale) };
        }
      }
    }
  }
  // A refused change leaves nothing behind: rows created for changes that were all refused go again.
  const unused = created.filter((k) => !used.has(keyId(k)));
  if (unused.length > 0) await deleteNewStockRows(db, accountId, unused);
  return outcomes;
}

/** Why a change that matched no row was refused (the statement's condition says no more). */
function refusalOf(change: StockChange, rejectStale: boolean): StockRefusal {
  if (change.mode === 'delta' && change.delta < 0) return 'NEGATIVE';
  return rejectStale ? 'STALE' : 'TOO_LARGE';
}

/**
 * One UPDATE … FROM (VALUES …) for changes of one mode, at most one per stock row: the available units after it
 * of each row it changed (keyed productId:warehouseId); a row missing from the answer refused its change.
 */
async function updateRound(
  db: Db,
  accountId: number,
  mode: StockChange['mode'],
  changes: readonly OrderedStockChange[],
  iso: string,
  rejectStale: boolean,
): Promise<Map<string, number>> {
  // PostgreSQL takes the changes as five arrays, so the statement's text is the same for any number of them
  // (runFixedText: a named statement); SQLite, without arrays, as VALUES rows, a text per number of changes.
  const rows = isPostgres(db)
    ? sql`(select * from unnest(${changes.map((c) => c.key.productId)}::bigint[], ${changes.map((c) => c.key.warehouseId)}::bigint[], ${changes.map((c) => valueOf(c.change))}::bigint[], ${changes.map((c) => c.binLocation)}::text[], ${changes.map((c) => c.observedAt)}::text[]))`
    : sql`(values ${sql.join(
        changes.map(
          (c) =>
            sql`(cast(${c.key.productId} as bigint), cast(${c.key.warehouseId} as bigint), cast(${valueOf(c.change)} as bigint), cast(${c.binLocation} as text), cast(${c.observedAt} as text))`,
        ),
      )})`;
  const counters = stockCountersAfter(mode, sql.ref<number>('v.value'));
  // The counts are compared as 64-bit numbers, so a change past the column's range is refused, not an error.
  const fits = sql<boolean>`cast(${counters.onhand} as bigint) <= ${MAX_STOCK_UNITS} and cast(${counters.available} as bigint) <= ${MAX_STOCK_UNITS}`;
  const observed = sql.ref<string | null>('v.observed');
  const held = sql.ref<string | null>('observed_at');
  const query = db
    .with('v(product_id, warehouse_id, value, bin, observed)', () => sql<{ product_id: number; warehouse_id: number; value: number; bin: string | null; observed: string | null }>`${rows}`)
    .updateTable('inventory')
    .from('v')
    .set({
      available_quantity: counters.available,
      onhand_quantity: counters.onhand,
      // Never moves the observation time backwards (a v1 count may carry an older pulled_ts than the one held).
      observed_at: sql<string | null>`case when ${held} is null or ${held} < ${observed} then ${observed} else ${held} end`,
      bin_location: sql<string | null>`coalesce(${sql.ref('v.bin')}, ${sql.ref('bin_location')})`,
      updated_at: iso,
    })
    .where('inventory.account_id', '=', accountId)
    .whereRef('inventory.product_id', '=', 'v.product_id')
    .whereRef('inventory.warehouse_id', '=', 'v.warehouse_id')
    .where(counters.refusable ? sql<boolean>`${counters.refusable} and ${fits}` : fits)
    .$if(rejectStale, (q) => q.where(sql<boolean>`(${held} is null or ${held} <= ${observed})`))
    .returning(['inventory.product_id', 'inventory.warehouse_id', 'inventory.available_quantity'])
    .compile();
  // On SQLite the text varies with the number of changes: runFixedText names nothing there.
  const written = await runFixedText(db, query);
  return new Map(written.map((r) => [keyId({ productId: Number(r.product_id), warehouseId: Number(r.warehouse_id) }), Number(r.available_quantity)]));
}
