import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { manualClock } from '../../src/lib/clock.js';
import { adminHeaders } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, installAndExchange, seedAccount, type InstalledApp, type SeededAccount } from '../helpers/fixtures.js';
import { assertV2Error } from '../helpers/v2.js';

interface AttributeJson {
  id: string;
  versionId: string;
  textValue?: string;
  moneyValue?: { amount: string; currencyCode: string };
  multiTextValue?: { values: string[] };
}
interface VariantJson {
  sku: string;
  channelId: string;
  productData: { enabled: boolean; attributes: AttributeJson[] };
  pricing: { attributes: AttributeJson[]; updatedAt: string };
}
interface ListingJson {
  id: string;
  sku: string;
  productData: { enabled: boolean; attributes: AttributeJson[]; updatedAt: string };
  variants: VariantJson[];
  createdAt: string;
  updatedAt: string;
}

const START = new Date('2026-03-01T10:00:00.000Z');

interface VariantSpec {
  sku: string;
  channelId?: string;
  productDataEnabled?: boolean;
  price?: string;
}

function listingBody(storefrontId: number, sku: string, variants: VariantSpec[], extra: { enabled?: boolean; productTypeId?: string; tags?: string[] } = {}) {
  return {
    storefrontId,
    sku,
    productData: {
      ...(extra.enabled === undefined ? {} : { enabled: extra.enabled }),
      categoryId: 'cat-1',
      ...(extra.productTypeId ? { productTypeId: extra.productTypeId } : {}),
      attributes: [
        { id: 'title', textValue: `Title of ${sku}` },
        { id: 'description', textValue: 'A thing' },
        ...(extra.tags ? [{ id: 'tags', multiTextValue: { values: extra.tags } }] : []),
      ],
    },
    variants: variants.map((v) => ({
      sku: v.sku,
      ...(v.channelId ? { channelId: v.channelId } : {}),
      productData: { ...(v.productDataEnabled === undefined ? {} : { enabled: v.productDataEnabled }), attributes: [{ id: 'color', textValue: 'red' }] },
      pricing: { attributes: [{ id: 'price', moneyValue: { amount: v.price ?? '10.00', currencyCode: 'USD' } }] },
    })),
  };
}

