import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock, type Order } from '../http/v1-sales-orders-helpers.js';
import { batch, foOf, needToShip } from '../http/v2-shipping-support.js';

const PASSWORD = 'correct horse battery';

interface ReturnOrder {
  returnOrderId: number;
  cancelled: boolean;
}

/**
 * Resolutions §6, third review (issue 23): fulfillment first. Refunds and returns on an order that still
 * owes units leave its status (and its work in the shipper's queue) alone; the after-sale states come only
 * once nothing is owed, REFUNDED only when refunds reach the order's total. The refund total (order-level
 * plus line refunds) is the same in the v1 order, the console; the v2 storefront order shows the same status.
 */
describe('scenario: order status after refunds and returns', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let owner: ConsoleBrowser;
  let n = 0;

  const fresh = async (lines: { sku: string; quantity: number; unitPrice: number }[], extra: Record<string, unknown> = {}) => {
    clock.advance(1000);
    n += 1;
    const products = lines.map((l) => ({ requestedSku: l.sku, quantity: l.quantity, unitPrice: l.unitPrice }));
    return createOrder(t, seed.channel.token, orderBody(`AS-${n}`, products, extra));
  };
  const v1 = async (orderNumber: string) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order;
  };
  const storefrontStatus = async (orderNumber: string) => {
    const res = await t.app.inject({ url: `/v2/storefront/order?orderNumber=${orderNumber}`, headers: bearer(seed.channel.token) });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { order: { status: string } }).order.status;
  };
  /** An operator action on the order (refunds, returns); answers the order after it. */
  const act = async (order: Order, action: string, payload?: unknown) => {
    clock.advance(1000);
    const res = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/orders/${order.orderNumber}/${action}`, payload);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order;
  };
  const refundOf = (order: Order) => (order.accounting as Record<string, number | null> | null)?.refund ?? null;
  /** Ships units through the shipping integration of `main` (lines omitted: everything owed). */
  const ship = async (order: Order, lines?: { lineItemId: string; quantity: number }[]) => {
    clock.advance(1000);
    const fo = await foOf(t, seed.shipping.token, order.orderNumber);
    const [result] = await batch(t, seed.shipping.token, 'shipments', 'shipments', [
      { fulfillmentOrderId: fo.fulfillmentOrderId, externalShipmentId: `PKG-${order.orderNumber}-${clock.now().getTime()}`, trackingNumber: '1Z', serviceLevel: 'Ground', ...(lines ? { lines } : {}) },
    ]);
    assert.ok(result!.success, result!.errorMessage);
  };
  const pendingIds = async (order: Order) => {
    const res = await t.app.inject({ url: `/v1/salesOrder?status=PENDING&channelOrderIds=${order.channelOrderId}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { results: Order[] }).results.map((o) => o.orderNumber);
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'After-sale Shop');
    for (const sku of ['SA', 'SB', 'SC', 'SD', 'SE', 'SF']) await stock(t, seed.sellerToken, sku, seed.warehouses.main, 50);
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@after-sale.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    owner = consoleBrowser(t);
    assert.equal((await owner.signIn('owner@after-sale.example', PASSWORD)).statusCode, 303);
  });
  after(() => t.close());

  it('a partial refund on an unshipped 2-line order stays PENDING, in the shipper queue and the PENDING filter', async () => {
    const order = await fresh([
      { sku: 'SA', quantity: 1, unitPrice: 5 },
      { sku: 'SB', quantity: 3, unitPrice: 10 },
    ]);
    const [sa, sb] = order.products;
    const refunded = await act(order, 'refunds', { lineItemId: sa!.lineItemId, amount: '5', reason: 'damaged' });
    assert.equal(refunded.status, 'PENDING');
    assert.deepEqual(refunded.products.map((l) => l.status), ['PENDING', 'PENDING']);
    assert.equal(refunded.products[0]!.refund, 5);
    assert.equal(refundOf(refunded), 5, 'the order shows its refund total (the line refund)');
    assert.equal(refunded.lastUpdatedTs, clock.now().toISOString(), 'lastUpdatedTs moves with the refund');

    // The work is still queued for the shipper, units as ordered, and a seller filtering on PENDING finds it.
    const fo = await foOf(t, seed.shipping.token, order.orderNumber);
    assert.deepEqual(fo.lines.map((l) => [l.lineItemId, l.quantity]), [[sa!.lineItemId, 1], [sb!.lineItemId, 3]]);
    assert.deepEqual(await pendingIds(order), [order.orderNumber]);
    assert.equal(await storefrontStatus(order.orderNumber), 'PENDING');

    // The console shows the refund where it was recorded and still offers Cancel and Re-route.
    const page = await owner.get(`/console/orders/${order.orderNumber}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /Refunded: \$5\.00 of the order total \$35\.00 \(order refund \$0\.00, line refunds \$5\.00\)\./);
    assert.match(page.body, /Cancel units/);
    assert.match(page.body, /Re-route units/);

    // Even refunds reaching the total change nothing while units are owed.
    const whole = await act(order, 'refunds', { amount: '30', reason: 'goodwill' });
    assert.equal(whole.status, 'PENDING');
    assert.equal(refundOf(whole), 35);
    assert.equal((await foOf(t, seed.shipping.token, order.orderNumber)).lines.length, 2);
    const again = await owner.get(`/console/orders/${order.orderNumber}`);
    assert.match(again.body, /Refunded: \$35\.00 of the order total \$35\.00 \(order refund \$30\.00, line refunds \$5\.00\)\./);
    assert.match(again.body, /Cancel units/);
    assert.match(again.body, /Re-route units/);
    // The API allows both: cancelling one owed unit succeeds.
    const cancelled = await owner.post(`/console/orders/${order.orderNumber}/cancel`, { [`qty_${sb!.lineItemId}`]: '1', reason: 'customer called' });
    assert.equal(cancelled.statusCode, 303);
    assert.equal((await v1(order.orderNumber)).products[1]!.cancelQuantity, 1);
  });

  it('refunds adding up to the total make the order REFUNDED only once no unit is owed', async () => {
    const order = await fresh([{ sku: 'SC', quantity: 2, unitPrice: 10 }]);
    const refunded = await act(order, 'refunds', { amount: '20', reason: 'out of stock, shipped anyway' });
    assert.equal(refunded.status, 'PENDING');
    await ship(order, [{ lineItemId: order.products[0]!.lineItemId, quantity: 1 }]);
    assert.equal((await v1(order.orderNumber)).status, 'PARTIALLY_SHIPPED');
    await ship(order);
    const done = await v1(order.orderNumber);
    assert.equal(done.status, 'REFUNDED', 'nothing owed and 20 of 20 refunded');
    assert.equal(done.products[0]!.status, 'SHIPPED', 'the line itself was not refunded');
    assert.equal(done.lastUpdatedTs, clock.now().toISOString());
    assert.equal(await storefrontStatus(order.orderNumber), 'REFUNDED');

    // The total is accounting.payment when given: line and order-level refunds must reach it.
    const paid = await fresh([{ sku: 'SD', quantity: 1, unitPrice: 20 }], { accounting: { payment: '25' } });
    await ship(paid);
    assert.equal((await v1(paid.orderNumber)).status, 'SHIPPED');
    const line = await act(paid, 'refunds', { lineItemId: paid.products[0]!.lineItemId, amount: '20', reason: 'broken' });
    assert.equal(line.status, 'SHIPPED', '20 of 25: a partial refund leaves SHIPPED');
    assert.equal(line.products[0]!.status, 'REFUNDED', 'the line is refunded in full');
    assert.equal(await storefrontStatus(paid.orderNumber), 'SHIPPED');
    const rest = await act(paid, 'refunds', { amount: '5', reason: 'shipping' });
    assert.equal(rest.status, 'REFUNDED');
    assert.equal(refundOf(rest), 25);
    assert.equal((await owner.get(`/console/orders/${paid.orderNumber}`)).body.includes('Refunded: $25.00 of the order total $25.00 (order refund $5.00, line refunds $20.00).'), true);
  });

  it('a 1-unit return on an order with an unshipped line stays PARTIALLY_SHIPPED and keeps the line queued', async () => {
    const order = await fresh([
      { sku: 'SE', quantity: 2, unitPrice: 4 },
      { sku: 'SF', quantity: 1, unitPrice: 6 },
    ]);
    const [se, sf] = order.products;
    await ship(order, [{ lineItemId: se!.lineItemId, quantity: 2 }]);
    const requested = await act(order, 'returns', { items: [{ lineItemId: se!.lineItemId, quantity: 1 }] });
    assert.equal(requested.status, 'PARTIALLY_SHIPPED');
    // The shipped line owes nothing, so it shows its return; the order still owes SF, so it does not.
    assert.deepEqual(requested.products.map((l) => l.status), ['RETURN_REQUESTED', 'PENDING']);
    assert.equal((requested.returnOrders as ReturnOrder[]).length, 1);
    const fo = await foOf(t, seed.shipping.token, order.orderNumber);
    assert.deepEqual(fo.lines.map((l) => [l.lineItemId, l.quantity - l.shippedQuantity - l.cancelledQuantity]).filter(([, owed]) => owed !== 0), [[sf!.lineItemId, 1]]);
    assert.equal(await storefrontStatus(order.orderNumber), 'PARTIALLY_SHIPPED');

    // Once the last unit ships, the open return shows.
    await ship(order);
    assert.equal((await v1(order.orderNumber)).status, 'RETURN_REQUESTED');
  });

  it('a full return of everything shipped: RETURN_REQUESTED, then RETURNED once received', async () => {
    const order = await fresh([
      { sku: 'SE', quantity: 2, unitPrice: 4 },
      { sku: 'SF', quantity: 1, unitPrice: 6 },
    ]);
    const [se, sf] = order.products;
    await ship(order);
    assert.equal((await v1(order.orderNumber)).status, 'SHIPPED');
    assert.deepEqual((await needToShip(t, seed.shipping.token, '?pageSize=500')).orders.filter((o) => o.orderNumber === order.orderNumber), []);
    const requested = await act(order, 'returns', {
      items: [
        { lineItemId: se!.lineItemId, quantity: 2 },
        { lineItemId: sf!.lineItemId, quantity: 1 },
      ],
    });
    assert.equal(requested.status, 'RETURN_REQUESTED');
    assert.deepEqual(requested.products.map((l) => l.status), ['RETURN_REQUESTED', 'RETURN_REQUESTED']);
    assert.equal(requested.lastUpdatedTs, clock.now().toISOString());
    const [ret] = requested.returnOrders as ReturnOrder[];
    const received = await act(order, `returns/${ret!.returnOrderId}/receive`);
    assert.equal(received.status, 'RETURNED');
    assert.deepEqual(received.products.map((l) => l.status), ['RETURNED', 'RETURNED']);
    assert.equal(received.lastUpdatedTs, clock.now().toISOString());
    assert.equal(await storefrontStatus(order.orderNumber), 'RETURNED');
  });
});
