import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { availableBySku, createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';

function assertV2Error(res: LightMyRequestResponse, status: number, code: number, pattern?: RegExp): void {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json() as { code: number; message: string; details: unknown[] };
  assert.equal(body.code, code);
  assert.ok(Array.isArray(body.details));
  if (pattern) assert.match(body.message, pattern);
}

/** POST /v2/storefront/orders/cancel (document 4.7). */
describe('v2 storefront order cancel', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let n = 0;

  const cancel = (token: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/v2/storefront/orders/cancel', headers: bearer(token), payload: payload as object });
  const get = async (orderNumber: string) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order;
  };
  const fresh = async (quantity = 3) => {
    clock.advance(1000);
    n += 1;
    return createOrder(t, seed.channel.token, orderBody(`S-${n}`, [{ requestedSku: 'SX', quantity }, { requestedSku: 'SY', quantity: 1 }]));
  };
  const state = async (orderNumber: string) => ({
    order: await get(orderNumber),
    stock: await availableBySku(t, seed.sellerToken, 'SX'),
    requests: await t.deps.db.db.selectFrom('fulfillment_cancellation_lines').selectAll().orderBy('id').execute(),
  });

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    await stock(t, seed.sellerToken, 'SX', seed.warehouses.main, 100);
    await stock(t, seed.sellerToken, 'SY', seed.warehouses.main, 100);
  });
  after(async () => t.close());

  it('cancels units by line id (int64 as string or number) and answers {}', async () => {
    const order = await fresh();
    const [x, y] = order.products;
    const before = (await availableBySku(t, seed.sellerToken, 'SX')).get(seed.warehouses.main)!;
    clock.advance(1000);
    const res = await cancel(seed.channel.token, { channelOrderId: order.channelOrderId, cancelQuantities: { [x!.lineItemId]: '2' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {});
    let view = await get(order.orderNumber);
    assert.equal(view.status, 'PENDING');
    assert.equal(view.products[0]!.cancelQuantity, 2);
    assert.equal(view.lastUpdatedTs, clock.now().toISOString());
    assert.equal((await availableBySku(t, seed.sellerToken, 'SX')).get(seed.warehouses.main), before + 2);

    const rest = await cancel(seed.channel.token, { channel_order_id: order.channelOrderId, cancel_quantities: { [x!.lineItemId]: 1, [y!.lineItemId]: 1 } });
    assert.equal(rest.statusCode, 200, rest.body);
    view = await get(order.orderNumber);
    assert.equal(view.status, 'CANCELLED');
    assert.equal(view.cancellationReason, 'CHANNEL_CANCELLED');
  });

  it('drives need_to_cancel: an acknowledged fulfillment order gets a CHANNEL_CANCELLED request', async () => {
    const db = t.deps.db.db;
    const order = await fresh();
    const fo = await db.selectFrom('fulfillment_orders').selectAll().where('order_id', '=', Number(order.orderNumber)).executeTakeFirstOrThrow();
    await db.updateTable('fulfillment_orders').set({ status: 'ACCEPTED', acknowledged_ts: clock.now().toISOString() }).where('id', '=', fo.id).execute();
    const x = order.products[0]!.lineItemId;
    const res = await cancel(seed.channel.token, { channelOrderId: order.channelOrderId, cancelQuantities: { [x]: 2 } });
    assert.equal(res.statusCode, 200, res.body);
    const request = await db.selectFrom('fulfillment_cancellation_requests').selectAll().where('fulfillment_order_id', '=', fo.id).executeTakeFirstOrThrow();
    assert.equal(request.reason, 'CANCELLATION_REASON_CHANNEL_CANCELLED');
    const lines = await db.selectFrom('fulfillment_cancellation_lines').select(['line_id', 'quantity']).where('request_id', '=', request.id).execute();
    assert.deepEqual(lines, [{ line_id: Number(x), quantity: 2 }]);
  });

  it('refuses bad input with a v2 error and changes nothing', async () => {
    const order = await fresh();
    const x = order.products[0]!.lineItemId;
    const before = await state(order.orderNumber);
    const bad: [unknown, RegExp][] = [
      [{ channelOrderId: order.channelOrderId, cancelQuantities: { [x]: 4 } }, /cannot cancel 4 units, only 3/],
      [{ channelOrderId: order.channelOrderId, cancelQuantities: { [x]: 0 } }, /at least 1/],
      [{ channelOrderId: order.channelOrderId, cancelQuantities: { [x]: -1 } }, /at least 1/],
      [{ channelOrderId: order.channelOrderId, cancelQuantities: { [x]: '1.5' } }, /cancelQuantities/],
      [{ channelOrderId: order.channelOrderId, cancelQuantities: { '999999': 1 } }, /not a line of this order/],
      [{ channelOrderId: order.channelOrderId, cancelQuantities: { 'sku-1': 1 } }, /not a line item id/],
      [{ channelOrderId: order.channelOrderId, cancelQuantities: {} }, /at least one line item/],
      [{ channelOrderId: order.channelOrderId }, /cancelQuantities: is required/],
      [{ cancelQuantities: { [x]: 1 } }, /channelOrderId: is required/],
      [{ channelOrderId: ' ', cancelQuantities: { [x]: 1 } }, /channelOrderId/],
    ];
    for (const [payload, message] of bad) assertV2Error(await cancel(seed.channel.token, payload), 400, 3, message);
    assert.deepEqual(await state(order.orderNumber), before);
  });

  it('answers 404 for another storefront\'s or an unknown order, 403 for non-storefront tokens, 401 without a token', async () => {
    const order = await fresh();
    const x = order.products[0]!.lineItemId;
    const before = await state(order.orderNumber);
    const body = { channelOrderId: order.channelOrderId, cancelQuantities: { [x]: 1 } };
    assertV2Error(await cancel(other.channel.token, body), 404, 5);
    assertV2Error(await cancel(seed.channel.token, { ...body, channelOrderId: 'nope' }), 404, 5);
    assertV2Error(await cancel(seed.sellerToken, body), 403, 7);
    assertV2Error(await cancel(seed.shipping.token, body), 403, 7);
    assertV2Error(await t.app.inject({ method: 'POST', url: '/v2/storefront/orders/cancel', payload: body }), 401, 16);
    assert.deepEqual(await state(order.orderNumber), before);
  });
});
