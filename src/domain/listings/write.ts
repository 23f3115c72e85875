import type { Insertable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Tx } from '../../db/tx.js';
import { isUniqueViolation } from '../../db/tx.js';
import { emitNudge } from '../callbacks/nudges.js';
import { findOrCreateProduct } from '../catalog/products.js';
import { alreadyExists } from '../errors.js';
import { deleteAttributes, writeAttributes } from './attributes.js';
import type { ListingInput, VariantInput } from './model.js';
import { requireStorefront } from './storefront-settings.js';
import { attributesOfRequest, checkSelectValues } from './valid-values-check.js';
import { accountFilterById } from '../../db/tenancy.js';

/**
 * Creating listings (seller, ingestion). The new variants carry no stock yet: the caller refreshes them
 * from the inventory area in the same transaction (refreshVariantStock), because listings may not read
 * another area's tables.
 */

export interface CreatedListing {
  listingId: number;
  variantIds: number[];
  productIds: number[];
}

/** A variant SKU already on another listing of the storefront (one variant per SKU per storefront). */
async function assertSkusFree(tx: Tx, accountId: number, storefrontId: number, skus: string[]): Promise<void> {
  if (skus.length === 0) return;
  const taken = await tx
    .selectFrom('listing_variants')
    .select(['sku', 'listing_id'])
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .where('sku', 'in', skus)
    .executeTakeFirst();
  if (taken) {
    throw alreadyExists(
      `SKU "${taken.sku}" is already a variant of ${taken.listing_id === null ? 'a detached variant' : `listing ${taken.listing_id}`} on this storefront`,
    );
  }
}

type VariantRow = Insertable<Database['listing_variants']>;

/**
 * A new variant row: no stock yet (the inventory area fills the copy), never sent (so drifting), every
 * timestamp at `at`, no channel status.
 */
export function newVariantRow(
  base: Pick<VariantRow, 'account_id' | 'storefront_id' | 'listing_id' | 'product_id' | 'sku'>,
  at: string,
  overrides: Partial<VariantRow> = {},
): VariantRow {
  return {
    ...base,
    position: 0,
    channel_id: '',
    settings: '{}',
    product_data_enabled: 1,
    product_data_updated_at: at,
    identifiers_updated_at: at,
    logistics_updated_at: at,
    pricing_updated_at: at,
    pricing_sales: '[]',
    inventory_enabled: 1,
    merchant_quantity: 0,
    storefront_quantity: 0,
    warehouse_quantities: '[]',
    inventory_updated_at: at,
    intended_changed_at: at,
    last_sent_quantity: null,
    last_sent_at: null,
    last_failed_at: null,
    drifting: 1,
    status: '',
    channel_status: '',
    listing_url: '',
    buyable: 0,
    channel_listing_id: '',
    status_updated_at: null,
    created_at: at,
    updated_at: at,
    ...overrides,
  };
}

