import type { Db } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { notFound } from '../errors.js';
import { renderListingV1, type CatalogIdentifiers, type ListingV1 } from './v1-view.js';
import { findListing, loadListingViews } from './view.js';

/**
 * GET /v1/listing and GET /v1/listing/{listingid} (document 4.4, resolutions §3): listings in the 2.1 shape.
 * "Restricted to registered developers" = any valid token of the account; a sales-channel token sees its
 * own storefront's listings only, any other token the whole account. Reads show every attribute (not
 * forPoll): v1 has no channel-error report that would explain an attribute left out.
 *
 * The list is keyset-paged on (listings.updated_at, id) over the listings_updated index.
 */

export interface V1ListingFilter {
  /** ISO text; listings updated strictly after it. */
  updatedAfter: string | null;
  /** Group SKUs or variant SKUs (exact); a listing matches when either is in the list. */
  skus: string[] | null;
}

export interface V1ListingPosition {
  ts: string;
  id: number;
}

const VIEW = { forPoll: false };

/** The catalog identifiers of every variant of these listings, by variant SKU (standard_identifier fallback). */
async function catalogIdentifiers(db: Db, accountId: number, listingIds: number[]): Promise<Map<string, CatalogIdentifiers>> {
  if (listingIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('listing_variants as v')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .select(['v.sku', 'p.standard_product_id', 'p.standard_product_id_type'])
    .where('v.account_id', '=', accountId)
    .where('p.account_id', '=', accountId)
    .where('v.listing_id', 'in', listingIds)
    .execute();
  return new Map(rows.map((r) => [r.sku, { standardProductId: r.standard_product_id, standardProductIdType: r.standard_product_id_type }]));
}

async function render(db: Db, accountId: number, listingIds: number[]): Promise<ListingV1[]> {
  const views = await loadListingViews(db, accountId, listingIds, VIEW);
  const catalog = await catalogIdentifiers(db, accountId, listingIds);
  return views.map((view) => renderListingV1(view, catalog));
}

export async function listListingsV1(
  db: Db,
  principal: Principal,
  filter: V1ListingFilter,
  after: V1ListingPosition | null,
  pageLength: number,
): Promise<{ results: ListingV1[]; next: V1ListingPosition | null }> {
  const accountId = principal.accountId;
  let query = db.selectFrom('listings as l').select(['l.id', 'l.updated_at']).where('l.account_id', '=', accountId);
  if (principal.storefrontId !== null) query = query.where('l.storefront_id', '=', principal.storefrontId);
  if (filter.updatedAfter !== null) query = query.where('l.updated_at', '>', filter.updatedAfter);
  const skus = filter.skus;
  if (skus !== null) {
    query = query.where((eb) =>
      eb.or([
        eb('l.sku', 'in', skus),
        eb.exists(
          eb
            .selectFrom('listing_variants as v')
            .select('v.id')
            .where('v.account_id', '=', accountId)
            .whereRef('v.listing_id', '=', 'l.id')
            .where('v.sku', 'in', skus),
        ),
      ]),
    );
  }
  if (after !== null) query = query.where((eb) => eb(eb.refTuple('l.updated_at', 'l.id'), '>', eb.tuple(after.ts, after.id)));
  const rows = await query
    .orderBy('l.updated_at')
    .orderBy('l.id')
    .limit(pageLength + 1)
    .execute();
  const page = rows.slice(0, pageLength);
  const last = page[page.length - 1];
  return {
    results: await render(db, accountId, page.map((r) => Number(r.id))),
    next: rows.length > pageLength && last ? { ts: last.updated_at, id: Number(last.id) } : null,
  };
}

/** One listing by the service's id; unknown, not numeric, another account's or (for a storefront token) another storefront's → 404. */
export async function getListingV1(db: Db, principal: Principal, listingId: string): Promise<ListingV1> {
  const id = /^\d{1,15}$/.test(listingId) ? Number(listingId) : null;
  const found = id === null ? null : await findListing(db, principal.accountId, id);
  const visible = found !== null && (principal.storefrontId === null || found.storefrontId === principal.storefrontId);
  const [listing] = visible ? await render(db, principal.accountId, [found.id]) : [];
  if (!listing) throw notFound(`no listing ${listingId}`);
  return listing;
}
