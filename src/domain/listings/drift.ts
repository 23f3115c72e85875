import { sql } from 'kysely';
import type { DbHandle } from '../../db/connect.js';
import { prepareQuery, type ArgFn } from '../../db/prepared.js';

/**
 * GET /v2/storefront/listing/variant/inventory/drift/skus (document 2.17, 4.7; resolutions §1): a level
 * check, not a change feed. A variant drifts while the quantity of its last successful inventory
 * submission differs from merchant + storefront quantity (the `drifting` flag, kept by the stock copy and
 * by submission records). Reported: the storefront's variants live on the channel (channel id set) with
 * inventory enabled, whose intended quantity has been unchanged for `stableFor` and with no failed
 * attempt within `failureBackoff`; oldest stranded first (intended_changed_at, id), capped at
 * DRIFT_CAP with no cursor, so what is cut off is reported by the next call, still oldest first.
 */

/** A SKU with the service's listing id ("" when the variant's listing was deleted); document 2.17. */
export interface DriftListing {
  sku: string;
  listingId: string;
}

export const DRIFT_CAP = 1000;
export const DEFAULT_STABLE_FOR_MS = 15 * 60_000;
export const DEFAULT_FAILURE_BACKOFF_MS = 24 * 3_600_000;

export interface DriftFilter {
  storefrontId: number;
  stableForMs: number;
  failureBackoffMs: number;
}

/** An ISO instant `ms` before now; durations too large for a Date mean "before any stored time". */
function isoBefore(now: Date, ms: number): string {
  const t = now.getTime() - ms;
  return t < -8.64e15 ? '0000-01-01T00:00:00.000Z' : new Date(t).toISOString();
}

interface DriftArgs extends Record<string, unknown> {
  accountId: number;
  storefrontId: number;
  stableBefore: string;
  failedBefore: string;
}

/** The capped, ordered drift rows; the same SQL on both databases. */
function driftRows(handle: DbHandle, arg: ArgFn) {
  return handle.db
    .selectFrom('listing_variants')
    .select(['id', 'sku', 'listing_id', 'intended_changed_at'])
    .where('account_id', '=', arg<number>('accountId'))
    .where('storefront_id', '=', arg<number>('storefrontId'))
    .where('drifting', '=', 1)
    .where('intended_changed_at', '<=', arg('stableBefore'))
    .where('inventory_enabled', '=', 1)
    .where('channel_id', '<>', '')
    .where((eb) => eb.or([eb('last_failed_at', 'is', null), eb('last_failed_at', '<=', arg('failedBefore'))]))
    .orderBy('intended_changed_at')
    .orderBy('id')
    .limit(DRIFT_CAP);
}

type DriftRow = { sku: string; listing_id: number | null };
/** A folded row: [intended_changed_at, id, sku, listing_id]. */
export type FoldedRow = [string, number, string, number | null];

/**
 * A channel runs this check in a loop, and on SQLite handing 1,000 rows to JavaScript one by one costs
 * several times what finding them does. So SQLite folds the capped rows into one JSON array that
 * JSON.parse reads back exactly; PostgreSQL returns rows. SQLite feeds the aggregate in the subquery's
 * order, but does not promise to (an ORDER BY inside the aggregate would, at the cost of another sort),
 * so the folded rows carry their sort key and are checked; rows out of order fall back to the row query.
 */
function driftQueries(handle: DbHandle) {
  const rows = prepareQuery<DriftRow, DriftArgs>(handle, (arg) => driftRows(handle, arg));
  const folded =
    handle.dialect === 'sqlite'
      ? prepareQuery<{ rows: string }, DriftArgs>(handle, (arg) =>
          handle.db
            .selectFrom(driftRows(handle, arg).as('d'))
            .select(sql<string>`json_group_array(json_array(d.intended_changed_at, d.id, d.sku, d.listing_id))`.as('rows')),
        )
      : null;
  return { rows, folded };
}

const queries = new WeakMap<DbHandle, ReturnType<typeof driftQueries>>();

/** The folded rows as DriftRows, or null when they are not in (intended_changed_at, id) order. */
export function unfold(folded: FoldedRow[]): DriftRow[] | null {
  const out: DriftRow[] = [];
  let previous: FoldedRow | undefined;
  for (const row of folded) {
    if (previous && (row[0] < previous[0] || (row[0] === previous[0] && row[1] <= previous[1]))) return null;
    out.push({ sku: row[2], listing_id: row[3] });
    previous = row;
  }
  return out;
}

async function driftRowsOf(handle: DbHandle, args: DriftArgs): Promise<DriftRow[]> {
  let query = queries.get(handle);
  if (!query) {
    query = driftQueries(handle);
    queries.set(handle, query);
  }
  const folded = query.folded ? await query.folded.first(args) : undefined;
  const unfolded = folded ? unfold(JSON.parse(folded.rows) as FoldedRow[]) : null;
  return unfolded ?? (await query.rows.all(args));
}

export async function listDriftSkus(
  handle: DbHandle,
  accountId: number,
  filter: DriftFilter,
  now: Date,
): Promise<{ skus: string[]; driftListings: DriftListing[] }> {
  const rows = await driftRowsOf(handle, {
    accountId,
    storefrontId: filter.storefrontId,
    stableBefore: isoBefore(now, filter.stableForMs),
    failedBefore: isoBefore(now, filter.failureBackoffMs),
  });
  return {
    skus: rows.map((r) => r.sku),
    driftListings: rows.map((r) => ({ sku: r.sku, listingId: r.listing_id === null ? '' : String(r.listing_id) })),
  };
}