/** Inserts variants of a listing (their products created when the catalog has none) and their attributes. */
export async function insertVariants(
  tx: Tx,
  accountId: number,
  storefrontId: number,
  listingId: number,
  variants: VariantInput[],
  firstPosition: number,
  now: Date,
): Promise<{ variantIds: number[]; productIds: number[] }> {
  await assertSkusFree(
    tx,
    accountId,
    storefrontId,
    variants.map((v) => v.sku),
  );
  const iso = now.toISOString();
  const variantIds: number[] = [];
  const productIds: number[] = [];
  for (const [index, v] of variants.entries()) {
    const { product } = await findOrCreateProduct(tx, accountId, v.sku, {}, now);
    let inserted: { id: number } | undefined;
    try {
      inserted = await tx
        .insertInto('listing_variants')
        .values(
          newVariantRow({ account_id: accountId, storefront_id: storefrontId, listing_id: listingId, product_id: product.id, sku: v.sku }, iso, {
            position: firstPosition + index,
            channel_id: v.channelId ?? '',
            settings: JSON.stringify(v.settings ?? {}),
            product_data_enabled: v.productData?.enabled === false ? 0 : 1,
            pricing_sales: JSON.stringify(v.pricing?.sales ?? []),
            inventory_enabled: v.inventory?.enabled === false ? 0 : 1,
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
    } catch (error) {
      // Two requests listing the same SKU at once: the unique index decides, the loser gets the same 409.
      if (isUniqueViolation(error)) throw alreadyExists(`SKU "${v.sku}" is already a variant of another listing on this storefront`);
      throw error;
    }
    const owner = { type: 'V' as const, id: inserted.id };
    await writeAttributes(tx, accountId, owner, 'product_data', v.productData?.attributes ?? [], now, 'new');
    await writeAttributes(tx, accountId, owner, 'identifiers', v.identifiers?.attributes ?? [], now, 'new');
    await writeAttributes(tx, accountId, owner, 'logistics', v.logistics?.attributes ?? [], now, 'new');
    await writeAttributes(tx, accountId, owner, 'pricing', v.pricing?.attributes ?? [], now, 'new');
    variantIds.push(inserted.id);
    productIds.push(product.id);
  }
  return { variantIds, productIds };
}

/** Who writes: the seller's values are checked against the channel's select lists; the channel's own are not. */
export interface ListingWriteOptions {
  checkSelectValues?: boolean;
}

/** Creates a listing with its variants on the storefront; a listing SKU or variant SKU already there is a 409. */
export async function createListing(
  tx: Tx,
  accountId: number,
  storefrontId: number,
  input: ListingInput,
  now: Date,
  options: ListingWriteOptions = {},
): Promise<CreatedListing> {
  await requireStorefront(tx, accountId, storefrontId);
  if (options.checkSelectValues) {
    await checkSelectValues(tx, accountId, storefrontId, input.productData?.productTypeId ?? '', attributesOfRequest(input.productData, input.variants));
  }
  const iso = now.toISOString();
  const existing = await tx
    .selectFrom('listings')
    .select('id')
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .where('sku', '=', input.sku)
    .executeTakeFirst();
  if (existing) throw alreadyExists(`listing SKU "${input.sku}" already exists on this storefront as listing ${existing.id}`);
  const pd = input.productData ?? {};
  let listing: { id: number };
  try {
    listing = await tx
      .insertInto('listings')
      .values({
        account_id: accountId,
        storefront_id: storefrontId,
        sku: input.sku,
        product_data_enabled: pd.enabled === false ? 0 : 1,
        category_id: pd.categoryId ?? '',
        product_type_id: pd.productTypeId ?? '',
        pivot_attributes: JSON.stringify(pd.pivotAttributes ?? []),
        swatch_image_attribute_ids: JSON.stringify(pd.swatchImageAttributeId ?? []),
        standalone_variants: pd.standaloneVariants === true ? 1 : 0,
        base_listing_sku: pd.baseListingSku ?? '',
        retire_base_parent: pd.retireBaseParent === true ? 1 : 0,
        product_data_updated_at: iso,
        channel_listing_id: input.channelListingId ?? null,
        has_channel_id: input.variants.some((v) => (v.channelId ?? '') !== '') ? 1 : 0,
        poll_updated_at: iso,
        created_at: iso,
        updated_at: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyExists(`listing SKU "${input.sku}" already exists on this storefront`);
    throw error;
  }
  await writeAttributes(tx, accountId, { type: 'L', id: listing.id }, 'product_data', pd.attributes ?? [], now, 'new');
  const { variantIds, productIds } = await insertVariants(tx, accountId, storefrontId, listing.id, input.variants, 0, now);
  // A new listing is a product data change like an edit (it appears in listing/new): its version is the
  // product poll position it was created with.
  await emitNudge(
    tx,
    { accountId, eventType: 'LISTING_PRODUCT_DATA_CHANGED', installationId: storefrontId, objectType: 'LISTING', objectId: String(listing.id), version: iso },
    now,
  );
  return { listingId: listing.id, variantIds, productIds };
}

/**
 * Deletes a listing. Variants live on the channel (with a channel id) are kept, detached, so their stock
 * keeps syncing and the drift route still reports them (with an empty listingId, 2.17); the others go.
 */
export async function deleteListing(tx: Tx, accountId: number, listingId: number, now: Date): Promise<{ detachedSkus: string[] }> {
  const variants = await tx
    .selectFrom('listing_variants')
    .select(['id', 'sku', 'channel_id'])
    .where('account_id', '=', accountId)
    .where('listing_id', '=', listingId)
    .execute();
  const live = variants.filter((v) => v.channel_id !== '');
  const gone = variants.filter((v) => v.channel_id === '').map((v) => v.id);
  if (live.length > 0) {
    await tx
      .updateTable('listing_variants')
      .set({ listing_id: null, updated_at: now.toISOString() })
      .where('account_id', '=', accountId)
      .where(
        'id',
        'in',
        live.map((v) => v.id),
      )
      .execute();
  }
  if (gone.length > 0) {
    await deleteAttributes(tx, accountId, 'V', gone);
    await tx.deleteFrom('listing_variant_errors').where('account_id', '=', accountId).where('variant_id', 'in', gone).execute();
    await tx.deleteFrom('listing_variants').where(accountFilterById(accountId)).where('id', 'in', gone).execute();
  }
  await deleteAttributes(tx, accountId, 'L', [listingId]);
  await tx.deleteFrom('listings').where('account_id', '=', accountId).where('id', '=', listingId).execute();
  return { detachedSkus: live.map((v) => v.sku) };
}

/**
 * listings.has_channel_id = 1 while any variant of the listing has a channel id: one UPDATE with a
 * subquery, so concurrent writers cannot leave it stale from a read they made earlier.
 */
export async function syncHasChannelId(tx: Tx, accountId: number, listingId: number): Promise<void> {
  await tx
    .updateTable('listings')
    .set((eb) => ({
      has_channel_id: eb
        .case()
        .when(
          eb.exists(
            eb
              .selectFrom('listing_variants as v')
              .select(eb.lit(1).as('one'))
              .where('v.account_id', '=', accountId)
              .whereRef('v.listing_id', '=', 'listings.id')
              .where('v.channel_id', '<>', ''),
          ),
        )
        .then(1)
        .else(0)
        .end(),
    }))
    .where('account_id', '=', accountId)
    .where('id', '=', listingId)
    .execute();
}
