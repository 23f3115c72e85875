import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { adminHeaders } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, installAndExchange, seedAccount, type InstalledApp, type SeededAccount } from '../helpers/fixtures.js';

interface AttributeJson {
  id: string;
  multiTextValue?: { values: string[] };
}
interface VariantJson {
  sku: string;
  channelId: string;
  productData: { enabled: boolean; attributes: AttributeJson[] };
}
interface ListingJson {
  id: string;
  sku: string;
  productData: { categoryId: string; attributes: AttributeJson[] };
  variants: VariantJson[];
}

function listingBody(storefrontId: number, sku: string, variantSkus: string[], extra: { categoryId?: string; productTypeId?: string; tags?: string[] } = {}) {
  return {
    storefrontId,
    sku,
    productData: {
      categoryId: extra.categoryId ?? 'cat-1',
      ...(extra.productTypeId ? { productTypeId: extra.productTypeId } : {}),
      attributes: [{ id: 'title', textValue: `Title of ${sku}` }, ...(extra.tags ? [{ id: 'tags', multiTextValue: { values: extra.tags } }] : [])],
    },
    variants: variantSkus.map((s) => ({ sku: s, channelId: `CH-${s}`, productData: { attributes: [{ id: 'color', textValue: 'red' }] } })),
  };
}

