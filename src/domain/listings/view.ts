import type { Selectable } from 'kysely';
import type { ListingVariantsTable, ListingsTable } from '../../db/schema.js';
import { accountFilterById } from '../../db/tenancy.js';
import type { Db } from '../../db/tx.js';
import { applyAttributeLimits, attributeLimitsFor, type AttributeLimits } from './attribute-limits.js';
import { loadAttributes, ownerKey, type AttributeGroups } from './attributes.js';
import { moneyAmountText } from '../../lib/decimal.js';
import type { AttributeGroupName, AttributeValue, AttributeValueKinds, ListingView, SaleInput, SaleView, VariantView } from './model.js';
import { storefrontSettingsFor } from './storefront-settings.js';
import type { DbHandle } from '../../db/connect.js';
import { selectRows } from '../../db/fast-paths.js';
import { groupBy } from '../../lib/group-by.js';

/**
 * The v2 listing and variant shapes (2.12), built from the listing tables. `forPoll` renders what a channel
 * is sent: attributes over their specification's maxUniqueItems are left out (2.14). Every other use
 * (seller views, reads) shows them too.
 */

export interface ViewOptions {
  forPoll: boolean;
}

type ListingRow = Selectable<ListingsTable>;
/**
 * The variant columns a view reads. A variant row has twice as many (drift and status bookkeeping), and
 * on SQLite building each value of a row costs more than finding it, so views select only these.
 */
const VARIANT_VIEW_COLUMNS = [
  'id',
  'storefront_id',
  'listing_id',
  'sku',
  'channel_id',
  'settings',
  'product_data_enabled',
  'product_data_updated_at',
  'identifiers_updated_at',
  'logistics_updated_at',
  'pricing_updated_at',
  'pricing_sales',
  'inventory_enabled',
  'merchant_quantity',
  'storefront_quantity',
  'warehouse_quantities',
  'inventory_updated_at',
] as const satisfies readonly (keyof ListingVariantsTable)[];
type VariantRow = Pick<Selectable<ListingVariantsTable>, (typeof VARIANT_VIEW_COLUMNS)[number]>;

const parse = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

function groupOf(groups: AttributeGroups | undefined, group: AttributeGroupName): AttributeValue[] {
  return groups?.get(group) ?? [];
}

/** Leaves out what the limits forbid (forPoll only). */
function limited(values: AttributeValue[], limits: Map<string, number> | undefined, options: ViewOptions): AttributeValue[] {
  return options.forPoll ? applyAttributeLimits(values, limits).kept : values;
}

function saleView({ startAt, endAt, ...prices }: SaleInput): SaleView {
  // Unset Timestamps are null, as the production gateway writes them (resolutions §7, third review).
  return { ...prices, startAt: startAt ?? null, endAt: endAt ?? null };
}

/** Value kinds as stored, money amounts (also inside multi-object items) padded for output. */
function outKinds<T extends AttributeValueKinds>(v: T): T {
  if (v.moneyValue) return { ...v, moneyValue: { ...v.moneyValue, amount: moneyAmountText(v.moneyValue.amount) } };
  if (v.multiObjectValue) {
    const items = v.multiObjectValue.items.map((item) => ({
      ...item,
      // fromEntries keeps any key (even "__proto__") an own property.
      properties: Object.fromEntries(Object.entries(item.properties).map(([key, value]) => [key, outKinds(value)])),
    }));
    return { ...v, multiObjectValue: { ...v.multiObjectValue, items } };
  }
  return v;
}

/**
 * An attribute value as served: money as moneyAmountText; submittedAt null until a submission names the
 * version, as the production gateway writes an unset Timestamp (resolutions §7, third review).
 */
function outValue(v: AttributeValue): AttributeValue {
  const kinds = outKinds(v);
  return { ...kinds, submittedAt: kinds.submittedAt ?? null };
}

