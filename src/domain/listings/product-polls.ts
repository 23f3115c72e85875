import type { DbHandle } from '../../db/connect.js';
import type { Db } from '../../db/tx.js';
import type { ListingView, VariantView } from './model.js';
import { loadListingViews, loadVariantViews } from './view.js';
import type { PollFilter, PollPosition } from './poll.js';

/**
 * The product-data and pricing polls of a storefront (document 4.7, resolutions §4), keyset-paged on
 * (timestamp, id) so rows with equal timestamps are never skipped across pages; `since` is an exclusive
 * lower bound. Listing routes take no pageSize (resolutions §1): 25 listings or 100 variants a page.
 *
 * - product_data/updated: listings with product data enabled, at least one variant with a channel id
 *   (has_channel_id), and a product-data change (listings.poll_updated_at) after `since`;
 * - listing/new: the same, for listings none of whose variants has a channel id yet. Setting the first
 *   channel id moves a listing from the second poll to the first;
 * - variant/pricing/updated: the storefront's variants whose pricing group changed after `since`. It has no
 *   enabled flag or channel-id condition: a price is only meaningful to the channel once the variant is
 *   live there, but a variant listed through listing/new carries its pricing in that poll already.
 *
 * Everything is rendered as the channel is sent it (forPoll): attributes over their specification's
 * maxUniqueItems are left out (2.14). A variant whose productData is disabled is still in its listing, with
 * productData.enabled false: the channel decides what that means for it.
 */

export const PRODUCT_POLL_PAGE_SIZE = 25;
export const PRICING_POLL_PAGE_SIZE = 100;


export type ProductPollKind = 'updated' | 'new';

/** One page of listing ids for product_data/updated ('updated') or listing/new ('new'). */
async function productPollPage(db: Db, accountId: number, kind: ProductPollKind, filter: PollFilter): Promise<{ ids: number[]; next: PollPosition | null }> {
  let query = db
    .selectFrom('listings')
    .select(['id', 'poll_updated_at'])
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', filter.storefrontId)
    .where('has_channel_id', '=', kind === 'updated' ? 1 : 0)
    .where('product_data_enabled', '=', 1);
  if (filter.since) query = query.where('poll_updated_at', '>', filter.since.toISOString());
  const after = filter.after;
  if (after) query = query.where((eb) => eb(eb.refTuple('poll_updated_at', 'id'), '>', eb.tuple(after.ts, after.id)));
  const rows = await query
    .orderBy('poll_updated_at')
    .orderBy('id')
    .limit(PRODUCT_POLL_PAGE_SIZE + 1)
    .execute();
  const page = rows.slice(0, PRODUCT_POLL_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    ids: page.map((r) => Number(r.id)),
    next: rows.length > PRODUCT_POLL_PAGE_SIZE && last ? { ts: last.poll_updated_at, id: Number(last.id) } : null,
  };
}

/** GET /v2/storefront/listing/product_data/updated ('updated') and GET /v2/storefront/listing/new ('new'). */
export async function listProductDataPoll(
  db: Db,
  accountId: number,
  kind: ProductPollKind,
  filter: PollFilter,
  handle?: DbHandle,
): Promise<{ listings: ListingView[]; next: PollPosition | null }> {
  const page = await productPollPage(db, accountId, kind, filter);
  const listings = await loadListingViews(db, accountId, page.ids, { forPoll: true }, handle);
  return { listings, next: page.next };
}

/** GET /v2/storefront/listing/variant/pricing/updated. */
export async function listPricingUpdatedVariants(
  db: Db,
  accountId: number,
  filter: PollFilter,
): Promise<{ variants: VariantView[]; next: PollPosition | null }> {
  let query = db
    .selectFrom('listing_variants')
    .select(['id', 'pricing_updated_at'])
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', filter.storefrontId);
  if (filter.since) query = query.where('pricing_updated_at', '>', filter.since.toISOString());
  const after = filter.after;
  if (after) query = query.where((eb) => eb(eb.refTuple('pricing_updated_at', 'id'), '>', eb.tuple(after.ts, after.id)));
  const rows = await query
    .orderBy('pricing_updated_at')
    .orderBy('id')
    .limit(PRICING_POLL_PAGE_SIZE + 1)
    .execute();
  const page = rows.slice(0, PRICING_POLL_PAGE_SIZE);
  const last = page[page.length - 1];
  const variants = await loadVariantViews(db, accountId, page.map((r) => Number(r.id)), { forPoll: true });
  return {
    variants,
    next: rows.length > PRICING_POLL_PAGE_SIZE && last ? { ts: last.pricing_updated_at, id: Number(last.id) } : null,
  };
}
