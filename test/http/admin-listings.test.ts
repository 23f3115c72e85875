import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { adminHeaders, assertV1Error } from '../helpers/admin.js';
import { bearer, installAndExchange, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createListingViaAdmin, patchListingViaAdmin, sampleListing } from '../helpers/listings.js';

describe('admin listings (seller create, read, edit, delete, settings)', () => {
  const clock = manualClock(new Date('2026-03-01T10:00:00.000Z'));
  let t: TestApp;
  let s: SeededAccount;
  before(async () => {
    t = await createTestApp({ clock });
    s = await seedAccount(t);
  });
  after(() => t.close());

  it('creates a listing with versioned attributes of every value kind and current stock', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/v1/inventory',
      headers: bearer(s.sellerToken),
      payload: { validAsOf: clock.now().toISOString(), products: [{ SKU: 'ADM-A1', warehouseId: s.warehouses.main, quantity: 7 }, { SKU: 'ADM-A1', warehouseId: s.warehouses.channel, quantity: 2 }] },
    });
    const body = sampleListing('ADM-GROUP', ['ADM-A1', 'ADM-A2']);
    (body['productData'] as { attributes: unknown[] }).attributes.push(
      { id: 'weight', numericWithUnitsValue: { numeric: 1.5, units: 'kg' } },
      { id: 'count', numericValue: 3 },
      { id: 'tags', multiTextValue: { values: ['a', 'b'] } },
      { id: 'msrp', moneyValue: { amount: 19.99, currencyCode: 'USD' } },
      { id: 'bullets', multiObjectValue: { items: [{ properties: { text: { textValue: 'x' }, size: { multiObjectValue: { items: [{ properties: { w: { numericValue: 2 } } }] } } } }] } },
      { id: 'rebate', moneyValue: { amount: '-5.5', currencyCode: 'USD' } },
      { id: 'unit_cost', moneyValue: { amount: '1.255', currencyCode: 'USD' } },
      { id: 'fees', multiObjectValue: { items: [{ properties: { fee: { moneyValue: { amount: '2', currencyCode: 'EUR' } } } }] } },
    );
    const listing = await createListingViaAdmin(t, s, body);
    assert.equal(listing.sku, 'ADM-GROUP');
    assert.equal(listing.productData.categoryId, 'cat-1');
    const attrs = Object.fromEntries(listing.productData.attributes.map((a) => [a.id, a]));
    assert.deepEqual(attrs['msrp']!.moneyValue, { amount: '19.99', currencyCode: 'USD' });
    // Money renders with at least two decimals, more only when the value has more (resolutions §7)…
    assert.deepEqual(attrs['rebate']!.moneyValue, { amount: '-5.50', currencyCode: 'USD' });
    assert.deepEqual(attrs['unit_cost']!.moneyValue, { amount: '1.255', currencyCode: 'USD' });
    assert.deepEqual(attrs['fees']!.multiObjectValue!.items[0]!.properties['fee']!.moneyValue, { amount: '2.00', currencyCode: 'EUR' });
    // …while the stored value stays exactly as sent.
    const stored = await t.deps.db.db.selectFrom('listing_attributes').select('value').where('attribute_id', '=', 'rebate').executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(stored.value), { moneyValue: { amount: '-5.5', currencyCode: 'USD' } });
    assert.deepEqual(attrs['weight']!.numericWithUnitsValue, { numeric: 1.5, units: 'kg' });
    assert.equal(attrs['bullets']!.multiObjectValue!.items[0]!.properties['size']!.multiObjectValue!.items[0]!.properties['w']!.numericValue, 2);
    assert.match(attrs['title']!.versionId, /^[0-9a-f]{24}$/);
    // Never submitted: null, as the production gateway writes an unset Timestamp (resolutions §7).
    assert.equal(attrs['title']!.submittedAt, null);
    const [v1, v2] = listing.variants;
    assert.equal(v1!.inventory.merchantFulfillableQuantity, '7');
    assert.equal(v1!.inventory.storefrontFulfillableQuantity, '2');
    assert.equal(v1!.inventory.totalQuantity, '9');
    assert.deepEqual(v1!.inventory.merchantFulfillableWarehouseQuantities, [{ warehouseId: String(s.warehouses.main), quantity: '7' }]);
    assert.equal(v2!.inventory.totalQuantity, '0');
    assert.deepEqual(v1!.pricing.attributes[0]!.moneyValue, { amount: '10.00', currencyCode: 'USD' });
  });

  it('edits: same value keeps the version, a new value gets a new one; settings merge', async () => {
    const listing = await createListingViaAdmin(t, s, sampleListing('ADM-EDIT', ['ADM-E1']));
    const title = listing.productData.attributes.find((a) => a.id === 'title')!;
    clock.advance(1000);
    const same = await patchListingViaAdmin(t, s, listing.id, { productData: { attributes: [{ id: 'title', textValue: title.textValue }] } });
    assert.equal(same.productData.attributes.find((a) => a.id === 'title')!.versionId, title.versionId);
    assert.equal(same.productData.updatedAt, listing.productData.updatedAt);
    clock.advance(1000);
    const changed = await patchListingViaAdmin(t, s, listing.id, {
      productData: { attributes: [{ id: 'title', textValue: 'New title' }], removeAttributeIds: ['description'] },
      variants: [{ sku: 'ADM-E1', settings: { b: 'variant' }, inventory: { enabled: false } }],
    });
    const newTitle = changed.productData.attributes.find((a) => a.id === 'title')!;
    assert.notEqual(newTitle.versionId, title.versionId);
    assert.equal(newTitle.updatedAt, clock.now().toISOString());
    assert.equal(changed.productData.attributes.some((a) => a.id === 'description'), false);
    assert.equal(changed.variants[0]!.inventory.enabled, false);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/admin/accounts/${s.accountId}/storefronts/${s.channel.installationId}/settings`,
      headers: adminHeaders,
      payload: { settings: { a: 'store', b: 'store' } },
    });
    assert.equal(put.statusCode, 200);
    const read = await t.app.inject({ method: 'GET', url: `/admin/accounts/${s.accountId}/listings/${listing.id}`, headers: adminHeaders });
    assert.deepEqual(read.json().variants[0].settings, { a: 'store', b: 'variant' });
  });

  it('adds a variant through an edit and refuses a SKU listed elsewhere on the storefront', async () => {
    const listing = await createListingViaAdmin(t, s, sampleListing('ADM-ADD', ['ADM-D1']));
    const added = await patchListingViaAdmin(t, s, listing.id, { variants: [{ sku: 'ADM-D2' }] });
    assert.deepEqual(added.variants.map((v) => v.sku), ['ADM-D1', 'ADM-D2']);
    const dup = await t.app.inject({ method: 'POST', url: `/admin/accounts/${s.accountId}/listings`, headers: adminHeaders, payload: { storefrontId: s.channel.installationId, ...sampleListing('ADM-OTHER', ['ADM-D2']) } });
    assertV1Error(dup, 409, /ADM-D2/);
    const sameGroup = await t.app.inject({ method: 'POST', url: `/admin/accounts/${s.accountId}/listings`, headers: adminHeaders, payload: { storefrontId: s.channel.installationId, ...sampleListing('ADM-ADD', ['ADM-D9']) } });
    assertV1Error(sameGroup, 409, /ADM-ADD/);
    // Another storefront of the account may list the same SKUs.
    const other = await installAndExchange(t, s.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Shop Two', name: 'eBay' });
    const elsewhere = await createListingViaAdmin(t, s, sampleListing('ADM-ADD', ['ADM-D2']), other.installationId);
    assert.equal(elsewhere.variants[0]!.sku, 'ADM-D2');
  });

  it('refuses bad input with the field named and changes nothing', async () => {
    const cases: [unknown, RegExp][] = [
      [{ storefrontId: s.channel.installationId, sku: 'X', variants: [] }, /variants/],
      [{ storefrontId: s.channel.installationId, sku: 'X', variants: [{ sku: 'X1' }, { sku: 'X1' }] }, /appears twice/],
      [{ storefrontId: s.channel.installationId, sku: 'X', variants: [{ sku: 'X1', productData: { attributes: [{ id: 'a' }] } }] }, /needs one of/],
      [{ storefrontId: s.channel.installationId, sku: 'X', variants: [{ sku: 'X1', productData: { attributes: [{ id: 'a', textValue: 'x', numericValue: 1 }] } }] }, /more than one/],
      [{ storefrontId: s.channel.installationId, sku: 'X', variants: [{ sku: 'X1', pricing: { attributes: [{ id: 'p', moneyValue: { amount: '1.2.3', currencyCode: 'USD' } }] } }] }, /decimal/],
      [{ storefrontId: s.channel.installationId, sku: 'X', variants: [{ sku: 'X1', pricing: { attributes: [{ id: 'p', moneyValue: { amount: '1', currencyCode: 'usd' } }] } }] }, /ISO 4217/],
      [{ storefrontId: s.channel.installationId, sku: 'X', variants: [{ sku: 'X1', pricing: { sales: [{ salePrice: 1, startAt: '2026-01-01T00:00:00' }] } }] }, /time zone/],
      [{ storefrontId: s.channel.installationId, sku: 'X', variants: [{ sku: 'X1', settings: { a: 1 } }] }, /settings/],
    ];
    for (const [payload, pattern] of cases) {
      const res = await t.app.inject({ method: 'POST', url: `/admin/accounts/${s.accountId}/listings`, headers: adminHeaders, payload: payload as object });
      assertV1Error(res, 400, pattern);
    }
    const malformed = await t.app.inject({ method: 'POST', url: `/admin/accounts/${s.accountId}/listings`, headers: { ...adminHeaders, 'content-type': 'application/json' }, payload: '{"sku":' });
    assertV1Error(malformed, 400);
    const count = await t.deps.db.db.selectFrom('listings').select((eb) => eb.fn.countAll<number>().as('n')).where('sku', '=', 'X').executeTakeFirst();
    assert.equal(Number(count?.n), 0);
  });

  it('answers 404 for another account, an unknown storefront or a non-storefront installation', async () => {
    const other = await seedAccount(t, 'Other');
    const listing = await createListingViaAdmin(t, s, sampleListing('ADM-404', ['ADM-404-1']));
    const foreign = await t.app.inject({ method: 'GET', url: `/admin/accounts/${other.accountId}/listings/${listing.id}`, headers: adminHeaders });
    assertV1Error(foreign, 404);
    const foreignPatch = await t.app.inject({ method: 'PATCH', url: `/admin/accounts/${other.accountId}/listings/${listing.id}`, headers: adminHeaders, payload: { productData: { categoryId: 'x' } } });
    assertV1Error(foreignPatch, 404);
    const wrongStorefront = await t.app.inject({ method: 'POST', url: `/admin/accounts/${s.accountId}/listings`, headers: adminHeaders, payload: { storefrontId: s.shipping.installationId, ...sampleListing('Y', ['Y1']) } });
    assertV1Error(wrongStorefront, 404, /storefront/);
    const otherStorefront = await t.app.inject({ method: 'POST', url: `/admin/accounts/${s.accountId}/listings`, headers: adminHeaders, payload: { storefrontId: other.channel.installationId, ...sampleListing('Y', ['Y1']) } });
    assertV1Error(otherStorefront, 404, /storefront/);
  });

  it('deletes a listing, keeping variants live on the channel detached', async () => {
    const listing = await createListingViaAdmin(t, s, { ...sampleListing('ADM-DEL', ['ADM-DEL-1', 'ADM-DEL-2']) });
    await patchListingViaAdmin(t, s, listing.id, { variants: [{ sku: 'ADM-DEL-1', channelId: 'CH-1' }] });
    const res = await t.app.inject({ method: 'DELETE', url: `/admin/accounts/${s.accountId}/listings/${listing.id}`, headers: adminHeaders });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().detachedSkus, ['ADM-DEL-1']);
    const again = await t.app.inject({ method: 'GET', url: `/admin/accounts/${s.accountId}/listings/${listing.id}`, headers: adminHeaders });
    assertV1Error(again, 404);
    const kept = await t.deps.db.db.selectFrom('listing_variants').select(['sku', 'listing_id']).where('account_id', '=', s.accountId).where('sku', 'like', 'ADM-DEL-%').execute();
    assert.deepEqual(kept, [{ sku: 'ADM-DEL-1', listing_id: null }]);
  });

  it('lists the account\'s listings with counts, by storefront and SKU, paged by cursor', async () => {
    const other = await installAndExchange(t, s.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Shop Three', name: 'Walmart' });
    const a = await createListingViaAdmin(t, s, sampleListing('LIST-A', ['LIST-A1', 'LIST-A2']));
    await patchListingViaAdmin(t, s, a.id, { variants: [{ sku: 'LIST-A1', channelId: 'CH-A1' }] });
    const b = await createListingViaAdmin(t, s, sampleListing('LIST-B', ['LIST-B1']), other.installationId);
    const list = async (query: string) => {
      const res = await t.app.inject({ url: `/admin/accounts/${s.accountId}/listings${query}`, headers: adminHeaders });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as { results: { listingId: number; storefrontId: number; sku: string; variantCount: number; liveVariantCount: number }[]; nextCursor: string };
    };
    const mine = await list(`?storefrontId=${other.installationId}`);
    assert.deepEqual(mine.results.map((r) => [r.listingId, r.sku, r.variantCount]), [[Number(b.id), 'LIST-B', 1]]);
    const bySku = await list('?sku=LIST-A2');
    assert.deepEqual(bySku.results.map((r) => [r.sku, r.variantCount, r.liveVariantCount]), [['LIST-A', 2, 1]]);
    // Paging: every listing once, in id order.
    const seen: number[] = [];
    let cursor = '';
    do {
      const page = await list(`?pageSize=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.results.map((r) => r.listingId));
      cursor = page.nextCursor;
    } while (cursor !== '');
    assert.deepEqual(seen, [...seen].sort((x, y) => x - y));
    assert.ok(seen.includes(Number(a.id)) && seen.includes(Number(b.id)));
    assert.equal(new Set(seen).size, seen.length);
    const otherAccount = await seedAccount(t, 'Lister');
    const foreignCursor = await t.app.inject({ url: `/admin/accounts/${otherAccount.accountId}/listings?cursor=${encodeURIComponent((await list('?pageSize=1')).nextCursor)}`, headers: adminHeaders });
    assertV1Error(foreignCursor, 400, /cursor/);
    const foreignStorefront = await t.app.inject({ url: `/admin/accounts/${otherAccount.accountId}/listings?storefrontId=${other.installationId}`, headers: adminHeaders });
    assertV1Error(foreignStorefront, 404);
  });
});
