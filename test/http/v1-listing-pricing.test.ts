import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createListingViaAdmin, patchListingViaAdmin, sampleListing } from '../helpers/listings.js';

interface PricingV1 {
  current_selling_price: number | null;
  msrp: number | null;
  map: number | null;
  pricing: number | null;
}
interface ListingV1Json {
  id: string;
  variants: { sku: string; pricing: PricingV1 }[];
}

const money = (amount: string) => ({ amount, currencyCode: 'USD' });

/** v1 variant pricing reads the price the service stores: the pricing attribute `price` (as v2 shows it). */
describe('v1 listing pricing', () => {
  let t: TestApp;
  let seed: SeededAccount;

  const pricingOf = async (listingId: string, sku: string): Promise<PricingV1> => {
    const one = await t.app.inject({ url: `/v1/listing/${listingId}`, headers: bearer(seed.sellerToken) });
    assert.equal(one.statusCode, 200, one.body);
    const fromOne = (one.json() as ListingV1Json).variants.find((v) => v.sku === sku)?.pricing;
    const list = await t.app.inject({ url: `/v1/listing?skus=${sku}`, headers: bearer(seed.sellerToken) });
    assert.equal(list.statusCode, 200, list.body);
    const fromList = (list.json() as { results: ListingV1Json[] }).results[0]?.variants.find((v) => v.sku === sku)?.pricing;
    assert.deepEqual(fromList, fromOne, 'the list and the single read agree');
    assert.ok(fromOne);
    return fromOne;
  };

  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  it('shows the stored price as current_selling_price and pricing; msrp and map stay null without their own attributes', async () => {
    const listing = await createListingViaAdmin(t, seed, sampleListing('PR-G', ['PR-A']));
    assert.deepEqual(await pricingOf(listing.id, 'PR-A'), { current_selling_price: 10, msrp: null, map: null, pricing: 10 });
  });

  it("follows the seller's price edit (admin PATCH), and reads msrp/map and a v1-specific price from their own ids", async () => {
    const listing = await createListingViaAdmin(t, seed, sampleListing('PR-H', ['PR-B']));
    await patchListingViaAdmin(t, seed, listing.id, {
      variants: [{ sku: 'PR-B', pricing: { attributes: [{ id: 'price', moneyValue: money('12.50') }] } }],
    });
    assert.deepEqual(await pricingOf(listing.id, 'PR-B'), { current_selling_price: 12.5, msrp: null, map: null, pricing: 12.5 });

    await patchListingViaAdmin(t, seed, listing.id, {
      variants: [
        {
          sku: 'PR-B',
          pricing: {
            attributes: [
              { id: 'current_selling_price', moneyValue: money('11.00') },
              { id: 'msrp', moneyValue: money('15.00') },
              { id: 'map', moneyValue: money('9.99') },
            ],
          },
        },
      ],
    });
    assert.deepEqual(await pricingOf(listing.id, 'PR-B'), { current_selling_price: 11, msrp: 15, map: 9.99, pricing: 12.5 });
  });

  it('a variant without any price answers nulls', async () => {
    const body = sampleListing('PR-I', ['PR-C']);
    body['variants'] = (body['variants'] as Record<string, unknown>[]).map(({ pricing: _pricing, ...rest }) => rest);
    const listing = await createListingViaAdmin(t, seed, body);
    assert.deepEqual(await pricingOf(listing.id, 'PR-C'), { current_selling_price: null, msrp: null, map: null, pricing: null });
  });
});
