import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CPSIA_WARNING_KEYS } from '../../src/domain/listings/v1-view.js';
import { manualClock } from '../../src/lib/clock.js';
import { adminHeaders, assertV1Error } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, installAndExchange, seedAccount, type InstalledApp, type SeededAccount } from '../helpers/fixtures.js';

interface ListingV1Json {
  id: string;
  sku: string;
  title: string;
  updated_at: string;
  cpsia_warnings: Record<string, boolean>;
  variants: { sku: string; available_inventory: number; listing_data: { attribute: string; value: string }[] }[];
}
interface PageJson {
  results: ListingV1Json[];
  pagination: { hasNext: boolean; nextToken: string };
}

const START = new Date('2026-04-01T08:00:00.000Z');

function body(storefrontId: number, sku: string, variantSkus: string[], attributes: Record<string, unknown>[] = []) {
  return {
    storefrontId,
    sku,
    productData: { categoryId: 'cat-1', productTypeId: 'shirt', pivotAttributes: ['size'], attributes: [{ id: 'title', textValue: `${sku} title` }, ...attributes] },
    variants: variantSkus.map((v) => ({
      sku: v,
      productData: { attributes: [{ id: 'size', textValue: 'M' }] },
      pricing: { attributes: [{ id: 'current_selling_price', moneyValue: { amount: '19.99', currencyCode: 'USD' } }] },
    })),
  };
}

