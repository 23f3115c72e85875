import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { assertV1Error, createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';

/**
 * Bodyless POSTs sent the way public examples and PHP Guzzle clients send them: Content-Type:
 * application/json and no body, with Content-Length: 0 or no length at all (resolutions §7).
 */
describe('v1 bodyless POSTs with an empty body', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let n = 0;

  const fresh = async (extra: Record<string, unknown> = {}) => {
    n += 1;
    return createOrder(t, seed.channel.token, orderBody(`EB-${n}`, [{ requestedSku: 'A', quantity: 1 }], extra));
  };

  /** Guzzle-like: the JSON Content-Type with nothing after it. */
  const emptyJsonPost = (url: string, framing: 'length-0' | 'no-length', contentType = 'application/json', token = seed.channel.token) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: {
        ...bearer(token),
        'content-type': contentType,
        ...(framing === 'length-0' ? { 'content-length': '0' } : {}),
      },
      ...(framing === 'length-0' ? { payload: '' } : {}),
    });

  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    await stock(t, seed.sellerToken, 'A', seed.warehouses.main, 100);
  });
  after(async () => t.close());

  for (const framing of ['length-0', 'no-length'] as const) {
    it(`accept: Content-Type application/json, ${framing} → 200, acceptance recorded`, async () => {
      const order = await fresh();
      const res = await emptyJsonPost(`/v1/salesOrder/accept/${order.orderNumber}`, framing);
      assert.equal(res.statusCode, 200, res.body);
      assert.notEqual((res.json() as Order).acceptedTs, null);
    });

    it(`markPaid: Content-Type application/json, ${framing} → 200, PENDING_PAYMENT → PENDING`, async () => {
      const order = await fresh({ status: 'PENDING_PAYMENT' });
      const res = await emptyJsonPost(`/v1/salesOrder/markPaid/${order.orderNumber}`, framing);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((res.json() as Order).status, 'PENDING');
    });
  }

  it('an empty body under any other Content-Type is accepted too', async () => {
    for (const contentType of ['application/json; charset=utf-8', 'text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      const order = await fresh();
      const res = await emptyJsonPost(`/v1/salesOrder/accept/${order.orderNumber}`, 'length-0', contentType);
      assert.equal(res.statusCode, 200, `${contentType}: ${res.body}`);
    }
  });

  it('a non-empty body of a type no route reads is still refused (415), and changes nothing', async () => {
    const order = await fresh();
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/salesOrder/accept/${order.orderNumber}`,
      headers: { ...bearer(seed.channel.token), 'content-type': 'application/xml' },
      payload: '<accept/>',
    });
    assertV1Error(res, 415, /Content-Type/);
    const row = await t.deps.db.db.selectFrom('sales_orders').select('accepted_ts').where('id', '=', Number(order.orderNumber)).executeTakeFirstOrThrow();
    assert.equal(row.accepted_ts, null);
  });

  it('a route that needs a body answers a clear 400 "body: is required" and changes nothing', async () => {
    const order = await fresh();
    for (const framing of ['length-0', 'no-length'] as const) {
      assertV1Error(await emptyJsonPost(`/v1/salesOrder/cancel/${order.orderNumber}`, framing), 400, /^body: is required/);
      assertV1Error(await emptyJsonPost('/v1/inventory', framing, 'application/json', seed.sellerToken), 400, /^body: is required/);
      assertV1Error(await emptyJsonPost('/v1/salesOrder', framing), 400, /^body: is required/);
    }
    // Without any Content-Type either.
    const bare = await t.app.inject({ method: 'POST', url: '/v1/salesOrder', headers: bearer(seed.channel.token) });
    assertV1Error(bare, 400, /^body: is required/);
    const get = await t.app.inject({ url: `/v1/salesOrder/${order.orderNumber}`, headers: bearer(seed.channel.token) });
    assert.equal((get.json() as Order).status, 'PENDING');
  });

  it('malformed JSON is still a 400 about the JSON', async () => {
    const order = await fresh();
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/salesOrder/accept/${order.orderNumber}`,
      headers: { ...bearer(seed.channel.token), 'content-type': 'application/json' },
      payload: '{',
    });
    assertV1Error(res, 400, /JSON/);
  });

  it('an unknown route answers 404 whatever the body: empty JSON, no length, malformed JSON, another type', async () => {
    for (const framing of ['length-0', 'no-length'] as const) {
      assertV1Error(await emptyJsonPost('/v1/salesOrder/approve/1', framing), 404, /no route/);
      const v2 = await emptyJsonPost('/v2/nothing/here', framing);
      assert.equal(v2.statusCode, 404, v2.body);
      assert.equal((v2.json() as { code: number }).code, 5);
    }
    for (const [contentType, payload] of [
      ['application/json', '{'],
      ['application/xml', '<x/>'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/nothing', headers: { 'content-type': contentType }, payload });
      assertV1Error(res, 404, /no route/);
    }
  });
});
