import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { VariantView } from '../../src/domain/listings/model.js';
import { manualClock } from '../../src/lib/clock.js';
import { assertV1Error } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, installAndExchange, seedAccount, type InstalledApp, type SeededAccount } from '../helpers/fixtures.js';
import { adminHeaders, createListingViaAdmin, listingWithVariants, patchListingViaAdmin } from '../helpers/listings.js';
import { createOrder, orderBody, stock } from './v1-sales-orders-helpers.js';
import { assertV2Error } from '../helpers/v2.js';

/**
 * The stock copy on listing variants and the storefront inventory polls (document 4.7, resolutions §4):
 * GET /v2/storefront/listing/variant/inventory/updated and …/updated/skus, and the inventory-level records
 * POST /v2/storefront/listing/submission/{submissionId}/inventory and
 * POST /v1/listing/submissions/{submissionID}/inventoryDetails.
 */

const UPDATED = '/v2/storefront/listing/variant/inventory/updated';
const UPDATED_SKUS = '/v2/storefront/listing/variant/inventory/updated/skus';

interface VariantsPage {
  variants: VariantView[];
  nextPageCursor: string;
}
interface SkusPage {
  skus: string[];
  nextPageCursor: string;
  driftListings: { sku: string; listingId: string }[];
}

describe('storefront inventory polls and the variant stock copy', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let shopTwo: InstalledApp;
  let listingId = '';

  const get = (url: string, token: string) => t.app.inject({ url, headers: bearer(token) });
  const poll = async (token: string, query: Record<string, string> = {}, url = UPDATED) => {
    const res = await get(`${url}?${new URLSearchParams(query).toString()}`, token);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as VariantsPage & SkusPage;
  };
  const since = (d: Date) => ({ since: d.toISOString() });
  const tick = () => {
    clock.advance(1000);
    return clock.now();
  };
  const bySku = (page: VariantsPage) => new Map(page.variants.map((v) => [v.sku, v]));

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    shopTwo = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Shop Two', name: 'eBay' });
    // Stock exists before the listing: the new variants must carry it.
    await stock(t, seed.sellerToken, 'INV-A', seed.warehouses.main, 5);
    await stock(t, seed.sellerToken, 'INV-A', seed.warehouses.channel, 3);
  });
  after(async () => t.close());

  it('a listing created over existing stock carries it; only changes after `since` are polled', async () => {
    const before = tick();
    const created = tick();
    const listing = await createListingViaAdmin(t, seed, listingWithVariants('INV-GROUP', [{ sku: 'INV-A', channelId: 'CH-A' }, { sku: 'INV-B' }]));
    listingId = listing.id;
    const page = await poll(seed.channel.token, since(before));
    assert.equal(page.nextPageCursor, '');
    const a = bySku(page).get('INV-A');
    assert.ok(a, 'INV-A polled');
    assert.deepEqual(a.inventory, {
      enabled: true,
      totalQuantity: '8',
      merchantFulfillableQuantity: '5',
      merchantFulfillableWarehouseQuantities: [{ warehouseId: String(seed.warehouses.main), quantity: '5' }],
      storefrontFulfillableQuantity: '3',
      updatedAt: created.toISOString(),
      updatedExternallyAt: null,
    });
    assert.equal(a.channelId, 'CH-A');
    assert.deepEqual(bySku(page).get('INV-B')?.inventory, {
      enabled: true,
      totalQuantity: '0',
      merchantFulfillableQuantity: '0',
      merchantFulfillableWarehouseQuantities: [],
      storefrontFulfillableQuantity: '0',
      updatedAt: created.toISOString(),
      updatedExternallyAt: null,
    });
    // `since` is an exclusive bound.
    assert.deepEqual((await poll(seed.channel.token, since(created))).variants, []);
  });

  it('a v1 stock change moves the variant into the poll with the new quantities; an unchanged level does not', async () => {
    const from = clock.now();
    const changed = tick();
    await stock(t, seed.sellerToken, 'INV-A', seed.warehouses.main, 7);
    const page = await poll(seed.channel.token, since(from));
    assert.deepEqual(
      page.variants.map((v) => v.sku),
      ['INV-A'],
    );
    const inv = page.variants[0]!.inventory;
    assert.equal(inv.totalQuantity, '10');
    assert.equal(inv.merchantFulfillableQuantity, '7');
    assert.equal(inv.updatedAt, changed.toISOString());

    // The same level again: the stock row is rewritten but what the channel sells is the same.
    tick();
    await stock(t, seed.sellerToken, 'INV-A', seed.warehouses.main, 7);
    assert.deepEqual((await poll(seed.channel.token, since(changed))).variants, []);

    // A second merchant warehouse (an inventory integration's, through v2) is listed by warehouse id.
    const v2At = tick();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/inventory',
      headers: bearer(seed.inventory.token),
      payload: { updates: [{ sku: 'INV-A', warehouseUniqueId: 'WH-SECOND', quantity: '2' }], observedTs: v2At.toISOString() },
    });
    assert.equal(res.statusCode, 200, res.body);
    const after = (await poll(seed.channel.token, since(changed))).variants[0]!.inventory;
    assert.equal(after.merchantFulfillableQuantity, '9');
    assert.equal(after.totalQuantity, '12');
    assert.deepEqual(after.merchantFulfillableWarehouseQuantities, [
      { warehouseId: String(seed.warehouses.main), quantity: '7' },
      { warehouseId: String(seed.warehouses.second), quantity: '2' },
    ]);
    assert.equal(after.updatedAt, v2At.toISOString());
  });

  it('an order reserving stock moves the variant; cancelling gives the units back', async () => {
    const from = tick();
    const ordered = tick();
    const order = await createOrder(t, seed.channel.token, orderBody('INV-ORDER-1', [{ requestedSku: 'INV-A', quantity: 2 }]));
    let page = await poll(seed.channel.token, since(from));
    assert.deepEqual(
      page.variants.map((v) => v.sku),
      ['INV-A'],
    );
    assert.equal(page.variants[0]!.inventory.totalQuantity, '10', '12 − 2 reserved');
    assert.equal(page.variants[0]!.inventory.updatedAt, ordered.toISOString());

    const cancelled = tick();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/storefront/orders/cancel',
      headers: bearer(seed.channel.token),
      payload: { channelOrderId: order.channelOrderId, cancelQuantities: { [order.products[0]!.lineItemId]: 2 } },
    });
    assert.equal(res.statusCode, 200, res.body);
    page = await poll(seed.channel.token, since(ordered));
    assert.equal(page.variants[0]!.inventory.totalQuantity, '12');
    assert.equal(page.variants[0]!.inventory.updatedAt, cancelled.toISOString());
  });

  it('leaves out variants with inventory disabled; enabling moves inventory.updatedAt', async () => {
    const from = tick();
    await patchListingViaAdmin(t, seed, listingId, { variants: [{ sku: 'INV-B', inventory: { enabled: false } }] });
    tick();
    await stock(t, seed.sellerToken, 'INV-B', seed.warehouses.main, 4);
    assert.deepEqual((await poll(seed.channel.token, since(from))).variants, []);
    assert.deepEqual((await poll(seed.channel.token, since(from), UPDATED_SKUS)).skus, []);
    // Still copied while disabled, so enabling shows the current level at once.
    const enabled = tick();
    await patchListingViaAdmin(t, seed, listingId, { variants: [{ sku: 'INV-B', inventory: { enabled: true } }] });
    const page = await poll(seed.channel.token, since(from));
    assert.deepEqual(
      page.variants.map((v) => [v.sku, v.inventory.enabled, v.inventory.totalQuantity, v.inventory.updatedAt]),
      [['INV-B', true, '4', enabled.toISOString()]],
    );
  });

  it('skus: the same filter as SKUs; driftListings is always empty (only the drift route fills it)', async () => {
    const from = clock.now();
    tick();
    await stock(t, seed.sellerToken, 'INV-B', seed.warehouses.main, 6);
    tick();
    await stock(t, seed.sellerToken, 'INV-A', seed.warehouses.main, 6);
    const page = await poll(seed.channel.token, { since: from.toISOString() }, UPDATED_SKUS);
    assert.deepEqual(page, {
      skus: ['INV-B', 'INV-A'],
      nextPageCursor: '',
      driftListings: [],
    });
  });

  it('a variant whose listing was deleted but is live on the channel keeps syncing', async () => {
    await createListingViaAdmin(t, seed, listingWithVariants('DET-GROUP', [{ sku: 'DET-LIVE', channelId: 'CH-DET' }, { sku: 'DET-NEW' }]));
    const created = await poll(seed.channel.token, since(clock.now()), UPDATED_SKUS);
    assert.deepEqual(created.skus, []);
    const listing = (await t.app.inject({ url: `/v2/storefront/listing/sku/DET-GROUP`, headers: bearer(seed.channel.token) })).json() as { id: string };
    const del = await t.app.inject({ method: 'DELETE', url: `/admin/accounts/${seed.accountId}/listings/${listing.id}`, headers: adminHeaders });
    assert.equal(del.statusCode, 200, del.body);
    const from = clock.now();
    tick();
    await stock(t, seed.sellerToken, 'DET-LIVE', seed.warehouses.main, 2);
    const page = await poll(seed.channel.token, since(from), UPDATED_SKUS);
    assert.deepEqual(page.skus, ['DET-LIVE']);
    assert.deepEqual(page.driftListings, []);
    const variants = await poll(seed.channel.token, since(from));
    assert.equal(variants.variants[0]!.inventory.totalQuantity, '2');
  });

  it('pages 100 variants at a time and never skips rows with equal timestamps', async () => {
    // Shop Two: its own storefront, so only these variants are polled there.
    const from = clock.now();
    tick();
    const skus = Array.from({ length: 130 }, (_, i) => `PG-${String(i).padStart(3, '0')}`);
    await createListingViaAdmin(t, seed, listingWithVariants('PG-GROUP', skus.map((sku) => ({ sku }))), shopTwo.installationId);
    for (const url of [UPDATED, UPDATED_SKUS]) {
      const first = await poll(shopTwo.token, since(from), url);
      const firstSkus = url === UPDATED ? first.variants.map((v) => v.sku) : first.skus;
      assert.equal(firstSkus.length, 100);
      assert.notEqual(first.nextPageCursor, '');
      const second = await poll(shopTwo.token, { ...since(from), cursor: first.nextPageCursor }, url);
      const secondSkus = url === UPDATED ? second.variants.map((v) => v.sku) : second.skus;
      assert.equal(second.nextPageCursor, '');
      assert.deepEqual([...firstSkus, ...secondSkus], skus, 'every variant once, in id order');
    }
    // The first storefront sees none of them; another account's storefront sees nothing at all.
    assert.ok(!(await poll(seed.channel.token, since(from))).variants.some((v) => v.sku.startsWith('PG-')));
    assert.deepEqual((await poll(other.channel.token)).variants, []);
    assert.deepEqual((await poll(other.channel.token, {}, UPDATED_SKUS)).skus, []);
  });

  it('refuses a cursor of another storefront or another route, an unreadable cursor and a since without zone', async () => {
    const first = await poll(shopTwo.token, {});
    assert.notEqual(first.nextPageCursor, '');
    const cursor = encodeURIComponent(first.nextPageCursor);
    assertV2Error(await get(`${UPDATED}?cursor=${cursor}`, seed.channel.token), 400, 3, /invalid cursor/);
    assertV2Error(await get(`${UPDATED_SKUS}?cursor=${cursor}`, shopTwo.token), 400, 3, /invalid cursor/);
    assertV2Error(await get(`${UPDATED}?cursor=garbage`, shopTwo.token), 400, 3, /invalid cursor/);
    assertV2Error(await get(`${UPDATED_SKUS}?since=2026-11-21T12:00:00`, shopTwo.token), 400, 3, /since/);
    assertV2Error(await get(`${UPDATED}?since=yesterday`, shopTwo.token), 400, 3, /since/);
    // An offset written with an unencoded '+' still parses.
    assert.equal((await get(`${UPDATED}?since=2026-11-21T13:00:00+01:00`, shopTwo.token)).statusCode, 200);
  });

  it('needs a storefront token', async () => {
    assertV2Error(await get(UPDATED, seed.sellerToken), 403, 7);
    assertV2Error(await get(UPDATED_SKUS, seed.inventory.token), 403, 7);
    assertV2Error(await t.app.inject({ url: UPDATED }), 401, 16);
  });
});

