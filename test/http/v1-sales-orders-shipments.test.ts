import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { assertV1Error, createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';

interface Package {
  packageId: number;
  carrier: string | null;
  serviceLevel: string | null;
  cost: number | null;
  tracking: string | null;
  shippedTs: string;
  packageWeight: number | null;
  packageWeightUom: string | null;
  packageHeight: number | null;
  packageWidth: number | null;
  packageLength: number | null;
  products: { sku: string | null; lineItemId: string; quantity: number }[];
}
type ShippedOrder = Order & { packages: Package[] };

/** POST /v1/salesOrder/shipments and the packages of the order view (resolutions §3). */
describe('POST /v1/salesOrder/shipments', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let n = 0;

  const ship = (token: string, packages: unknown[]) =>
    t.app.inject({ method: 'POST', url: '/v1/salesOrder/shipments', headers: bearer(token), payload: { packages } });
  const fresh = async (sku: string, quantity: number, extra: Record<string, unknown> = {}) => {
    clock.advance(1000);
    n += 1;
    return createOrder(t, seed.channel.token, orderBody(`S-${n}`, [{ requestedSku: sku, quantity }], extra));
  };
  const pkg = (order: Order, id: string, extra: Record<string, unknown> = {}) => ({
    orderNumber: order.orderNumber,
    fulfillmentPackageId: id,
    warehouseId: seed.warehouses.main,
    carrier: 'UPS',
    tracking: `1Z-${id}`,
    service_level: 'Ground',
    ...extra,
  });
  const stockRow = async (sku: string, warehouseId: number) =>
    t.deps.db.db
      .selectFrom('inventory as i')
      .innerJoin('products as p', 'p.id', 'i.product_id')
      .select(['i.available_quantity', 'i.onhand_quantity', 'i.reserved_quantity'])
      .where('p.sku', '=', sku)
      .where('i.warehouse_id', '=', warehouseId)
      .where('i.account_id', '=', seed.accountId)
      .executeTakeFirstOrThrow();
  const getOrder = async (token: string, orderNumber: string) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer(token) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as ShippedOrder;
  };
  const packageCount = async () => (await t.deps.db.db.selectFrom('sales_order_packages').select('id').execute()).length;

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    for (const sku of ['A', 'B', 'C', 'D']) await stock(t, seed.sellerToken, sku, seed.warehouses.main, 10);
  });
  after(async () => t.close());

  it('ships part of a line, then the rest: shippedQuantity, status, packages and stock agree', async () => {
    const order = await fresh('A', 3);
    const line = order.products[0]!;
    assert.deepEqual(await stockRow('A', seed.warehouses.main), { available_quantity: 7, onhand_quantity: 10, reserved_quantity: 3 });

    clock.advance(1000);
    const res = await ship(seed.channel.token, [
      pkg(order, 'P1', {
        shippedTs: '2026-11-21T13:00:00+01:00',
        cost: 4.25,
        packageWeight: '1.5',
        packageWeightUom: 'lb',
        dimensions: { length: 10, width: 8, height: 2.5 },
        shippedTo: { name: 'Ann', addressLine1: '1 Main St', city: 'Town', postalCode: '12345' },
        products: [{ lineItemId: line.lineItemId, quantity: 1 }],
      }),
    ]);
    assert.equal(res.statusCode, 200, res.body);
    const [shipped] = (res.json() as { orderDetails: ShippedOrder[] }).orderDetails;
    assert.ok(shipped);
    assert.equal(shipped.status, 'PARTIALLY_SHIPPED');
    assert.equal(shipped.products[0]!.shippedQuantity, 1);
    assert.equal(shipped.lastUpdatedTs, clock.now().toISOString());
    assert.equal(shipped.packages.length, 1);
    const p = shipped.packages[0]!;
    assert.equal(typeof p.packageId, 'number');
    assert.deepEqual(
      { ...p, packageId: 0 },
      {
        packageId: 0,
        carrier: 'UPS',
        serviceLevel: 'Ground',
        cost: 4.25,
        tracking: '1Z-P1',
        shippedTs: '2026-11-21T12:00:00.000Z',
        rma: null,
        labelUrl: null,
        packageWeight: 1.5,
        packageWeightUom: 'lb',
        packageHeight: 2.5,
        packageWidth: 8,
        packageLength: 10,
        products: [{ sku: 'A', lineItemId: line.lineItemId, quantity: 1 }],
      },
    );
    // A reserved unit left the warehouse: on-hand and reserved drop, available does not move.
    assert.deepEqual(await stockRow('A', seed.warehouses.main), { available_quantity: 7, onhand_quantity: 9, reserved_quantity: 2 });

    const rest = await ship(seed.sellerToken, [pkg(order, 'P2', { products: [{ sku: 'A', quantity: 2 }] })]);
    assert.equal(rest.statusCode, 200, rest.body);
    const done = (rest.json() as { orderDetails: ShippedOrder[] }).orderDetails[0]!;
    assert.equal(done.status, 'SHIPPED');
    assert.equal(done.products[0]!.status, 'SHIPPED');
    assert.equal(done.products[0]!.shippedQuantity, 3);
    assert.deepEqual(
      done.packages.map((x) => x.tracking),
      ['1Z-P1', '1Z-P2'],
    );
    assert.deepEqual(await stockRow('A', seed.warehouses.main), { available_quantity: 7, onhand_quantity: 7, reserved_quantity: 0 });
    assert.deepEqual(await getOrder(seed.sellerToken, order.orderNumber), done);
  });

  it('is replay-safe on (orderNumber, fulfillmentPackageId): a repeat records nothing', async () => {
    const order = await fresh('B', 2);
    const body = pkg(order, 'R1', { products: [{ sku: 'B', quantity: 1 }] });
    const first = await ship(seed.channel.token, [body]);
    assert.equal(first.statusCode, 200, first.body);
    const before = await stockRow('B', seed.warehouses.main);
    clock.advance(1000);
    const again = await ship(seed.channel.token, [body, body]);
    assert.equal(again.statusCode, 200, again.body);
    const orders = (again.json() as { orderDetails: ShippedOrder[] }).orderDetails;
    assert.equal(orders.length, 1, 'each order once');
    assert.deepEqual(orders[0], (first.json() as { orderDetails: ShippedOrder[] }).orderDetails[0]);
    assert.equal(orders[0]!.products[0]!.shippedQuantity, 1);
    assert.deepEqual(await stockRow('B', seed.warehouses.main), before);
  });

  it('a package without products records tracking only', async () => {
    const order = await fresh('C', 1);
    const res = await ship(seed.channel.token, [pkg(order, 'T1')]);
    assert.equal(res.statusCode, 200, res.body);
    const o = (res.json() as { orderDetails: ShippedOrder[] }).orderDetails[0]!;
    assert.equal(o.status, 'PENDING');
    assert.equal(o.products[0]!.shippedQuantity, 0);
    assert.equal(o.packages.length, 1);
    assert.deepEqual(o.packages[0]!.products, []);
    assert.equal(o.packages[0]!.tracking, '1Z-T1');
    assert.equal((await stockRow('C', seed.warehouses.main)).reserved_quantity, 1);
  });

  it('ships backordered units without touching stock counters', async () => {
    const order = await fresh('D', 12); // 10 in stock at main: 10 reserved + 2 backordered there
    const res = await ship(seed.channel.token, [pkg(order, 'BO', { products: [{ sku: 'D', quantity: 12 }] })]);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as { orderDetails: ShippedOrder[] }).orderDetails[0]!.status, 'SHIPPED');
    assert.deepEqual(await stockRow('D', seed.warehouses.main), { available_quantity: 0, onhand_quantity: 0, reserved_quantity: 0 });
  });

  it('ships reserved units after a stock count set on-hand below what orders hold', async () => {
    await stock(t, seed.sellerToken, 'G', seed.warehouses.main, 10);
    const order = await fresh('G', 3);
    const count = await t.app.inject({
      method: 'POST',
      url: '/v1/inventory',
      headers: bearer(seed.sellerToken),
      payload: { products: [{ SKU: 'G', warehouseId: seed.warehouses.main, onhand_quantity: 1 }] },
    });
    assert.equal(count.statusCode, 200, count.body);
    assert.deepEqual(await stockRow('G', seed.warehouses.main), { available_quantity: 0, onhand_quantity: 1, reserved_quantity: 3 });
    const res = await ship(seed.channel.token, [pkg(order, 'LOW', { products: [{ sku: 'G', quantity: 2 }] })]);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await stockRow('G', seed.warehouses.main), { available_quantity: 0, onhand_quantity: 0, reserved_quantity: 1 });
  });

  it('a shipping integration ships from its own warehouse and sees only its packages; another warehouse is 403', async () => {
    await stock(t, seed.sellerToken, 'E', seed.warehouses.main, 5);
    const order = await fresh('E', 2);
    const ok = await ship(seed.shipping.token, [pkg(order, 'I1', { products: [{ sku: 'E', quantity: 2 }] })]);
    assert.equal(ok.statusCode, 200, ok.body);
    const view = (ok.json() as { orderDetails: ShippedOrder[] }).orderDetails[0]!;
    assert.equal(view.packages.length, 1);
    assert.equal(view.products[0]!.routing_info[0]!.warehouseUniqueId, 'SHIP-MAIN');
    const count = await packageCount();
    assertV1Error(await ship(seed.shipping.token, [pkg(order, 'I2', { warehouseId: seed.warehouses.second })]), 403, /not mapped/);
    assert.equal(await packageCount(), count);
  });

  describe('bad input answers the error and changes nothing', () => {
    let order: Order;
    let count: number;
    let stockBefore: unknown;
    before(async () => {
      await stock(t, seed.sellerToken, 'F', seed.warehouses.main, 10);
      order = await fresh('F', 2);
    });
    const expectNothingChanged = async () => {
      assert.equal(await packageCount(), count);
      assert.deepEqual(await stockRow('F', seed.warehouses.main), stockBefore);
      const o = await getOrder(seed.sellerToken, order.orderNumber);
      assert.equal(o.products[0]!.shippedQuantity, 0);
      assert.equal(o.status, 'PENDING');
      assert.deepEqual(o.packages, []);
    };
    const cases: [string, () => unknown[], number, RegExp][] = [
      ['empty packages', () => [], 400, /packages/],
      ['more than 50 packages', () => Array.from({ length: 51 }, (_, i) => pkg(order, `X${i}`)), 400, /packages/],
      ['a missing carrier', () => [{ ...pkg(order, 'X'), carrier: undefined }], 400, /carrier/],
      ['a missing tracking', () => [{ ...pkg(order, 'X'), tracking: undefined }], 400, /tracking/],
      ['a missing service_level', () => [{ ...pkg(order, 'X'), service_level: undefined }], 400, /service_level/],
      ['quantity 0', () => [pkg(order, 'X', { products: [{ sku: 'F', quantity: 0 }] })], 400, /quantity/],
      ['more than owed', () => [pkg(order, 'X', { products: [{ sku: 'F', quantity: 3 }] })], 400, /more than the 2 still owed/],
      [
        'more than owed across one call (the first package is rolled back too)',
        () => [pkg(order, 'X1', { products: [{ sku: 'F', quantity: 2 }] }), pkg(order, 'X2', { products: [{ sku: 'F', quantity: 1 }] })],
        400,
        /packages\[1\].*more than the 0 still owed/,
      ],
      ['an unknown lineItemId', () => [pkg(order, 'X', { products: [{ lineItemId: '999999', quantity: 1 }] })], 400, /lineItemId/],
      ['an unknown sku', () => [pkg(order, 'X', { products: [{ sku: 'NOPE', quantity: 1 }] })], 400, /NOPE/],
      ['neither sku nor lineItemId', () => [pkg(order, 'X', { products: [{ quantity: 1 }] })], 400, /sku or lineItemId/],
      ['an unknown warehouse', () => [pkg(order, 'X', { warehouseId: 999999 })], 400, /warehouse/],
      ['a warehouse the line is not routed to', () => [pkg(order, 'X', { warehouseId: seed.warehouses.second, products: [{ sku: 'F', quantity: 1 }] })], 400, /owed/],
      ['a shippedTs without zone', () => [pkg(order, 'X', { shippedTs: '2026-11-21T10:00:00' })], 400, /shippedTs/],
      ['an unknown order', () => [pkg(order, 'X', { orderNumber: '999999' })], 404, /not found/],
    ];
    for (const [name, packages, status, pattern] of cases) {
      it(`refuses ${name}`, async () => {
        count = await packageCount();
        stockBefore = await stockRow('F', seed.warehouses.main);
        assertV1Error(await ship(seed.channel.token, packages()), status, pattern);
        await expectNothingChanged();
      });
    }

    it("answers 404 for another account's order and 401 without a token", async () => {
      count = await packageCount();
      stockBefore = await stockRow('F', seed.warehouses.main);
      assertV1Error(await ship(other.sellerToken, [pkg(order, 'X', { warehouseId: other.warehouses.main })]), 404);
      assertV1Error(await ship(other.channel.token, [pkg(order, 'X')]), 404);
      assertV1Error(await t.app.inject({ method: 'POST', url: '/v1/salesOrder/shipments', payload: { packages: [pkg(order, 'X')] } }), 401);
      await expectNothingChanged();
    });
  });
});
