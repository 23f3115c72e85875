import type { Db } from '../../db/tx.js';
import { notFound } from '../errors.js';
import type { ListingView, VariantView } from './model.js';
import { findListing, findStorefrontVariant, loadListingViews, loadVariantViews } from './view.js';

/**
 * The storefront's single reads (resolutions §4, §7): a listing by id or by a SKU (a variant's or its own), a variant by SKU, and the
 * category of a SKU's listing. A read shows what the polls would send the channel (forPoll: attributes
 * over maxUniqueItems are left out), so a channel that re-reads a listing sees the same content as in the
 * poll. Another storefront's or account's listing or SKU answers 404, as an unknown one does.
 */

const VIEW = { forPoll: true };

async function storefrontListingIdBySku(db: Db, accountId: number, storefrontId: number, sku: string): Promise<number | null> {
  const row = await db
    .selectFrom('listings')
    .select('id')
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .where('sku', '=', sku)
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** GET /v2/storefront/listing/{listingId}: the id is the service's listing id; anything not numeric is unknown. */
export async function getStorefrontListing(db: Db, accountId: number, storefrontId: number, listingId: string): Promise<ListingView> {
  const id = /^\d{1,15}$/.test(listingId) ? Number(listingId) : null;
  const found = id === null ? null : await findListing(db, accountId, id);
  const [view] = found && found.storefrontId === storefrontId ? await loadListingViews(db, accountId, [found.id], VIEW) : [];
  if (!view) throw notFound(`no listing ${listingId} on this storefront`);
  return view;
}

/**
 * GET /v2/storefront/listing/sku/{sku} (resolutions §7): the listing that contains a variant with this SKU,
 * as the production definition says; a listing's own group SKU finds it too when no variant has that SKU
 * (the variant wins when both exist, since one SKU names one variant per storefront). A variant detached
 * from its deleted listing has no listing to answer with.
 */
export async function getStorefrontListingBySku(db: Db, accountId: number, storefrontId: number, sku: string): Promise<ListingView> {
  const variant = await findStorefrontVariant(db, accountId, storefrontId, sku);
  const id = variant?.listingId ?? (await storefrontListingIdBySku(db, accountId, storefrontId, sku));
  const [view] = id === null ? [] : await loadListingViews(db, accountId, [id], VIEW);
  if (!view) throw notFound(`no listing with a variant or group sku "${sku}" on this storefront`);
  return view;
}

/** GET /v2/storefront/listing/variant/{sku}: the variant, also one whose listing was deleted while it stays live. */
export async function getStorefrontVariant(db: Db, accountId: number, storefrontId: number, sku: string): Promise<VariantView> {
  const ref = await findStorefrontVariant(db, accountId, storefrontId, sku);
  const [view] = ref ? await loadVariantViews(db, accountId, [ref.variantId], VIEW) : [];
  if (!view) throw notFound(`no variant with sku "${sku}" on this storefront`);
  return view;
}

/**
 * GET /v2/storefront/listing/sku/{sku}/category: the category of the listing of variant `sku`; a listing's
 * group SKU is accepted too. A variant detached from its deleted listing has no category: "".
 */
export async function getSkuCategory(db: Db, accountId: number, storefrontId: number, sku: string): Promise<{ categoryId: string }> {
  const variant = await findStorefrontVariant(db, accountId, storefrontId, sku);
  const listingId = variant ? variant.listingId : await storefrontListingIdBySku(db, accountId, storefrontId, sku);
  if (variant && listingId === null) return { categoryId: '' };
  const row =
    listingId === null
      ? undefined
      : await db.selectFrom('listings').select('category_id').where('account_id', '=', accountId).where('id', '=', listingId).executeTakeFirst();
  if (!row) throw notFound(`no variant or listing with sku "${sku}" on this storefront`);
  return { categoryId: row.category_id };
}
