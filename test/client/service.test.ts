import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
// Through the workspace link (node_modules/@mcs/partner-client), as a partner's code in this repository imports it.
import { ApiError, createClient, itemsV1, itemsV2, pagesV1, pagesV2, type Client } from '@mcs/partner-client';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { stock } from '../http/v1-sales-orders-helpers.js';

/** The partner client against the real service listening on a loopback port. */
describe('partner client through the service', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let baseUrl: string;
  let seller: Client;
  let channel: Client;
  let shipping: Client;
  const orderNumbers: string[] = [];

  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    seller = createClient({ baseUrl, accessToken: seed.sellerToken });
    channel = createClient({ baseUrl, accessToken: seed.channel.token });
    shipping = createClient({ baseUrl: `${baseUrl}/`, accessToken: seed.shipping.token });
    await stock(t, seed.sellerToken, 'PC-A', seed.warehouses.main, 100);
  });
  after(async () => t.close());

  it('reads the warehouses', async () => {
    const { results } = await seller.get('/v1/warehouses');
    assert.deepEqual(
      results.map((w) => w.warehouseId).sort((a, b) => a - b),
      [seed.warehouses.main, seed.warehouses.second, seed.warehouses.channel].sort((a, b) => a - b),
    );
  });

  it('creates sales orders as the channel', async () => {
    for (let i = 1; i <= 5; i++) {
      const order = await channel.post('/v1/salesOrder', {
        body: { channelOrderId: `PC-${i}`, orderTs: new Date().toISOString(), products: [{ requestedSku: 'PC-A', quantity: 1 }] },
      });
      assert.equal(order.channelOrderId, `PC-${i}`);
      orderNumbers.push(order.orderNumber);
    }
  });

  it('pages GET /v1/salesOrder by nextToken (pageLength 2: three pages)', async () => {
    const pages = [];
    for await (const page of pagesV1(seller, '/v1/salesOrder', { query: { pageLength: 2 } })) pages.push(page);
    assert.deepEqual(
      pages.map((p) => p.results.length),
      [2, 2, 1],
    );
    assert.equal(pages.at(-1)!.pagination.nextToken, '');
    const seen: string[] = [];
    for await (const order of itemsV1(seller, '/v1/salesOrder', { query: { pageLength: 2 } })) seen.push(order.orderNumber);
    assert.deepEqual(seen.sort(), [...orderNumbers].sort());
  });

  it('pages GET /v2/shipping/need_to_ship by cursor as the shipping integration', async () => {
    const sizes: number[] = [];
    for await (const page of pagesV2(shipping, '/v2/shipping/need_to_ship', { query: { pageSize: 2 } })) sizes.push(page.orders.length);
    assert.deepEqual(sizes, [2, 2, 1]);
    const owed = [];
    for await (const fo of itemsV2(shipping, '/v2/shipping/need_to_ship', 'orders', { query: { pageSize: 2 } })) owed.push(fo);
    assert.deepEqual(owed.map((fo) => fo.orderNumber).sort(), [...orderNumbers].sort());

    // The README's loop: acknowledge, then ship; a shipped order leaves the queue.
    const first = owed[0]!;
    const ack = await shipping.post('/v2/shipping/fulfillment_orders/acknowledge', {
      body: { acknowledgements: [{ fulfillmentOrderId: first.fulfillmentOrderId, externalOrderId: 'WMS-1' }] },
    });
    assert.equal(ack.results[0]!.success, true, ack.results[0]!.errorMessage);
    const shipped = await shipping.post('/v2/shipping/shipments', {
      body: {
        shipments: [
          {
            fulfillmentOrderId: first.fulfillmentOrderId,
            externalShipmentId: 'PKG-1',
            carrier: 'UPS',
            trackingNumber: '1Z999',
            serviceLevel: 'Ground',
            shippedTs: new Date().toISOString(),
          },
        ],
      },
    });
    assert.equal(shipped.results[0]!.success, true, shipped.results[0]!.errorMessage);
    const after = (await shipping.get('/v2/shipping/need_to_ship', { query: { pageSize: 500 } })).orders;
    assert.equal(after.length, 4);
    assert.ok(!after.some((fo) => fo.fulfillmentOrderId === first.fulfillmentOrderId));
  });

  it('surfaces a v1 404 and a v2 400 as typed ApiErrors', async () => {
    const v1 = await seller.get('/v1/salesOrder/{orderNumber}', { path: { orderNumber: '999999999' } }).then(
      () => assert.fail('expected a 404'),
      (e: unknown) => e,
    );
    assert.ok(v1 instanceof ApiError);
    assert.equal(v1.status, 404);
    assert.equal(v1.v1?.errorCode, 404);
    assert.match(v1.v1?.referenceId ?? '', /^[0-9a-f-]{36}$/);

    const v2 = await shipping.get('/v2/shipping/need_to_ship', { query: { cursor: 'not-a-cursor' } }).then(
      () => assert.fail('expected a 400'),
      (e: unknown) => e,
    );
    assert.ok(v2 instanceof ApiError);
    assert.equal(v2.status, 400);
    assert.equal(v2.v2?.code, 3);
    assert.deepEqual(v2.v2?.details, []);
  });

  it('refuses to follow a nextToken to another origin', async () => {
    await assert.rejects(seller.getUrl('http://attacker.example/v1/salesOrder?nextToken=x'), /refusing to send the access token/);
  });
});
