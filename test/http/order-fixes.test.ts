import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { returnOrdersByOrder } from '../../src/domain/orders/returns-view.js';
import { manualClock } from '../../src/lib/clock.js';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { assertV1Error, availableBySku, createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';
import { batch, foOf, integrationStock, post } from './v2-shipping-support.js';

/**
 * Loose ends of the order flow (issue 3, wave 4): re-route into a warehouse whose partner rejected the order,
 * the returnOrders schema, markPaid through the status derivation, v2 trackingUrl stored.
 */
describe('order flow fixes', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let n = 0;

  const fresh = async (sku: string, quantity: number, extra: Record<string, unknown> = {}) => {
    clock.advance(1000);
    n += 1;
    return createOrder(t, seed.channel.token, orderBody(`FIX-${n}`, [{ requestedSku: sku, quantity }], extra));
  };
  const read = async (orderNumber: string) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res;
  };
  const admin = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: bearer(ADMIN_TOKEN), payload: payload as object });
  const routeRows = (orderId: number) =>
    t.deps.db.db.selectFrom('order_line_routes').selectAll().where('order_id', '=', orderId).orderBy('id').execute();

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    await stock(t, seed.sellerToken, 'FX', seed.warehouses.main, 20);
    await integrationStock(t, seed.inventory.token, 'FX', 'WH-SECOND', 5);
  });
  after(async () => t.close());

  it('refuses (409) a seller re-route into a warehouse whose partner rejected the order, changing nothing', async () => {
    const ship = seed.shipping.token;
    const order = await fresh('FX', 2);
    const fo = await foOf(t, ship, order.orderNumber);
    const [rejected] = await batch(t, ship, 'fulfillment_orders/reject', 'rejections', [{ fulfillmentOrderId: fo.fulfillmentOrderId, reason: 'REJECTION_REASON_DAMAGED' }]);
    assert.ok(rejected!.success, rejected!.errorMessage);
    const moved = JSON.parse((await read(order.orderNumber)).body) as Order;
    assert.deepEqual(moved.products[0]!.routing_info.filter((r) => r.quantity > 0).map((r) => [r.warehouseId, r.quantity]), [[seed.warehouses.second, 2]]);

    const before = { routes: await routeRows(Number(order.orderNumber)), available: await availableBySku(t, seed.sellerToken, 'FX') };
    clock.advance(1000);
    const res = await admin(`/admin/accounts/${seed.accountId}/orders/${order.orderNumber}/reroute`, {
      lineItemId: order.products[0]!.lineItemId,
      fromWarehouseId: seed.warehouses.second,
      toWarehouseId: seed.warehouses.main,
      quantity: 1,
    });
    assertV1Error(res, 409, new RegExp(`warehouse ${seed.warehouses.main}'s fulfillment partner rejected this order`));
    assert.deepEqual({ routes: await routeRows(Number(order.orderNumber)), available: await availableBySku(t, seed.sellerToken, 'FX') }, before);
    assert.equal((JSON.parse((await read(order.orderNumber)).body) as Order).lastUpdatedTs, moved.lastUpdatedTs);
  });

  it('markPaid derives statuses: order and lines PENDING, last_updated_ts moved', async () => {
    const order = await fresh('FX', 1, { status: 'PENDING_PAYMENT' });
    assert.equal(order.status, 'PENDING_PAYMENT');
    assert.equal(order.products[0]!.status, 'PENDING_PAYMENT');
    clock.advance(1000);
    const res = await post(t, seed.channel.token, `/v1/salesOrder/markPaid/${order.orderNumber}`, {});
    assert.equal(res.statusCode, 200, res.body);
    const paid = res.json() as Order;
    assert.equal(paid.status, 'PENDING');
    assert.equal(paid.products[0]!.status, 'PENDING');
    assert.equal(paid.lastUpdatedTs, clock.now().toISOString());
    const row = await t.deps.db.db.selectFrom('sales_orders').select(['paid', 'paid_ts', 'status']).where('id', '=', Number(order.orderNumber)).executeTakeFirstOrThrow();
    assert.deepEqual(row, { paid: 1, paid_ts: clock.now().toISOString(), status: 'PENDING' });
    clock.advance(1000);
    const again = await post(t, seed.channel.token, `/v1/salesOrder/markPaid/${order.orderNumber}`, {});
    assert.equal(again.statusCode, 200, again.body);
    assert.equal((again.json() as Order).lastUpdatedTs, paid.lastUpdatedTs, 'a repeat changes nothing');
  });

  it('stores a v2 trackingUrl with the package (no read shows it), separate from labelUrl', async () => {
    const ship = seed.shipping.token;
    const order = await fresh('FX', 2);
    const fo = await foOf(t, ship, order.orderNumber);
    clock.advance(1000);
    const [a, b] = await batch(t, ship, 'shipments', 'shipments', [
      {
        fulfillmentOrderId: fo.fulfillmentOrderId,
        externalShipmentId: 'TU-1',
        carrier: 'UPS',
        trackingNumber: '1Z-TU-1',
        trackingUrl: 'https://ups.example/track/1Z-TU-1',
        serviceLevel: 'Ground',
        lines: [{ lineItemId: order.products[0]!.lineItemId, quantity: 1 }],
      },
      { fulfillmentOrderId: fo.fulfillmentOrderId, externalShipmentId: 'TU-2', trackingNumber: '1Z-TU-2', serviceLevel: 'Ground' },
    ]);
    assert.ok(a!.success && b!.success, `${a!.errorMessage} ${b!.errorMessage}`);
    const rows = await t.deps.db.db
      .selectFrom('sales_order_packages')
      .select(['external_package_id', 'tracking', 'tracking_url', 'label_url'])
      .where('order_id', '=', Number(order.orderNumber))
      .orderBy('id')
      .execute();
    assert.deepEqual(rows, [
      { external_package_id: 'TU-1', tracking: '1Z-TU-1', tracking_url: 'https://ups.example/track/1Z-TU-1', label_url: null },
      { external_package_id: 'TU-2', tracking: '1Z-TU-2', tracking_url: null, label_url: null },
    ]);
    const view = JSON.parse((await read(order.orderNumber)).body) as { packages: Record<string, unknown>[] };
    assert.deepEqual(view.packages.map((p) => p.labelUrl), [null, null]);
  });

  it('serializes returnOrders through the 2.10 schema exactly as the domain builds them', async () => {
    const ship = seed.shipping.token;
    const order = await fresh('FX', 2);
    const fo = await foOf(t, ship, order.orderNumber);
    clock.advance(1000);
    const [shipped] = await batch(t, ship, 'shipments', 'shipments', [{ fulfillmentOrderId: fo.fulfillmentOrderId, externalShipmentId: 'RT-1', trackingNumber: '1Z-RT', serviceLevel: 'Ground' }]);
    assert.ok(shipped!.success, shipped!.errorMessage);
    const line = order.products[0]!.lineItemId;
    const returns = `/admin/accounts/${seed.accountId}/orders/${order.orderNumber}/returns`;
    clock.advance(1000);
    assert.equal((await admin(returns, { channelReturnId: 'RMA-9', items: [{ lineItemId: line, quantity: 1, refundAmount: '12.50' }] })).statusCode, 200);
    clock.advance(1000);
    assert.equal((await admin(returns, { items: [{ lineItemId: line, quantity: 1 }] })).statusCode, 200);

    const res = await read(order.orderNumber);
    const domain = (await returnOrdersByOrder(t.deps.db.db, seed.accountId, [Number(order.orderNumber)])).get(Number(order.orderNumber))!;
    const expected = domain.map((e) => e.view);
    const body = res.json() as { returnOrders: unknown[] };
    assert.deepEqual(body.returnOrders, expected);
    // Same fields in the same order: the serialized text is what JSON.stringify of the domain value gives.
    assert.ok(res.body.includes(`"returnOrders":${JSON.stringify(expected)}`), res.body);
    assert.equal(expected.length, 2);
    assert.deepEqual(
      expected.map((r) => [r.channelReturnId, r.cancelled, r.returnItems.map((i) => [i.SKU, i.quantity, i.originalQuantity, i.refundAmount])]),
      [
        ['RMA-9', false, [['FX', 1, 2, 12.5]]],
        [null, false, [['FX', 1, 2, null]]],
      ],
    );
  });
});
