import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { assertV1Error, availableBySku, createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';

/** accept, markPaid and confirmStatus on one order. */
describe('v1 sales order actions', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let n = 0;

  const post = (token: string, url: string, payload?: unknown) =>
    t.app.inject({ method: 'POST', url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const fresh = async (extra: Record<string, unknown> = {}) => {
    clock.advance(1000);
    n += 1;
    return createOrder(t, seed.channel.token, orderBody(`A-${n}`, [{ requestedSku: 'A', quantity: 1 }], extra));
  };
  const statusRows = async () => t.deps.db.db.selectFrom('sales_order_status_confirmations').selectAll().execute();

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    await stock(t, seed.sellerToken, 'A', seed.warehouses.main, 100);
  });
  after(async () => t.close());

  describe('POST /v1/salesOrder/accept/{orderNumber}', () => {
    it('records acceptedTs once and moves lastUpdatedTs; a repeat changes nothing', async () => {
      const order = await fresh();
      assert.equal(order.acceptedTs, null);
      clock.advance(5000);
      const res = await post(seed.channel.token, `/v1/salesOrder/accept/${order.orderNumber}`);
      assert.equal(res.statusCode, 200, res.body);
      const accepted = res.json() as Order;
      assert.equal(accepted.acceptedTs, clock.now().toISOString());
      assert.equal(accepted.lastUpdatedTs, clock.now().toISOString());
      assert.equal(accepted.status, 'PENDING');
      clock.advance(5000);
      const again = await post(seed.channel.token, `/v1/salesOrder/accept/${order.orderNumber}`);
      assert.deepEqual(again.json(), accepted);
    });

    it('refuses a cancelled order and answers 404 for unknown or foreign orders', async () => {
      const order = await fresh();
      await t.deps.db.db.updateTable('sales_orders').set({ status: 'CANCELLED' }).where('id', '=', Number(order.orderNumber)).execute();
      assertV1Error(await post(seed.channel.token, `/v1/salesOrder/accept/${order.orderNumber}`), 400, /CANCELLED/);
      const row = await t.deps.db.db.selectFrom('sales_orders').select('accepted_ts').where('id', '=', Number(order.orderNumber)).executeTakeFirstOrThrow();
      assert.equal(row.accepted_ts, null);
      assertV1Error(await post(seed.channel.token, '/v1/salesOrder/accept/999999'), 404);
      assertV1Error(await post(other.sellerToken, `/v1/salesOrder/accept/${order.orderNumber}`), 404);
      assertV1Error(await post(other.channel.token, `/v1/salesOrder/accept/${order.orderNumber}`), 404);
      assertV1Error(await t.app.inject({ method: 'POST', url: `/v1/salesOrder/accept/${order.orderNumber}` }), 401);
    });
  });

  describe('POST /v1/salesOrder/markPaid/{orderNumber}', () => {
    it('moves PENDING_PAYMENT to PENDING, keeping the reservation', async () => {
      const order = await fresh({ status: 'PENDING_PAYMENT' });
      const before = (await availableBySku(t, seed.sellerToken, 'A')).get(seed.warehouses.main);
      clock.advance(1000);
      const res = await post(seed.channel.token, `/v1/salesOrder/markPaid/${order.orderNumber}`);
      assert.equal(res.statusCode, 200, res.body);
      const paid = res.json() as Order;
      assert.equal(paid.status, 'PENDING');
      assert.equal(paid.products[0]?.status, 'PENDING');
      assert.equal(paid.lastUpdatedTs, clock.now().toISOString());
      assert.equal((await availableBySku(t, seed.sellerToken, 'A')).get(seed.warehouses.main), before);
      // Already PENDING: 200, unchanged.
      clock.advance(1000);
      const again = await post(seed.channel.token, `/v1/salesOrder/markPaid/${order.orderNumber}`);
      assert.equal(again.statusCode, 200);
      assert.deepEqual(again.json(), paid);
    });

    it('refuses any other status with a 400 and changes nothing', async () => {
      const order = await fresh();
      await t.deps.db.db.updateTable('sales_orders').set({ status: 'SHIPPED' }).where('id', '=', Number(order.orderNumber)).execute();
      assertV1Error(await post(seed.channel.token, `/v1/salesOrder/markPaid/${order.orderNumber}`), 400, /is SHIPPED; only a PENDING_PAYMENT order/);
      const row = await t.deps.db.db.selectFrom('sales_orders').select(['status', 'last_updated_ts']).where('id', '=', Number(order.orderNumber)).executeTakeFirstOrThrow();
      assert.deepEqual(row, { status: 'SHIPPED', last_updated_ts: order.lastUpdatedTs });
      assertV1Error(await post(other.sellerToken, `/v1/salesOrder/markPaid/${order.orderNumber}`), 404);
    });
  });

  describe('POST /v1/salesOrder/{orderNumber}/confirmStatus', () => {
    it('records the acknowledgement, answers "OK" and changes no state', async () => {
      const order = await fresh();
      const line = order.products[0]!.lineItemId;
      clock.advance(1000);
      const res = await post(seed.channel.token, `/v1/salesOrder/${order.orderNumber}/confirmStatus`, { status: 'PARTIALLY_CACNCELLED', lineItems: [line] });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json(), 'OK');
      assert.match(String(res.headers['content-type']), /^application\/json/);
      const stored = (await statusRows()).filter((r) => r.order_id === Number(order.orderNumber));
      assert.equal(stored.length, 1);
      assert.equal(stored[0]?.status, 'PARTIALLY_CACNCELLED');
      assert.deepEqual(JSON.parse(stored[0]!.line_items), [line]);
      const after = await t.app.inject({ url: `/v1/salesOrder/${order.orderNumber}`, headers: bearer(seed.channel.token) });
      assert.deepEqual(after.json(), order);
    });

    it('refuses bad bodies, foreign orders and tokens without sales:orders:self, recording nothing', async () => {
      const order = await fresh();
      const url = `/v1/salesOrder/${order.orderNumber}/confirmStatus`;
      const line = order.products[0]!.lineItemId;
      const before = (await statusRows()).length;
      assertV1Error(await post(seed.channel.token, url, { status: 'LOST', lineItems: [line] }), 400, /status: must be one of/);
      assertV1Error(await post(seed.channel.token, url, { status: 'SHIPPED' }), 400, /lineItems: is required/);
      assertV1Error(await post(seed.channel.token, url, { lineItems: [line] }), 400, /status: is required/);
      assertV1Error(await post(seed.channel.token, url, { status: 'SHIPPED', lineItems: 'x' }), 400, /lineItems: must be array/);
      assertV1Error(await post(seed.channel.token, url, { status: 'SHIPPED', lineItems: ['999999'] }), 400, /lineItems: not line items of sales order/);
      assertV1Error(await post(seed.shipping.token, url, { status: 'SHIPPED', lineItems: [line] }), 403, /sales:orders:self/);
      assertV1Error(await post(other.channel.token, url, { status: 'SHIPPED', lineItems: [line] }), 404);
      assertV1Error(await post(seed.channel.token, '/v1/salesOrder/999999/confirmStatus', { status: 'SHIPPED', lineItems: [] }), 404);
      assert.equal((await statusRows()).length, before);
    });
  });
});