async function createListing(t: TestApp, accountId: number, body: ReturnType<typeof listingBody>): Promise<ListingJson> {
  const res = await t.app.inject({ method: 'POST', url: `/admin/accounts/${accountId}/listings`, headers: adminHeaders, payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as ListingJson;
}

describe('storefront product-data and pricing polls', () => {
  const clock = manualClock(START);
  let t: TestApp;
  let seed: SeededAccount;
  let storefront: number;
  let otherStorefront: InstalledApp;
  let live: ListingJson;
  let fresh: ListingJson;
  let disabled: ListingJson;
  let mixed: ListingJson;

  const poll = (path: string, token: string, query = '') =>
    t.app.inject({ url: `/v2/storefront/listing/${path}${query ? `?${query}` : ''}`, headers: bearer(token) });
  const ids = (res: LightMyRequestResponse) => (res.json() as { listings: ListingJson[] }).listings.map((l) => l.sku);

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    storefront = seed.channel.installationId;
    otherStorefront = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Shop Two', name: 'eBay' });
    live = await createListing(t, seed.accountId, listingBody(storefront, 'LIVE', [{ sku: 'LIVE-1', channelId: 'CH-1' }, { sku: 'LIVE-2' }]));
    clock.advance(1000);
    fresh = await createListing(t, seed.accountId, listingBody(storefront, 'FRESH', [{ sku: 'FRESH-1' }]));
    clock.advance(1000);
    disabled = await createListing(t, seed.accountId, listingBody(storefront, 'OFF', [{ sku: 'OFF-1', channelId: 'CH-OFF' }], { enabled: false }));
    await createListing(t, seed.accountId, listingBody(storefront, 'OFF-NEW', [{ sku: 'OFFNEW-1' }], { enabled: false }));
    clock.advance(1000);
    mixed = await createListing(
      t,
      seed.accountId,
      listingBody(storefront, 'MIXED', [
        { sku: 'MIXED-1', channelId: 'CH-M1' },
        { sku: 'MIXED-2', channelId: 'CH-M2', productDataEnabled: false },
      ]),
    );
    // Another storefront of the account and another account: never in this storefront's polls.
    await createListing(t, seed.accountId, listingBody(otherStorefront.installationId, 'OTHER-SF', [{ sku: 'OSF-1', channelId: 'CH-X' }]));
    const foreign = await seedAccount(t, 'Foreign');
    await createListing(t, foreign.accountId, listingBody(foreign.channel.installationId, 'FOREIGN', [{ sku: 'F-1', channelId: 'CH-F' }]));
    await createListing(t, foreign.accountId, listingBody(foreign.channel.installationId, 'FOREIGN-NEW', [{ sku: 'F-2' }]));
    clock.advance(1000);
  });
  after(async () => t.close());

  it('product_data/updated lists the storefront\'s enabled listings with a channel id, oldest change first', async () => {
    const res = await poll('product_data/updated', seed.channel.token);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { listings: ListingJson[]; nextPageCursor: string };
    assert.deepEqual(
      body.listings.map((l) => l.sku),
      ['LIVE', 'MIXED'],
    );
    assert.equal(body.nextPageCursor, '');
    assert.deepEqual(body.listings[0], live, 'the poll shows the listing as the seller created it');
    // A variant with product data disabled is still listed; the channel decides what to do with it.
    const mixedOut = body.listings[1]!;
    assert.deepEqual(
      mixedOut.variants.map((v) => [v.sku, v.productData.enabled]),
      [
        ['MIXED-1', true],
        ['MIXED-2', false],
      ],
    );
    assert.equal(mixedOut.id, mixed.id);
  });

  it('listing/new lists enabled listings none of whose variants has a channel id', async () => {
    const res = await poll('new', seed.channel.token);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(ids(res), ['FRESH']);
    assert.deepEqual((res.json() as { listings: ListingJson[] }).listings[0], fresh);
    assert.equal((res.json() as { nextPageCursor: string }).nextPageCursor, '');
    assert.ok(disabled.id !== '');
  });

  it('each storefront polls only its own listings', async () => {
    assert.deepEqual(ids(await poll('product_data/updated', otherStorefront.token)), ['OTHER-SF']);
    assert.deepEqual(ids(await poll('new', otherStorefront.token)), []);
  });

  it('since is an exclusive lower bound (RFC 3339 with a zone, camelCase or encoded offset)', async () => {
    assert.deepEqual(ids(await poll('product_data/updated', seed.channel.token, `since=${encodeURIComponent(live.productData.updatedAt)}`)), ['MIXED']);
    const justBefore = new Date(Date.parse(live.productData.updatedAt) - 1).toISOString();
    assert.deepEqual(ids(await poll('product_data/updated', seed.channel.token, `since=${justBefore}`)), ['LIVE', 'MIXED']);
    assert.deepEqual(ids(await poll('new', seed.channel.token, `since=${encodeURIComponent('2026-03-01T11:00:01.000+01:00')}`)), []);
    assert.deepEqual(ids(await poll('new', seed.channel.token, `since=${encodeURIComponent('2026-03-01T11:00:00.999+01:00')}`)), ['FRESH']);
  });

  it('refuses a since without a zone and an unreadable cursor, with the v2 error body', async () => {
    assertV2Error(await poll('product_data/updated', seed.channel.token, 'since=2026-03-01T10:00:00'), 400, 3, /since/);
    assertV2Error(await poll('new', seed.channel.token, 'since=yesterday'), 400, 3, /since/);
    assertV2Error(await poll('product_data/updated', seed.channel.token, 'cursor=not-a-cursor'), 400, 3, /invalid cursor/);
    assertV2Error(await poll('variant/pricing/updated', seed.channel.token, 'cursor=not-a-cursor'), 400, 3, /invalid cursor/);
  });

  it('needs a storefront token', async () => {
    for (const path of ['product_data/updated', 'new', 'variant/pricing/updated']) {
      assertV2Error(await poll(path, seed.sellerToken), 403, 7);
      assertV2Error(await poll(path, seed.shipping.token), 403, 7);
      assertV2Error(await t.app.inject({ url: `/v2/storefront/listing/${path}` }), 401, 16);
    }
  });

  it('moves a listing back into product_data/updated when its product data changes, with new versionIds', async () => {
    const since = clock.now().toISOString();
    clock.advance(1000);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/admin/accounts/${seed.accountId}/listings/${live.id}`,
      headers: adminHeaders,
      payload: { productData: { attributes: [{ id: 'title', textValue: 'A better title' }] } },
    });
    assert.equal(res.statusCode, 200, res.body);
    const polled = await poll('product_data/updated', seed.channel.token, `since=${since}`);
    const [listing] = (polled.json() as { listings: ListingJson[] }).listings;
    assert.equal(listing?.sku, 'LIVE');
    const title = listing?.productData.attributes.find((a) => a.id === 'title');
    const oldTitle = live.productData.attributes.find((a) => a.id === 'title');
    assert.equal(title?.textValue, 'A better title');
    assert.notEqual(title?.versionId, oldTitle?.versionId);
    assert.deepEqual(ids(await poll('product_data/updated', seed.channel.token, `since=${clock.now().toISOString()}`)), []);
    // A pricing change is not a product-data change.
    clock.advance(1000);
    const priced = await t.app.inject({
      method: 'PATCH',
      url: `/admin/accounts/${seed.accountId}/listings/${mixed.id}`,
      headers: adminHeaders,
      payload: { variants: [{ sku: 'MIXED-1', pricing: { attributes: [{ id: 'price', moneyValue: { amount: '12.50', currencyCode: 'USD' } }] } }] },
    });
    assert.equal(priced.statusCode, 200, priced.body);
    assert.deepEqual(ids(await poll('product_data/updated', seed.channel.token, `since=${since}`)), ['LIVE']);
  });

  it('variant/pricing/updated lists variants repriced after since, in the v2 variant shape', async () => {
    const since = clock.now().toISOString();
    clock.advance(1000);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/admin/accounts/${seed.accountId}/listings/${fresh.id}`,
      headers: adminHeaders,
      payload: { variants: [{ sku: 'FRESH-1', pricing: { attributes: [{ id: 'price', moneyValue: { amount: '99.95', currencyCode: 'USD' } }] } }] },
    });
    assert.equal(res.statusCode, 200, res.body);
    const polled = await poll('variant/pricing/updated', seed.channel.token, `since=${since}`);
    assert.equal(polled.statusCode, 200, polled.body);
    const body = polled.json() as { variants: VariantJson[]; nextPageCursor: string };
    assert.deepEqual(
      body.variants.map((v) => v.sku),
      ['FRESH-1'],
    );
    assert.deepEqual(body.variants[0]?.pricing.attributes.map((a) => a.moneyValue), [{ amount: '99.95', currencyCode: 'USD' }]);
    assert.equal(body.variants[0]?.pricing.updatedAt, clock.now().toISOString());
    assert.equal(body.nextPageCursor, '');
    // From the beginning: every variant of this storefront, oldest pricing change first.
    const all = (await poll('variant/pricing/updated', seed.channel.token)).json() as { variants: VariantJson[] };
    assert.deepEqual(
      all.variants.map((v) => v.sku),
      ['LIVE-1', 'LIVE-2', 'OFF-1', 'OFFNEW-1', 'MIXED-2', 'MIXED-1', 'FRESH-1'],
    );
    assert.deepEqual(((await poll('variant/pricing/updated', otherStorefront.token)).json() as { variants: VariantJson[] }).variants.map((v) => v.sku), ['OSF-1']);
  });
});

