import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { availableBySku, createOrder, orderBody, stock, type Order } from '../http/v1-sales-orders-helpers.js';
import { batch, fulfillmentOrder, get, integrationStock, needToCancel, needToShip, post, type FulfillmentOrder } from '../http/v2-shipping-support.js';

interface ShippedOrder {
  channelOrderId: string;
  status: string;
  salesChannelStatus: string;
  lastUpdatedTs: string;
  orderNumber: string;
  lineItems: { lineItemId: string; channelLineItemId: string; sku: string; quantity: string; channelSku: string }[];
  packages: {
    packageId: string;
    carrier: string;
    serviceLevel: string;
    tracking: string;
    shippedTs: string;
    items: { lineItemId: string; sku: string; quantity: string; channelSku: string }[];
  }[];
}

/**
 * Two partners meet only through the service, entirely over HTTP: a sales channel creates an order, the
 * shipping integration of the warehouse it is routed to polls need_to_ship, acknowledges and ships part of
 * it; the channel reads the tracking (shipped feed and v1 order), cancels the rest; the partner sees and
 * confirms the cancellation; the order ends SHIPPED. A second order is rejected and re-routed, a third is
 * rejected with nowhere to go and surfaces to the seller as an alert, worked off by a seller re-route. The
 * channel confirms a status and filters the shipped feed by it.
 */
