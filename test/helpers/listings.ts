import type { ListingView } from '../../src/domain/listings/model.js';
import { newVariantRow } from '../../src/domain/listings/write.js';
import { adminHeaders } from './admin.js';
import type { TestApp } from './app.js';
import type { SeededAccount } from './fixtures.js';

export { adminHeaders };

/** A listing body with title/description on the listing and a color per variant, priced at 10.00 USD. */
export function sampleListing(sku: string, variantSkus: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sku,
    productData: {
      categoryId: 'cat-1',
      productTypeId: 'pt-1',
      pivotAttributes: ['color'],
      attributes: [
        { id: 'title', textValue: `${sku} title` },
        { id: 'description', textValue: `${sku} description` },
      ],
    },
    variants: variantSkus.map((v, i) => ({
      sku: v,
      productData: { attributes: [{ id: 'color', textValue: `color-${i}` }] },
      pricing: { attributes: [{ id: 'price', moneyValue: { amount: '10.00', currencyCode: 'USD' } }] },
    })),
    ...extra,
  };
}

/** sampleListing whose variants carry channel ids (live on the channel) and inventory flags where given. */
export function listingWithVariants(sku: string, variants: { sku: string; channelId?: string; inventoryEnabled?: boolean }[]): Record<string, unknown> {
  const body = sampleListing(
    sku,
    variants.map((v) => v.sku),
  );
  body['variants'] = (body['variants'] as Record<string, unknown>[]).map((v, i) => ({
    ...v,
    channelId: variants[i]!.channelId ?? '',
    inventory: { enabled: variants[i]!.inventoryEnabled ?? true },
  }));
  return body;
}

/** Creates a listing on the seeded storefront (or `storefrontId`) through the operator API. */
export async function createListingViaAdmin(
  t: TestApp,
  seeded: SeededAccount,
  body: Record<string, unknown>,
  storefrontId: number = seeded.channel.installationId,
): Promise<ListingView> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/admin/accounts/${seeded.accountId}/listings`,
    headers: adminHeaders,
    payload: { storefrontId, ...body },
  });
  if (res.statusCode !== 201) throw new Error(`create listing failed: ${res.statusCode} ${res.body}`);
  return res.json() as ListingView;
}

/** The seller's edit (PATCH); returns the listing. */
export async function patchListingViaAdmin(t: TestApp, seeded: SeededAccount, listingId: string, body: Record<string, unknown>): Promise<ListingView> {
  const res = await t.app.inject({
    method: 'PATCH',
    url: `/admin/accounts/${seeded.accountId}/listings/${listingId}`,
    headers: adminHeaders,
    payload: body,
  });
  if (res.statusCode !== 200) throw new Error(`patch listing failed: ${res.statusCode} ${res.body}`);
  return res.json() as ListingView;
}

/** A listing_variants row for tests that seed more variants than the admin route makes quickly. */
export const variantRow = newVariantRow;
