import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { countStatements } from '../helpers/statement-counter.js';
import { createOrder, orderBody, stock } from './v1-sales-orders-helpers.js';
import { assertV2Error, batch, foOf, fulfillmentOrder, get, integrationStock, needToCancel, needToShip, post } from './v2-shipping-support.js';

const ADDRESS = {
  name: 'Ada Buyer',
  company: 'Acme',
  addressLine1: '1 Main St',
  addressLine2: 'Apt 2',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
  phone: '555-0100',
  email: 'ada@example.com',
  countryCode: 'US',
};

/** GET need_to_ship / need_to_cancel / fulfillment_order / status and POST acknowledge (document 4.8, 2.18). */
describe('v2 shipping queues', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let n = 0;
  const order = async (quantity = 2, extra: Record<string, unknown> = {}) => {
    clock.advance(1000);
    n += 1;
    return createOrder(t, seed.channel.token, orderBody(`Q-${n}`, [{ requestedSku: 'QA', quantity, unitPrice: 12.5 }], extra));
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    await stock(t, seed.sellerToken, 'QA', seed.warehouses.main, 1000);
    await stock(t, other.sellerToken, 'QA', other.warehouses.main, 1000);
  });
  after(async () => t.close());

  it('lists a routed order as a fulfillment order of the 2.18 shape', async () => {
    const o = await order(2, {
      shippingAddress: ADDRESS,
      customerName: 'Ada Buyer',
      requestedServiceLevel: 'Next Day',
      accounting: { shippingPrice: 4.99, payment: 29.99, totalDiscount: 1 },
    });
    const fo = await foOf(t, seed.shipping.token, o.orderNumber);
    assert.match(fo.fulfillmentOrderId, /^\d+$/);
    assert.deepEqual(
      Object.keys(fo).sort(),
      [
        'assignedTs', 'buyerName', 'discount', 'externalOrderId', 'fulfillmentOrderId', 'giftMessage', 'lastUpdatedTs', 'lines',
        'openAlerts', 'orderNumber', 'orderedTs', 'requestedServiceLevel', 'shipByTs', 'shipTo', 'shippingPrice', 'shippingTax', 'status',
        'totalPayment', 'warehouseUniqueId',
      ].sort(),
    );
    assert.equal(fo.status, 'FULFILLMENT_ORDER_STATUS_NEW');
    assert.equal(fo.externalOrderId, '');
    assert.equal(fo.warehouseUniqueId, 'SHIP-MAIN');
    assert.equal(fo.orderedTs, '2026-11-20T10:00:00.000Z');
    assert.equal(fo.assignedTs, clock.now().toISOString());
    assert.equal(fo.requestedServiceLevel, 'Next Day');
    assert.equal(fo.buyerName, 'Ada Buyer');
    assert.equal(fo.giftMessage, '');
    assert.equal(fo.shipByTs, null, 'never populated: null, as the production gateway writes an unset Timestamp');
    assert.deepEqual(fo.shipTo, {
      name: 'Ada Buyer', company: 'Acme', line1: '1 Main St', line2: 'Apt 2', city: 'Springfield', region: 'IL',
      postalCode: '62701', country: 'US', phone: '555-0100', email: 'ada@example.com',
    });
    assert.deepEqual(fo.shippingPrice, { amount: '4.99', currencyCode: 'USD' });
    // Money amounts render with two decimals at least (resolutions §7); the order stored 0, 1 and 12.5.
    assert.deepEqual(fo.shippingTax, { amount: '0.00', currencyCode: 'USD' });
    assert.deepEqual(fo.discount, { amount: '1.00', currencyCode: 'USD' });
    assert.deepEqual(fo.totalPayment, { amount: '29.99', currencyCode: 'USD' });
    assert.deepEqual(fo.lines, [
      {
        lineItemId: o.products[0]!.lineItemId,
        sku: 'QA',
        title: '',
        quantity: 2,
        shippedQuantity: 0,
        cancelledQuantity: 0,
        unitPrice: { amount: '12.50', currencyCode: 'USD' },
        tax: { amount: '0.00', currencyCode: 'USD' },
      },
    ]);
    assert.deepEqual(fo.openAlerts, []);
  });

  it('answers need_to_ship in 3 round trips on PostgreSQL: the token with its warehouse mappings, the page, and its orders, lines and alerts together', async () => {
    await order();
    const counted = await countStatements(() => t.app.inject({ method: 'GET', url: '/v2/shipping/need_to_ship', headers: { authorization: `Bearer ${seed.shipping.token}` } }));
    assert.equal(counted.result.statusCode, 200, counted.result.body);
    assert.ok((counted.result.json() as { orders: unknown[] }).orders.length > 0);
    if (t.deps.db.dialect === 'postgres') assert.deepEqual([counted.statements, counted.roundTrips], [5, 3]);
  });

  it('leaves shipTo out when no address was captured and requestedServiceLevel empty when none was named', async () => {
    const o = await order();
    const fo = await foOf(t, seed.shipping.token, o.orderNumber);
    assert.equal('shipTo' in fo, false);
    assert.equal(fo.requestedServiceLevel, '');
  });

  it('creates no fulfillment order for units routed to a warehouse without a shipping integration', async () => {
    await stock(t, seed.sellerToken, 'QB', seed.warehouses.main, 0);
    await integrationStock(t, seed.inventory.token, 'QB', 'WH-SECOND', 5);
    clock.advance(1000);
    const o = await createOrder(t, seed.channel.token, orderBody('Q-second', [{ requestedSku: 'QB', quantity: 1 }]));
    assert.deepEqual(o.products[0]!.routing_info.map((r) => r.warehouseId), [seed.warehouses.second]);
    const all = (await needToShip(t, seed.shipping.token, '?pageSize=500')).orders;
    assert.ok(!all.some((f) => f.orderNumber === o.orderNumber));
    const rows = await t.deps.db.db.selectFrom('fulfillment_orders').select('id').where('order_id', '=', Number(o.orderNumber)).execute();
    assert.deepEqual(rows, []);
  });

  it('pages with a signed cursor, clamps pageSize and refuses an unreadable cursor', async () => {
    for (let i = 0; i < 3; i++) await order(1);
    const total = (await needToShip(t, seed.shipping.token, '?pageSize=500')).orders.length;
    assert.ok(total >= 4);
    const seen: string[] = [];
    let cursor = '';
    for (let guard = 0; guard < 20; guard++) {
      const page = await needToShip(t, seed.shipping.token, `?pageSize=2&cursor=${encodeURIComponent(cursor)}`);
      assert.ok(page.orders.length <= 2);
      seen.push(...page.orders.map((o) => o.fulfillmentOrderId));
      cursor = page.nextCursor;
      if (cursor === '') break;
    }
    assert.equal(seen.length, total);
    assert.equal(new Set(seen).size, total);
    assert.equal((await needToShip(t, seed.shipping.token, '?pageSize=0')).orders.length, total);
    assert.equal((await needToShip(t, seed.shipping.token, '?page_size=-5')).orders.length, total);
    assertV2Error(await get(t, seed.shipping.token, '/v2/shipping/need_to_ship?cursor=garbage'), 400, 3, /invalid cursor/);
    assertV2Error(await get(t, seed.shipping.token, '/v2/shipping/need_to_cancel?cursor=garbage'), 400, 3, /invalid cursor/);
    // A cursor issued on one route is not valid on the other.
    const first = await needToShip(t, seed.shipping.token, '?pageSize=1');
    assertV2Error(await get(t, seed.shipping.token, `/v2/shipping/need_to_cancel?cursor=${first.nextCursor}`), 400, 3, /invalid cursor/);
  });

  it('shows nothing of another account and answers 404 for its fulfillment orders', async () => {
    const mine = await order();
    const fo = await foOf(t, seed.shipping.token, mine.orderNumber);
    assert.deepEqual((await needToShip(t, other.shipping.token)).orders, []);
    assertV2Error(await get(t, other.shipping.token, `/v2/shipping/fulfillment_order?fulfillmentOrderId=${fo.fulfillmentOrderId}`), 404, 5);
    const [r] = await batch(t, other.shipping.token, 'fulfillment_orders/acknowledge', 'acknowledgements', [
      { fulfillmentOrderId: fo.fulfillmentOrderId, externalOrderId: 'X-1' },
    ]);
    assert.equal(r!.success, false);
    assert.match(r!.errorMessage, /not found/);
    assert.equal((await fulfillmentOrder(t, seed.shipping.token, fo.fulfillmentOrderId)).status, 'FULFILLMENT_ORDER_STATUS_NEW');
  });

  it('refuses tokens that are not a shipping integration with the scope', async () => {
    for (const token of [seed.sellerToken, seed.inventory.token, seed.channel.token]) {
      assertV2Error(await get(t, token, '/v2/shipping/need_to_ship'), 403, 7);
      assertV2Error(await post(t, token, '/v2/shipping/fulfillment_orders/acknowledge', { acknowledgements: [{ fulfillmentOrderId: '1' }] }), 403, 7);
    }
    assertV2Error(await t.app.inject({ url: '/v2/shipping/need_to_ship' }), 401, 16);
  });

  it('GET fulfillment_order takes exactly one of fulfillmentOrderId or externalOrderId', async () => {
    const o = await order();
    const fo = await foOf(t, seed.shipping.token, o.orderNumber);
    const token = seed.shipping.token;
    assertV2Error(await get(t, token, '/v2/shipping/fulfillment_order'), 400, 3, /exactly one/);
    assertV2Error(await get(t, token, `/v2/shipping/fulfillment_order?fulfillmentOrderId=${fo.fulfillmentOrderId}&externalOrderId=E`), 400, 3, /exactly one/);
    assertV2Error(await get(t, token, '/v2/shipping/fulfillment_order?fulfillmentOrderId=999999'), 404, 5);
    assertV2Error(await get(t, token, '/v2/shipping/fulfillment_order?fulfillmentOrderId=abc'), 404, 5);
    assertV2Error(await get(t, token, '/v2/shipping/fulfillment_order?externalOrderId=nope'), 404, 5);
    const bySnake = await get(t, token, `/v2/shipping/fulfillment_order?fulfillment_order_id=${fo.fulfillmentOrderId}`);
    assert.equal(bySnake.statusCode, 200, bySnake.body);
    assert.equal((bySnake.json() as { orderNumber: string }).orderNumber, o.orderNumber);
  });

  it('acknowledges NEW → ACCEPTED; the order stays in need_to_ship; repeats and conflicts per entry', async () => {
    const a = await order();
    const b = await order();
    const foA = await foOf(t, seed.shipping.token, a.orderNumber);
    const foB = await foOf(t, seed.shipping.token, b.orderNumber);
    clock.advance(1000);
    const results = await batch(t, seed.shipping.token, 'fulfillment_orders/acknowledge', 'acknowledgements', [
      { fulfillmentOrderId: foA.fulfillmentOrderId, externalOrderId: 'EXT-A' },
      { fulfillment_order_id: Number(foB.fulfillmentOrderId), external_order_id: 'EXT-A' },
      { fulfillmentOrderId: '999999', externalOrderId: 'EXT-Z' },
      { fulfillmentOrderId: foB.fulfillmentOrderId },
    ]);
    assert.deepEqual(results[0], { fulfillmentOrderId: foA.fulfillmentOrderId, success: true, errorMessage: '', alreadyAcknowledged: false });
    assert.equal(results[1]!.success, false);
    assert.match(results[1]!.errorMessage, /already used/);
    assert.equal(results[1]!.fulfillmentOrderId, foB.fulfillmentOrderId);
    assert.equal(results[2]!.success, false);
    assert.match(results[2]!.errorMessage, /not found/);
    assert.equal(results[3]!.success, false);
    assert.match(results[3]!.errorMessage, /externalOrderId is required/);

    const after = await foOf(t, seed.shipping.token, a.orderNumber);
    assert.equal(after.status, 'FULFILLMENT_ORDER_STATUS_ACCEPTED');
    assert.equal(after.externalOrderId, 'EXT-A');
    assert.equal(after.lastUpdatedTs, clock.now().toISOString());
    assert.equal((await fulfillmentOrder(t, seed.shipping.token, foB.fulfillmentOrderId)).status, 'FULFILLMENT_ORDER_STATUS_NEW');
    const byExternal = await get(t, seed.shipping.token, '/v2/shipping/fulfillment_order?externalOrderId=EXT-A');
    assert.equal((byExternal.json() as { fulfillmentOrderId: string }).fulfillmentOrderId, foA.fulfillmentOrderId);

    const again = await batch(t, seed.shipping.token, 'fulfillment_orders/acknowledge', 'acknowledgements', [
      { fulfillmentOrderId: foA.fulfillmentOrderId, externalOrderId: 'EXT-A' },
      { fulfillmentOrderId: foA.fulfillmentOrderId, externalOrderId: 'EXT-OTHER' },
    ]);
    assert.deepEqual(again[0], { fulfillmentOrderId: foA.fulfillmentOrderId, success: true, errorMessage: '', alreadyAcknowledged: true });
    assert.equal(again[1]!.success, false);
    assert.match(again[1]!.errorMessage, /already acknowledged/);
    assert.equal((await fulfillmentOrder(t, seed.shipping.token, foA.fulfillmentOrderId)).externalOrderId, 'EXT-A');
  });

  it('refuses an empty batch and a batch over 100 entries as a whole, naming the limit', async () => {
    assertV2Error(await post(t, seed.shipping.token, '/v2/shipping/fulfillment_orders/acknowledge', { acknowledgements: [] }), 400, 3, /1/);
    const many = Array.from({ length: 101 }, (_, i) => ({ fulfillmentOrderId: String(i + 1), externalOrderId: `E${i}` }));
    for (const [path, key] of [
      ['fulfillment_orders/acknowledge', 'acknowledgements'],
      ['shipments', 'shipments'],
      ['fulfillment_orders/confirm_cancellations', 'confirmations'],
      ['fulfillment_orders/reject', 'rejections'],
      ['fulfillment_orders/alerts', 'alerts'],
      ['fulfillment_orders/alerts/resolve', 'resolutions'],
    ] as const) {
      assertV2Error(await post(t, seed.shipping.token, `/v2/shipping/${path}`, { [key]: many }), 400, 3, /100/);
      assertV2Error(await post(t, seed.shipping.token, `/v2/shipping/${path}`, {}), 400, 3);
    }
    const rows = await t.deps.db.db.selectFrom('fulfillment_orders').select('external_order_id').where('external_order_id', 'like', 'E%').execute();
    assert.deepEqual(rows.filter((r) => /^E\d+$/.test(r.external_order_id ?? '')), []);
  });

  it('need_to_cancel is empty until acknowledged work is pulled back', async () => {
    assert.deepEqual((await needToCancel(t, seed.shipping.token)).cancellations, []);
  });

  it('GET status reports mappings, aged unacknowledged work, pending cancellations and open alerts', async () => {
    const res = await get(t, seed.shipping.token, '/v2/shipping/status');
    assert.equal(res.statusCode, 200, res.body);
    const checks = (res.json() as { checks: { name: string; state: string; source: string; warehouseUniqueId: string }[] }).checks;
    assert.deepEqual(
      checks.map((c) => [c.name, c.state, c.warehouseUniqueId]),
      [
        ['warehouse_mappings', 'CHECK_STATE_PASS', ''],
        ['unacknowledged_work', 'CHECK_STATE_PASS', 'SHIP-MAIN'],
        ['pending_cancellations', 'CHECK_STATE_PASS', ''],
        ['open_alerts', 'CHECK_STATE_PASS', ''],
      ],
    );
    assert.ok(checks.every((c) => c.source === 'CHECK_SOURCE_SERVICE'));
    clock.advance(25 * 60 * 60 * 1000);
    const later = (await get(t, seed.shipping.token, '/v2/shipping/status')).json() as { checks: { name: string; state: string }[] };
    assert.equal(later.checks.find((c) => c.name === 'unacknowledged_work')!.state, 'CHECK_STATE_WARN');
  });
});