describe('storefront polls: keyset paging over equal timestamps', () => {
  const clock = manualClock(START);
  let t: TestApp;
  let seed: SeededAccount;

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    // 30 listings (and 120 variants) changed at the same instant, so pages split inside one timestamp.
    for (let i = 0; i < 30; i++) {
      const n = String(i).padStart(2, '0');
      const variants = [0, 1, 2, 3].map((k) => ({ sku: `P${n}-${k}`, ...(i % 2 === 0 ? { channelId: `CH-${n}-${k}` } : {}) }));
      const res = await t.app.inject({
        method: 'POST',
        url: `/admin/accounts/${seed.accountId}/listings`,
        headers: adminHeaders,
        payload: listingBody(seed.channel.installationId, `G${n}`, variants),
      });
      assert.equal(res.statusCode, 201, res.body);
    }
    const more = await t.app.inject({
      method: 'POST',
      url: `/admin/accounts/${seed.accountId}/listings`,
      headers: adminHeaders,
      payload: listingBody(
        seed.channel.installationId,
        'G-LATE',
        Array.from({ length: 20 }, (_, k) => ({ sku: `LATE-${k}`, channelId: `CH-LATE-${k}` })),
      ),
    });
    assert.equal(more.statusCode, 201, more.body);
    // Fifteen more new listings at the same instant (with the fifteen odd ones: 30 in listing/new).
    for (let i = 30; i < 45; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/admin/accounts/${seed.accountId}/listings`,
        headers: adminHeaders,
        payload: listingBody(seed.channel.installationId, `G${i}`, [{ sku: `Q${i}` }]),
      });
      assert.equal(res.statusCode, 201, res.body);
    }
  });
  after(async () => t.close());

  async function pageAll<T>(path: string, key: 'listings' | 'variants', token = seed.channel.token): Promise<{ pages: T[][]; cursors: string[] }> {
    const pages: T[][] = [];
    const cursors: string[] = [];
    let cursor = '';
    for (let guard = 0; guard < 20; guard++) {
      const res = await t.app.inject({ url: `/v2/storefront/listing/${path}?cursor=${encodeURIComponent(cursor)}`, headers: bearer(token) });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as Record<string, unknown> & { nextPageCursor: string };
      pages.push(body[key] as T[]);
      cursors.push(body.nextPageCursor);
      if (body.nextPageCursor === '') break;
      cursor = body.nextPageCursor;
    }
    return { pages, cursors };
  }

  it('pages product_data/updated 25 listings at a time without skipping or repeating', async () => {
    const { pages } = await pageAll<ListingJson>('product_data/updated', 'listings');
    assert.deepEqual(
      pages.map((p) => p.length),
      [16],
    );
    const { pages: fresh } = await pageAll<ListingJson>('new', 'listings');
    assert.deepEqual(
      fresh.map((p) => p.length),
      [25, 5],
    );
    const skus = fresh.flat().map((l) => l.sku);
    assert.equal(new Set(skus).size, 30);
    const ids = fresh.flat().map((l) => Number(l.id));
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b), 'equal timestamps are ordered by id');
  });

  it('pages variant/pricing/updated 100 variants at a time', async () => {
    const { pages } = await pageAll<VariantJson>('variant/pricing/updated', 'variants');
    assert.deepEqual(
      pages.map((p) => p.length),
      [100, 55],
    );
    assert.equal(new Set(pages.flat().map((v) => v.sku)).size, 155);
  });

  it('binds a cursor to its route and storefront; the filters are repeated, not carried', async () => {
    const first = (await t.app.inject({ url: '/v2/storefront/listing/new', headers: bearer(seed.channel.token) })).json() as {
      nextPageCursor: string;
    };
    assert.notEqual(first.nextPageCursor, '');
    const other = await t.app.inject({
      url: `/v2/storefront/listing/product_data/updated?cursor=${encodeURIComponent(first.nextPageCursor)}`,
      headers: bearer(seed.channel.token),
    });
    assertV2Error(other, 400, 3, /invalid cursor/);
    const second = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Shop Two' });
    const foreign = await t.app.inject({ url: `/v2/storefront/listing/new?cursor=${encodeURIComponent(first.nextPageCursor)}`, headers: bearer(second.token) });
    assertV2Error(foreign, 400, 3, /invalid cursor/);
    // since is applied on every page: a since after everything leaves the second page empty.
    const later = await t.app.inject({
      url: `/v2/storefront/listing/new?since=2099-01-01T00:00:00Z&cursor=${encodeURIComponent(first.nextPageCursor)}`,
      headers: bearer(seed.channel.token),
    });
    assert.equal(later.statusCode, 200, later.body);
    assert.deepEqual(later.json(), { listings: [], nextPageCursor: '' });
  });
});

describe('storefront polls: attributes over maxUniqueItems', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let listing: ListingJson;

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
        max_unique_items: 2,
        created_at: now,
        updated_at: now,
      })
      .execute();
    listing = await createListing(
      t,
      seed.accountId,
      listingBody(seed.channel.installationId, 'TAGGED', [{ sku: 'TAG-1', channelId: 'CH-T' }], { productTypeId: 'shirt', tags: ['a', 'b', 'c'] }),
    );
    await createListing(
      t,
      seed.accountId,
      listingBody(seed.channel.installationId, 'TAGGED-OK', [{ sku: 'TAG-2' }], { productTypeId: 'shirt', tags: ['a', 'b', 'a'] }),
    );
  });
  after(async () => t.close());

  it('leaves out an attribute with more unique items than its spec allows, and keeps one within it', async () => {
    assert.ok(listing.productData.attributes.some((a) => a.id === 'tags'), 'the seller view keeps it');
    const updated = (await t.app.inject({ url: '/v2/storefront/listing/product_data/updated', headers: bearer(seed.channel.token) })).json() as {
      listings: ListingJson[];
    };
    assert.deepEqual(
      updated.listings[0]?.productData.attributes.map((a) => a.id),
      ['title', 'description'],
    );
    const fresh = (await t.app.inject({ url: '/v2/storefront/listing/new', headers: bearer(seed.channel.token) })).json() as { listings: ListingJson[] };
    assert.deepEqual(
      fresh.listings[0]?.productData.attributes.map((a) => a.id),
      ['title', 'description', 'tags'],
    );
  });
});

describe('storefront polls: a listing moves from listing/new to product_data/updated with its first channel id', () => {
  const clock = manualClock(START);
  let t: TestApp;
  let seed: SeededAccount;

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    await createListing(t, seed.accountId, listingBody(seed.channel.installationId, 'MOVER', [{ sku: 'MOVER-1' }, { sku: 'MOVER-2' }]));
  });
  after(async () => t.close());

  const skusOf = async (path: string, query = '') =>
    ((await t.app.inject({ url: `/v2/storefront/listing/${path}${query}`, headers: bearer(seed.channel.token) })).json() as { listings: ListingJson[] }).listings.map(
      (l) => l.sku,
    );
  const setChannelId = async (sku: string, channelId: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v2/storefront/listing/variant/${sku}/channel_id`,
      headers: bearer(seed.channel.token),
      payload: { channelId },
    });
    assert.equal(res.statusCode, 200, res.body);
  };

  it('is in listing/new until a variant has a channel id, then in product_data/updated, and back when cleared', async () => {
    assert.deepEqual(await skusOf('new'), ['MOVER']);
    assert.deepEqual(await skusOf('product_data/updated'), []);
    clock.advance(1000);
    const afterCreate = clock.now().toISOString();
    await setChannelId('MOVER-2', 'CH-2');
    assert.deepEqual(await skusOf('new'), []);
    assert.deepEqual(await skusOf('product_data/updated'), ['MOVER']);
    // Setting a channel id is not a product-data change: a poll since then does not send the listing again.
    assert.deepEqual(await skusOf('product_data/updated', `?since=${afterCreate}`), []);
    await setChannelId('MOVER-2', '');
    assert.deepEqual(await skusOf('new'), ['MOVER']);
    assert.deepEqual(await skusOf('product_data/updated'), []);
  });
});
