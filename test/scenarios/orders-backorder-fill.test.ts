import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withTx } from '../../src/db/tx.js';
import { findProductBySku } from '../../src/domain/catalog/products.js';
import { applyStockChange } from '../../src/domain/inventory/stock.js';
import { fillBackorders } from '../../src/domain/orders/fill-backorders.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { counters } from '../http/v1-inbound-receive-helpers.js';
import { createOrder, orderBody, stock, type Order } from '../http/v1-sales-orders-helpers.js';
import { integrationStock } from '../http/v2-shipping-support.js';

/**
 * fillBackorders (src/domain/orders/fill-backorders.ts), called directly as a restocked return calls it: oldest
 * order first across batches, only routes of that product in that warehouse, unpaid orders too, cancelled
 * units never, and never more than is available. The stock is set through the inventory domain without the
 * fill every stock path now runs (test/scenarios/backorder-fill-paths.test.ts covers those), so the fill
 * itself is what is measured here.
 */
describe('filling backorders', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  const fill = async (sku: string, warehouseId: number) => {
    const product = await findProductBySku(t.deps.db.db, seed.accountId, sku);
    assert.ok(product);
    return withTx(t.deps.db.db, (tx) => fillBackorders(tx, seed.accountId, product.id, warehouseId, clock.now()));
  };
  /** Available units set without filling anything (applyStockChange on its own). */
  const rawStock = async (sku: string, warehouseId: number, quantity: number) => {
    const product = await findProductBySku(t.deps.db.db, seed.accountId, sku);
    assert.ok(product);
    const done = await withTx(t.deps.db.db, (tx) => applyStockChange(tx, seed.accountId, product.id, warehouseId, { mode: 'available', quantity }, clock.now()));
    assert.ok(done.ok);
  };
  const route = (o: Order) =>
    t.deps.db.db
      .selectFrom('order_line_routes')
      .select(['reserved_quantity', 'backorder_quantity', 'cancelled_quantity'])
      .where('account_id', '=', seed.accountId)
      .where('line_id', '=', Number(o.products[0]!.lineItemId))
      .executeTakeFirstOrThrow();

  it('serves the oldest orders first across batches and stops when the stock runs out', async () => {
    const main = seed.warehouses.main;
    await stock(t, seed.sellerToken, 'FILL', main, 0);
    await stock(t, seed.sellerToken, 'OTHER', main, 0);
    // 120 orders of one unit, created newest first so that creation order and age disagree.
    const orders: Order[] = [];
    for (let i = 119; i >= 0; i--) {
      const ts = new Date(Date.parse('2026-11-01T00:00:00Z') + i * 60_000).toISOString();
      orders[i] = await createOrder(t, seed.channel.token, orderBody(`FILL-${i}`, [{ requestedSku: 'FILL', quantity: 1 }], { orderTs: ts }));
    }
    const other = await createOrder(t, seed.channel.token, orderBody('FILL-OTHER', [{ requestedSku: 'OTHER', quantity: 2 }]));
    // Nothing available: nothing happens.
    assert.deepEqual(await fill('FILL', main), []);

    await rawStock('FILL', main, 110);
    clock.advance(1000);
    const fills = await fill('FILL', main);
    assert.equal(fills.length, 110);
    assert.deepEqual(
      fills.map((f) => f.orderId),
      orders.slice(0, 110).map((o) => Number(o.orderNumber)),
      'oldest orderTs first',
    );
    assert.deepEqual(await counters(t, seed.accountId, 'FILL', main), { available: 0, onhand: 110, reserved: 110 });
    assert.deepEqual(await route(orders[109]!), { reserved_quantity: 1, backorder_quantity: 0, cancelled_quantity: 0 });
    assert.deepEqual(await route(orders[110]!), { reserved_quantity: 0, backorder_quantity: 1, cancelled_quantity: 0 });
    assert.deepEqual(await route(other), { reserved_quantity: 0, backorder_quantity: 2, cancelled_quantity: 0 });
    const read = await t.app.inject({ url: `/v1/salesOrder/${orders[0]!.orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal((read.json() as Order).lastUpdatedTs, clock.now().toISOString());
    const untouched = await t.app.inject({ url: `/v1/salesOrder/${orders[110]!.orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal((untouched.json() as Order).lastUpdatedTs, orders[110]!.lastUpdatedTs);
  });

  it('fills unpaid orders, never cancelled units, and only in the warehouse that got the stock', async () => {
    const { main, second } = seed.warehouses;
    await stock(t, seed.sellerToken, 'FILL2', main, 0);
    const unpaid = await createOrder(t, seed.channel.token, orderBody('FILL2-UNPAID', [{ requestedSku: 'FILL2', quantity: 3 }], { status: 'PENDING_PAYMENT' }));
    const cancelled = await createOrder(t, seed.channel.token, orderBody('FILL2-CANCEL', [{ requestedSku: 'FILL2', quantity: 2 }], { orderTs: '2026-11-01T00:00:00Z' }));
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/salesOrder/cancel/${cancelled.orderNumber}`,
      headers: bearer(seed.channel.token),
      payload: { cancellationReason: 'BuyerCanceled' },
    });
    assert.equal(res.statusCode, 200, res.body);

    // Stock in another warehouse fills nothing here.
    await integrationStock(t, seed.inventory.token, 'FILL2', 'WH-SECOND', 5);
    assert.deepEqual(await fill('FILL2', second), []);

    await rawStock('FILL2', main, 10);
    const fills = await fill('FILL2', main);
    assert.deepEqual(fills.map((f) => [f.orderId, f.units]), [[Number(unpaid.orderNumber), 3]]);
    assert.deepEqual(await route(unpaid), { reserved_quantity: 3, backorder_quantity: 0, cancelled_quantity: 0 });
    assert.deepEqual(await route(cancelled), { reserved_quantity: 0, backorder_quantity: 0, cancelled_quantity: 2 });
    assert.deepEqual(await counters(t, seed.accountId, 'FILL2', main), { available: 7, onhand: 10, reserved: 3 });
    // A second call finds nothing left to fill.
    assert.deepEqual(await fill('FILL2', main), []);
  });
});
