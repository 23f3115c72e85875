import type { Db } from '../../db/tx.js';
import { getAccount } from '../accounts/accounts.js';
import { requireStorefront } from './storefront-settings.js';

/** The seller's overview of listings (operator API): one line per listing, without attribute values. */
export interface ListingSummary {
  listingId: number;
  storefrontId: number;
  sku: string;
  categoryId: string;
  productTypeId: string;
  productDataEnabled: boolean;
  variantCount: number;
  /** Variants with a channel id (live on the channel). */
  liveVariantCount: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * A page of the account's listings, oldest first by id (keyset), optionally of one storefront and/or
 * matching a group or variant SKU exactly. An unknown account or another account's storefront is a 404.
 */
export async function listListingSummaries(
  db: Db,
  accountId: number,
  filter: { storefrontId?: number; sku?: string },
  afterId: number | null,
  pageSize: number,
): Promise<{ listings: ListingSummary[]; nextAfterId: number | null }> {
  await getAccount(db, accountId);
  if (filter.storefrontId !== undefined) await requireStorefront(db, accountId, filter.storefrontId);
  let query = db
    .selectFrom('listings as l')
    .select((eb) => [
      'l.id',
      'l.storefront_id',
      'l.sku',
      'l.category_id',
      'l.product_type_id',
      'l.product_data_enabled',
      'l.created_at',
      'l.updated_at',
      eb
        .selectFrom('listing_variants as v')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('v.account_id', '=', accountId)
        .whereRef('v.listing_id', '=', 'l.id')
        .as('variant_count'),
      eb
        .selectFrom('listing_variants as v')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('v.account_id', '=', accountId)
        .whereRef('v.listing_id', '=', 'l.id')
        .where('v.channel_id', '<>', '')
        .as('live_variant_count'),
    ])
    .where('l.account_id', '=', accountId);
  if (filter.storefrontId !== undefined) query = query.where('l.storefront_id', '=', filter.storefrontId);
  const sku = filter.sku;
  if (sku !== undefined) {
    query = query.where((eb) =>
      eb.or([
        eb('l.sku', '=', sku),
        eb.exists(
          eb
            .selectFrom('listing_variants as s')
            .select('s.id')
            .where('s.account_id', '=', accountId)
            .whereRef('s.listing_id', '=', 'l.id')
            .where('s.sku', '=', sku),
        ),
      ]),
    );
  }
  if (afterId !== null) query = query.where('l.id', '>', afterId);
  const rows = await query.orderBy('l.id').limit(pageSize + 1).execute();
  const page = rows.slice(0, pageSize);
  return {
    listings: page.map((r) => ({
      listingId: Number(r.id),
      storefrontId: r.storefront_id,
      sku: r.sku,
      categoryId: r.category_id,
      productTypeId: r.product_type_id,
      productDataEnabled: r.product_data_enabled === 1,
      variantCount: Number(r.variant_count ?? 0),
      liveVariantCount: Number(r.live_variant_count ?? 0),
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    })),
    nextAfterId: rows.length > pageSize ? Number(page[page.length - 1]!.id) : null,
  };
}
