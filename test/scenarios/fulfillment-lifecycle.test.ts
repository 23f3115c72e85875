import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { availableBySku, createOrder, orderBody, stock, type Order } from '../http/v1-sales-orders-helpers.js';
import { batch, foOf, fulfillmentOrder, integrationStock, needToCancel, needToShip, post } from '../http/v2-shipping-support.js';

/**
 * A channel order through the shipping integration's whole life: routed to the shipping fixture's
 * warehouse → need_to_ship → acknowledge → partial shipment → the channel cancels part of it → the partner
 * confirms the cancellation → a rejection (refused once shipped; accepted on a fresh order, whose units are
 * re-routed) → the rest ships. Then parallel replays of one confirmation are recorded once.
 */
describe('scenario: fulfillment lifecycle', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;

  const v1Order = async (orderNumber: string) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order;
  };
  const channelCancel = async (orderNumber: string, lineItems?: { lineItemId: string; quantity: number }[]) => {
    clock.advance(1000);
    const res = await post(t, seed.channel.token, `/v1/salesOrder/cancel/${orderNumber}`, {
      cancellationReason: 'BuyerCanceled',
      ...(lineItems ? { lineItems } : {}),
    });
    assert.equal(res.statusCode, 200, res.body);
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    await stock(t, seed.sellerToken, 'FA', seed.warehouses.main, 10);
    await stock(t, seed.sellerToken, 'FB', seed.warehouses.main, 5);
    await integrationStock(t, seed.inventory.token, 'FA', 'WH-SECOND', 4);
  });
  after(async () => t.close());

  it('runs an order from need_to_ship to shipped through a cancellation, and re-routes a rejected one', async () => {
    const ship = seed.shipping.token;
    clock.advance(1000);
    const order = await createOrder(t, seed.channel.token, orderBody('LIFE-1', [{ requestedSku: 'FA', quantity: 3 }, { requestedSku: 'FB', quantity: 2 }]));
    const [fa, fb] = order.products;

    // Routed to main (most stock), the shipping fixture's warehouse: it is the integration's work.
    const fo = await foOf(t, ship, order.orderNumber);
    assert.equal(fo.status, 'FULFILLMENT_ORDER_STATUS_NEW');
    assert.deepEqual(fo.lines.map((l) => [l.lineItemId, l.sku, l.quantity]), [[fa!.lineItemId, 'FA', 3], [fb!.lineItemId, 'FB', 2]]);

    // Acknowledge: ACCEPTED, still in need_to_ship.
    const [ack] = await batch(t, ship, 'fulfillment_orders/acknowledge', 'acknowledgements', [{ fulfillmentOrderId: fo.fulfillmentOrderId, externalOrderId: 'WMS-1' }]);
    assert.ok(ack!.success, ack!.errorMessage);
    assert.equal((await foOf(t, ship, order.orderNumber)).status, 'FULFILLMENT_ORDER_STATUS_ACCEPTED');

    // Partial shipment of FA.
    clock.advance(1000);
    const [shipped] = await batch(t, ship, 'shipments', 'shipments', [
      { fulfillmentOrderId: fo.fulfillmentOrderId, externalShipmentId: 'PKG-1', carrier: 'UPS', trackingNumber: '1Z-1', serviceLevel: 'Ground', lines: [{ lineItemId: fa!.lineItemId, quantity: 1 }] },
    ]);
    assert.ok(shipped!.success, shipped!.errorMessage);
    assert.equal((await v1Order(order.orderNumber)).status, 'PARTIALLY_SHIPPED');

    // The channel cancels FB: the acknowledged order gets a cancellation request; FB leaves need_to_ship.
    await channelCancel(order.orderNumber, [{ lineItemId: fb!.lineItemId, quantity: 2 }]);
    const requests = (await needToCancel(t, ship)).cancellations;
    assert.deepEqual(
      requests.map((c) => [c.fulfillmentOrderId, c.externalOrderId, c.reason, c.lines.map((l) => [l.lineItemId, l.quantity])]),
      [[fo.fulfillmentOrderId, 'WMS-1', 'CANCELLATION_REASON_BUYER_CANCELLED', [[fb!.lineItemId, 2]]]],
    );
    const remaining = await foOf(t, ship, order.orderNumber);
    assert.deepEqual(remaining.lines.map((l) => [l.lineItemId, l.quantity]), [[fa!.lineItemId, 2]]);
    assert.equal(remaining.status, 'FULFILLMENT_ORDER_STATUS_PARTIALLY_SHIPPED');

    // The partner confirms; the request leaves need_to_cancel.
    const [confirmed] = await batch(t, ship, 'fulfillment_orders/confirm_cancellations', 'confirmations', [{ fulfillmentOrderId: fo.fulfillmentOrderId }]);
    assert.deepEqual(confirmed, { fulfillmentOrderId: fo.fulfillmentOrderId, success: true, errorMessage: '', alreadyRecorded: false });
    assert.deepEqual((await needToCancel(t, ship)).cancellations, []);

    // A part-shipped order can no longer be declined.
    const [refused] = await batch(t, ship, 'fulfillment_orders/reject', 'rejections', [{ fulfillmentOrderId: fo.fulfillmentOrderId, reason: 'REJECTION_REASON_OUT_OF_STOCK' }]);
    assert.equal(refused!.success, false);
    assert.equal((await foOf(t, ship, order.orderNumber)).lines.length, 1);

    // A fresh order is rejected: its units are re-routed to `second`, which has FA in stock.
    clock.advance(1000);
    const second = await createOrder(t, seed.channel.token, orderBody('LIFE-2', [{ requestedSku: 'FA', quantity: 3 }]));
    assert.deepEqual(second.products[0]!.routing_info.map((r) => [r.warehouseId, r.quantity]), [[seed.warehouses.main, 3]]);
    const fo2 = await foOf(t, ship, second.orderNumber);
    const [rejected] = await batch(t, ship, 'fulfillment_orders/reject', 'rejections', [{ fulfillmentOrderId: fo2.fulfillmentOrderId, reason: 'REJECTION_REASON_OUT_OF_STOCK', detail: 'shelf empty' }]);
    assert.ok(rejected!.success, rejected!.errorMessage);
    const rerouted = await v1Order(second.orderNumber);
    assert.deepEqual(rerouted.products[0]!.routing_info.filter((r) => r.quantity > 0).map((r) => [r.warehouseId, r.quantity]), [[seed.warehouses.second, 3]]);
    assert.equal(rerouted.status, 'PENDING');
    assert.equal((await fulfillmentOrder(t, ship, fo2.fulfillmentOrderId)).status, 'FULFILLMENT_ORDER_STATUS_REJECTED');
    assert.ok(!(await needToShip(t, ship, '?pageSize=500')).orders.some((o) => o.orderNumber === second.orderNumber));
    const available = await availableBySku(t, seed.sellerToken, 'FA');
    assert.equal(available.get(seed.warehouses.second), 1);

    // The rest of the first order ships (lines omitted = everything owed): the order is SHIPPED.
    clock.advance(1000);
    const [rest] = await batch(t, ship, 'shipments', 'shipments', [{ fulfillmentOrderId: fo.fulfillmentOrderId, externalShipmentId: 'PKG-2', trackingNumber: '1Z-2', serviceLevel: 'Ground' }]);
    assert.ok(rest!.success, rest!.errorMessage);
    const final = await v1Order(order.orderNumber);
    assert.equal(final.status, 'SHIPPED');
    assert.equal((await fulfillmentOrder(t, ship, fo.fulfillmentOrderId)).status, 'FULFILLMENT_ORDER_STATUS_SHIPPED');
    assert.deepEqual((await needToShip(t, ship, '?pageSize=500')).orders, []);
  });

  it('records one confirmation once when replays arrive in parallel', async () => {
    const ship = seed.shipping.token;
    clock.advance(1000);
    const order = await createOrder(t, seed.channel.token, orderBody('LIFE-3', [{ requestedSku: 'FB', quantity: 1 }]));
    const fo = await foOf(t, ship, order.orderNumber);
    await batch(t, ship, 'fulfillment_orders/acknowledge', 'acknowledgements', [{ fulfillmentOrderId: fo.fulfillmentOrderId, externalOrderId: 'WMS-3' }]);
    await channelCancel(order.orderNumber);
    assert.equal((await needToCancel(t, ship)).cancellations.length, 1);

    clock.advance(1000);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        post(t, ship, '/v2/shipping/fulfillment_orders/confirm_cancellations', { confirmations: [{ fulfillmentOrderId: fo.fulfillmentOrderId }] }),
      ),
    );
    const results = responses.map((r) => {
      assert.equal(r.statusCode, 200, r.body);
      return (r.json() as { results: { success: boolean; alreadyRecorded: boolean; errorMessage: string }[] }).results[0]!;
    });
    assert.ok(results.every((r) => r.success), JSON.stringify(results));
    assert.equal(results.filter((r) => !r.alreadyRecorded).length, 1);
    const rows = await t.deps.db.db
      .selectFrom('fulfillment_cancellation_requests')
      .selectAll()
      .where('fulfillment_order_id', '=', Number(fo.fulfillmentOrderId))
      .execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.status, 'CONFIRMED');
    assert.equal(rows[0]!.open_key, null);
    assert.deepEqual((await needToCancel(t, ship)).cancellations, []);
  });

  it('re-routes a rejected order once when rejections arrive in parallel', async () => {
    const ship = seed.shipping.token;
    // On-hand 7 in `second`, 3 of them reserved by LIFE-2: 4 available there, 10 in main.
    await integrationStock(t, seed.inventory.token, 'FA', 'WH-SECOND', 7);
    await stock(t, seed.sellerToken, 'FA', seed.warehouses.main, 10);
    assert.equal((await availableBySku(t, seed.sellerToken, 'FA')).get(seed.warehouses.second), 4);
    clock.advance(1000);
    const order = await createOrder(t, seed.channel.token, orderBody('LIFE-4', [{ requestedSku: 'FA', quantity: 2 }]));
    const fo = await foOf(t, ship, order.orderNumber);
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        post(t, ship, '/v2/shipping/fulfillment_orders/reject', { rejections: [{ fulfillmentOrderId: fo.fulfillmentOrderId, reason: 'REJECTION_REASON_DAMAGED' }] }),
      ),
    );
    for (const r of responses) {
      assert.equal(r.statusCode, 200, r.body);
      const result = (r.json() as { results: { success: boolean; errorMessage: string }[] }).results[0]!;
      assert.ok(result.success, result.errorMessage);
    }
    const view = await v1Order(order.orderNumber);
    assert.deepEqual(view.products[0]!.routing_info.filter((r) => r.quantity > 0).map((r) => [r.warehouseId, r.quantity]), [[seed.warehouses.second, 2]]);
    const available = await availableBySku(t, seed.sellerToken, 'FA');
    assert.equal(available.get(seed.warehouses.second), 2);
    assert.equal(available.get(seed.warehouses.main), 10);
  });
});
