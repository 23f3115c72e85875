import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JobWorker } from '../../src/jobs/worker.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin, assertV1Error } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { startReceiver, type Received } from '../helpers/callback-receiver.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createListingViaAdmin, listingWithVariants } from '../helpers/listings.js';
import { createOrder, orderBody, stock } from './v1-sales-orders-helpers.js';
import { batch, foOf, fulfillmentOrder, needToCancel } from './v2-shipping-support.js';
import { patchListingViaAdmin } from '../helpers/listings.js';

interface NudgeBody {
  eventType: string;
  storefrontId?: string;
  integrationId?: string;
  objectType: string;
  objectId: string;
  version: string;
  occurredAt: string;
}

interface Delivery {
  deliveryId: string;
  kind: string;
  state: string;
  path: string;
  body: NudgeBody;
}

/** Extension nudges (issue 11 item 5, docs/partners/callback-nudges.md). */
describe('callback nudges: subscriptions, emission, coalescing, delivery', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const secrets: string[] = [];
  let n = 0;
  const run = () => new JobWorker(t.deps, { id: 'nudges-test', schedules: [] }).runUntilIdle();
  const nudges = (eventType: string): (Received & { json: NudgeBody })[] =>
    receiver.received.filter((r): r is Received & { json: NudgeBody } => (r.json as NudgeBody | null)?.eventType === eventType);
  const patchApp = (appId: number | string, body: unknown) => admin(t, 'PATCH', `/admin/apps/${appId}`, body);
  const nudgeDeliveries = async (): Promise<Delivery[]> => {
    const res = await admin(t, 'GET', `/admin/deliveries?accountId=${seed.accountId}`);
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { results: Delivery[] }).results.filter((d) => d.kind === 'NUDGE');
  };
  /** A known signing secret for the app (the fixture does not keep the one registration returned). */
  const signingSecretOf = async (appId: number) => {
    const res = await admin(t, 'POST', `/admin/apps/${appId}/rotate-secrets`, { overlapSeconds: 0 });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { callbackSigningSecret: string }).callbackSigningSecret;
  };

  before(async () => {
    t = await createTestApp({ clock });
    receiver = await startReceiver({ secrets: () => secrets, now: () => clock.now() });
    seed = await seedAccount(t);
    await stock(t, seed.sellerToken, 'QA', seed.warehouses.main, 1000);
    secrets.push(await signingSecretOf(seed.shipping.appId), await signingSecretOf(seed.channel.appId));
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  it('refuses bad subscriptions: unknown type (listing the allowed ones), no base URL, unknown app, no admin token', async () => {
    const unknown = await patchApp(seed.shipping.appId, { callbackBaseUrl: receiver.baseUrl, eventTypes: ['ORDER_EATEN'] });
    assertV1Error(unknown, 400);
    assert.match(unknown.body, /ORDER_EATEN/);
    assert.match(unknown.body, /FULFILLMENT_ORDER_CHANGED, CANCELLATION_REQUESTED, ORDER_SHIPPED, LISTING_PRODUCT_DATA_CHANGED, VARIANT_INVENTORY_CHANGED/);
    const noUrl = await patchApp(seed.shipping.appId, { eventTypes: ['FULFILLMENT_ORDER_CHANGED'] });
    assertV1Error(noUrl, 400);
    assert.match(noUrl.body, /callbackBaseUrl/);
    assertV1Error(await patchApp(999_999, { eventTypes: [] }), 404);
    const anonymous = await t.app.inject({ method: 'PATCH', url: `/admin/apps/${seed.shipping.appId}`, payload: { eventTypes: [] } });
    assert.equal(anonymous.statusCode, 401, anonymous.body);
    // Nothing of the refused requests was kept.
    const view = await admin(t, 'GET', `/admin/apps/${seed.shipping.appId}`);
    assert.deepEqual((view.json() as { eventTypes: string[]; callbackBaseUrl: string | null }).eventTypes, []);
  });

  it('an unsubscribed app receives nothing', async () => {
    // A base URL alone subscribes to nothing.
    const res = await patchApp(seed.shipping.appId, { callbackBaseUrl: receiver.baseUrl });
    assert.equal(res.statusCode, 200, res.body);
    n += 1;
    const o = await createOrder(t, seed.channel.token, orderBody(`N-${n}`, [{ requestedSku: 'QA', quantity: 1, unitPrice: 5 }]));
    await foOf(t, seed.shipping.token, o.orderNumber);
    await run();
    assert.equal(receiver.received.length, 0);
    assert.equal((await nudgeDeliveries()).length, 0);
  });

  it('subscribes, and nudges the integration of a new fulfillment order: signed, ids as the pull shows them', async () => {
    const res = await patchApp(seed.shipping.appId, { eventTypes: ['FULFILLMENT_ORDER_CHANGED', 'FULFILLMENT_ORDER_CHANGED'] });
    assert.equal(res.statusCode, 200, res.body);
    const view = res.json() as { appId: number; callbackBaseUrl: string; eventTypes: string[] };
    assert.deepEqual(view.eventTypes, ['FULFILLMENT_ORDER_CHANGED']);
    assert.equal(view.callbackBaseUrl, receiver.baseUrl);

    clock.advance(1000);
    n += 1;
    const o = await createOrder(t, seed.channel.token, orderBody(`N-${n}`, [{ requestedSku: 'QA', quantity: 2, unitPrice: 5 }]));
    assert.equal(nudges('FULFILLMENT_ORDER_CHANGED').length, 0, 'nothing is sent before a worker runs');
    await run();
    const [got, ...more] = nudges('FULFILLMENT_ORDER_CHANGED');
    assert.ok(got);
    assert.equal(more.length, 0);
    assert.equal(got.method, 'POST');
    assert.equal(got.url, '/cb/events');
    assert.equal(got.verified, true);
    const fo = await fulfillmentOrder(t, seed.shipping.token, (await foOf(t, seed.shipping.token, o.orderNumber)).fulfillmentOrderId);
    assert.deepEqual(got.json, {
      eventType: 'FULFILLMENT_ORDER_CHANGED',
      integrationId: String(seed.shipping.installationId),
      objectType: 'FULFILLMENT_ORDER',
      objectId: fo.fulfillmentOrderId,
      version: fo['lastUpdatedTs'],
      occurredAt: clock.now().toISOString(),
    });
    const [delivery] = await nudgeDeliveries();
    assert.equal(delivery?.deliveryId, got.deliveryId);
    assert.equal(delivery?.state, 'SUCCEEDED');
    assert.equal(delivery?.path, '/events');
  });

  it('coalesces a burst of 20 stock changes of one SKU into one nudge carrying the latest version', async () => {
    await createListingViaAdmin(t, seed, listingWithVariants('GROUP-QB', [{ sku: 'QB' }]));
    const res = await patchApp(seed.channel.appId, { callbackBaseUrl: receiver.baseUrl, eventTypes: ['VARIANT_INVENTORY_CHANGED'] });
    assert.equal(res.statusCode, 200, res.body);
    const before = (await nudgeDeliveries()).length;
    for (let i = 1; i <= 20; i++) {
      clock.advance(1000);
      await stock(t, seed.sellerToken, 'QB', seed.warehouses.main, i);
    }
    const latest = clock.now().toISOString();
    const queued = (await nudgeDeliveries()).filter((d) => d.body.eventType === 'VARIANT_INVENTORY_CHANGED');
    assert.equal(queued.length, 1, 'one delivery for the burst');
    assert.equal((await nudgeDeliveries()).length, before + 1);
    await run();
    const [got, ...more] = nudges('VARIANT_INVENTORY_CHANGED');
    assert.ok(got);
    assert.equal(more.length, 0);
    assert.equal(got.verified, true);
    assert.equal(got.deliveryId, queued[0]?.deliveryId);
    assert.deepEqual(got.json, {
      eventType: 'VARIANT_INVENTORY_CHANGED',
      storefrontId: String(seed.channel.installationId),
      objectType: 'VARIANT',
      objectId: 'QB',
      version: latest,
      occurredAt: latest,
    });

    // Once sent, the next change is a new nudge (the sent one no longer coalesces).
    clock.advance(1000);
    await stock(t, seed.sellerToken, 'QB', seed.warehouses.main, 50);
    await run();
    assert.equal(nudges('VARIANT_INVENTORY_CHANGED').length, 2);
    assert.equal(nudges('VARIANT_INVENTORY_CHANGED')[1]?.json.version, clock.now().toISOString());
  });

  it('a shipment nudges the storefront (ORDER_SHIPPED) and the integration (its fulfillment order changed)', async () => {
    const res = await patchApp(seed.channel.appId, { eventTypes: ['ORDER_SHIPPED', 'LISTING_PRODUCT_DATA_CHANGED', 'VARIANT_INVENTORY_CHANGED'] });
    assert.equal(res.statusCode, 200, res.body);
    clock.advance(1000);
    n += 1;
    const o = await createOrder(t, seed.channel.token, orderBody(`N-${n}`, [{ requestedSku: 'QA', quantity: 1, unitPrice: 5 }]));
    const fo = await foOf(t, seed.shipping.token, o.orderNumber);
    await run();
    const foNudges = nudges('FULFILLMENT_ORDER_CHANGED').length;
    clock.advance(1000);
    const [shipped] = await batch(t, seed.shipping.token, 'shipments', 'shipments', [
      { fulfillmentOrderId: fo.fulfillmentOrderId, externalShipmentId: `S-${n}`, carrier: 'UPS', trackingNumber: '1Z9', serviceLevel: 'Ground', shippedTs: clock.now().toISOString() },
    ]);
    assert.equal(shipped?.success, true, shipped?.errorMessage);
    await run();
    const [orderNudge, ...more] = nudges('ORDER_SHIPPED');
    assert.equal(more.length, 0);
    assert.equal(orderNudge?.verified, true);
    assert.deepEqual(orderNudge?.json, {
      eventType: 'ORDER_SHIPPED',
      storefrontId: String(seed.channel.installationId),
      objectType: 'ORDER',
      objectId: o.orderNumber,
      version: clock.now().toISOString(),
      occurredAt: clock.now().toISOString(),
    });
    assert.equal(nudges('FULFILLMENT_ORDER_CHANGED').length, foNudges + 1);
    assert.equal(nudges('FULFILLMENT_ORDER_CHANGED').at(-1)?.json.objectId, fo.fulfillmentOrderId);
  });

  it("a seller's product data edit nudges the listing's storefront", async () => {
    const listing = await createListingViaAdmin(t, seed, listingWithVariants('GROUP-QC', [{ sku: 'QC' }]));
    clock.advance(1000);
    await patchListingViaAdmin(t, seed, listing.id, { productData: { attributes: [{ id: 'title', textValue: 'A better title' }] } });
    await run();
    const [got, ...more] = nudges('LISTING_PRODUCT_DATA_CHANGED');
    assert.equal(more.length, 0);
    assert.equal(got?.verified, true);
    assert.deepEqual(got?.json, {
      eventType: 'LISTING_PRODUCT_DATA_CHANGED',
      storefrontId: String(seed.channel.installationId),
      objectType: 'LISTING',
      objectId: listing.id,
      version: clock.now().toISOString(),
      occurredAt: clock.now().toISOString(),
    });
  });

  it('creating a listing nudges its storefront; an edit made before that nudge is sent coalesces into it', async () => {
    const before = nudges('LISTING_PRODUCT_DATA_CHANGED').length;
    clock.advance(1000);
    const listing = await createListingViaAdmin(t, seed, listingWithVariants('GROUP-QD', [{ sku: 'QD' }]));
    const createdAt = clock.now().toISOString();
    await run();
    const created = nudges('LISTING_PRODUCT_DATA_CHANGED').slice(before);
    assert.equal(created.length, 1);
    assert.deepEqual(created[0]?.json, {
      eventType: 'LISTING_PRODUCT_DATA_CHANGED',
      storefrontId: String(seed.channel.installationId),
      objectType: 'LISTING',
      objectId: listing.id,
      version: createdAt,
      occurredAt: createdAt,
    });

    // Created and edited before any worker ran: one nudge with the edit's version.
    clock.advance(1000);
    const second = await createListingViaAdmin(t, seed, listingWithVariants('GROUP-QE', [{ sku: 'QE' }]));
    clock.advance(1000);
    await patchListingViaAdmin(t, seed, second.id, { productData: { attributes: [{ id: 'title', textValue: 'Renamed' }] } });
    await run();
    const later = nudges('LISTING_PRODUCT_DATA_CHANGED').slice(before + 1);
    assert.equal(later.length, 1);
    assert.equal(later[0]?.json.objectId, second.id);
    assert.equal(later[0]?.json.version, clock.now().toISOString());
  });

  it("a storefront settings change moves all its listings and sends one nudge for the storefront, not one per listing", async () => {
    const before = nudges('LISTING_PRODUCT_DATA_CHANGED').length;
    clock.advance(1000);
    const res = await admin(t, 'PUT', `/admin/accounts/${seed.accountId}/storefronts/${seed.channel.installationId}/settings`, { settings: { giftWrap: 'yes' } });
    assert.equal(res.statusCode, 200, res.body);
    // The same settings again change nothing and nudge nobody.
    const again = await admin(t, 'PUT', `/admin/accounts/${seed.accountId}/storefronts/${seed.channel.installationId}/settings`, { settings: { giftWrap: 'yes' } });
    assert.equal(again.statusCode, 200, again.body);
    await run();
    const sent = nudges('LISTING_PRODUCT_DATA_CHANGED').slice(before);
    assert.equal(sent.length, 1);
    assert.deepEqual(sent[0]?.json, {
      eventType: 'LISTING_PRODUCT_DATA_CHANGED',
      storefrontId: String(seed.channel.installationId),
      objectType: 'STOREFRONT',
      objectId: String(seed.channel.installationId),
      version: clock.now().toISOString(),
      occurredAt: clock.now().toISOString(),
    });
  });

  it('acknowledging and rejecting move the fulfillment order: each nudges its integration with the new version', async () => {
    const res = await patchApp(seed.shipping.appId, { eventTypes: ['FULFILLMENT_ORDER_CHANGED', 'CANCELLATION_REQUESTED'] });
    assert.equal(res.statusCode, 200, res.body);
    clock.advance(1000);
    n += 1;
    const o = await createOrder(t, seed.channel.token, orderBody(`N-${n}`, [{ requestedSku: 'QA', quantity: 1, unitPrice: 5 }]));
    const fo = await foOf(t, seed.shipping.token, o.orderNumber);
    await run();
    const count = nudges('FULFILLMENT_ORDER_CHANGED').length;

    clock.advance(1000);
    const [acked] = await batch(t, seed.shipping.token, 'fulfillment_orders/acknowledge', 'acknowledgements', [{ fulfillmentOrderId: fo.fulfillmentOrderId, externalOrderId: `WMS-${n}` }]);
    assert.equal(acked?.success, true, acked?.errorMessage);
    await run();
    const afterAck = nudges('FULFILLMENT_ORDER_CHANGED').slice(count);
    assert.equal(afterAck.length, 1);
    const ackedFo = await fulfillmentOrder(t, seed.shipping.token, fo.fulfillmentOrderId);
    assert.equal(afterAck[0]?.json.objectId, fo.fulfillmentOrderId);
    assert.equal(afterAck[0]?.json.version, ackedFo['lastUpdatedTs']);

    clock.advance(1000);
    n += 1;
    const o2 = await createOrder(t, seed.channel.token, orderBody(`N-${n}`, [{ requestedSku: 'QA', quantity: 1, unitPrice: 5 }]));
    const fo2 = await foOf(t, seed.shipping.token, o2.orderNumber);
    await run();
    const beforeReject = nudges('FULFILLMENT_ORDER_CHANGED').length;
    clock.advance(1000);
    const [rejected] = await batch(t, seed.shipping.token, 'fulfillment_orders/reject', 'rejections', [
      { fulfillmentOrderId: fo2.fulfillmentOrderId, reason: 'REJECTION_REASON_OUT_OF_STOCK', message: 'shelf empty' },
    ]);
    assert.equal(rejected?.success, true, rejected?.errorMessage);
    await run();
    const afterReject = nudges('FULFILLMENT_ORDER_CHANGED').slice(beforeReject);
    assert.ok(afterReject.some((r) => r.json.objectId === fo2.fulfillmentOrderId && r.json.version === clock.now().toISOString()), JSON.stringify(afterReject.map((r) => r.json)));
    assert.ok(afterReject.every((r) => r.verified));
  });

  it('a cancellation of acknowledged work nudges CANCELLATION_REQUESTED with the fulfillment order, read back in need_to_cancel', async () => {
    clock.advance(1000);
    n += 1;
    const o = await createOrder(t, seed.channel.token, orderBody(`N-${n}`, [{ requestedSku: 'QA', quantity: 2, unitPrice: 5 }]));
    const fo = await foOf(t, seed.shipping.token, o.orderNumber);
    const [acked] = await batch(t, seed.shipping.token, 'fulfillment_orders/acknowledge', 'acknowledgements', [{ fulfillmentOrderId: fo.fulfillmentOrderId, externalOrderId: `WMS-${n}` }]);
    assert.equal(acked?.success, true, acked?.errorMessage);
    await run();
    assert.equal(nudges('CANCELLATION_REQUESTED').length, 0, 'nothing to cancel yet');

    clock.advance(1000);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/v1/salesOrder/cancel/${o.orderNumber}`,
      headers: { authorization: `Bearer ${seed.channel.token}` },
      payload: { cancellationReason: 'BuyerCanceled' },
    });
    assert.equal(cancel.statusCode, 200, cancel.body);
    await run();
    const [got, ...more] = nudges('CANCELLATION_REQUESTED');
    assert.equal(more.length, 0);
    assert.equal(got?.verified, true);
    assert.deepEqual(got?.json, {
      eventType: 'CANCELLATION_REQUESTED',
      integrationId: String(seed.shipping.installationId),
      objectType: 'FULFILLMENT_ORDER',
      objectId: fo.fulfillmentOrderId,
      version: (await fulfillmentOrder(t, seed.shipping.token, fo.fulfillmentOrderId))['lastUpdatedTs'],
      occurredAt: clock.now().toISOString(),
    });
    const { cancellations } = await needToCancel(t, seed.shipping.token);
    assert.ok(cancellations.some((c) => c.fulfillmentOrderId === fo.fulfillmentOrderId));
  });

  it('unsubscribing (eventTypes: []) stops the nudges and allows removing the base URL', async () => {
    const res = await patchApp(seed.channel.appId, { eventTypes: [], callbackBaseUrl: null });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual((res.json() as { eventTypes: string[] }).eventTypes, []);
    const count = receiver.received.length;
    clock.advance(1000);
    await stock(t, seed.sellerToken, 'QB', seed.warehouses.main, 7);
    await run();
    assert.equal(receiver.received.length, count);
  });
});