describe('recording the inventory level a submission sent', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let shopTwo: InstalledApp;

  const v2 = (token: string, id: string | number, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `/v2/storefront/listing/submission/${id}/inventory`, headers: bearer(token), payload: payload as object });
  const v1 = (token: string, id: string | number, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `/v1/listing/submissions/${id}/inventoryDetails`, headers: bearer(token), payload: payload as object });

  /** Creates a submission through POST /v2/storefront/listing/submission as the token's storefront. */
  async function submission(token: string, sku: string): Promise<number> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/storefront/listing/submission',
      headers: bearer(token),
      payload: { submissions: [{ sku, type: 'inventory', contentSent: `{"sku":"${sku}"}` }] },
    });
    assert.equal(res.statusCode, 200, res.body);
    return Number((res.json() as { submissions: { submissionId: string }[] }).submissions[0]!.submissionId);
  }
  const submissionRow = (id: number) =>
    t.deps.db.db
      .selectFrom('listing_submissions')
      .select(['inventory_level_sent', 'inventory_successful', 'inventory_recorded_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const variantRow = (sku: string) =>
    t.deps.db.db
      .selectFrom('listing_variants')
      .select(['last_sent_quantity', 'last_sent_at', 'last_failed_at', 'drifting'])
      .where('account_id', '=', seed.accountId)
      .where('storefront_id', '=', seed.channel.installationId)
      .where('sku', '=', sku)
      .executeTakeFirstOrThrow();

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    shopTwo = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Shop Two', name: 'eBay' });
    await stock(t, seed.sellerToken, 'REC-A', seed.warehouses.main, 5);
    await createListingViaAdmin(t, seed, listingWithVariants('REC-GROUP', [{ sku: 'REC-A', channelId: 'CH-1' }, { sku: 'REC-B', channelId: 'CH-2' }]));
  });
  after(async () => t.close());

  it('v2: records on the submission and the variant (int64 as string), answering {}', async () => {
    clock.advance(1000);
    const id = await submission(seed.channel.token, 'REC-A');
    const res = await v2(seed.channel.token, String(id), { inventoryLevelSent: '5', successful: true });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {});
    const iso = clock.now().toISOString();
    assert.deepEqual(await submissionRow(id), { inventory_level_sent: 5, inventory_successful: 1, inventory_recorded_at: iso });
    assert.deepEqual(await variantRow('REC-A'), { last_sent_quantity: 5, last_sent_at: iso, last_failed_at: null, drifting: 0 });
  });

  it('v2: snake_case names and proto3 defaults (an omitted successful is false)', async () => {
    clock.advance(1000);
    const id = await submission(seed.channel.token, 'REC-B');
    const res = await v2(seed.channel.token, id, { inventory_level_sent: 3 });
    assert.equal(res.statusCode, 200, res.body);
    const iso = clock.now().toISOString();
    assert.deepEqual(await submissionRow(id), { inventory_level_sent: 3, inventory_successful: 0, inventory_recorded_at: iso });
    assert.deepEqual(await variantRow('REC-B'), { last_sent_quantity: null, last_sent_at: null, last_failed_at: iso, drifting: 1 });
    // A success afterwards lifts the failure backoff.
    clock.advance(1000);
    assert.equal((await v2(seed.channel.token, id, { inventoryLevelSent: 0, successful: true })).statusCode, 200);
    assert.deepEqual(await variantRow('REC-B'), { last_sent_quantity: 0, last_sent_at: clock.now().toISOString(), last_failed_at: null, drifting: 0 });
  });

  it('v2: a submission whose SKU is no variant (any more) is recorded on the submission only', async () => {
    const id = await submission(seed.channel.token, 'REC-GROUP');
    assert.equal((await v2(seed.channel.token, id, { inventoryLevelSent: 2, successful: true })).statusCode, 200);
    assert.equal((await submissionRow(id)).inventory_level_sent, 2);
  });

  it('v2: another storefront\'s or account\'s submission, or an unknown id, is a 404 and changes nothing', async () => {
    const mine = await submission(seed.channel.token, 'REC-A');
    const theirs = await submission(other.channel.token, 'REC-A');
    const before = await variantRow('REC-A');
    assertV2Error(await v2(shopTwo.token, mine, { inventoryLevelSent: 9, successful: true }), 404, 5);
    assertV2Error(await v2(seed.channel.token, theirs, { inventoryLevelSent: 9, successful: true }), 404, 5);
    assertV2Error(await v2(seed.channel.token, 999999, { inventoryLevelSent: 9, successful: true }), 404, 5);
    assertV2Error(await v2(seed.channel.token, '99999999999999999999', { inventoryLevelSent: 9, successful: true }), 404, 5);
    assert.deepEqual(await submissionRow(mine), { inventory_level_sent: null, inventory_successful: null, inventory_recorded_at: null });
    assert.deepEqual(await variantRow('REC-A'), before);
  });

  it('v2: bad input is a 400 and changes nothing', async () => {
    const id = await submission(seed.channel.token, 'REC-A');
    const before = await variantRow('REC-A');
    assertV2Error(await v2(seed.channel.token, id, { inventoryLevelSent: -1, successful: true }), 400, 3, /inventoryLevelSent/);
    assertV2Error(await v2(seed.channel.token, id, { inventoryLevelSent: '-4', successful: true }), 400, 3, /inventoryLevelSent/);
    assertV2Error(await v2(seed.channel.token, id, { inventoryLevelSent: '1.5', successful: true }), 400, 3);
    assertV2Error(await v2(seed.channel.token, id, { inventoryLevelSent: '99999999999', successful: true }), 400, 3, /inventoryLevelSent/);
    assertV2Error(await v2(seed.channel.token, id, { inventoryLevelSent: 1, successful: 'yes' }), 400, 3);
    assertV2Error(await v2(seed.channel.token, 'abc', { inventoryLevelSent: 1, successful: true }), 400, 3, /submissionId/);
    assertV2Error(await v2(seed.sellerToken, id, { inventoryLevelSent: 1, successful: true }), 403, 7);
    assert.deepEqual(await submissionRow(id), { inventory_level_sent: null, inventory_successful: null, inventory_recorded_at: null });
    assert.deepEqual(await variantRow('REC-A'), before);
  });

  it('v1 inventoryDetails: the same record, answering the JSON string "OK"', async () => {
    clock.advance(1000);
    const id = await submission(seed.channel.token, 'REC-A');
    const res = await v1(seed.channel.token, id, { inventoryLevelSent: 4, successful: false });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /application\/json/);
    assert.equal(res.body, '"OK"');
    const iso = clock.now().toISOString();
    assert.deepEqual(await submissionRow(id), { inventory_level_sent: 4, inventory_successful: 0, inventory_recorded_at: iso });
    assert.equal((await variantRow('REC-A')).last_failed_at, iso);
    // The seller's own token (listing:self, no storefront) may record on the account's submissions.
    clock.advance(1000);
    assert.equal((await v1(seed.sellerToken, id, { inventoryLevelSent: 5, successful: true })).statusCode, 200);
    assert.deepEqual(await variantRow('REC-A'), { last_sent_quantity: 5, last_sent_at: clock.now().toISOString(), last_failed_at: null, drifting: 0 });
  });

  it('v1 inventoryDetails: errors in the v1 body, changing nothing', async () => {
    const id = await submission(seed.channel.token, 'REC-A');
    const theirs = await submission(other.channel.token, 'REC-A');
    const before = await variantRow('REC-A');
    assertV1Error(await v1(seed.channel.token, id, { successful: true }), 400, /inventoryLevelSent/);
    assertV1Error(await v1(seed.channel.token, id, { inventoryLevelSent: 1 }), 400, /successful/);
    assertV1Error(await v1(seed.channel.token, id, { inventoryLevelSent: -1, successful: true }), 400, /inventoryLevelSent/);
    assertV1Error(await v1(seed.channel.token, id, { inventoryLevelSent: '3', successful: true }), 400, /inventoryLevelSent/);
    assertV1Error(await v1(seed.channel.token, 'x1', { inventoryLevelSent: 1, successful: true }), 400, /submissionID/);
    assertV1Error(await v1(seed.channel.token, 424242, { inventoryLevelSent: 1, successful: true }), 404);
    assertV1Error(await v1(shopTwo.token, id, { inventoryLevelSent: 1, successful: true }), 404);
    assertV1Error(await v1(seed.channel.token, theirs, { inventoryLevelSent: 1, successful: true }), 404);
    assertV1Error(await v1(seed.sellerToken, theirs, { inventoryLevelSent: 1, successful: true }), 404);
    assertV1Error(await v1(seed.shipping.token, id, { inventoryLevelSent: 1, successful: true }), 403, /listing:self/);
    assert.deepEqual(await submissionRow(id), { inventory_level_sent: null, inventory_successful: null, inventory_recorded_at: null });
    assert.deepEqual(await variantRow('REC-A'), before);
  });
});