async function createListing(t: TestApp, accountId: number, body: ReturnType<typeof listingBody>): Promise<ListingJson> {
  const res = await t.app.inject({ method: 'POST', url: `/admin/accounts/${accountId}/listings`, headers: adminHeaders, payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as ListingJson;
}

function assertNotFound(res: LightMyRequestResponse) {
  assert.equal(res.statusCode, 404, res.body);
  const body = res.json() as { code: number; message: string; details: unknown[] };
  assert.equal(body.code, 5);
  assert.deepEqual(body.details, []);
}

describe('storefront listing and variant reads', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let second: InstalledApp;
  let shirt: ListingJson;
  let routing: ListingJson;
  let otherStorefrontListing: ListingJson;
  let foreignListing: ListingJson;

  const get = (path: string, token = seed.channel.token) => t.app.inject({ url: `/v2/storefront/listing/${path}`, headers: bearer(token) });

  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    const now = new Date().toISOString();
    await t.deps.db.db
      .insertInto('taxonomy_attribute_specs')
      .values({
        account_id: seed.accountId,
        storefront_id: seed.channel.installationId,
        product_type_id: 'shirt',
        attribute_spec_id: 'tags',
        spec: '{}',
        max_unique_items: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    shirt = await createListing(
      t,
      seed.accountId,
      listingBody(seed.channel.installationId, 'SHIRT', ['SHIRT-S', 'SHIRT-M'], { categoryId: 'apparel', productTypeId: 'shirt', tags: ['a', 'b'] }),
    );
    // SKUs that look like the static segments of other routes.
    routing = await createListing(t, seed.accountId, listingBody(seed.channel.installationId, 'new', ['pricing', 'inventory', '42'], { categoryId: 'odd' }));
    second = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Shop Two' });
    otherStorefrontListing = await createListing(t, seed.accountId, listingBody(second.installationId, 'OTHER', ['OTHER-1'], { categoryId: 'elsewhere' }));
    const foreign = await seedAccount(t, 'Foreign');
    foreignListing = await createListing(t, foreign.accountId, listingBody(foreign.channel.installationId, 'FOREIGN', ['FOREIGN-1']));
  });
  after(async () => t.close());

  it('reads a listing by id as the polls send it (attributes over maxUniqueItems left out)', async () => {
    const res = await get(shirt.id);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as ListingJson;
    assert.equal(body.id, shirt.id);
    assert.equal(body.sku, 'SHIRT');
    assert.deepEqual(
      body.variants.map((v) => v.sku),
      ['SHIRT-S', 'SHIRT-M'],
    );
    assert.deepEqual(
      body.productData.attributes.map((a) => a.id),
      ['title'],
    );
    assert.deepEqual({ ...body, productData: { ...body.productData, attributes: [] } }, { ...shirt, productData: { ...shirt.productData, attributes: [] } });
  });

  it('reads the listing that contains a variant sku, or by its own group sku', async () => {
    for (const sku of ['SHIRT-S', 'SHIRT-M', 'SHIRT']) {
      const res = await get(`sku/${sku}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((res.json() as ListingJson).id, shirt.id, sku);
    }
    assertNotFound(await get('sku/NOPE'));
  });

  it('prefers the listing containing the variant over a listing whose group sku is the same text', async () => {
    // A group SKU may equal another listing's variant SKU (group SKUs and variant SKUs are separate namespaces).
    const clash = await createListing(t, seed.accountId, listingBody(seed.channel.installationId, 'SHIRT-M', ['CLASH-1'], { categoryId: 'clash' }));
    assert.equal(((await get('sku/SHIRT-M')).json() as ListingJson).id, shirt.id);
    assert.equal(((await get('sku/CLASH-1')).json() as ListingJson).id, clash.id);
    const res = await t.app.inject({ method: 'DELETE', url: `/admin/accounts/${seed.accountId}/listings/${clash.id}`, headers: adminHeaders });
    assert.equal(res.statusCode, 200, res.body);
  });

  it('reads a variant by sku', async () => {
    const res = await get('variant/SHIRT-M');
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), shirt.variants[1]);
    assertNotFound(await get('variant/SHIRT'));
    assertNotFound(await get('variant/NOPE'));
  });

  it('answers the category of a variant sku or a group sku', async () => {
    for (const sku of ['SHIRT-S', 'SHIRT']) {
      const res = await get(`sku/${sku}/category`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { categoryId: 'apparel' });
    }
    assertNotFound(await get('sku/NOPE/category'));
  });

  it('answers 404 for ids and skus of another storefront or account, and for a non-numeric id', async () => {
    assertNotFound(await get(otherStorefrontListing.id));
    assertNotFound(await get(foreignListing.id));
    assertNotFound(await get('sku/OTHER'));
    assertNotFound(await get('sku/FOREIGN'));
    assertNotFound(await get('sku/OTHER-1'));
    assertNotFound(await get('sku/FOREIGN-1'));
    assertNotFound(await get('variant/OTHER-1'));
    assertNotFound(await get('variant/FOREIGN-1'));
    assertNotFound(await get('sku/OTHER-1/category'));
    assertNotFound(await get('sku/FOREIGN-1/category'));
    assertNotFound(await get('abc'));
    assertNotFound(await get('12abc'));
    assertNotFound(await get('99999999999999999999'));
    assertNotFound(await get('0'));
    // The other storefront reads its own.
    const own = await get(otherStorefrontListing.id, second.token);
    assert.equal(own.statusCode, 200, own.body);
    assert.deepEqual(((await get('sku/OTHER-1/category', second.token)).json() as { categoryId: string }).categoryId, 'elsewhere');
  });

  it('does not let /listing/{listingId} capture the static routes, nor the static routes capture skus', async () => {
    const fresh = await get('new');
    assert.equal(fresh.statusCode, 200, fresh.body);
    assert.deepEqual(Object.keys(fresh.json() as object).sort(), ['listings', 'nextPageCursor']);
    const pricing = await get('variant/pricing/updated');
    assert.equal(pricing.statusCode, 200, pricing.body);
    assert.deepEqual(Object.keys(pricing.json() as object).sort(), ['nextPageCursor', 'variants']);
    assert.equal((await get('product_data/updated')).statusCode, 200);
    // A listing whose group sku is "new", variants named like static segments.
    assert.equal(((await get('sku/new')).json() as ListingJson).id, routing.id);
    assert.equal(((await get('variant/pricing')).json() as VariantJson).sku, 'pricing');
    assert.equal(((await get('variant/inventory')).json() as VariantJson).sku, 'inventory');
    assert.equal(((await get('variant/42')).json() as VariantJson).sku, '42');
    assert.deepEqual((await get('sku/new/category')).json(), { categoryId: 'odd' });
    assert.equal(((await get(routing.id)).json() as ListingJson).sku, 'new');
  });

  it('serves a scheduled sale without a start or an end with those timestamps null, as the production gateway writes unset Timestamps', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/admin/accounts/${seed.accountId}/listings/${routing.id}`,
      headers: adminHeaders,
      payload: {
        variants: [
          {
            sku: '42',
            pricing: {
              sales: [
                { salePrice: 8, strikeThroughPrice: 10 },
                { salePrice: 7, startAt: '2026-12-01T00:00:00Z', endAt: null },
                { salePrice: 6, endAt: '2026-12-24T00:00:00+01:00' },
              ],
            },
          },
        ],
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const variant = (await get('variant/42')).json() as { pricing: { sales: unknown[] } };
    assert.deepEqual(variant.pricing.sales, [
      { strikeThroughPrice: 10, salePrice: 8, startAt: null, endAt: null },
      { strikeThroughPrice: 0, salePrice: 7, startAt: '2026-12-01T00:00:00.000Z', endAt: null },
      { strikeThroughPrice: 0, salePrice: 6, startAt: null, endAt: '2026-12-23T23:00:00.000Z' },
    ]);
    const listing = (await get(routing.id)).json() as { variants: { sku: string; pricing: { sales: unknown[] } }[] };
    assert.deepEqual(listing.variants.find((v) => v.sku === '42')?.pricing.sales, variant.pricing.sales);
  });

  it('needs a storefront token', async () => {
    for (const path of [shirt.id, 'sku/SHIRT', 'variant/SHIRT-S', 'sku/SHIRT-S/category']) {
      const res = await get(path, seed.sellerToken);
      assert.equal(res.statusCode, 403, res.body);
      assert.equal((res.json() as { code: number }).code, 7);
      assert.equal((await t.app.inject({ url: `/v2/storefront/listing/${path}` })).statusCode, 401);
    }
  });

  it('reads a variant kept after its listing was deleted, with an empty category', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/admin/accounts/${seed.accountId}/listings/${shirt.id}`, headers: adminHeaders });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual((res.json() as { detachedSkus: string[] }).detachedSkus.sort(), ['SHIRT-M', 'SHIRT-S']);
    assertNotFound(await get(shirt.id));
    assertNotFound(await get('sku/SHIRT'));
    assertNotFound(await get('sku/SHIRT-S'));
    const variant = await get('variant/SHIRT-S');
    assert.equal(variant.statusCode, 200, variant.body);
    assert.equal((variant.json() as VariantJson).channelId, 'CH-SHIRT-S');
    assert.deepEqual((await get('sku/SHIRT-S/category')).json(), { categoryId: '' });
  });
});
