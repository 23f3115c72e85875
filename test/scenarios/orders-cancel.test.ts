import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EXPIRE_UNPAID_ORDER, UNPAID_EXPIRY_REASON } from '../../src/domain/orders/expiry.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { availableBySku, createOrder, orderBody, stock, type Order } from '../http/v1-sales-orders-helpers.js';

const DAY = 24 * 60 * 60_000;

/** Order cancellation across the layers: parallel cancels, and unpaid orders expiring through the job worker. */
describe('order cancellation scenarios', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let n = 0;

  const get = async (orderNumber: string) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order;
  };
  const cancel = (orderNumber: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `/v1/salesOrder/cancel/${orderNumber}`, headers: bearer(seed.channel.token), payload: payload as object });
  const fresh = async (sku: string, quantity: number, extra: Record<string, unknown> = {}) => {
    n += 1;
    return createOrder(t, seed.channel.token, orderBody(`X-${n}`, [{ requestedSku: sku, quantity }], extra));
  };
  const stockRow = (sku: string) =>
    t.deps.db.db
      .selectFrom('inventory as i')
      .innerJoin('products as p', 'p.id', 'i.product_id')
      .select(['i.available_quantity', 'i.reserved_quantity'])
      .where('p.sku', '=', sku)
      .where('i.warehouse_id', '=', seed.warehouses.main)
      .executeTakeFirstOrThrow();
  const worker = () => new JobWorker(t.deps, { id: 'expiry-test', schedules: [] });

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  it('parallel cancels of the same line never release more than was reserved', async () => {
    await stock(t, seed.sellerToken, 'PAR', seed.warehouses.main, 20);
    const order = await fresh('PAR', 5);
    const line = order.products[0]!.lineItemId;
    assert.deepEqual(await stockRow('PAR'), { available_quantity: 15, reserved_quantity: 5 });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => cancel(order.orderNumber, { cancellationReason: 'NoInventory', lineItems: [{ lineItemId: line, quantity: 1 }] })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    assert.deepEqual(codes, [200, 200, 200, 200, 200, 400, 400, 400], results.map((r) => r.body).join('\n'));
    assert.deepEqual(await stockRow('PAR'), { available_quantity: 20, reserved_quantity: 0 });
    const view = await get(order.orderNumber);
    assert.equal(view.products[0]!.cancelQuantity, 5);
    assert.equal(view.status, 'CANCELLED');
    const route = await t.deps.db.db.selectFrom('order_line_routes').selectAll().where('line_id', '=', Number(line)).executeTakeFirstOrThrow();
    assert.deepEqual([route.reserved_quantity, route.backorder_quantity, route.cancelled_quantity, route.quantity], [0, 0, 5, 5]);
    const ledger = await t.deps.db.db.selectFrom('inventory_reservations').select('quantity').where('order_line_id', '=', Number(line)).executeTakeFirstOrThrow();
    assert.equal(ledger.quantity, 0);
  });

  it('parallel whole-order cancels release the reservation once', async () => {
    await stock(t, seed.sellerToken, 'PAR2', seed.warehouses.main, 10);
    const order = await fresh('PAR2', 4);
    const results = await Promise.all(Array.from({ length: 6 }, () => cancel(order.orderNumber, { cancellationReason: 'NoInventory' })));
    for (const r of results) assert.ok(r.statusCode === 200 || r.statusCode === 400, r.body);
    assert.ok(results.some((r) => r.statusCode === 200));
    assert.deepEqual(await stockRow('PAR2'), { available_quantity: 10, reserved_quantity: 0 });
    assert.equal((await get(order.orderNumber)).products[0]!.cancelQuantity, 4);
  });

  describe('unpaid order expiry', () => {
    it('cancels a PENDING_PAYMENT order 30 days after orderTs and releases its reservation', async () => {
      await stock(t, seed.sellerToken, 'EXP', seed.warehouses.main, 10);
      const orderTs = clock.now().toISOString();
      const order = await fresh('EXP', 3, { status: 'PENDING_PAYMENT', orderTs });
      assert.equal(order.status, 'PENDING_PAYMENT');
      assert.deepEqual(await stockRow('EXP'), { available_quantity: 7, reserved_quantity: 3 });
      const job = await t.deps.db.db.selectFrom('jobs').selectAll().where('dedupe_key', '=', `order.expire:${order.orderNumber}`).executeTakeFirstOrThrow();
      assert.equal(job.type, EXPIRE_UNPAID_ORDER);
      assert.equal(job.account_id, seed.accountId);
      assert.equal(job.run_at, new Date(Date.parse(orderTs) + 30 * DAY).toISOString());

      const w = worker();
      assert.equal(await w.runUntilIdle(), 0, 'not due yet');
      clock.advance(30 * DAY - 1);
      assert.equal(await w.runUntilIdle(), 0, 'one millisecond early');
      clock.advance(1);
      assert.equal(await w.runUntilIdle(), 1);
      const expired = await get(order.orderNumber);
      assert.equal(expired.status, 'CANCELLED');
      assert.equal(expired.cancellationReason, UNPAID_EXPIRY_REASON);
      assert.equal(expired.lastUpdatedTs, clock.now().toISOString());
      assert.deepEqual(await stockRow('EXP'), { available_quantity: 10, reserved_quantity: 0 });
      const done = await t.deps.db.db.selectFrom('jobs').select('status').where('id', '=', job.id).executeTakeFirstOrThrow();
      assert.equal(done.status, 'SUCCEEDED');
    });

    it('leaves a paid order alone, schedules nothing for a PENDING order, and expires an old order at once', async () => {
      await stock(t, seed.sellerToken, 'EXP2', seed.warehouses.main, 10);
      const paid = await fresh('EXP2', 1, { status: 'PENDING_PAYMENT', orderTs: clock.now().toISOString() });
      const res = await t.app.inject({ method: 'POST', url: `/v1/salesOrder/markPaid/${paid.orderNumber}`, headers: bearer(seed.channel.token) });
      assert.equal(res.statusCode, 200, res.body);
      const pending = await fresh('EXP2', 1, { orderTs: clock.now().toISOString() });
      const jobFor = (o: Order) => t.deps.db.db.selectFrom('jobs').select(['id', 'status']).where('dedupe_key', '=', `order.expire:${o.orderNumber}`).executeTakeFirst();
      assert.equal(await jobFor(pending), undefined);

      const old = await fresh('EXP2', 2, { status: 'PENDING_PAYMENT', orderTs: new Date(clock.now().getTime() - 40 * DAY).toISOString() });
      assert.equal(await worker().runUntilIdle(), 1, 'the old order is due at once');
      assert.equal((await get(old.orderNumber)).status, 'CANCELLED');

      clock.advance(31 * DAY);
      assert.equal(await worker().runUntilIdle(), 1);
      assert.equal((await get(paid.orderNumber)).status, 'PENDING', 'paid in time: not cancelled');
      assert.equal((await jobFor(paid))?.status, 'SUCCEEDED');
      assert.equal((await get(pending.orderNumber)).status, 'PENDING');
      assert.equal((await availableBySku(t, seed.sellerToken, 'EXP2')).get(seed.warehouses.main), 8);
    });
  });
});
