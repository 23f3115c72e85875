import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { admin, assertV1Error, exchangeCode, registerAppVia } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { availableBySku, createOrder, orderBody, stock, type Order } from '../http/v1-sales-orders-helpers.js';
import { batch, fulfillmentOrder, get, needToCancel, needToShip } from '../http/v2-shipping-support.js';

/**
 * Resolutions §6: unmapping a warehouse from its shipping integration, or uninstalling it, pulls its open work
 * back as a cancellation does (NEW fulfillment orders withdrawn, ACCEPTED ones get a cancellation request in
 * need_to_cancel); the units stay routed and reserved in the warehouse, and the next integration mapped to it
 * gets them as new fulfillment orders. Uninstalling revokes the integration's tokens.
 */
describe('scenario: a warehouse changes shipping app (unmap, uninstall, the next one takes over)', () => {
  const clock = manualClock(new Date('2026-11-24T08:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let orders: Order[] = [];
  let nextShipper: { installationId: number; token: string };

  const v1Order = async (orderNumber: string) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order;
  };
  const queue = async (token: string) =>
    (await needToShip(t, token, '?pageSize=500')).orders.map((o) => [o.orderNumber, o.status, o.warehouseUniqueId, o.lines.map((l) => [l.sku, l.quantity])]);
  /** The fulfillment orders of an order as stored: who owes them and in which state. */
  const stored = async (orderNumber: string) =>
    (
      await t.deps.db.db
        .selectFrom('fulfillment_orders')
        .select(['id', 'installation_id', 'status'])
        .where('account_id', '=', seed.accountId)
        .where('order_id', '=', Number(orderNumber))
        .orderBy('id')
        .execute()
    ).map((r) => [r.installation_id, r.status]);
  const installShipper = async (name: string, uniqueId: string) => {
    const app = await registerAppVia(t, 'SHIPPING', ['sales:orders:fulfillment:self'], name);
    const res = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/installations`, {
      appId: app.appId,
      warehouses: [{ warehouseId: seed.warehouses.main, warehouseUniqueId: uniqueId }],
    });
    assert.equal(res.statusCode, 201, res.body);
    const { installationId, code } = res.json<{ installationId: number; code: string }>();
    const exchanged = await exchangeCode(t, app.clientId, app.clientSecret, code);
    assert.equal(exchanged.statusCode, 200, exchanged.body);
    return { installationId, token: exchanged.json<{ access_token: string }>().access_token };
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    await stock(t, seed.sellerToken, 'HANDOVER', seed.warehouses.main, 20);
    clock.advance(1000);
    orders = [
      await createOrder(t, seed.channel.token, orderBody('HAND-1', [{ requestedSku: 'HANDOVER', quantity: 2 }])),
      await createOrder(t, seed.channel.token, orderBody('HAND-2', [{ requestedSku: 'HANDOVER', quantity: 3 }])),
    ];
  });
  after(async () => t.close());

  it('unmapping withdraws NEW work, asks to cancel ACCEPTED work, keeps the units reserved, and the next shipper gets them', async () => {
    const ship = seed.shipping.token;
    const [first, second] = orders as [Order, Order];
    const fos = (await needToShip(t, ship, '?pageSize=500')).orders;
    const fo1 = fos.find((o) => o.orderNumber === first.orderNumber)!;
    const fo2 = fos.find((o) => o.orderNumber === second.orderNumber)!;
    const [ack] = await batch(t, ship, 'fulfillment_orders/acknowledge', 'acknowledgements', [{ fulfillmentOrderId: fo2.fulfillmentOrderId, externalOrderId: 'WMS-2' }]);
    assert.ok(ack!.success, ack!.errorMessage);
    assert.equal((await availableBySku(t, seed.sellerToken, 'HANDOVER')).get(seed.warehouses.main), 15);

    clock.advance(1000);
    const unmapped = await admin(t, 'DELETE', `/admin/accounts/${seed.accountId}/installations/${seed.shipping.installationId}/warehouses/${seed.warehouses.main}`);
    assert.equal(unmapped.statusCode, 200, unmapped.body);
    assert.deepEqual(unmapped.json(), { installationId: seed.shipping.installationId, warehouseId: seed.warehouses.main, withdrawn: 1, cancellationRequested: 1 });

    // Nothing left to ship; the acknowledged order waits in need_to_cancel for every unit it owed.
    assert.deepEqual(await queue(ship), []);
    const cancellations = (await needToCancel(t, ship)).cancellations;
    assert.deepEqual(
      cancellations.map((c) => [c.fulfillmentOrderId, c.externalOrderId, c.reason, c.warehouseUniqueId, c.lines.map((l) => [l.lineItemId, l.sku, l.quantity])]),
      [[fo2.fulfillmentOrderId, 'WMS-2', 'CANCELLATION_REASON_MERCHANT_CANCELLED', '', [[second.products[0]!.lineItemId, 'HANDOVER', 3]]]],
    );
    // Both read as cancelled for the integration, with nothing owed; neither can be acknowledged, shipped or rejected.
    for (const id of [fo1.fulfillmentOrderId, fo2.fulfillmentOrderId]) {
      const fo = await fulfillmentOrder(t, ship, id);
      assert.equal(fo.status, 'FULFILLMENT_ORDER_STATUS_CANCELLED');
      assert.deepEqual(fo.lines, []);
    }
    const [shipped] = await batch(t, ship, 'shipments', 'shipments', [{ fulfillmentOrderId: fo2.fulfillmentOrderId, externalShipmentId: 'LATE-1', trackingNumber: '1Z', serviceLevel: 'Ground' }]);
    assert.equal(shipped!.success, false);
    assert.match(shipped!.errorMessage, /took this fulfillment order back/);
    const [acked] = await batch(t, ship, 'fulfillment_orders/acknowledge', 'acknowledgements', [{ fulfillmentOrderId: fo1.fulfillmentOrderId, externalOrderId: 'WMS-1' }]);
    assert.equal(acked!.success, false);
    const [rejected] = await batch(t, ship, 'fulfillment_orders/reject', 'rejections', [{ fulfillmentOrderId: fo1.fulfillmentOrderId, reason: 'REJECTION_REASON_OUT_OF_STOCK' }]);
    assert.equal(rejected!.success, false);

    // The units stay routed and reserved in Main; the orders still owe them.
    assert.equal((await availableBySku(t, seed.sellerToken, 'HANDOVER')).get(seed.warehouses.main), 15);
    for (const order of orders) {
      const now = await v1Order(order.orderNumber);
      assert.equal(now.status, 'PENDING');
      assert.deepEqual(now.products[0]!.routing_info.map((r) => [r.warehouseId, r.quantity]), [[seed.warehouses.main, order.products[0]!.quantity]]);
    }

    // The integration confirms the cancellation it still sees.
    const [confirmed] = await batch(t, ship, 'fulfillment_orders/confirm_cancellations', 'confirmations', [{ fulfillmentOrderId: fo2.fulfillmentOrderId }]);
    assert.ok(confirmed!.success, confirmed!.errorMessage);
    assert.deepEqual((await needToCancel(t, ship)).cancellations, []);

    // The next shipping app mapped to Main gets both orders as new fulfillment orders.
    clock.advance(1000);
    nextShipper = await installShipper('ParcelPro', 'PP-MAIN');
    assert.deepEqual(await queue(nextShipper.token), [
      [first.orderNumber, 'FULFILLMENT_ORDER_STATUS_NEW', 'PP-MAIN', [['HANDOVER', 2]]],
      [second.orderNumber, 'FULFILLMENT_ORDER_STATUS_NEW', 'PP-MAIN', [['HANDOVER', 3]]],
    ]);
    assert.deepEqual(await stored(second.orderNumber), [
      [seed.shipping.installationId, 'WITHDRAWN'],
      [nextShipper.installationId, 'NEW'],
    ]);
    const fresh = (await needToShip(t, nextShipper.token)).orders.find((o) => o.orderNumber === second.orderNumber)!;
    assert.notEqual(fresh.fulfillmentOrderId, fo2.fulfillmentOrderId);
    const [sent] = await batch(t, nextShipper.token, 'shipments', 'shipments', [{ fulfillmentOrderId: fresh.fulfillmentOrderId, externalShipmentId: 'PP-1', trackingNumber: '1Z-PP', serviceLevel: 'Ground' }]);
    assert.ok(sent!.success, sent!.errorMessage);
    assert.equal((await v1Order(second.orderNumber)).status, 'SHIPPED');
    // The old integration's record of it still reads cancelled.
    assert.equal((await fulfillmentOrder(t, ship, fo2.fulfillmentOrderId)).status, 'FULFILLMENT_ORDER_STATUS_CANCELLED');
    // New orders go to the new shipper only.
    clock.advance(1000);
    const third = await createOrder(t, seed.channel.token, orderBody('HAND-3', [{ requestedSku: 'HANDOVER', quantity: 1 }]));
    orders.push(third);
    assert.deepEqual(await stored(third.orderNumber), [[nextShipper.installationId, 'NEW']]);
    assert.deepEqual(await queue(ship), []);
  });

  it('uninstalling revokes its tokens and pulls its work back; mapping an installed integration hands the work over', async () => {
    const [first, , third] = orders as [Order, Order, Order];
    const fo = (await needToShip(t, nextShipper.token)).orders.find((o) => o.orderNumber === third.orderNumber)!;
    const [ack] = await batch(t, nextShipper.token, 'fulfillment_orders/acknowledge', 'acknowledgements', [{ fulfillmentOrderId: fo.fulfillmentOrderId, externalOrderId: 'PP-WMS-3' }]);
    assert.ok(ack!.success, ack!.errorMessage);

    clock.advance(1000);
    const revoked = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/installations/${nextShipper.installationId}/revoke`);
    assert.equal(revoked.statusCode, 200, revoked.body);
    assert.deepEqual(revoked.json(), { installationId: nextShipper.installationId, status: 'REVOKED' });
    assertV1Error(await get(t, nextShipper.token, '/v1/warehouses'), 401);
    assert.equal((await get(t, nextShipper.token, '/v2/shipping/need_to_ship')).statusCode, 401);

    // Its NEW order is withdrawn; its ACCEPTED one is withdrawn with an open cancellation request for its units.
    assert.deepEqual(await stored(first.orderNumber), [
      [seed.shipping.installationId, 'WITHDRAWN'],
      [nextShipper.installationId, 'WITHDRAWN'],
    ]);
    assert.deepEqual(await stored(third.orderNumber), [[nextShipper.installationId, 'WITHDRAWN']]);
    const requests = await t.deps.db.db
      .selectFrom('fulfillment_cancellation_requests as c')
      .innerJoin('fulfillment_cancellation_lines as l', 'l.request_id', 'c.id')
      .select(['c.fulfillment_order_id', 'c.status', 'c.reason', 'l.quantity'])
      .where('c.account_id', '=', seed.accountId)
      .where('c.fulfillment_order_id', '=', Number(fo.fulfillmentOrderId))
      .execute();
    assert.deepEqual(requests, [{ fulfillment_order_id: Number(fo.fulfillmentOrderId), status: 'OPEN', reason: 'CANCELLATION_REASON_MERCHANT_CANCELLED', quantity: 1 }]);
    assert.equal((await availableBySku(t, seed.sellerToken, 'HANDOVER')).get(seed.warehouses.main), 14, '20 − 3 shipped − 2 − 1 still reserved');

    // The first shipping integration, still installed, is mapped to Main again: it gets both open orders anew.
    clock.advance(1000);
    const mapped = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/installations/${seed.shipping.installationId}/warehouses`, {
      warehouseId: seed.warehouses.main,
      warehouseUniqueId: 'SHIP-MAIN',
    });
    assert.equal(mapped.statusCode, 201, mapped.body);
    assert.equal(mapped.json<{ fulfillmentOrdersAssigned: number }>().fulfillmentOrdersAssigned, 2);
    assert.deepEqual(await queue(seed.shipping.token), [
      [first.orderNumber, 'FULFILLMENT_ORDER_STATUS_NEW', 'SHIP-MAIN', [['HANDOVER', 2]]],
      [third.orderNumber, 'FULFILLMENT_ORDER_STATUS_NEW', 'SHIP-MAIN', [['HANDOVER', 1]]],
    ]);
    const status = (await get(t, seed.shipping.token, '/v2/shipping/status')).json<{ checks: { name: string; state: string }[] }>();
    assert.equal(status.checks.find((c) => c.name === 'warehouse_mappings')?.state, 'CHECK_STATE_PASS');
  });

  it('answers the operator with 404 and 409 for unmapping what is not mapped or uninstalled', async () => {
    const base = `/admin/accounts/${seed.accountId}/installations`;
    assertV1Error(await admin(t, 'DELETE', `${base}/${seed.shipping.installationId}/warehouses/${seed.warehouses.second}`), 404, /is not mapped/);
    assertV1Error(await admin(t, 'DELETE', `${base}/${nextShipper.installationId}/warehouses/${seed.warehouses.main}`), 409, /uninstalled/);
    assertV1Error(await admin(t, 'POST', `${base}/${nextShipper.installationId}/revoke`), 409, /already revoked/);
  });
});
