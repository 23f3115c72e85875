import { sql } from 'kysely';
import type { DbHandle } from '../../db/connect.js';
import { type ArgFn, prepareQuery } from '../../db/fast-paths.js';

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

/**
 * A channel runs this check in a loop, and on SQLite handing 1,000 rows to JavaScript one by one, then
 * serializing them, costs several times what finding them does. So SQLite writes the whole answer body
 * (the route's JSON, `skus` and `driftListings` in one pass over the capped rows) and hands over one
 * string. SQLite feeds the aggregates in the subquery's order but does not promise to (an ORDER BY inside
 * each aggregate would, at the cost of two more sorts), so the same pass also lists the rows' sort keys,
 * which are checked; rows out of order fall back to the row query. PostgreSQL returns rows.
 */
function driftQueries(handle: DbHandle) {
  const rows = prepareQuery<DriftRow, DriftArgs>(handle, (arg) => driftRows(handle, arg));
  const answer =
    handle.dialect === 'sqlite'
      ? prepareQuery<{ body: string; keys: string | null }, DriftArgs>(handle, (arg) =>
          handle.db
            .selectFrom(driftRows(handle, arg).as('d'))
            .select([
              sql<string>`json_object('skus', json_group_array(d.sku), 'nextPageCursor', '', 'driftListings', json_group_array(json_object('sku', d.sku, 'listingId', coalesce(cast(d.listing_id as text), ''))))`.as(
                'body',
              ),
              sql<string | null>`group_concat(d.intended_changed_at || ' ' || d.id, ',')`.as('keys'),
            ]),
        )
      : null;
  return { rows, answer };
}

const queries = new WeakMap<DbHandle, ReturnType<typeof driftQueries>>();

function queriesOf(handle: DbHandle) {
  let query = queries.get(handle);
  if (!query) {
    query = driftQueries(handle);
    queries.set(handle, query);
  }
  return query;
}

/**
 * True when the sort keys `"<intended_changed_at> <id>"`, comma-separated (null: no rows), are strictly
 * increasing in (intended_changed_at, id) order. Timestamps are ISO text, compared as SQLite compares them.
 */
export function keysInOrder(keys: string | null): boolean {
  if (keys === null) return true;
  let previousTime = '';
  let previousId = -1;
  for (const key of keys.split(',')) {
    const space = key.indexOf(' ');
    const time = key.slice(0, space);
    const id = Number(key.slice(space + 1));
    if (time < previousTime || (time === previousTime && id <= previousId)) return false;
    previousTime = time;
    previousId = id;
  }
  return true;
}

function driftArgs(accountId: number, filter: DriftFilter, now: Date): DriftArgs {
  return {
    accountId,
    storefrontId: filter.storefrontId,
    stableBefore: isoBefore(now, filter.stableForMs),
    failedBefore: isoBefore(now, filter.failureBackoffMs),
  };
}

/**
 * The route's whole answer as JSON text, written by SQLite: `{"skus":[…],"nextPageCursor":"",
 * "driftListings":[…]}`. Null on PostgreSQL, or when the rows did not come in order: listDriftSkus answers.
 */
export async function driftAnswerText(handle: DbHandle, accountId: number, filter: DriftFilter, now: Date): Promise<string | null> {
  const { answer } = queriesOf(handle);
  if (!answer) return null;
  const result = await answer.first(driftArgs(accountId, filter, now));
  return result && keysInOrder(result.keys) ? result.body : null;
}

export async function listDriftSkus(
  handle: DbHandle,
  accountId: number,
  filter: DriftFilter,
  now: Date,
): Promise<{ skus: string[]; driftListings: DriftListing[] }> {
  const rows = await queriesOf(handle).rows.all(driftArgs(accountId, filter, now));
  return {
    skus: rows.map((r) => r.sku),
    driftListings: rows.map((r) => ({ sku: r.sku, listingId: r.listing_id === null ? '' : String(r.listing_id) })),
  };
}
