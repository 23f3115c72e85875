import type { Db } from '../../db/tx.js';
import type { AttributeValueKinds } from './model.js';
import { attributeImages, attributeText, V1_ATTRIBUTE_MAP } from './v1-view.js';

/**
 * What a listing says about a catalog product, for pages that show the product next to an order line: the
 * title and the main image, read as the v1 listing view reads them (v1-view.ts): the variant's own product
 * data first, then its listing's. A product listed on several storefronts reads the preferred storefront's
 * variant (the order's channel), else its oldest variant.
 */
export interface ListingDisplay {
  title: string | null;
  imageUrl: string | null;
}

const TITLE = V1_ATTRIBUTE_MAP.listingText.title;
const PRIMARY_IMAGE = V1_ATTRIBUTE_MAP.variantImages.primary_image;
const IMAGES = V1_ATTRIBUTE_MAP.variantImages.images;
const ATTRIBUTE_IDS = [TITLE, PRIMARY_IMAGE, IMAGES];

/** The most products one call reads (an order page's lines). */
const MAX_PRODUCTS = 500;

type Values = Map<string, AttributeValueKinds>;

function parsed(value: string): AttributeValueKinds | null {
  try {
    const v = JSON.parse(value) as unknown;
    return v && typeof v === 'object' ? (v as AttributeValueKinds) : null;
  } catch {
    return null;
  }
}

function textOf(values: Values | undefined): string | null {
  const v = values?.get(TITLE);
  const text = v ? attributeText(v).trim() : '';
  return text === '' ? null : text;
}

function imageOf(own: Values | undefined, listing: Values | undefined): string | null {
  for (const v of [own?.get(PRIMARY_IMAGE), own?.get(IMAGES), listing?.get(PRIMARY_IMAGE)]) {
    const url = v ? attributeImages(v)[0]?.url.trim() : undefined;
    if (url) return url;
  }
  return null;
}

export async function listingDisplayOfProducts(
  db: Db,
  accountId: number,
  productIds: readonly number[],
  preferStorefrontId: number | null,
): Promise<Map<number, ListingDisplay>> {
  const ids = [...new Set(productIds)].slice(0, MAX_PRODUCTS);
  const out = new Map<number, ListingDisplay>();
  if (ids.length === 0) return out;
  const variants = await db
    .selectFrom('listing_variants')
    .select(['id', 'product_id', 'listing_id', 'storefront_id'])
    .where('account_id', '=', accountId)
    .where('product_id', 'in', ids)
    .orderBy('id')
    .execute();
  // One variant per product: the preferred storefront's, else the oldest.
  const chosen = new Map<number, (typeof variants)[number]>();
  for (const v of variants) {
    const current = chosen.get(v.product_id);
    if (!current || (current.storefront_id !== preferStorefrontId && v.storefront_id === preferStorefrontId)) chosen.set(v.product_id, v);
  }
  if (chosen.size === 0) return out;
  const variantIds = [...chosen.values()].map((v) => v.id);
  const listingIds = [...new Set([...chosen.values()].map((v) => v.listing_id).filter((id): id is number => id !== null))];
  // One query per owner type, each a seek on (account_id, owner_type, owner_id, …): an OR of the two would
  // let SQLite fall back to walking the account's attributes.
  const attributesOf = (ownerType: 'V' | 'L', ownerIds: number[]) =>
    ownerIds.length === 0
      ? Promise.resolve<{ owner_type: string; owner_id: number; attribute_id: string; value: string }[]>([])
      : db
          .selectFrom('listing_attributes')
          .select(['owner_type', 'owner_id', 'attribute_id', 'value'])
          .where('account_id', '=', accountId)
          .where('owner_type', '=', ownerType)
          .where('owner_id', 'in', ownerIds)
          .where('group_name', '=', 'product_data')
          .where('attribute_id', 'in', ATTRIBUTE_IDS)
          .execute();
  const rows = (await Promise.all([attributesOf('V', variantIds), attributesOf('L', listingIds)])).flat();
  const byOwner = new Map<string, Values>();
  for (const r of rows) {
    const value = parsed(r.value);
    if (!value) continue;
    const key = `${r.owner_type}:${r.owner_id}`;
    const values = byOwner.get(key) ?? new Map<string, AttributeValueKinds>();
    values.set(r.attribute_id, value);
    byOwner.set(key, values);
  }
  for (const [productId, v] of chosen) {
    const own = byOwner.get(`V:${v.id}`);
    const listing = v.listing_id === null ? undefined : byOwner.get(`L:${v.listing_id}`);
    out.set(productId, { title: textOf(own) ?? textOf(listing), imageUrl: imageOf(own, listing) });
  }
  return out;
}
