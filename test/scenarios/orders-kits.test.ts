import assert from 'node:assert/strict';
import { after, beforeEach, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { adminHeaders } from '../helpers/admin.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { availableBySku, createOrder, orderBody, postOrder, stock, type Order } from '../http/v1-sales-orders-helpers.js';

/**
 * Kit lines through HTTP: assembled kits first (the kit's own stock), then kits built from components in a
 * warehouse holding all of them, then backorders; what GET /v1/inventory shows; shipping and cancelling kit
 * units; parallel kit orders never oversell components.
 */
describe('kit orders', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let main: number;
  let second: number;
  let n = 0;
  const apps: TestApp[] = [];

  beforeEach(async () => {
    t = await createTestApp({ clock });
    apps.push(t);
    seed = await seedAccount(t);
    ({ main, second } = seed.warehouses);
    // Products exist before the kit is defined: A and B first, so they list in that order.
    for (const sku of ['A', 'B', 'KIT']) await stock(t, seed.sellerToken, sku, main, 0);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/admin/accounts/${seed.accountId}/products/KIT/kit`,
      headers: adminHeaders,
      payload: { components: [{ sku: 'A', quantity: 2 }, { sku: 'B', quantity: 1 }] },
    });
    assert.equal(res.statusCode, 200, res.body);
  });
  after(async () => {
    for (const app of apps) await app.close();
  });

  const RECIPE = [
    { SKU: 'A', componentQuantity: 2 },
    { SKU: 'B', componentQuantity: 1 },
  ];
  async function assembled(warehouseId: number, quantity: number) {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/admin/accounts/${seed.accountId}/inventory/KIT/${warehouseId}/assembled`,
      headers: adminHeaders,
      payload: { quantity },
    });
    assert.equal(res.statusCode, 200, res.body);
  }
  async function order(quantity: number): Promise<Order> {
    n += 1;
    clock.advance(1000);
    return createOrder(t, seed.channel.token, orderBody(`K-${n}`, [{ requestedSku: 'KIT', quantity }]));
  }
  const available = async (sku: string) => Object.fromEntries(await availableBySku(t, seed.sellerToken, sku));
  const routing = (o: Order) => [...o.products[0]!.routing_info].sort((a, b) => a.warehouseId - b.warehouseId);
  async function counters(sku: string, warehouseId: number) {
    return t.deps.db.db
      .selectFrom('inventory as i')
      .innerJoin('products as p', 'p.id', 'i.product_id')
      .select(['i.available_quantity as available', 'i.onhand_quantity as onhand', 'i.reserved_quantity as reserved'])
      .where('i.account_id', '=', seed.accountId)
      .where('p.sku', '=', sku)
      .where('i.warehouse_id', '=', warehouseId)
      .executeTakeFirstOrThrow();
  }

  it('routes assembled kits first, then builds the rest from components in the same warehouse', async () => {
    await stock(t, seed.sellerToken, 'A', main, 10);
    await stock(t, seed.sellerToken, 'B', main, 10);
    await assembled(main, 2);
    const o = await order(3);
    assert.deepEqual(routing(o), [{ warehouseId: main, quantity: 3, assembledQuantity: 2, kitComponents: RECIPE }]);
    assert.equal((await available('KIT'))[main], 0);
    assert.equal((await available('A'))[main], 8);
    assert.equal((await available('B'))[main], 9);
    // The order read shows the same routing.
    const read = await t.app.inject({ url: `/v1/salesOrder/${o.orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.deepEqual(routing(read.json() as Order), routing(o));
  });

  it('builds kits only where every component is held; what no warehouse can build is backordered', async () => {
    await stock(t, seed.sellerToken, 'A', main, 10); // main has no B: it cannot build a kit
    await stock(t, seed.inventory.token, 'A', second, 4);
    await stock(t, seed.inventory.token, 'B', second, 10);
    const o = await order(3);
    assert.deepEqual(routing(o), [
      { warehouseId: main, quantity: 1, assembledQuantity: 0, kitComponents: RECIPE },
      { warehouseId: second, quantity: 2, assembledQuantity: 0, kitComponents: RECIPE },
    ]);
    assert.deepEqual(await available('A'), { [main]: 10, [second]: 0 });
    assert.deepEqual(await available('B'), { [main]: 0, [second]: 8 });
  });

  it('backorders a kit with neither assembled kits nor components, and a single SKU keeps null kit fields', async () => {
    const o = await order(2);
    assert.deepEqual(routing(o), [{ warehouseId: main, quantity: 2, assembledQuantity: 0, kitComponents: RECIPE }]);
    await stock(t, seed.sellerToken, 'A', main, 5);
    n += 1;
    const single = await createOrder(t, seed.channel.token, orderBody(`K-${n}`, [{ requestedSku: 'A', quantity: 1 }]));
    assert.deepEqual(routing(single), [{ warehouseId: main, quantity: 1, assembledQuantity: null, kitComponents: null }]);
  });

  it('ships component-built kits first and a cancel gives every reserved unit back', async () => {
    await stock(t, seed.sellerToken, 'A', main, 10);
    await stock(t, seed.sellerToken, 'B', main, 10);
    await assembled(main, 1);
    const o = await order(3); // 1 assembled + 2 from components (A 4, B 2)
    assert.deepEqual(await counters('A', main), { available: 6, onhand: 10, reserved: 4 });
    const shipped = await t.app.inject({
      method: 'POST',
      url: '/v1/salesOrder/shipments',
      headers: bearer(seed.sellerToken),
      payload: {
        packages: [
          {
            orderNumber: o.orderNumber,
            fulfillmentPackageId: 'KP-1',
            warehouseId: main,
            carrier: 'UPS',
            tracking: '1Z-K',
            service_level: 'Ground',
            products: [{ lineItemId: o.products[0]!.lineItemId, quantity: 1 }],
          },
        ],
      },
    });
    assert.equal(shipped.statusCode, 200, shipped.body);
    // One component-built kit left: its components leave on-hand and reserved, available does not move.
    assert.deepEqual(await counters('A', main), { available: 6, onhand: 8, reserved: 2 });
    assert.deepEqual(await counters('B', main), { available: 8, onhand: 9, reserved: 1 });
    assert.deepEqual(await counters('KIT', main), { available: 0, onhand: 1, reserved: 1 });

    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/admin/accounts/${seed.accountId}/orders/${o.orderNumber}/cancel`,
      headers: adminHeaders,
      payload: { reason: 'customer called' },
    });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.deepEqual(await counters('A', main), { available: 8, onhand: 8, reserved: 0 });
    assert.deepEqual(await counters('B', main), { available: 9, onhand: 9, reserved: 0 });
    assert.deepEqual(await counters('KIT', main), { available: 1, onhand: 1, reserved: 0 });
    const line = (cancelled.json() as Order).products[0]!;
    assert.equal(line['shippedQuantity'], 1);
    assert.equal(line['cancelQuantity'], 2);
  });

  it('parallel kit orders never oversell components or assembled kits', async () => {
    await stock(t, seed.sellerToken, 'A', main, 10);
    await stock(t, seed.sellerToken, 'B', main, 10);
    await assembled(main, 2);
    const responses = await Promise.all(
      Array.from({ length: 15 }, (_, i) => postOrder(t, seed.channel.token, orderBody(`KP-${i}`, [{ requestedSku: 'KIT', quantity: 1 }]))),
    );
    for (const res of responses) assert.equal(res.statusCode, 200, res.body);
    // 2 assembled + 5 built (A: 10 / 2 per kit), 8 backordered.
    assert.deepEqual(await counters('KIT', main), { available: 0, onhand: 2, reserved: 2 });
    assert.deepEqual(await counters('A', main), { available: 0, onhand: 10, reserved: 10 });
    assert.deepEqual(await counters('B', main), { available: 5, onhand: 10, reserved: 5 });
    const routes = await t.deps.db.db
      .selectFrom('order_line_routes')
      .select(['reserved_quantity', 'backorder_quantity', 'assembled_quantity'])
      .where('account_id', '=', seed.accountId)
      .execute();
    const sum = (pick: (r: (typeof routes)[number]) => number) => routes.reduce((s, r) => s + pick(r), 0);
    assert.equal(sum((r) => r.reserved_quantity), 7);
    assert.equal(sum((r) => r.backorder_quantity), 8);
    assert.equal(sum((r) => r.assembled_quantity ?? 0), 2);
  });
});