describe('scenario: sales channel to 3PL', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;

  const channelGet = async <T>(url: string): Promise<T> => {
    const res = await get(t, seed.channel.token, url);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as T;
  };
  const shippedFeed = async (query = '') =>
    (await channelGet<{ orders: ShippedOrder[]; nextPageCursor: string }>(`/v2/storefront/orders/shipped${query}`)).orders;
  const fosOf = async (orderNumber: string): Promise<FulfillmentOrder[]> =>
    (await needToShip(t, seed.shipping.token, '?pageSize=500')).orders.filter((o) => o.orderNumber === orderNumber);

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    // main is the shipping fixture's warehouse (SHIP-MAIN) and holds the most stock, so orders route there.
    await stock(t, seed.sellerToken, 'CX', seed.warehouses.main, 10);
    await stock(t, seed.sellerToken, 'CY', seed.warehouses.main, 5);
    await stock(t, seed.sellerToken, 'CZ', seed.warehouses.main, 3);
    // `second` (an inventory integration's warehouse, no shipping partner) holds some CX: a re-route target.
    await integrationStock(t, seed.inventory.token, 'CX', 'WH-SECOND', 4);
  });
  after(async () => t.close());

  it('runs an order from the channel to the 3PL and back, then re-routes and surfaces rejections', async () => {
    const ship = seed.shipping.token;
    const channel = seed.channel.token;

    // 1. The channel creates an order; it is routed to main.
    clock.advance(1000);
    const order = await createOrder(
      t,
      channel,
      orderBody('CH-1', [
        { requestedSku: 'CX', quantity: 3, channelLineItemId: 'cl-x' },
        { requestedSku: 'CY', quantity: 2, channelLineItemId: 'cl-y' },
      ]),
    );
    const [cx, cy] = order.products;
    assert.equal(order.status, 'PENDING');
    assert.deepEqual(order.products.map((p) => p.routing_info.map((r) => [r.warehouseId, r.quantity])), [[[seed.warehouses.main, 3]], [[seed.warehouses.main, 2]]]);

    // 2. The 3PL polls need_to_ship and acknowledges.
    const [fo] = await fosOf(order.orderNumber);
    assert.ok(fo);
    assert.equal(fo.status, 'FULFILLMENT_ORDER_STATUS_NEW');
    assert.equal(fo.warehouseUniqueId, 'SHIP-MAIN');
    assert.deepEqual(fo.lines.map((l) => [l.lineItemId, l.sku, l.quantity]), [[cx!.lineItemId, 'CX', 3], [cy!.lineItemId, 'CY', 2]]);
    const [ack] = await batch(t, ship, 'fulfillment_orders/acknowledge', 'acknowledgements', [{ fulfillmentOrderId: fo.fulfillmentOrderId, externalOrderId: 'WMS-CH-1' }]);
    assert.ok(ack!.success, ack!.errorMessage);
    assert.equal((await fosOf(order.orderNumber))[0]!.status, 'FULFILLMENT_ORDER_STATUS_ACCEPTED', 'acknowledged work stays in need_to_ship');

    // 3. It ships part: 2 of CX.
    clock.advance(1000);
    const shippedTs = '2026-11-21T12:00:02.000Z';
    const [shipped] = await batch(t, ship, 'shipments', 'shipments', [
      {
        fulfillmentOrderId: fo.fulfillmentOrderId,
        externalShipmentId: 'PKG-CH-1',
        carrier: 'UPS',
        trackingNumber: '1Z-CH-1',
        trackingUrl: 'https://ups.example/1Z-CH-1',
        serviceLevel: 'Ground',
        shippedTs,
        lines: [{ lineItemId: cx!.lineItemId, quantity: 2 }],
      },
    ]);
    assert.ok(shipped!.success, shipped!.errorMessage);
    const afterShip = await fosOf(order.orderNumber);
    assert.deepEqual(afterShip[0]!.lines.map((l) => [l.lineItemId, l.quantity]), [[cx!.lineItemId, 1], [cy!.lineItemId, 2]]);

    // 4. The channel sees it in the shipped feed, with tracking and line quantities…
    const [feedEntry, ...others] = await shippedFeed();
    assert.deepEqual(others, []);
    assert.ok(feedEntry);
    assert.equal(feedEntry.orderNumber, order.orderNumber);
    assert.equal(feedEntry.channelOrderId, 'CH-1');
    assert.equal(feedEntry.status, 'PARTIALLY_SHIPPED');
    assert.equal(feedEntry.salesChannelStatus, '');
    assert.deepEqual(
      feedEntry.lineItems.map((l) => [l.lineItemId, l.channelLineItemId, l.sku, l.quantity]),
      [[cx!.lineItemId, 'cl-x', 'CX', '3'], [cy!.lineItemId, 'cl-y', 'CY', '2']],
    );
    assert.equal(feedEntry.packages.length, 1);
    const pkg = feedEntry.packages[0]!;
    assert.deepEqual(
      { carrier: pkg.carrier, serviceLevel: pkg.serviceLevel, tracking: pkg.tracking, shippedTs: pkg.shippedTs },
      { carrier: 'UPS', serviceLevel: 'Ground', tracking: '1Z-CH-1', shippedTs },
    );
    assert.deepEqual(pkg.items.map((i) => [i.lineItemId, i.sku, i.quantity]), [[cx!.lineItemId, 'CX', '2']]);

    // …and in its v1 read of the order.
    const v1 = await channelGet<Order & { packages: { packageId: number; tracking: string; carrier: string; products: { lineItemId: string; quantity: number }[] }[] }>(
      `/v1/salesOrder/${order.orderNumber}`,
    );
    assert.equal(v1.status, 'PARTIALLY_SHIPPED');
    assert.deepEqual(v1.products.map((p) => [p.lineItemId, p.status, p.shippedQuantity, p.cancelQuantity]), [
      [cx!.lineItemId, 'PARTIALLY_SHIPPED', 2, 0],
      [cy!.lineItemId, 'PENDING', 0, 0],
    ]);
    assert.deepEqual(v1.packages.map((p) => [String(p.packageId), p.carrier, p.tracking, p.products.map((i) => [i.lineItemId, i.quantity])]), [
      [pkg.packageId, 'UPS', '1Z-CH-1', [[cx!.lineItemId, 2]]],
    ]);

    // 5. The channel cancels the rest through the v2 storefront route.
    clock.advance(1000);
    const cancel = await post(t, channel, '/v2/storefront/orders/cancel', {
      channelOrderId: 'CH-1',
      cancelQuantities: { [cx!.lineItemId]: '1', [cy!.lineItemId]: '2' },
    });
    assert.equal(cancel.statusCode, 200, cancel.body);
    assert.deepEqual(cancel.json(), {});

    // 6. The 3PL sees it in need_to_cancel (the order was acknowledged) and confirms.
    const { cancellations } = await needToCancel(t, ship);
    assert.deepEqual(
      cancellations.map((c) => [c.fulfillmentOrderId, c.externalOrderId, c.orderNumber, c.warehouseUniqueId, c.reason, c.lines.map((l) => [l.lineItemId, l.sku, l.quantity])]),
      [[fo.fulfillmentOrderId, 'WMS-CH-1', order.orderNumber, 'SHIP-MAIN', 'CANCELLATION_REASON_CHANNEL_CANCELLED', [[cx!.lineItemId, 'CX', 1], [cy!.lineItemId, 'CY', 2]]]],
    );
    assert.deepEqual(await fosOf(order.orderNumber), [], 'nothing is owed any more: the order left need_to_ship');
    clock.advance(1000);
    const [confirmed] = await batch(t, ship, 'fulfillment_orders/confirm_cancellations', 'confirmations', [{ fulfillmentOrderId: fo.fulfillmentOrderId }]);
    assert.deepEqual(confirmed, { fulfillmentOrderId: fo.fulfillmentOrderId, success: true, errorMessage: '', alreadyRecorded: false });
    assert.deepEqual((await needToCancel(t, ship)).cancellations, []);

    // 7. Statuses as resolutions §6 derives them: every unit shipped or cancelled with ≥ 1 shipped → SHIPPED;
    // CX (2 shipped, 1 cancelled) SHIPPED, CY (all cancelled) CANCELLED. The fulfillment order owes nothing
    // further and shipped some: _SHIPPED (document 3.5 "nothing further owed"), not _PARTIALLY_CANCELLED.
    const settled = await channelGet<Order>(`/v1/salesOrder/${order.orderNumber}`);
    assert.equal(settled.status, 'SHIPPED');
    assert.deepEqual(settled.products.map((p) => [p.status, p.shippedQuantity, p.cancelQuantity]), [
      ['SHIPPED', 2, 1],
      ['CANCELLED', 0, 2],
    ]);
    assert.equal((await fulfillmentOrder(t, ship, fo.fulfillmentOrderId)).status, 'FULFILLMENT_ORDER_STATUS_SHIPPED');
    const [settledFeed] = await shippedFeed();
    assert.equal(settledFeed!.status, 'SHIPPED');
    assert.equal(settledFeed!.lastUpdatedTs, settled.lastUpdatedTs);
    // Stock: the 2 shipped CX left main's on-hand; the cancelled units are available again.
    assert.equal((await availableBySku(t, seed.sellerToken, 'CX')).get(seed.warehouses.main), 8);
    assert.equal((await availableBySku(t, seed.sellerToken, 'CY')).get(seed.warehouses.main), 5);

    // 8. A second order is rejected by the 3PL and re-routed to `second`, which has CX available.
    clock.advance(1000);
    const second = await createOrder(t, channel, orderBody('CH-2', [{ requestedSku: 'CX', quantity: 3 }]));
    const [fo2] = await fosOf(second.orderNumber);
    const [rejected] = await batch(t, ship, 'fulfillment_orders/reject', 'rejections', [{ fulfillmentOrderId: fo2!.fulfillmentOrderId, reason: 'REJECTION_REASON_OUT_OF_STOCK' }]);
    assert.ok(rejected!.success, rejected!.errorMessage);
    const rerouted = await channelGet<Order>(`/v1/salesOrder/${second.orderNumber}`);
    assert.equal(rerouted.status, 'PENDING');
    assert.deepEqual(rerouted.products[0]!.routing_info.filter((r) => r.quantity > 0).map((r) => [r.warehouseId, r.quantity]), [[seed.warehouses.second, 3]]);
    assert.deepEqual(await fosOf(second.orderNumber), []);
    assert.equal((await fulfillmentOrder(t, ship, fo2!.fulfillmentOrderId)).status, 'FULFILLMENT_ORDER_STATUS_REJECTED');
    const cxAvailable = await availableBySku(t, seed.sellerToken, 'CX');
    assert.deepEqual([cxAvailable.get(seed.warehouses.main), cxAvailable.get(seed.warehouses.second)], [8, 1]);

    // 9. A third order (CZ is stocked only in main) is rejected with nowhere to go: the seller sees an alert.
    clock.advance(1000);
    const third = await createOrder(t, channel, orderBody('CH-3', [{ requestedSku: 'CZ', quantity: 2 }]));
    const [fo3] = await fosOf(third.orderNumber);
    const [stuck] = await batch(t, ship, 'fulfillment_orders/reject', 'rejections', [{ fulfillmentOrderId: fo3!.fulfillmentOrderId, reason: 'REJECTION_REASON_DAMAGED' }]);
    assert.ok(stuck!.success, stuck!.errorMessage);
    assert.deepEqual(await fosOf(third.orderNumber), []);
    const alerts = await t.app.inject({ url: `/admin/accounts/${seed.accountId}/alerts?status=OPEN&orderNumber=${third.orderNumber}`, headers: bearer(ADMIN_TOKEN) });
    assert.equal(alerts.statusCode, 200, alerts.body);
    const [alert, ...more] = (alerts.json() as { results: { type: string; raisedBy: string; message: string; fulfillmentOrderId: string }[] }).results;
    assert.deepEqual(more, []);
    assert.deepEqual([alert!.type, alert!.raisedBy, alert!.fulfillmentOrderId], ['ALERT_TYPE_FULFILL', 'SERVICE', fo3!.fulfillmentOrderId]);
    assert.match(alert!.message, /2 × CZ/);
    // The seller stocks CZ in `second`, re-routes the held units there and resolves the alert.
    await integrationStock(t, seed.inventory.token, 'CZ', 'WH-SECOND', 2);
    clock.advance(1000);
    const admin = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, headers: bearer(ADMIN_TOKEN), payload: payload as object });
    const moved = await admin(`/admin/accounts/${seed.accountId}/orders/${third.orderNumber}/reroute`, {
      lineItemId: third.products[0]!.lineItemId,
      fromWarehouseId: seed.warehouses.main,
      toWarehouseId: seed.warehouses.second,
      quantity: 2,
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual((moved.json() as Order).products[0]!.routing_info.filter((r) => r.quantity > 0).map((r) => [r.warehouseId, r.quantity]), [[seed.warehouses.second, 2]]);
    const czAvailable = await availableBySku(t, seed.sellerToken, 'CZ');
    assert.deepEqual([czAvailable.get(seed.warehouses.main), czAvailable.get(seed.warehouses.second)], [3, 0]);
    const alertId = (alerts.json() as { results: { alertId: number }[] }).results[0]!.alertId;
    const resolved = await admin(`/admin/accounts/${seed.accountId}/alerts/${alertId}/resolve`, { resolution: 'moved to second' });
    assert.equal(resolved.statusCode, 200, resolved.body);
    assert.equal((resolved.json() as { alert: { status: string } }).alert.status, 'RESOLVED');

    // 10. The channel confirms the status it received and filters the shipped feed by it.
    clock.advance(1000);
    const confirm = await post(t, channel, `/v1/salesOrder/${order.orderNumber}/confirmStatus`, { status: 'SHIPPED', lineItems: [cx!.lineItemId] });
    assert.equal(confirm.statusCode, 200, confirm.body);
    assert.equal(confirm.json(), 'OK');
    const confirmedFeed = await shippedFeed('?salesChannelStatus=SHIPPED');
    assert.deepEqual(confirmedFeed.map((o) => [o.orderNumber, o.status, o.salesChannelStatus]), [[order.orderNumber, 'SHIPPED', 'SHIPPED']]);
    assert.deepEqual(await shippedFeed('?salesChannelStatus=PARTIALLY_SHIPPED'), []);
    assert.deepEqual((await shippedFeed('?sales_channel_status=PENDING,SHIPPED')).map((o) => o.orderNumber), [order.orderNumber]);
  });
});
