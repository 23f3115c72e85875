import type { Db } from '../../db/tx.js';

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

export async function listDriftSkus(
  db: Db,
  accountId: number,
  filter: DriftFilter,
  now: Date,
): Promise<{ skus: string[]; driftListings: DriftListing[] }> {
  const stableBefore = isoBefore(now, filter.stableForMs);
  const failedBefore = isoBefore(now, filter.failureBackoffMs);
  const rows = await db
    .selectFrom('listing_variants')
    .select(['id', 'sku', 'listing_id'])
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', filter.storefrontId)
    .where('drifting', '=', 1)
    .where('intended_changed_at', '<=', stableBefore)
    .where('inventory_enabled', '=', 1)
    .where('channel_id', '<>', '')
    .where((eb) => eb.or([eb('last_failed_at', 'is', null), eb('last_failed_at', '<=', failedBefore)]))
    .orderBy('intended_changed_at')
    .orderBy('id')
    .limit(DRIFT_CAP)
    .execute();
  return {
    skus: rows.map((r) => r.sku),
    driftListings: rows.map((r) => ({ sku: r.sku, listingId: r.listing_id === null ? '' : String(r.listing_id) })),
  };
}
