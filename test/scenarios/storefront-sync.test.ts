import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ListingView, VariantView } from '../../src/domain/listings/model.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { manualClock } from '../../src/lib/clock.js';
import { adminHeaders } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { patchListingViaAdmin } from '../helpers/listings.js';

/**
 * The sales-channel sync loop end to end (issue 4 item 6), every step over HTTP as the partner and the
 * seller would drive it: ingestion → seller edit → product-data poll → submission stamping submittedAt →
 * stock change → inventory poll and drift (stableFor) → inventory recorded → drift clear; a failed send backs
 * off for failureBackoff; an order from the channel moves the variant too.
 */
describe('storefront sync scenario: ingestion → edit → poll → submit → stock → drift', () => {
  const clock = manualClock(new Date('2026-05-01T08:00:00.000Z'));
  let t: TestApp;
  let s: SeededAccount;
  const MINUTE = 60_000;

  const channel = () => bearer(s.channel.token);
  async function call<T>(method: 'GET' | 'POST', url: string, payload?: object): Promise<T> {
    const res = await t.app.inject({ method, url, headers: channel(), ...(payload ? { payload } : {}) });
    assert.equal(res.statusCode, 200, `${method} ${url}: ${res.body}`);
    return res.json() as T;
  }
  const drift = () => call<{ skus: string[]; driftListings: { sku: string; listingId: string }[]; nextPageCursor: string }>('GET', '/v2/storefront/listing/variant/inventory/drift/skus');
  const setStock = async (sku: string, quantity: number) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/inventory',
      headers: bearer(s.sellerToken),
      payload: { products: [{ SKU: sku, warehouseId: s.warehouses.main, quantity }] },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().results[0].success, true, res.body);
  };

  before(async () => {
    t = await createTestApp({ clock });
    s = await seedAccount(t);
  });
  after(() => t.close());

  it('runs the whole loop', async () => {
    // Stock exists before the channel pushes its live listings.
    await setStock('SYNC-RED', 5);
    await setStock('SYNC-BLUE', 8);

    // 1. Ingestion: begin, one request per listing, end; the plan job applies it (autoApplyIngestionPlan).
    await call('POST', '/v2/storefront/listing/ingestion/begin', { expectedNumListings: 1, autoApplyIngestionPlan: true });
    await call('POST', '/v2/storefront/listing/ingestion/request', {
      id: 'CH-MUG',
      productTypeId: 'mug',
      pivotAttributes: ['color'],
      attributes: [{ id: 'title', textValue: 'Mug' }],
      variants: [
        { sku: 'SYNC-RED', price: { currencyCode: 'USD', units: '12', nanos: 500000000 }, attributes: [{ id: 'color', textValue: 'red' }] },
        { sku: 'SYNC-BLUE', price: { currencyCode: 'USD', units: '12', nanos: 0 }, attributes: [{ id: 'color', textValue: 'blue' }] },
      ],
    });
    await call('POST', '/v2/storefront/listing/ingestion/end', { actualNumListings: 1 });
    await new JobWorker(t.deps, { id: 'scenario', schedules: [] }).runUntilIdle();

    const ingested = await call<ListingView>('GET', '/v2/storefront/listing/sku/CH-MUG');
    assert.deepEqual(ingested.variants.map((v) => v.sku).sort(), ['SYNC-BLUE', 'SYNC-RED']);
    assert.ok(ingested.variants.every((v) => v.channelId !== ''), 'ingested variants are live on the channel');
    const red = ingested.variants.find((v) => v.sku === 'SYNC-RED')!;
    assert.equal(red.inventory.totalQuantity, '5');
    assert.deepEqual(red.pricing.attributes.find((a) => a.id === 'price')?.moneyValue, { amount: '12.50', currencyCode: 'USD' });

    // Both variants were never sent any inventory: after stableFor they drift; the channel sends and records.
    clock.advance(16 * MINUTE);
    assert.deepEqual((await drift()).skus.sort(), ['SYNC-BLUE', 'SYNC-RED']);
    const initial = await call<{ submissions: { submissionId: string; sku: string }[] }>('POST', '/v2/storefront/listing/submission', {
      submissions: ['SYNC-RED', 'SYNC-BLUE'].map((sku) => ({ sku, type: 'inventory', contentSent: '{}', successful: true })),
    });
    const submissionOf = (sku: string) => initial.submissions.find((x) => x.sku === sku)!.submissionId;
    await call('POST', `/v2/storefront/listing/submission/${submissionOf('SYNC-RED')}/inventory`, { inventoryLevelSent: '5', successful: true });
    await call('POST', `/v2/storefront/listing/submission/${submissionOf('SYNC-BLUE')}/inventory`, { inventoryLevelSent: 8, successful: true });
    assert.deepEqual((await drift()).skus, []);

    // 2. The seller edits the title; 3. the product-data poll shows it with a new versionId.
    const beforeEdit = clock.now().toISOString();
    const oldTitle = ingested.productData.attributes.find((a) => a.id === 'title')!;
    clock.advance(MINUTE);
    await patchListingViaAdmin(t, s, ingested.id, { productData: { attributes: [{ id: 'title', textValue: 'Mug, 350 ml' }] } });
    const polled = await call<{ listings: ListingView[]; nextPageCursor: string }>(
      'GET',
      `/v2/storefront/listing/product_data/updated?since=${encodeURIComponent(beforeEdit)}`,
    );
    assert.deepEqual(polled.listings.map((l) => l.id), [ingested.id]);
    const title = polled.listings[0]!.productData.attributes.find((a) => a.id === 'title')!;
    assert.equal(title.textValue, 'Mug, 350 ml');
    assert.notEqual(title.versionId, oldTitle.versionId);
    assert.equal(title.submittedAt, null);

    // 4. The channel records the submission naming that version: submittedAt appears on it.
    clock.advance(MINUTE);
    const submittedAt = clock.now().toISOString();
    await call('POST', '/v2/storefront/listing/submission', {
      submissions: [{ sku: 'CH-MUG', type: 'product', contentSent: '{"title":"Mug, 350 ml"}', successful: true, submittedAttributeVersionIds: [title.versionId], submittedAt }],
    });
    const afterSubmit = await call<ListingView>('GET', `/v2/storefront/listing/${ingested.id}`);
    assert.equal(afterSubmit.productData.attributes.find((a) => a.id === 'title')!.submittedAt, submittedAt);

    // 5. Stock changes: the variant shows in inventory/updated at once, in drift only once stable.
    const beforeStock = clock.now().toISOString();
    clock.advance(MINUTE);
    await setStock('SYNC-RED', 3);
    const updated = await call<{ variants: VariantView[] }>('GET', `/v2/storefront/listing/variant/inventory/updated?since=${encodeURIComponent(beforeStock)}`);
    assert.deepEqual(updated.variants.map((v) => [v.sku, v.inventory.totalQuantity]), [['SYNC-RED', '3']]);
    assert.deepEqual((await drift()).skus, [], 'stableFor holds back a quantity that just changed');
    clock.advance(15 * MINUTE);
    const drifting = await drift();
    assert.deepEqual(drifting.skus, ['SYNC-RED']);
    assert.deepEqual(drifting.driftListings, [{ sku: 'SYNC-RED', listingId: ingested.id }]);

    // A failed send backs the variant off for failureBackoff (default 24 h).
    await call('POST', `/v2/storefront/listing/submission/${submissionOf('SYNC-RED')}/inventory`, { inventoryLevelSent: 3, successful: false });
    assert.deepEqual((await drift()).skus, []);
    clock.advance(23 * 60 * MINUTE);
    assert.deepEqual((await drift()).skus, [], 'still inside failureBackoff');
    assert.deepEqual((await drift()).skus, [], 'a level check: asking again changes nothing');
    clock.advance(61 * MINUTE);
    assert.deepEqual((await drift()).skus, ['SYNC-RED'], 'failureBackoff over');

    // The inventory sent is recorded: the drift clears.
    await call('POST', `/v2/storefront/listing/submission/${submissionOf('SYNC-RED')}/inventory`, { inventoryLevelSent: 3, successful: true });
    assert.deepEqual((await drift()).skus, []);

    // An order from the channel reserves a unit: the variant moves again (cross-area: orders → listings).
    const beforeOrder = clock.now().toISOString();
    clock.advance(MINUTE);
    const order = await t.app.inject({
      method: 'POST',
      url: '/v1/salesOrder',
      headers: channel(),
      payload: {
        channelOrderId: 'SYNC-ORDER-1',
        orderTs: clock.now().toISOString(),
        shippingAddress: { name: 'Ada', addressLine1: '1 Main St', city: 'Springfield', postalCode: '62701' },
        products: [{ sku: 'SYNC-BLUE', quantity: 2, unitPrice: 12 }],
      },
    });
    assert.equal(order.statusCode, 200, order.body);
    const afterOrder = await call<{ variants: VariantView[] }>('GET', `/v2/storefront/listing/variant/inventory/updated?since=${encodeURIComponent(beforeOrder)}`);
    assert.deepEqual(afterOrder.variants.map((v) => [v.sku, v.inventory.totalQuantity]), [['SYNC-BLUE', '6']]);
    clock.advance(16 * MINUTE);
    assert.deepEqual((await drift()).skus, ['SYNC-BLUE']);

    // The seller sees what the channel was sent and the ingestion that created the listing.
    const ingestions = await t.app.inject({ method: 'GET', url: `/admin/accounts/${s.accountId}/ingestions`, headers: adminHeaders });
    assert.equal(ingestions.statusCode, 200, ingestions.body);
  });
});
