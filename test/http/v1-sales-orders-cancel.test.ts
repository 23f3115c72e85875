import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withTx } from '../../src/db/tx.js';
import { recordShipment } from '../../src/domain/orders/shipments.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { assertV1Error, availableBySku, createOrder, orderBody, routes, stock, type Order } from './v1-sales-orders-helpers.js';

/** POST /v1/salesOrder/cancel/{orderNumber} (resolutions §3). */
describe('v1 sales order cancel', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let n = 0;

  const cancel = (token: string, orderNumber: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `/v1/salesOrder/cancel/${orderNumber}`, headers: bearer(token), payload: payload as object });
  const get = async (orderNumber: string) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order;
  };
  /** A fresh order from the Amazon storefront (its channel is the app name "Amazon"). */
  const fresh = async (products: Record<string, unknown>[], token = seed.channel.token, extra: Record<string, unknown> = {}) => {
    clock.advance(1000);
    n += 1;
    return createOrder(t, token, orderBody(`C-${n}`, products, extra));
  };
  const snapshot = async (orderNumber: string) => {
    const db = t.deps.db.db;
    const id = Number(orderNumber);
    return {
      order: await get(orderNumber),
      routes: await db.selectFrom('order_line_routes').selectAll().where('order_id', '=', id).orderBy('id').execute(),
      inventory: await db.selectFrom('inventory').selectAll().orderBy('id').execute(),
      ledger: await db.selectFrom('inventory_reservations').selectAll().orderBy('id').execute(),
    };
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    await stock(t, seed.sellerToken, 'CX', seed.warehouses.main, 1000);
    await stock(t, seed.sellerToken, 'CY', seed.warehouses.main, 1000);
    await stock(t, seed.sellerToken, 'LOW', seed.warehouses.main, 2);
  });
  after(async () => t.close());

  it('without lineItems cancels every unit, releases the reservation and answers the CANCELLED order', async () => {
    const before = await availableBySku(t, seed.sellerToken, 'CX');
    const order = await fresh([
      { requestedSku: 'CX', quantity: 3 },
      { requestedSku: 'CY', quantity: 2 },
    ]);
    assert.equal((await availableBySku(t, seed.sellerToken, 'CX')).get(seed.warehouses.main), before.get(seed.warehouses.main)! - 3);
    clock.advance(5000);
    const res = await cancel(seed.channel.token, order.orderNumber, { cancellationReason: 'buyercanceled' });
    assert.equal(res.statusCode, 200, res.body);
    const cancelled = res.json() as Order;
    assert.equal(cancelled.status, 'CANCELLED');
    assert.equal(cancelled.cancellationReason, 'BuyerCanceled', 'stored in the channel spelling');
    assert.equal(cancelled.lastUpdatedTs, clock.now().toISOString());
    for (const line of cancelled.products) {
      assert.equal(line.status, 'CANCELLED');
      assert.equal(line.cancelQuantity, line.quantity);
    }
    assert.deepEqual(await availableBySku(t, seed.sellerToken, 'CX'), before);
    const ledger = await t.deps.db.db.selectFrom('inventory_reservations').select('quantity').where('order_line_id', 'in', cancelled.products.map((p) => Number(p.lineItemId))).execute();
    assert.ok(ledger.every((r) => r.quantity === 0));
    assert.deepEqual(await get(order.orderNumber), cancelled);

    clock.advance(5000);
    const again = await cancel(seed.channel.token, order.orderNumber, { cancellationReason: 'BuyerCanceled' });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(again.json(), cancelled, 'a repeat changes nothing');
  });

  it('cancels part of a line; the order stays PENDING and only those units go back', async () => {
    const before = (await availableBySku(t, seed.sellerToken, 'CX')).get(seed.warehouses.main)!;
    const order = await fresh([
      { requestedSku: 'CX', quantity: 5 },
      { requestedSku: 'CY', quantity: 1 },
    ]);
    const [x, y] = order.products;
    const res = await cancel(seed.channel.token, order.orderNumber, {
      cancellationReason: 'NoInventory',
      lineItems: [
        { lineItemId: x!.lineItemId, quantity: 1 },
        { lineItemId: Number(x!.lineItemId), quantity: 1 },
      ],
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as Order;
    assert.equal(body.status, 'PENDING');
    assert.equal(body.products[0]!.cancelQuantity, 2, 'entries for one line add up');
    assert.equal(body.products[0]!.status, 'PENDING');
    assert.equal(body.products[1]!.cancelQuantity, 0);
    assert.deepEqual(routes(body.products[0]), { [seed.warehouses.main]: 5 }, 'routing_info keeps the routed units');
    assert.equal((await availableBySku(t, seed.sellerToken, 'CX')).get(seed.warehouses.main), before - 3);

    const rest = await cancel(seed.channel.token, order.orderNumber, {
      cancellationReason: 'NoInventory',
      lineItems: [
        { lineItemId: x!.lineItemId, quantity: 3 },
        { lineItemId: y!.lineItemId, quantity: 1 },
      ],
    });
    assert.equal(rest.statusCode, 200, rest.body);
    assert.equal((rest.json() as Order).status, 'CANCELLED');
    assert.equal((await availableBySku(t, seed.sellerToken, 'CX')).get(seed.warehouses.main), before);
  });

  it('refuses more than is cancellable, unknown lines, bad quantities and bad reasons, changing nothing', async () => {
    const order = await fresh([{ requestedSku: 'CX', quantity: 2 }]);
    const line = order.products[0]!.lineItemId;
    const before = await snapshot(order.orderNumber);
    const bad: [unknown, RegExp][] = [
      [{ cancellationReason: 'NoInventory', lineItems: [{ lineItemId: line, quantity: 3 }] }, /cannot cancel 3 units, only 2/],
      [{ cancellationReason: 'NoInventory', lineItems: [{ lineItemId: line, quantity: 2 }, { lineItemId: line, quantity: 1 }] }, /cannot cancel 3/],
      [{ cancellationReason: 'NoInventory', lineItems: [{ lineItemId: '999999', quantity: 1 }] }, /not a line of this order/],
      [{ cancellationReason: 'NoInventory', lineItems: [{ lineItemId: 'abc', quantity: 1 }] }, /not a line item id/],
      [{ cancellationReason: 'NoInventory', lineItems: [{ lineItemId: line, quantity: 0 }] }, /quantity/],
      [{ cancellationReason: 'NoInventory', lineItems: [{ lineItemId: line, quantity: '1' }] }, /quantity/],
      [{ cancellationReason: 'because I said so' }, /not a Amazon cancellation reason; use one of NoInventory/],
      [{ cancellationReason: '' }, /cancellationReason/],
      [{ cancellationReason: '   ' }, /must not be empty/],
      [{}, /cancellationReason/],
      [{ cancellationReason: 'NoInventory', lineItems: [] }, /lineItems/],
    ];
    for (const [payload, message] of bad) assertV1Error(await cancel(seed.channel.token, order.orderNumber, payload), 400, message);
    assert.deepEqual(await snapshot(order.orderNumber), before);
  });

  it('takes free text for channels without a public list, and refuses a reason of another channel on Amazon', async () => {
    const order = await fresh([{ requestedSku: 'CX', quantity: 1 }], seed.sellerToken, { channel: 'My Web Shop' });
    const res = await cancel(seed.sellerToken, order.orderNumber, { cancellationReason: '  customer changed their mind ' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as Order).cancellationReason, 'customer changed their mind');
    const google = await fresh([{ requestedSku: 'CX', quantity: 1 }], seed.sellerToken, { channel: 'google' });
    assertV1Error(await cancel(seed.sellerToken, google.orderNumber, { cancellationReason: 'BuyerCanceled' }), 400, /google cancellation reason/);
    const ok = await cancel(seed.sellerToken, google.orderNumber, { cancellationReason: 'PRICEERROR' });
    assert.equal((ok.json() as Order).cancellationReason, 'priceError');
  });

  it('cancels backordered units without touching stock', async () => {
    const order = await fresh([{ requestedSku: 'LOW', quantity: 5 }]);
    const routeRow = () => t.deps.db.db.selectFrom('order_line_routes').selectAll().where('order_id', '=', Number(order.orderNumber)).executeTakeFirstOrThrow();
    assert.deepEqual(await availableBySku(t, seed.sellerToken, 'LOW').then((m) => m.get(seed.warehouses.main)), 0);
    const line = order.products[0]!.lineItemId;
    const res = await cancel(seed.channel.token, order.orderNumber, { cancellationReason: 'NoInventory', lineItems: [{ lineItemId: line, quantity: 3 }] });
    assert.equal(res.statusCode, 200, res.body);
    const route = await routeRow();
    assert.equal(route.backorder_quantity, 0);
    assert.equal(route.reserved_quantity, 2);
    assert.equal(route.cancelled_quantity, 3);
    assert.equal(await availableBySku(t, seed.sellerToken, 'LOW').then((m) => m.get(seed.warehouses.main)), 0);
    await cancel(seed.channel.token, order.orderNumber, { cancellationReason: 'NoInventory' });
    assert.equal(await availableBySku(t, seed.sellerToken, 'LOW').then((m) => m.get(seed.warehouses.main)), 2);
  });

  it('cannot cancel shipped units: the rest is cancelled and the order ends SHIPPED', async () => {
    const order = await fresh([{ requestedSku: 'CX', quantity: 4 }]);
    const lineId = Number(order.products[0]!.lineItemId);
    await withTx(t.deps.db.db, (tx) =>
      recordShipment(tx, {
        accountId: seed.accountId,
        orderId: Number(order.orderNumber),
        warehouseId: seed.warehouses.main,
        externalPackageId: `pkg-${order.orderNumber}`,
        source: 'V1',
        carrier: 'UPS',
        serviceLevel: 'Ground',
        tracking: '1Z',
        shippedTs: clock.now(),
        lines: [{ lineId, quantity: 1 }],
        now: clock.now(),
      }),
    );
    assert.equal((await get(order.orderNumber)).status, 'PARTIALLY_SHIPPED');
    assertV1Error(
      await cancel(seed.channel.token, order.orderNumber, { cancellationReason: 'NoInventory', lineItems: [{ lineItemId: String(lineId), quantity: 4 }] }),
      400,
      /only 3 are not shipped/,
    );
    const res = await cancel(seed.channel.token, order.orderNumber, { cancellationReason: 'NoInventory' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as Order;
    assert.equal(body.status, 'SHIPPED');
    assert.equal(body.products[0]!.cancelQuantity, 3);
    assert.equal(body.products[0]!.shippedQuantity, 1);
    assert.equal(body.cancellationReason, 'NoInventory');
    assertV1Error(await cancel(seed.channel.token, order.orderNumber, { cancellationReason: 'NoInventory' }), 400, /nothing left to cancel/);
  });

  it('answers 404 for unknown and foreign orders, 401 without a token, 403 for a fulfillment integration', async () => {
    const order = await fresh([{ requestedSku: 'CX', quantity: 1 }]);
    const before = await snapshot(order.orderNumber);
    const body = { cancellationReason: 'NoInventory' };
    assertV1Error(await cancel(seed.channel.token, '999999', body), 404);
    assertV1Error(await cancel(seed.channel.token, 'abc', body), 404);
    assertV1Error(await cancel(other.sellerToken, order.orderNumber, body), 404);
    assertV1Error(await cancel(other.channel.token, order.orderNumber, body), 404);
    assertV1Error(await t.app.inject({ method: 'POST', url: `/v1/salesOrder/cancel/${order.orderNumber}`, payload: body }), 401);
    assertV1Error(await cancel(seed.shipping.token, order.orderNumber, body), 403);
    assert.deepEqual(await snapshot(order.orderNumber), before);
  });

  it('pulls work back from fulfillment: a NEW fulfillment order loses the units, an ACCEPTED one gets a request', async () => {
    const db = t.deps.db.db;
    const order = await fresh([{ requestedSku: 'CX', quantity: 3 }]);
    const id = Number(order.orderNumber);
    const lineId = Number(order.products[0]!.lineItemId);
    const fo = await db.selectFrom('fulfillment_orders').selectAll().where('order_id', '=', id).executeTakeFirstOrThrow();
    assert.equal(fo.warehouse_id, seed.warehouses.main);
    await cancel(seed.channel.token, order.orderNumber, { cancellationReason: 'NoInventory', lineItems: [{ lineItemId: String(lineId), quantity: 1 }] });
    const requests = () => db.selectFrom('fulfillment_cancellation_requests').selectAll().where('fulfillment_order_id', '=', fo.id).execute();
    assert.deepEqual(await requests(), [], 'a NEW fulfillment order gets no cancellation request');

    await db.updateTable('fulfillment_orders').set({ status: 'ACCEPTED', acknowledged_ts: clock.now().toISOString() }).where('id', '=', fo.id).execute();
    await cancel(seed.channel.token, order.orderNumber, { cancellationReason: 'BuyerCanceled' });
    const [request] = await requests();
    assert.ok(request);
    assert.equal(request.status, 'OPEN');
    assert.equal(request.reason, 'CANCELLATION_REASON_BUYER_CANCELLED');
    const lines = await db.selectFrom('fulfillment_cancellation_lines').selectAll().where('request_id', '=', request.id).execute();
    assert.deepEqual(lines.map((l) => [l.line_id, l.quantity]), [[lineId, 2]]);
  });
});
