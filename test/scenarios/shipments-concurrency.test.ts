import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock, type Order } from '../http/v1-sales-orders-helpers.js';

/**
 * Shipments under concurrency: the package's replay key is claimed first (unique index), and owed units are
 * taken with compare-and-set UPDATEs, so parallel replays record one package and parallel different
 * shipments of the last owed units never ship more than was ordered.
 */
describe('shipments under concurrency', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  const ship = (packages: unknown[]) =>
    t.app.inject({ method: 'POST', url: '/v1/salesOrder/shipments', headers: bearer(seed.channel.token), payload: { packages } });
  const pkg = (order: Order, id: string, quantity: number) => ({
    orderNumber: order.orderNumber,
    fulfillmentPackageId: id,
    warehouseId: seed.warehouses.main,
    carrier: 'UPS',
    tracking: `1Z-${id}`,
    service_level: 'Ground',
    products: [{ lineItemId: order.products[0]!.lineItemId, quantity }],
  });
  const state = async (order: Order, sku: string) => {
    const db = t.deps.db.db;
    const orderId = Number(order.orderNumber);
    const packages = await db.selectFrom('sales_order_packages').select('id').where('order_id', '=', orderId).execute();
    const items = await db
      .selectFrom('sales_order_package_items as i')
      .innerJoin('sales_order_packages as p', 'p.id', 'i.package_id')
      .select('i.quantity')
      .where('p.order_id', '=', orderId)
      .execute();
    const line = await db.selectFrom('sales_order_lines').select(['shipped_quantity', 'status']).where('order_id', '=', orderId).executeTakeFirstOrThrow();
    const route = await db
      .selectFrom('order_line_routes')
      .select(['reserved_quantity', 'backorder_quantity', 'shipped_quantity', 'quantity'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    const stockRow = await db
      .selectFrom('inventory as i')
      .innerJoin('products as p', 'p.id', 'i.product_id')
      .select(['i.available_quantity', 'i.onhand_quantity', 'i.reserved_quantity'])
      .where('p.sku', '=', sku)
      .where('p.account_id', '=', seed.accountId)
      .where('i.warehouse_id', '=', seed.warehouses.main)
      .executeTakeFirstOrThrow();
    const unitsInPackages = items.reduce((n, i) => n + Number(i.quantity), 0);
    return { packages: packages.length, unitsInPackages, line, route, stock: stockRow };
  };

  it('parallel replays of one v1 shipment are recorded once', async () => {
    await stock(t, seed.sellerToken, 'REPLAY', seed.warehouses.main, 10);
    const order = await createOrder(t, seed.channel.token, orderBody('REPLAY-1', [{ requestedSku: 'REPLAY', quantity: 4 }]));
    const responses = await Promise.all(Array.from({ length: 12 }, () => ship([pkg(order, 'ONE', 3)])));
    for (const res of responses) assert.equal(res.statusCode, 200, res.body);
    const s = await state(order, 'REPLAY');
    assert.equal(s.packages, 1);
    assert.equal(s.unitsInPackages, 3);
    assert.deepEqual(s.line, { shipped_quantity: 3, status: 'PARTIALLY_SHIPPED' });
    assert.deepEqual(s.route, { reserved_quantity: 1, backorder_quantity: 0, shipped_quantity: 3, quantity: 4 });
    assert.deepEqual(s.stock, { available_quantity: 6, onhand_quantity: 7, reserved_quantity: 1 });
  });

  it('parallel different shipments of the last owed units never over-ship', async () => {
    await stock(t, seed.sellerToken, 'RACE', seed.warehouses.main, 10);
    const order = await createOrder(t, seed.channel.token, orderBody('RACE-1', [{ requestedSku: 'RACE', quantity: 5 }]));
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => ship([pkg(order, `P${i}`, 1 + (i % 2))])));
    const ok = responses.filter((r) => r.statusCode === 200);
    for (const res of responses) {
      if (res.statusCode !== 200) {
        assert.equal(res.statusCode, 400, res.body);
        assert.match(res.body, /still owed|owed changed/);
      }
    }
    assert.ok(ok.length >= 3, `at least the first shipments succeed (got ${ok.length})`);
    const s = await state(order, 'RACE');
    assert.equal(s.packages, ok.length, 'a refused shipment left no package');
    assert.ok(s.unitsInPackages <= 5, `shipped ${s.unitsInPackages} of 5`);
    assert.equal(s.line.shipped_quantity, s.unitsInPackages);
    assert.equal(s.route.shipped_quantity, s.unitsInPackages);
    assert.equal(s.route.reserved_quantity, 5 - s.unitsInPackages);
    assert.equal(s.stock.reserved_quantity, 5 - s.unitsInPackages);
    assert.equal(s.stock.onhand_quantity, 10 - s.unitsInPackages);
    assert.equal(s.stock.available_quantity, 5);
    assert.equal(s.line.status, s.unitsInPackages === 5 ? 'SHIPPED' : 'PARTIALLY_SHIPPED');
  });
});
