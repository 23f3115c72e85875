import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withTx } from '../../src/db/tx.js';
import { recordShipment } from '../../src/domain/orders/shipments.js';
import { manualClock } from '../../src/lib/clock.js';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { assertV1Error, availableBySku, createOrder, orderBody, routes, stock, type Order } from './v1-sales-orders-helpers.js';

interface ReturnOrder {
  returnOrderId: number;
  channelReturnId: string | null;
  requestTs: string;
  cancelled: boolean;
  returnItems: { returnOrderItemId: number; SKU: string; quantity: number; originalQuantity: number; refundAmount: number | null }[];
}

/** The seller's order actions under /admin/accounts/{accountId}/orders/{orderNumber}. */
describe('admin order actions', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let third: number;
  let n = 0;

  const admin = (url: string, payload?: unknown) =>
    t.app.inject({ method: 'POST', url, headers: bearer(ADMIN_TOKEN), ...(payload === undefined ? {} : { payload: payload as object }) });
  const orderUrl = (order: Order, action: string, accountId = seed.accountId) => `/admin/accounts/${accountId}/orders/${order.orderNumber}/${action}`;
  const ok = async (url: string, payload?: unknown) => {
    const res = await admin(url, payload);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order;
  };
  const get = async (orderNumber: string) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order;
  };
  const fresh = async (sku: string, quantity: number) => {
    clock.advance(1000);
    n += 1;
    return createOrder(t, seed.channel.token, orderBody(`AD-${n}`, [{ requestedSku: sku, quantity }]));
  };
  const ship = async (order: Order, quantity: number, warehouseId = seed.warehouses.main) => {
    clock.advance(1000);
    await withTx(t.deps.db.db, (tx) =>
      recordShipment(tx, {
        accountId: seed.accountId,
        orderId: Number(order.orderNumber),
        warehouseId,
        externalPackageId: `pkg-${order.orderNumber}-${clock.now().getTime()}`,
        source: 'V1',
        carrier: 'UPS',
        serviceLevel: 'Ground',
        tracking: '1Z',
        shippedTs: clock.now(),
        lines: [{ lineId: Number(order.products[0]!.lineItemId), quantity }],
        now: clock.now(),
      }),
    );
  };
  const foOf = (order: Order, warehouseId: number) =>
    t.deps.db.db
      .selectFrom('fulfillment_orders')
      .selectAll()
      .where('order_id', '=', Number(order.orderNumber))
      .where('warehouse_id', '=', warehouseId)
      .executeTakeFirst();
  const snapshot = async (order: Order) => ({
    order: await get(order.orderNumber),
    inventory: await t.deps.db.db.selectFrom('inventory').selectAll().orderBy('id').execute(),
    routes: await t.deps.db.db.selectFrom('order_line_routes').selectAll().orderBy('id').execute(),
    fulfillment: await t.deps.db.db.selectFrom('fulfillment_orders').selectAll().orderBy('id').execute(),
    requests: await t.deps.db.db.selectFrom('fulfillment_cancellation_lines').selectAll().orderBy('id').execute(),
    returns: await t.deps.db.db.selectFrom('sales_order_return_items').selectAll().orderBy('id').execute(),
  });

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    const res = await admin(`/admin/accounts/${seed.accountId}/warehouses`, { name: 'Third' });
    assert.equal(res.statusCode, 201, res.body);
    third = (res.json() as { warehouseId: number }).warehouseId;
    await stock(t, seed.sellerToken, 'AX', seed.warehouses.main, 100);
    await stock(t, seed.sellerToken, 'RX', seed.warehouses.main, 10);
    await stock(t, seed.sellerToken, 'RX', third, 3);
  });
  after(async () => t.close());

  describe('cancel', () => {
    it('cancels all or part, tells an acknowledged fulfillment order MERCHANT_CANCELLED, and answers the order', async () => {
      const order = await fresh('AX', 4);
      const line = order.products[0]!.lineItemId;
      const fo = await foOf(order, seed.warehouses.main);
      assert.ok(fo, 'the shipping integration on main got a fulfillment order');
      await t.deps.db.db.updateTable('fulfillment_orders').set({ status: 'ACCEPTED' }).where('id', '=', fo.id).execute();
      clock.advance(1000);
      const part = await ok(orderUrl(order, 'cancel'), { reason: 'customer called', lineItems: [{ lineItemId: line, quantity: 1 }] });
      assert.equal(part.status, 'PENDING');
      assert.equal(part.products[0]!.cancelQuantity, 1);
      assert.equal(part.lastUpdatedTs, clock.now().toISOString());
      const request = await t.deps.db.db.selectFrom('fulfillment_cancellation_requests').selectAll().where('fulfillment_order_id', '=', fo.id).executeTakeFirstOrThrow();
      assert.equal(request.reason, 'CANCELLATION_REASON_MERCHANT_CANCELLED');
      const all = await ok(orderUrl(order, 'cancel'), { reason: 'out of business' });
      assert.equal(all.status, 'CANCELLED');
      assert.equal(all.cancellationReason, 'out of business');
      assert.equal(all.products[0]!.cancelQuantity, 4);
    });

    it('refuses bad input, unknown and foreign orders, and callers without the operator token', async () => {
      const order = await fresh('AX', 2);
      const line = order.products[0]!.lineItemId;
      const before = await snapshot(order);
      assertV1Error(await admin(orderUrl(order, 'cancel'), { reason: 'x', lineItems: [{ lineItemId: line, quantity: 3 }] }), 400, /only 2/);
      assertV1Error(await admin(orderUrl(order, 'cancel'), { reason: ' ' }), 400, /reason/);
      assertV1Error(await admin(orderUrl(order, 'cancel'), {}), 400, /reason/);
      assertV1Error(await admin(orderUrl(order, 'cancel'), { reason: 'x', lineItems: [{ lineItemId: 'abc', quantity: 1 }] }), 400, /lineItemId/);
      assertV1Error(await admin(orderUrl(order, 'cancel', other.accountId), { reason: 'x' }), 404);
      assertV1Error(await admin(`/admin/accounts/${seed.accountId}/orders/999999/cancel`, { reason: 'x' }), 404);
      assertV1Error(await t.app.inject({ method: 'POST', url: orderUrl(order, 'cancel'), payload: { reason: 'x' } }), 401);
      assertV1Error(
        await t.app.inject({ method: 'POST', url: orderUrl(order, 'cancel'), headers: bearer(seed.sellerToken), payload: { reason: 'x' } }),
        401,
      );
      assert.deepEqual(await snapshot(order), before);
    });
  });

  describe('reroute', () => {
    it('moves units: reserved in the target, released at the source, fulfillment pulled back and created', async () => {
      const order = await fresh('RX', 4);
      const line = order.products[0]!.lineItemId;
      assert.deepEqual(routes(order.products[0]), { [seed.warehouses.main]: 4 });
      const foMain = (await foOf(order, seed.warehouses.main))!;
      await t.deps.db.db.updateTable('fulfillment_orders').set({ status: 'ACCEPTED' }).where('id', '=', foMain.id).execute();
      clock.advance(1000);
      const moved = await ok(orderUrl(order, 'reroute'), { lineItemId: line, fromWarehouseId: seed.warehouses.main, toWarehouseId: third, quantity: 2 });
      assert.deepEqual(routes(moved.products[0]), { [seed.warehouses.main]: 2, [third]: 2 });
      assert.equal(moved.status, 'PENDING');
      assert.equal(moved.lastUpdatedTs, clock.now().toISOString());
      const stockNow = await availableBySku(t, seed.sellerToken, 'RX');
      assert.equal(stockNow.get(seed.warehouses.main), 8);
      assert.equal(stockNow.get(third), 1);
      const request = await t.deps.db.db.selectFrom('fulfillment_cancellation_requests').selectAll().where('fulfillment_order_id', '=', foMain.id).executeTakeFirstOrThrow();
      assert.equal(request.reason, 'CANCELLATION_REASON_REROUTED');

      // Back to main (mapped to the shipping integration) after moving everything away: the work appears there again.
      await ok(orderUrl(order, 'reroute'), { lineItemId: Number(line), fromWarehouseId: seed.warehouses.main, toWarehouseId: third, quantity: 1 });
      const back = await ok(orderUrl(order, 'reroute'), { lineItemId: line, fromWarehouseId: third, toWarehouseId: seed.warehouses.main, quantity: 3 });
      assert.deepEqual(routes(back.products[0]), { [seed.warehouses.main]: 4 });
      assert.deepEqual(await availableBySku(t, seed.sellerToken, 'RX').then((m) => [m.get(seed.warehouses.main), m.get(third)]), [6, 3]);
    });

    it('creates the fulfillment order of a mapped target warehouse', async () => {
      await stock(t, seed.sellerToken, 'RZ', third, 10);
      await stock(t, seed.sellerToken, 'RZ', seed.warehouses.main, 5);
      const order = await fresh('RZ', 2);
      assert.deepEqual(routes(order.products[0]), { [third]: 2 });
      assert.equal(await foOf(order, seed.warehouses.main), undefined);
      await ok(orderUrl(order, 'reroute'), { lineItemId: order.products[0]!.lineItemId, fromWarehouseId: third, toWarehouseId: seed.warehouses.main, quantity: 2 });
      assert.equal((await foOf(order, seed.warehouses.main))?.status, 'NEW');
    });

    it('answers 409 when the target lacks stock and 400 for bad moves, changing nothing', async () => {
      await stock(t, seed.sellerToken, 'RY', seed.warehouses.main, 10);
      await stock(t, seed.sellerToken, 'RY', third, 1);
      const order = await fresh('RY', 3);
      const line = order.products[0]!.lineItemId;
      const before = await snapshot(order);
      const move = (extra: Record<string, unknown>) =>
        admin(orderUrl(order, 'reroute'), { lineItemId: line, fromWarehouseId: seed.warehouses.main, toWarehouseId: third, quantity: 2, ...extra });
      assertV1Error(await move({}), 409, /does not have 2 units/);
      assertV1Error(await move({ quantity: 4, toWarehouseId: seed.warehouses.second }), 400, /3 units owed/);
      assertV1Error(await move({ fromWarehouseId: seed.warehouses.second }), 400, /0 units owed/);
      assertV1Error(await move({ toWarehouseId: seed.warehouses.main }), 400, /must differ/);
      assertV1Error(await move({ toWarehouseId: 999999 }), 400, /unknown warehouse/);
      assertV1Error(await move({ toWarehouseId: other.warehouses.main }), 400, /unknown warehouse/);
      assertV1Error(await move({ toWarehouseId: seed.warehouses.channel }), 400, /channel-fulfilled/);
      assertV1Error(await move({ lineItemId: '999999' }), 400, /not a line of this order/);
      assertV1Error(await move({ quantity: 0 }), 400, /quantity/);
      assertV1Error(await admin(orderUrl(order, 'reroute', other.accountId), { lineItemId: line, fromWarehouseId: 1, toWarehouseId: 2, quantity: 1 }), 404);
      assert.deepEqual(await snapshot(order), before);
    });
  });

  describe('returns and refunds', () => {
    it('request → RETURN_REQUESTED, receive → RETURNED, with returnOrders in the order', async () => {
      const order = await fresh('AX', 2);
      const line = order.products[0]!.lineItemId;
      await ship(order, 2);
      assert.equal((await get(order.orderNumber)).status, 'SHIPPED');
      const requested = await ok(orderUrl(order, 'returns'), { channelReturnId: 'R-1', items: [{ lineItemId: line, quantity: 1, refundAmount: '9.99' }] });
      assert.equal(requested.status, 'RETURN_REQUESTED');
      assert.equal(requested.products[0]!.status, 'RETURN_REQUESTED');
      const [ret] = requested.returnOrders as ReturnOrder[];
      assert.ok(ret);
      assert.deepEqual(
        { ...ret, returnOrderId: 0, returnItems: ret.returnItems.map((i) => ({ ...i, returnOrderItemId: 0 })) },
        {
          returnOrderId: 0,
          channelReturnId: 'R-1',
          requestTs: clock.now().toISOString(),
          cancelled: false,
          returnItems: [{ returnOrderItemId: 0, SKU: 'AX', quantity: 1, originalQuantity: 2, refundAmount: 9.99 }],
        },
      );
      const replay = await ok(orderUrl(order, 'returns'), { channelReturnId: 'R-1', items: [{ lineItemId: line, quantity: 1 }] });
      assert.equal((replay.returnOrders as ReturnOrder[]).length, 1, 'the same channelReturnId is a replay');

      const before = await snapshot(order);
      assertV1Error(await admin(orderUrl(order, 'returns'), { items: [{ lineItemId: line, quantity: 2 }] }), 400, /only shipped units/);
      assertV1Error(await admin(orderUrl(order, 'returns'), { items: [] }), 400, /items/);
      assertV1Error(await admin(orderUrl(order, 'returns'), { items: [{ lineItemId: '999999', quantity: 1 }] }), 400, /not a line of this order/);
      assertV1Error(await admin(orderUrl(order, 'returns'), { items: [{ lineItemId: line, quantity: 1, refundAmount: 'lots' }] }), 400, /refundAmount/);
      assertV1Error(await admin(orderUrl(order, `returns/999999/receive`)), 404);
      assertV1Error(await admin(orderUrl(order, `returns/${ret.returnOrderId}/receive`, other.accountId)), 404);
      assert.deepEqual(await snapshot(order), before);

      const partly = await ok(orderUrl(order, `returns/${ret.returnOrderId}/receive`));
      assert.equal(partly.status, 'SHIPPED', 'one of two shipped units is back');
      const again = await ok(orderUrl(order, `returns/${ret.returnOrderId}/receive`));
      assert.deepEqual(again.products, partly.products, 'receiving again changes nothing');

      const second = await ok(orderUrl(order, 'returns'), { items: [{ lineItemId: line, quantity: 1 }] });
      assert.equal(second.status, 'RETURN_REQUESTED');
      const last = (second.returnOrders as ReturnOrder[])[1]!;
      assert.equal(last.channelReturnId, null);
      const returned = await ok(orderUrl(order, `returns/${last.returnOrderId}/receive`));
      assert.equal(returned.status, 'RETURNED');
      assert.equal(returned.products[0]!.status, 'RETURNED');
    });

    it('refunds a line (exact decimal sums) or the order; REFUNDED only once no unit is owed', async () => {
      const order = await fresh('AX', 1);
      const line = order.products[0]!.lineItemId;
      const before = await snapshot(order);
      for (const [payload, message] of [
        [{ amount: '0', reason: 'x' }, /greater than zero/],
        [{ amount: '0.00', reason: 'x' }, /greater than zero/],
        [{ amount: '-1', reason: 'x' }, /amount/],
        [{ amount: 5, reason: 'x' }, /amount/],
        [{ amount: '5', reason: ' ' }, /reason/],
        [{ amount: '5' }, /reason/],
        [{ amount: '5', reason: 'x', lineItemId: '999999' }, /not a line of this order/],
      ] as [unknown, RegExp][]) {
        assertV1Error(await admin(orderUrl(order, 'refunds'), payload), 400, message);
      }
      assert.deepEqual(await snapshot(order), before);

      await ok(orderUrl(order, 'refunds'), { lineItemId: line, amount: '0.10', reason: 'late' });
      const refunded = await ok(orderUrl(order, 'refunds'), { lineItemId: line, amount: '0.20', reason: 'damaged' });
      // Resolutions §6 (third review): the unit is still owed, so the refund changes no status.
      assert.equal(refunded.status, 'PENDING');
      assert.equal(refunded.products[0]!.status, 'PENDING');
      assert.equal(refunded.products[0]!.refund, 0.3, 'stored as the exact decimal "0.3"');
      assert.equal(refunded.products[0]!.refundReason, 'damaged');
      assert.equal((refunded.accounting as Record<string, number | null>).refund, 0.3, 'the order shows its refund total');
      const row = await t.deps.db.db.selectFrom('sales_order_lines').select('refund').where('id', '=', Number(line)).executeTakeFirstOrThrow();
      assert.equal(row.refund, '0.3');
      // Shipped, nothing is owed: the line has no price, so its refund is the whole of it.
      await ship(order, 1);
      const shipped = await get(order.orderNumber);
      assert.equal(shipped.status, 'REFUNDED');
      assert.equal(shipped.products[0]!.status, 'REFUNDED');

      const whole = await fresh('AX', 1);
      const res = await ok(orderUrl(whole, 'refunds'), { amount: '12.5', reason: 'goodwill' });
      assert.equal(res.status, 'PENDING', 'still owed');
      assert.equal((res.accounting as Record<string, number | null>).refund, 12.5);
      assert.equal(res.products[0]!.status, 'PENDING', 'the line itself was not refunded');
    });
  });
});