function variantView(
  v: VariantRow,
  groups: AttributeGroups | undefined,
  storefrontSettings: Record<string, string>,
  limits: Map<string, number> | undefined,
  options: ViewOptions,
): VariantView {
  const show = (group: AttributeGroupName) => limited(groupOf(groups, group), limits, options).map(outValue);
  const merchant = v.merchant_quantity;
  const storefront = v.storefront_quantity;
  const warehouses = parse<{ warehouseId: string | number; quantity: number }[]>(v.warehouse_quantities, []);
  return {
    sku: v.sku,
    channelId: v.channel_id,
    settings: { ...storefrontSettings, ...parse<Record<string, string>>(v.settings, {}) },
    inventory: {
      enabled: v.inventory_enabled === 1,
      totalQuantity: String(merchant + storefront),
      merchantFulfillableQuantity: String(merchant),
      merchantFulfillableWarehouseQuantities: warehouses.map((w) => ({ warehouseId: String(w.warehouseId), quantity: String(w.quantity) })),
      storefrontFulfillableQuantity: String(storefront),
      updatedAt: v.inventory_updated_at,
      updatedExternallyAt: null,
    },
    identifiers: { enabled: true, attributes: show('identifiers'), updatedAt: v.identifiers_updated_at },
    productData: { enabled: v.product_data_enabled === 1, attributes: show('product_data'), updatedAt: v.product_data_updated_at },
    logistics: { enabled: true, attributes: show('logistics'), updatedAt: v.logistics_updated_at },
    pricing: {
      enabled: true,
      attributes: show('pricing'),
      updatedAt: v.pricing_updated_at,
      sales: parse<SaleInput[]>(v.pricing_sales, []).map(saleView),
    },
  };
}

async function settingsByStorefront(db: Db, accountId: number, storefrontIds: number[]): Promise<Map<number, Record<string, string>>> {
  const map = new Map<number, Record<string, string>>();
  for (const id of new Set(storefrontIds)) map.set(id, await storefrontSettingsFor(db, accountId, id));
  return map;
}

async function limitsByStorefront(db: Db, accountId: number, listings: ListingRow[], options: ViewOptions): Promise<Map<number, AttributeLimits>> {
  const result = new Map<number, AttributeLimits>();
  if (!options.forPoll) return result;
  const byStorefront = new Map<number, string[]>();
  for (const l of listings) byStorefront.set(l.storefront_id, [...(byStorefront.get(l.storefront_id) ?? []), l.product_type_id]);
  for (const [storefrontId, types] of byStorefront) result.set(storefrontId, await attributeLimitsFor(db, accountId, storefrontId, types));
  return result;
}

async function variantRowsOfListings(db: Db, accountId: number, listingIds: number[], handle?: DbHandle): Promise<VariantRow[]> {
  const rows: VariantRow[] = [];
  for (let i = 0; i < listingIds.length; i += 500) {
    const chunk = listingIds.slice(i, i + 500);
    rows.push(
      ...(await selectRows(
        db,
        handle,
        db
          .selectFrom('listing_variants')
          .select(VARIANT_VIEW_COLUMNS)
          .where('account_id', '=', accountId)
          .where('listing_id', 'in', chunk)
          .orderBy('listing_id')
          .orderBy('position')
          .orderBy('id'),
      )),
    );
  }
  return rows;
}

/**
 * Listings in the order of `listingIds` (ids not found in the account are skipped). `handle`, when `db` is
 * its database, lets the page reads take SQLite's faster row path (src/db/raw-rows.ts).
 */