describe('v1 listings', () => {
  const clock = manualClock(START);
  let t: TestApp;
  let seed: SeededAccount;
  let second: InstalledApp;
  const ids: Record<string, string> = {};

  const get = (url: string, token = seed.sellerToken) => t.app.inject({ url, headers: { authorization: token } });
  const skusOf = (res: { json(): unknown }) => (res.json() as PageJson).results.map((l) => l.sku);

  async function create(accountId: number, payload: ReturnType<typeof body>): Promise<string> {
    const res = await t.app.inject({ method: 'POST', url: `/admin/accounts/${accountId}/listings`, headers: adminHeaders, payload });
    assert.equal(res.statusCode, 201, res.body);
    return (res.json() as { id: string }).id;
  }

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    second = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Shop Two' });
    const now = START.toISOString();
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
    ids.ALPHA = await create(
      seed.accountId,
      body(seed.channel.installationId, 'ALPHA', ['ALPHA-1', 'ALPHA-2'], [
        { id: 'description', textValue: 'Alpha description' },
        { id: 'tags', multiTextValue: { values: ['one', 'two'] } },
        { id: 'cpsia_warnings', multiTextValue: { values: ['choking hazard is a marble'] } },
        { id: 'prop65_required', textValue: 'yes' },
        { id: 'prop65_chemicals', multiTextValue: { values: ['lead'] } },
      ]),
    );
    clock.advance(1000);
    ids.BETA = await create(seed.accountId, body(seed.channel.installationId, 'BETA', ['BETA-1']));
    clock.advance(1000);
    ids.GAMMA = await create(seed.accountId, body(second.installationId, 'GAMMA', ['GAMMA-1']));
    clock.advance(1000);
    const foreign = await seedAccount(t, 'Foreign');
    ids.FOREIGN = await create(foreign.accountId, body(foreign.channel.installationId, 'FOREIGN', ['FOREIGN-1']));
    clock.advance(1000);
  });
  after(async () => t.close());

  it('lists the whole account for a seller token and one storefront for a storefront token, oldest update first', async () => {
    const all = await get('/v1/listing');
    assert.equal(all.statusCode, 200, all.body);
    assert.deepEqual(skusOf(all), ['ALPHA', 'BETA', 'GAMMA']);
    assert.deepEqual((all.json() as PageJson).pagination, { hasNext: false, nextToken: '' });
    assert.deepEqual(skusOf(await get('/v1/listing', seed.channel.token)), ['ALPHA', 'BETA']);
    assert.deepEqual(skusOf(await get('/v1/listing', `Bearer ${second.token}`)), ['GAMMA']);
    // A token without legacy or listing:self is refused (resolutions §7), naming the scopes that would do.
    assertV1Error(await get('/v1/listing', seed.shipping.token), 403, /legacy, listing:self/);
    assertV1Error(await t.app.inject({ url: '/v1/listing' }), 401);
  });

  it('filters on lastUpdateTs (exclusive; alias lastUpdatedTs) and refuses a timestamp without a zone', async () => {
    const alphaUpdated = (((await get('/v1/listing')).json() as PageJson).results[0] as ListingV1Json).updated_at;
    assert.equal(alphaUpdated, START.toISOString());
    assert.deepEqual(skusOf(await get(`/v1/listing?lastUpdateTs=${alphaUpdated}`)), ['BETA', 'GAMMA']);
    assert.deepEqual(skusOf(await get(`/v1/listing?lastUpdatedTs=${alphaUpdated}`)), ['BETA', 'GAMMA']);
    assert.deepEqual(skusOf(await get(`/v1/listing?lastUpdateTs=${encodeURIComponent('2026-04-01T08:59:59.999+01:00')}`)), ['ALPHA', 'BETA', 'GAMMA']);
    assertV1Error(await get('/v1/listing?lastUpdateTs=2026-04-01T08:00:00'), 400, /lastUpdateTs/);
    assertV1Error(await get('/v1/listing?lastUpdatedTs=soon'), 400, /lastUpdatedTs/);
  });

  it('filters on skus: group or variant skus, comma-separated or repeated, exact', async () => {
    assert.deepEqual(skusOf(await get('/v1/listing?skus=ALPHA-2')), ['ALPHA']);
    assert.deepEqual(skusOf(await get('/v1/listing?skus=BETA,GAMMA-1')), ['BETA', 'GAMMA']);
    assert.deepEqual(skusOf(await get('/v1/listing?skus=ALPHA&skus=GAMMA')), ['ALPHA', 'GAMMA']);
    assert.deepEqual(skusOf(await get('/v1/listing?skus=alpha,FOREIGN,FOREIGN-1')), []);
    assert.deepEqual(skusOf(await get('/v1/listing?skus=GAMMA', seed.channel.token)), []);
  });

  it('pages with pageLength and an absolute nextToken URL that overrides every other parameter', async () => {
    const first = await get('/v1/listing?pageLength=2&skus=ALPHA,BETA,GAMMA');
    assert.equal(first.statusCode, 200, first.body);
    const page1 = first.json() as PageJson;
    assert.deepEqual(page1.results.map((l) => l.sku), ['ALPHA', 'BETA']);
    assert.equal(page1.pagination.hasNext, true);
    const next = new URL(page1.pagination.nextToken);
    assert.equal(`${next.origin}${next.pathname}`, 'http://localhost/v1/listing');
    // The token carries the filters and the page length: other parameters sent with it are ignored.
    const page2 = await get(`${next.pathname}${next.search}&skus=NOPE&pageLength=100&lastUpdateTs=2099-01-01T00:00:00Z`);
    assert.equal(page2.statusCode, 200, page2.body);
    assert.deepEqual(skusOf(page2), ['GAMMA']);
    assert.deepEqual((page2.json() as PageJson).pagination, { hasNext: false, nextToken: '' });

    const one = (await get('/v1/listing?pageLength=1', seed.channel.token)).json() as PageJson;
    assert.deepEqual(one.results.map((l) => l.sku), ['ALPHA']);
    const tokenUrl = new URL(one.pagination.nextToken);
    const rest = await get(`${tokenUrl.pathname}${tokenUrl.search}`, seed.channel.token);
    assert.deepEqual(skusOf(rest), ['BETA']);
    assert.deepEqual((rest.json() as PageJson).pagination, { hasNext: false, nextToken: '' });
    // A token issued to one storefront is not valid for another token.
    assertV1Error(await get(`${tokenUrl.pathname}${tokenUrl.search}`, seed.sellerToken), 400, /invalid nextToken/);
    assertV1Error(await get(`${tokenUrl.pathname}${tokenUrl.search}`, second.token), 400, /invalid nextToken/);
  });

  it('uses 25 as the default page length', async () => {
    const fresh = await createTestApp();
    try {
      const s = await seedAccount(fresh);
      for (let i = 0; i < 27; i++) {
        const res = await fresh.app.inject({
          method: 'POST',
          url: `/admin/accounts/${s.accountId}/listings`,
          headers: adminHeaders,
          payload: body(s.channel.installationId, `L${String(i).padStart(2, '0')}`, [`V${i}`]),
        });
        assert.equal(res.statusCode, 201, res.body);
      }
      const page = (await fresh.app.inject({ url: '/v1/listing', headers: bearer(s.sellerToken) })).json() as PageJson;
      assert.equal(page.results.length, 25);
      assert.equal(page.pagination.hasNext, true);
      const url = new URL(page.pagination.nextToken);
      const rest = (await fresh.app.inject({ url: `${url.pathname}${url.search}`, headers: bearer(s.sellerToken) })).json() as PageJson;
      assert.equal(rest.results.length, 2);
      assert.equal(new Set([...page.results, ...rest.results].map((l) => l.sku)).size, 27);
    } finally {
      await fresh.close();
    }
  });

  it('refuses a bad pageLength and an unreadable nextToken with the v1 error body', async () => {
    assertV1Error(await get('/v1/listing?pageLength=0'), 400, /pageLength/);
    assertV1Error(await get('/v1/listing?pageLength=101'), 400, /pageLength/);
    assertV1Error(await get('/v1/listing?pageLength=ten'), 400, /pageLength/);
    assertV1Error(await get('/v1/listing?nextToken=garbage'), 400, /invalid nextToken/);
    // A token of another v1 list route is as invalid as a forged one.
    const inventoryPage = await get('/v1/inventory?lastUpdatedTs=2000-01-01T00:00:00Z&pageLength=1');
    const inventoryToken = (inventoryPage.json() as PageJson).pagination.nextToken;
    assert.notEqual(inventoryToken, '');
    assertV1Error(await get(`/v1/listing${new URL(inventoryToken).search}`), 400, /invalid nextToken/);
  });

  it('reads one listing in the 2.1 shape, keys exactly as the document spells them', async () => {
    const res = await get(`/v1/listing/${ids.ALPHA}`);
    assert.equal(res.statusCode, 200, res.body);
    const listing = res.json() as Record<string, unknown> & ListingV1Json;
    assert.deepEqual(Object.keys(listing).sort(), [
      'category',
      'cpsia_warnings',
      'created_at',
      'description',
      'id',
      'pivot_attributes',
      'primary_image',
      'prop65',
      'sku',
      'tags',
      'title',
      'updated_at',
      'variants',
    ]);
    assert.deepEqual(Object.keys(listing.cpsia_warnings), [...CPSIA_WARNING_KEYS]);
    assert.deepEqual(listing.cpsia_warnings, {
      'choking hazard balloon': false,
      'choking hazard contains a marble': false,
      'choking hazard contains a small ball': false,
      'choking hazard is a marble': true,
      'choking hazard is a small ball': false,
      'choking hazard small parts': false,
    });
    assert.equal(listing.id, ids.ALPHA);
    assert.equal(listing.sku, 'ALPHA');
    assert.equal(listing.title, 'ALPHA title');
    assert.equal(listing.description, 'Alpha description');
    // v1 has no channel-error report: it shows attributes the storefront polls leave out (maxUniqueItems).
    assert.equal(listing.tags, 'one, two');
    assert.equal(listing.category, 'cat-1');
    assert.deepEqual(listing.pivot_attributes, ['size']);
    assert.deepEqual(listing.primary_image, { url: '', hash: '' });
    assert.deepEqual(listing.prop65, { required: true, type: '', chemicals: ['lead'] });
    assert.equal(listing.created_at, START.toISOString());
    const variants = listing.variants as unknown as Record<string, unknown>[];
    assert.deepEqual(
      variants.map((v) => v.sku),
      ['ALPHA-1', 'ALPHA-2'],
    );
    assert.deepEqual(Object.keys(variants[0]!).sort(), [
      'available_inventory',
      'brand',
      'condition',
      'condition_description',
      'images',
      'listing_data',
      'manufacturer',
      'model_number',
      'pricing',
      'primary_image',
      'sku',
      'standard_identifier',
      'standard_identifier_type',
    ]);
    assert.deepEqual(variants[0]!.pricing, { current_selling_price: 19.99, msrp: null, map: null, pricing: null });
    assert.equal(variants[0]!.available_inventory, 0);
    assert.deepEqual(variants[0]!.listing_data, [{ attribute: 'size', value: 'M' }]);
    // The same listing as the list shows it.
    assert.deepEqual(((await get('/v1/listing?skus=ALPHA')).json() as PageJson).results[0], listing);
  });

  it('shows the variant stock as available_inventory', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/inventory',
      headers: { authorization: seed.sellerToken },
      payload: { products: [{ SKU: 'BETA-1', warehouseId: seed.warehouses.main, quantity: 7 }, { SKU: 'BETA-1', warehouseId: seed.warehouses.channel, quantity: 3 }] },
    });
    assert.equal(res.statusCode, 200, res.body);
    const beta = (await get(`/v1/listing/${ids.BETA}`)).json() as ListingV1Json;
    assert.equal(beta.variants[0]?.available_inventory, 10);
  });

  it('answers 404 for an unknown, non-numeric, foreign or (storefront token) other storefront\'s listing', async () => {
    assertV1Error(await get('/v1/listing/abc'), 404);
    assertV1Error(await get('/v1/listing/999999'), 404);
    assertV1Error(await get(`/v1/listing/${ids.FOREIGN}`), 404);
    assertV1Error(await get(`/v1/listing/${ids.GAMMA}`, seed.channel.token), 404);
    assert.equal((await get(`/v1/listing/${ids.GAMMA}`, second.token)).statusCode, 200);
    assert.equal((await get(`/v1/listing/${ids.GAMMA}`)).statusCode, 200);
    assertV1Error(await t.app.inject({ url: `/v1/listing/${ids.ALPHA}` }), 401);
  });
});
