import type { Tx } from '../../db/tx.js';
import { emitNudge } from '../callbacks/nudges.js';
import { notFound } from '../errors.js';
import { writeAttributes, type AttributeOwner } from './attributes.js';
import type { ListingPatch } from './listing-input.js';
import type { AttributeGroupName, AttributeInput } from './model.js';
import { attributesOfRequest, checkSelectValues } from './valid-values-check.js';
import { insertVariants, syncHasChannelId, type ListingWriteOptions } from './write.js';

/**
 * The seller's edit of a listing (DESIGN.md PATCH /admin/…/listings/{id}). Each change moves exactly the
 * timestamps of what it changed, so each storefront poll sees only its own kind of change:
 * product data → listing.poll_updated_at (product_data/updated, listing/new); prices → the variant's
 * pricing_updated_at (pricing/updated); inventory enable/disable → inventory_updated_at (inventory/updated).
 * A variant SKU the listing does not have yet is added to it.
 */

const GROUP_OF = { productData: 'product_data', identifiers: 'identifiers', logistics: 'logistics', pricing: 'pricing' } as const;

/** Writes given values (merge) and removes the listed ids; true when anything changed. */
async function editGroup(
  tx: Tx,
  accountId: number,
  owner: AttributeOwner,
  group: AttributeGroupName,
  attrs: AttributeInput[] | undefined,
  removeIds: string[] | undefined,
  now: Date,
): Promise<boolean> {
  let changed = attrs && attrs.length > 0 ? await writeAttributes(tx, accountId, owner, group, attrs, now, 'merge') : false;
  if (removeIds && removeIds.length > 0) {
    const removed = await tx
      .deleteFrom('listing_attributes')
      .where('account_id', '=', accountId)
      .where('owner_type', '=', owner.type)
      .where('owner_id', '=', owner.id)
      .where('group_name', '=', group)
      .where('attribute_id', 'in', removeIds)
      .executeTakeFirst();
    changed = changed || Number(removed.numDeletedRows) > 0;
  }
  return changed;
}