export async function loadListingViews(db: Db, accountId: number, listingIds: number[], options: ViewOptions, handle?: DbHandle): Promise<ListingView[]> {
  if (listingIds.length === 0) return [];
  const listings = await selectRows(db, handle, db.selectFrom('listings').selectAll().where(accountFilterById(accountId)).where('id', 'in', listingIds));
  const variants = await variantRowsOfListings(
    db,
    accountId,
    listings.map((l) => l.id),
    handle,
  );
  const attributes = await loadAttributes(
    db,
    accountId,
    [...listings.map((l) => ({ type: 'L' as const, id: l.id })), ...variants.map((v) => ({ type: 'V' as const, id: v.id }))],
    handle,
  );
  const settings = await settingsByStorefront(
    db,
    accountId,
    listings.map((l) => l.storefront_id),
  );
  const limits = await limitsByStorefront(db, accountId, listings, options);
  const byId = new Map(listings.map((l) => [l.id, l]));
  const variantsOf = groupBy(variants, (v) => v.listing_id!);

  const views: ListingView[] = [];
  for (const id of listingIds) {
    const l = byId.get(id);
    if (!l) continue;
    const typeLimits = limits.get(l.storefront_id)?.get(l.product_type_id);
    const storefrontSettings = settings.get(l.storefront_id) ?? {};
    views.push({
      id: String(l.id),
      sku: l.sku,
      productData: {
        enabled: l.product_data_enabled === 1,
        categoryId: l.category_id,
        productTypeId: l.product_type_id,
        pivotAttributes: parse<string[]>(l.pivot_attributes, []),
        attributes: limited(groupOf(attributes.get(ownerKey('L', l.id)), 'product_data'), typeLimits, options).map(outValue),
        updatedAt: l.product_data_updated_at,
        swatchImageAttributeId: parse<string[]>(l.swatch_image_attribute_ids, []),
        standaloneVariants: l.standalone_variants === 1,
        baseListingSku: l.base_listing_sku,
        retireBaseParent: l.retire_base_parent === 1,
      },
      variants: (variantsOf.get(l.id) ?? []).map((v) => variantView(v, attributes.get(ownerKey('V', v.id)), storefrontSettings, typeLimits, options)),
      createdAt: l.created_at,
      updatedAt: l.updated_at,
    });
  }
  return views;
}

/** Variants in the order of `variantIds` (ids not found in the account are skipped). */
export async function loadVariantViews(db: Db, accountId: number, variantIds: number[], options: ViewOptions): Promise<VariantView[]> {
  if (variantIds.length === 0) return [];
  const rows = await db.selectFrom('listing_variants').select(VARIANT_VIEW_COLUMNS).where(accountFilterById(accountId)).where('id', 'in', variantIds).execute();
  const listingIds = [...new Set(rows.map((r) => r.listing_id).filter((id): id is number => id !== null))];
  const listings =
    listingIds.length === 0 ? [] : await db.selectFrom('listings').selectAll().where(accountFilterById(accountId)).where('id', 'in', listingIds).execute();
  const listingById = new Map(listings.map((l) => [l.id, l]));
  const attributes = await loadAttributes(
    db,
    accountId,
    rows.map((v) => ({ type: 'V' as const, id: v.id })),
  );
  const settings = await settingsByStorefront(
    db,
    accountId,
    rows.map((r) => r.storefront_id),
  );
  const limits = await limitsByStorefront(db, accountId, listings, options);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const views: VariantView[] = [];
  for (const id of variantIds) {
    const v = byId.get(id);
    if (!v) continue;
    const listing = v.listing_id === null ? undefined : listingById.get(v.listing_id);
    const typeLimits = listing ? limits.get(listing.storefront_id)?.get(listing.product_type_id) : undefined;
    views.push(variantView(v, attributes.get(ownerKey('V', v.id)), settings.get(v.storefront_id) ?? {}, typeLimits, options));
  }
  return views;
}

export interface StorefrontVariantRef {
  variantId: number;
  listingId: number | null;
  productId: number;
}

/** The storefront's variant with this SKU (exact match), or null. */
export async function findStorefrontVariant(db: Db, accountId: number, storefrontId: number, sku: string): Promise<StorefrontVariantRef | null> {
  const row = await db
    .selectFrom('listing_variants')
    .select(['id', 'listing_id', 'product_id'])
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .where('sku', '=', sku)
    .executeTakeFirst();
  return row ? { variantId: row.id, listingId: row.listing_id, productId: row.product_id } : null;
}

/** The listing's storefront, or null when the account has no such listing. */
export async function findListing(db: Db, accountId: number, listingId: number): Promise<{ id: number; storefrontId: number } | null> {
  if (!Number.isSafeInteger(listingId) || listingId < 1) return null;
  const row = await db.selectFrom('listings').select(['id', 'storefront_id']).where('account_id', '=', accountId).where('id', '=', listingId).executeTakeFirst();
  return row ? { id: row.id, storefrontId: row.storefront_id } : null;
}