export async function patchListing(
  tx: Tx,
  accountId: number,
  listingId: number,
  patch: ListingPatch,
  now: Date,
  options: ListingWriteOptions = {},
): Promise<{ newProductIds: number[] }> {
  const iso = now.toISOString();
  const listing = await tx
    .selectFrom('listings')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', listingId)
    .executeTakeFirst();
  if (!listing) throw notFound(`listing ${listingId} not found in this account`);
  if (options.checkSelectValues) {
    const productTypeId = patch.productData?.productTypeId ?? listing.product_type_id;
    await checkSelectValues(tx, accountId, listing.storefront_id, productTypeId, attributesOfRequest(patch.productData, patch.variants));
  }

  let productDataChanged = false;
  let listingTouched = false;
  const pd = patch.productData;
  if (pd) {
    const fields: Record<string, string | number> = {};
    if (pd.enabled !== undefined && (pd.enabled ? 1 : 0) !== listing.product_data_enabled) fields['product_data_enabled'] = pd.enabled ? 1 : 0;
    if (pd.categoryId !== undefined && pd.categoryId !== listing.category_id) fields['category_id'] = pd.categoryId;
    if (pd.productTypeId !== undefined && pd.productTypeId !== listing.product_type_id) fields['product_type_id'] = pd.productTypeId;
    const pivots = pd.pivotAttributes === undefined ? undefined : JSON.stringify(pd.pivotAttributes);
    if (pivots !== undefined && pivots !== listing.pivot_attributes) fields['pivot_attributes'] = pivots;
    const swatch = pd.swatchImageAttributeId === undefined ? undefined : JSON.stringify(pd.swatchImageAttributeId);
    if (swatch !== undefined && swatch !== listing.swatch_image_attribute_ids) fields['swatch_image_attribute_ids'] = swatch;
    const flag = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);
    const standalone = flag(pd.standaloneVariants);
    if (standalone !== undefined && standalone !== listing.standalone_variants) fields['standalone_variants'] = standalone;
    if (pd.baseListingSku !== undefined && pd.baseListingSku !== listing.base_listing_sku) fields['base_listing_sku'] = pd.baseListingSku;
    const retire = flag(pd.retireBaseParent);
    if (retire !== undefined && retire !== listing.retire_base_parent) fields['retire_base_parent'] = retire;
    const attrsChanged = await editGroup(tx, accountId, { type: 'L', id: listingId }, 'product_data', pd.attributes, pd.removeAttributeIds, now);
    if (Object.keys(fields).length > 0 || attrsChanged) {
      productDataChanged = true;
      await tx
        .updateTable('listings')
        .set({ ...fields, product_data_updated_at: iso })
        .where('account_id', '=', accountId)
        .where('id', '=', listingId)
        .execute();
    }
  }

  const newProductIds: number[] = [];
  const existingVariants = await tx
    .selectFrom('listing_variants')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('listing_id', '=', listingId)
    .execute();
  const bySku = new Map(existingVariants.map((v) => [v.sku, v]));
  const toAdd = (patch.variants ?? []).filter((v) => !bySku.has(v.sku));
  if (toAdd.length > 0) {
    const position = existingVariants.reduce((max, v) => Math.max(max, v.position + 1), 0);
    const added = await insertVariants(tx, accountId, listing.storefront_id, listingId, toAdd, position, now);
    newProductIds.push(...added.productIds);
    productDataChanged = true;
  }

  for (const v of patch.variants ?? []) {
    const current = bySku.get(v.sku);
    if (!current) continue;
    const owner = { type: 'V' as const, id: current.id };
    const set: Record<string, string | number> = {};
    for (const key of ['productData', 'identifiers', 'logistics'] as const) {
      const group = v[key];
      const changed = await editGroup(tx, accountId, owner, GROUP_OF[key], group?.attributes, v.removeAttributeIds?.[key], now);
      if (changed) set[`${GROUP_OF[key]}_updated_at`] = iso;
    }
    if (v.productData?.enabled !== undefined && (v.productData.enabled ? 1 : 0) !== current.product_data_enabled) {
      set['product_data_enabled'] = v.productData.enabled ? 1 : 0;
      set['product_data_updated_at'] = iso;
    }
    const settings = v.settings === undefined ? undefined : JSON.stringify(v.settings);
    if (settings !== undefined && settings !== current.settings) set['settings'] = settings;
    if (Object.keys(set).length > 0) productDataChanged = true;

    const pricingChanged = await editGroup(tx, accountId, owner, 'pricing', v.pricing?.attributes, v.removeAttributeIds?.pricing, now);
    const sales = v.pricing?.sales === undefined ? undefined : JSON.stringify(v.pricing.sales);
    const salesChanged = sales !== undefined && sales !== current.pricing_sales;
    if (salesChanged) set['pricing_sales'] = sales;
    if (pricingChanged || salesChanged) {
      set['pricing_updated_at'] = iso;
      listingTouched = true;
    }
    if (v.inventory?.enabled !== undefined && (v.inventory.enabled ? 1 : 0) !== current.inventory_enabled) {
      set['inventory_enabled'] = v.inventory.enabled ? 1 : 0;
      set['inventory_updated_at'] = iso;
      listingTouched = true;
    }
    if (v.channelId !== undefined && v.channelId !== current.channel_id) set['channel_id'] = v.channelId;
    if (Object.keys(set).length > 0) {
      await tx
        .updateTable('listing_variants')
        .set({ ...set, updated_at: iso })
        .where('account_id', '=', accountId)
        .where('id', '=', current.id)
        .execute();
    }
  }

  if (productDataChanged || listingTouched) {
    await tx
      .updateTable('listings')
      .set({ updated_at: iso, ...(productDataChanged ? { poll_updated_at: iso } : {}) })
      .where('account_id', '=', accountId)
      .where('id', '=', listingId)
      .execute();
  }
  // The version is the listing's product poll position (poll_updated_at), what the product poll moves on.
  if (productDataChanged) {
    await emitNudge(
      tx,
      { accountId, eventType: 'LISTING_PRODUCT_DATA_CHANGED', installationId: listing.storefront_id, objectType: 'LISTING', objectId: String(listingId), version: iso },
      now,
    );
  }
  // has_channel_id follows the variants (a channel id set or cleared by this edit, or a variant added with one).
  if ((patch.variants ?? []).some((v) => v.channelId !== undefined)) await syncHasChannelId(tx, accountId, listingId);
  return { newProductIds };
}
