import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { availableBySku, createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';
import { assertV2Error, batch, foOf, fulfillmentOrder, integrationStock, needToCancel, needToShip, post, type FulfillmentOrder } from './v2-shipping-support.js';

/** POST shipments, confirm_cancellations, reject, alerts, alerts/resolve (document 4.8, 3.5–3.7, 7.3). */
describe('v2 shipping writes', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let n = 0;

  const order = async (products: Record<string, unknown>[]) => {
    clock.advance(1000);
    n += 1;
    return createOrder(t, seed.channel.token, orderBody(`W-${n}`, products));
  };
  const v1Order = async (orderNumber: string) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order;
  };
  const acknowledge = async (fo: FulfillmentOrder, externalOrderId: string) => {
    const [r] = await batch(t, seed.shipping.token, 'fulfillment_orders/acknowledge', 'acknowledgements', [{ fulfillmentOrderId: fo.fulfillmentOrderId, externalOrderId }]);
    assert.ok(r!.success, r!.errorMessage);
  };
  const ship = (entries: unknown[]) => batch(t, seed.shipping.token, 'shipments', 'shipments', entries);
  const reject = (entries: unknown[]) => batch(t, seed.shipping.token, 'fulfillment_orders/reject', 'rejections', entries);
  const confirm = (entries: unknown[]) => batch(t, seed.shipping.token, 'fulfillment_orders/confirm_cancellations', 'confirmations', entries);
  const cancelV1 = async (orderNumber: string, lineItems?: { lineItemId: string; quantity: number }[]) => {
    clock.advance(1000);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/salesOrder/cancel/${orderNumber}`,
      headers: bearer(seed.sellerToken),
      payload: { cancellationReason: 'NoInventory', ...(lineItems ? { lineItems } : {}) },
    });
    assert.equal(res.statusCode, 200, res.body);
  };
  const snapshot = async () => ({
    packages: await t.deps.db.db.selectFrom('sales_order_packages').selectAll().orderBy('id').execute(),
    routes: await t.deps.db.db.selectFrom('order_line_routes').selectAll().orderBy('id').execute(),
    fos: await t.deps.db.db.selectFrom('fulfillment_orders').selectAll().orderBy('id').execute(),
    requests: await t.deps.db.db.selectFrom('fulfillment_cancellation_requests').selectAll().orderBy('id').execute(),
    alerts: await t.deps.db.db.selectFrom('fulfillment_alerts').selectAll().orderBy('id').execute(),
    inventory: await t.deps.db.db.selectFrom('inventory').selectAll().orderBy('id').execute(),
  });

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    await stock(t, seed.sellerToken, 'WA', seed.warehouses.main, 100);
    await stock(t, seed.sellerToken, 'WB', seed.warehouses.main, 100);
  });
  after(async () => t.close());

  describe('shipments', () => {
    it('ships part of a line, then the rest with lines omitted; replays change nothing', async () => {
      const o = await order([{ requestedSku: 'WA', quantity: 3 }, { requestedSku: 'WB', quantity: 1 }]);
      const fo = await foOf(t, seed.shipping.token, o.orderNumber);
      const [a, b] = o.products;
      clock.advance(1000);
      const first = {
        fulfillmentOrderId: fo.fulfillmentOrderId,
        externalShipmentId: 'SHIP-1',
        carrier: 'UPS',
        trackingNumber: '1Z1',
        serviceLevel: 'Ground',
        shippedTs: '2026-11-21T11:00:00+01:00',
        lines: [{ lineItemId: a!.lineItemId, quantity: 1 }],
        shippingCost: { amount: '5.10', currencyCode: 'USD' },
        handlingCost: { amount: '0.95', currencyCode: 'USD' },
      };
      assert.deepEqual(await ship([first]), [
        { fulfillmentOrderId: fo.fulfillmentOrderId, externalShipmentId: 'SHIP-1', success: true, errorMessage: '', alreadyRecorded: false },
      ]);
      const partly = await foOf(t, seed.shipping.token, o.orderNumber);
      assert.equal(partly.status, 'FULFILLMENT_ORDER_STATUS_PARTIALLY_SHIPPED');
      assert.deepEqual(partly.lines.map((l) => [l.lineItemId, l.quantity]), [[a!.lineItemId, 2], [b!.lineItemId, 1]]);
      const pkg = await t.deps.db.db.selectFrom('sales_order_packages').selectAll().where('external_package_id', '=', 'SHIP-1').executeTakeFirstOrThrow();
      assert.equal(pkg.cost, '6.05');
      assert.equal(pkg.shipped_ts, '2026-11-21T10:00:00.000Z');
      assert.equal(pkg.source, 'V2');
      assert.equal((await v1Order(o.orderNumber)).status, 'PARTIALLY_SHIPPED');

      const before = await snapshot();
      assert.equal((await ship([first]))[0]!.alreadyRecorded, true);
      assert.deepEqual(await snapshot(), before);

      const rest = await ship([{ fulfillment_order_id: fo.fulfillmentOrderId, external_shipment_id: 'SHIP-2', tracking_number: '1Z2', service_level: 'Ground' }]);
      assert.equal(rest[0]!.success, true, rest[0]!.errorMessage);
      assert.ok(!(await needToShip(t, seed.shipping.token, '?pageSize=500')).orders.some((f) => f.fulfillmentOrderId === fo.fulfillmentOrderId));
      const done = await fulfillmentOrder(t, seed.shipping.token, fo.fulfillmentOrderId);
      assert.equal(done.status, 'FULFILLMENT_ORDER_STATUS_SHIPPED');
      assert.deepEqual(done.lines, []);
      assert.equal((await v1Order(o.orderNumber)).status, 'SHIPPED');
    });

    it('fails entries with a bad line, a bad quantity, more than owed or missing required fields, changing nothing', async () => {
      const o = await order([{ requestedSku: 'WA', quantity: 2 }]);
      const fo = await foOf(t, seed.shipping.token, o.orderNumber);
      const line = o.products[0]!.lineItemId;
      const base = { fulfillmentOrderId: fo.fulfillmentOrderId, trackingNumber: 'T', serviceLevel: 'Ground' };
      const before = await snapshot();
      const results = await ship([
        { ...base, externalShipmentId: 'B1', lines: [{ lineItemId: '999999', quantity: 1 }] },
        { ...base, externalShipmentId: 'B2', lines: [{ lineItemId: 'WA', quantity: 1 }] },
        { ...base, externalShipmentId: 'B3', lines: [{ lineItemId: line, quantity: 0 }] },
        { ...base, externalShipmentId: 'B4', lines: [{ lineItemId: line, quantity: 2 }, { lineItemId: line, quantity: 1 }] },
        { ...base, externalShipmentId: 'B5', trackingNumber: '' },
        { ...base, externalShipmentId: 'B6', serviceLevel: null },
        { ...base, externalShipmentId: '' },
        { ...base, externalShipmentId: 'B8', shippedTs: '2026-11-21T10:00:00' },
        { ...base, externalShipmentId: 'B9', fulfillmentOrderId: '999999' },
      ]);
      assert.ok(results.every((r) => r.success === false && r.errorMessage !== '' && r.alreadyRecorded === false), JSON.stringify(results));
      assert.match(results[0]!.errorMessage, /not a line of this order/);
      assert.match(results[1]!.errorMessage, /not a line/);
      assert.match(results[2]!.errorMessage, /at least 1/);
      assert.match(results[3]!.errorMessage, /more than the 2 still owed/);
      assert.match(results[4]!.errorMessage, /trackingNumber is required/);
      assert.match(results[5]!.errorMessage, /serviceLevel is required/);
      assert.match(results[6]!.errorMessage, /externalShipmentId is required/);
      assert.match(results[7]!.errorMessage, /shippedTs/);
      assert.match(results[8]!.errorMessage, /not found/);
      assert.deepEqual(await snapshot(), before);
    });
  });

  describe('reject', () => {
    it('refuses UNSPECIFIED (named, 0 or absent), lines and OTHER without detail per entry; the work stays queued', async () => {
      const o = await order([{ requestedSku: 'WA', quantity: 1 }]);
      const fo = await foOf(t, seed.shipping.token, o.orderNumber);
      const id = fo.fulfillmentOrderId;
      const before = await snapshot();
      const results = await reject([
        { fulfillmentOrderId: id, reason: 'REJECTION_REASON_UNSPECIFIED' },
        { fulfillmentOrderId: id, reason: 0 },
        { fulfillmentOrderId: id },
        { fulfillmentOrderId: id, reason: null },
        { fulfillmentOrderId: id, reason: 'REJECTION_REASON_DAMAGED', lines: [{ lineItemId: o.products[0]!.lineItemId, quantity: 1 }] },
        { fulfillmentOrderId: id, reason: 'REJECTION_REASON_OTHER' },
        { fulfillmentOrderId: '999999', reason: 'REJECTION_REASON_DAMAGED' },
      ]);
      assert.ok(results.every((r) => !r.success && r.fulfillmentOrderId !== ''), JSON.stringify(results));
      assert.match(results[0]!.errorMessage, /UNSPECIFIED is refused/);
      assert.match(results[1]!.errorMessage, /UNSPECIFIED is refused/);
      assert.match(results[2]!.errorMessage, /UNSPECIFIED is refused/);
      assert.match(results[3]!.errorMessage, /UNSPECIFIED is refused/);
      assert.match(results[4]!.errorMessage, /lines are not supported/);
      assert.match(results[5]!.errorMessage, /detail is required/);
      assert.match(results[6]!.errorMessage, /not found/);
      assert.deepEqual(await snapshot(), before);
      assert.equal((await foOf(t, seed.shipping.token, o.orderNumber)).status, 'FULFILLMENT_ORDER_STATUS_NEW');
    });

    it('an unknown reason name or number fails the whole request (protojson); nothing is rejected', async () => {
      const o = await order([{ requestedSku: 'WA', quantity: 1 }]);
      const id = (await foOf(t, seed.shipping.token, o.orderNumber)).fulfillmentOrderId;
      const before = await snapshot();
      for (const [bad, field] of [
        ['NOT_A_REASON', 'rejections[1].reason'],
        [6, 'rejections[1].reason'],
        [-1, 'rejections[1].reason'],
        ['rejection_reason_damaged', 'rejections[1].reason'],
      ] as const) {
        const res = await post(t, seed.shipping.token, '/v2/shipping/fulfillment_orders/reject', {
          rejections: [
            { fulfillmentOrderId: id, reason: 'REJECTION_REASON_DAMAGED' },
            { fulfillmentOrderId: id, reason: bad },
          ],
        });
        assertV2Error(res, 400, 3, /rejections\[1\]\.reason: must be one of REJECTION_REASON_UNSPECIFIED, .*REJECTION_REASON_OTHER \(or its number, 0 to 5\)/);
        const details = (res.json() as { details: { fieldViolations: { field: string }[] }[] }).details;
        assert.deepEqual(details[0]!.fieldViolations.map((v) => v.field), [field]);
      }
      assert.deepEqual(await snapshot(), before);
    });

    it('reads a reason sent as its number and stores its name', async () => {
      const o = await order([{ requestedSku: 'WA', quantity: 1 }]);
      const id = (await foOf(t, seed.shipping.token, o.orderNumber)).fulfillmentOrderId;
      const [r] = await reject([{ fulfillmentOrderId: id, reason: 2 }]);
      assert.ok(r!.success, r!.errorMessage);
      const row = await t.deps.db.db.selectFrom('fulfillment_orders').select(['status', 'rejection_reason']).where('id', '=', Number(id)).executeTakeFirstOrThrow();
      assert.deepEqual(row, { status: 'REJECTED', rejection_reason: 'REJECTION_REASON_DAMAGED' });
    });

    it('refuses a part-shipped or partly cancelled order', async () => {
      const shipped = await order([{ requestedSku: 'WA', quantity: 2 }]);
      const foShipped = await foOf(t, seed.shipping.token, shipped.orderNumber);
      await ship([{ fulfillmentOrderId: foShipped.fulfillmentOrderId, externalShipmentId: 'R-1', trackingNumber: 'T', serviceLevel: 'G', lines: [{ lineItemId: shipped.products[0]!.lineItemId, quantity: 1 }] }]);
      const cancelled = await order([{ requestedSku: 'WA', quantity: 2 }]);
      const foCancelled = await foOf(t, seed.shipping.token, cancelled.orderNumber);
      await cancelV1(cancelled.orderNumber, [{ lineItemId: cancelled.products[0]!.lineItemId, quantity: 1 }]);
      const before = await snapshot();
      const results = await reject([
        { fulfillmentOrderId: foShipped.fulfillmentOrderId, reason: 'REJECTION_REASON_DAMAGED' },
        { fulfillmentOrderId: foCancelled.fulfillmentOrderId, reason: 'REJECTION_REASON_DAMAGED' },
      ]);
      assert.match(results[0]!.errorMessage, /shipped/);
      assert.match(results[1]!.errorMessage, /cancelled/);
      assert.ok(results.every((r) => !r.success));
      assert.deepEqual(await snapshot(), before);
    });

    it('rejects: the order leaves need_to_ship, units re-route to a warehouse with stock; a repeat succeeds', async () => {
      await stock(t, seed.sellerToken, 'WR', seed.warehouses.main, 10);
      await integrationStock(t, seed.inventory.token, 'WR', 'WH-SECOND', 5);
      const o = await order([{ requestedSku: 'WR', quantity: 2 }]);
      const fo = await foOf(t, seed.shipping.token, o.orderNumber);
      await acknowledge(fo, 'EXT-REJ');
      clock.advance(1000);
      const [r] = await reject([{ fulfillmentOrderId: fo.fulfillmentOrderId, reason: 'REJECTION_REASON_OUT_OF_STOCK', detail: 'bin empty' }]);
      assert.deepEqual(r, { fulfillmentOrderId: fo.fulfillmentOrderId, success: true, errorMessage: '' });
      assert.ok(!(await needToShip(t, seed.shipping.token, '?pageSize=500')).orders.some((f) => f.fulfillmentOrderId === fo.fulfillmentOrderId));
      const rejected = await fulfillmentOrder(t, seed.shipping.token, fo.fulfillmentOrderId);
      assert.equal(rejected.status, 'FULFILLMENT_ORDER_STATUS_REJECTED');
      assert.deepEqual(rejected.lines, []);
      const view = await v1Order(o.orderNumber);
      assert.deepEqual(view.products[0]!.routing_info.map((x) => [x.warehouseId, x.quantity]).filter(([, q]) => q! > 0), [[seed.warehouses.second, 2]]);
      assert.equal(view.status, 'PENDING');
      const available = await availableBySku(t, seed.sellerToken, 'WR');
      assert.equal(available.get(seed.warehouses.main), 10);
      assert.equal(available.get(seed.warehouses.second), 3);
      // No service alert: everything found a new home.
      const alerts = await t.deps.db.db.selectFrom('fulfillment_alerts').selectAll().where('fulfillment_order_id', '=', Number(fo.fulfillmentOrderId)).execute();
      assert.deepEqual(alerts, []);

      const before = await snapshot();
      const [repeat] = await reject([{ fulfillmentOrderId: fo.fulfillmentOrderId, reason: 'REJECTION_REASON_DAMAGED' }]);
      assert.equal(repeat!.success, true);
      assert.deepEqual(await snapshot(), before);
      const [ack] = await batch(t, seed.shipping.token, 'fulfillment_orders/acknowledge', 'acknowledgements', [{ fulfillmentOrderId: fo.fulfillmentOrderId, externalOrderId: 'EXT-REJ' }]);
      assert.equal(ack!.success, false);
      const [shipRejected] = await ship([{ fulfillmentOrderId: fo.fulfillmentOrderId, externalShipmentId: 'RJ', trackingNumber: 'T', serviceLevel: 'G' }]);
      assert.match(shipRejected!.errorMessage, /rejected/);
    });

    it('with no stock elsewhere the units stay held and a service alert surfaces the order to the seller', async () => {
      const o = await order([{ requestedSku: 'WB', quantity: 2 }]);
      const fo = await foOf(t, seed.shipping.token, o.orderNumber);
      const [r] = await reject([{ fulfillmentOrderId: fo.fulfillmentOrderId, reason: 'REJECTION_REASON_UNDELIVERABLE_ADDRESS' }]);
      assert.equal(r!.success, true, r!.errorMessage);
      const alerts = await t.deps.db.db.selectFrom('fulfillment_alerts').selectAll().where('fulfillment_order_id', '=', Number(fo.fulfillmentOrderId)).execute();
      assert.equal(alerts.length, 1);
      assert.equal(alerts[0]!.raised_by_installation_id, null);
      assert.equal(alerts[0]!.type, 'ALERT_TYPE_FULFILL');
      assert.equal(alerts[0]!.status, 'OPEN');
      assert.match(alerts[0]!.message, /REJECTION_REASON_UNDELIVERABLE_ADDRESS.*2 × WB/);
      const view = await v1Order(o.orderNumber);
      assert.deepEqual(view.products[0]!.routing_info.map((x) => [x.warehouseId, x.quantity]), [[seed.warehouses.main, 2]]);
      // The partner cannot close the service's alert; it is not among the partner's openAlerts either.
      const [resolved] = await batch(t, seed.shipping.token, 'fulfillment_orders/alerts/resolve', 'resolutions', [
        { fulfillmentOrderId: fo.fulfillmentOrderId, type: 'ALERT_TYPE_FULFILL', resolution: 'x' },
      ]);
      assert.equal(resolved!.alreadyResolved, true);
      assert.equal((await fulfillmentOrder(t, seed.shipping.token, fo.fulfillmentOrderId)).openAlerts.length, 0);
      const still = await t.deps.db.db.selectFrom('fulfillment_alerts').select('status').where('id', '=', alerts[0]!.id).executeTakeFirstOrThrow();
      assert.equal(still.status, 'OPEN');
    });
  });

  describe('cancellations', () => {
    it('a NEW order pulled back loses the units and never reaches need_to_cancel', async () => {
      const o = await order([{ requestedSku: 'WA', quantity: 2 }]);
      await cancelV1(o.orderNumber);
      assert.deepEqual((await needToCancel(t, seed.shipping.token)).cancellations.filter((c) => c.orderNumber === o.orderNumber), []);
      assert.ok(!(await needToShip(t, seed.shipping.token, '?pageSize=500')).orders.some((f) => f.orderNumber === o.orderNumber));
    });

    it('an ACCEPTED order gets a request; confirm drains it, a replay answers alreadyRecorded, lines fail', async () => {
      const o = await order([{ requestedSku: 'WA', quantity: 3 }, { requestedSku: 'WB', quantity: 1 }]);
      const fo = await foOf(t, seed.shipping.token, o.orderNumber);
      await acknowledge(fo, 'EXT-C1');
      await cancelV1(o.orderNumber, [{ lineItemId: o.products[0]!.lineItemId, quantity: 2 }]);
      const queue = (await needToCancel(t, seed.shipping.token)).cancellations.filter((c) => c.fulfillmentOrderId === fo.fulfillmentOrderId);
      assert.deepEqual(queue, [
        {
          fulfillmentOrderId: fo.fulfillmentOrderId,
          externalOrderId: 'EXT-C1',
          orderNumber: o.orderNumber,
          warehouseUniqueId: 'SHIP-MAIN',
          reason: 'CANCELLATION_REASON_MERCHANT_CANCELLED',
          lines: [{ lineItemId: o.products[0]!.lineItemId, sku: 'WA', quantity: 2 }],
          requestedTs: clock.now().toISOString(),
        },
      ]);
      // A partial cancellation leaves the order in both queues, with the lowered quantity.
      const remaining = await foOf(t, seed.shipping.token, o.orderNumber);
      assert.equal(remaining.status, 'FULFILLMENT_ORDER_STATUS_PARTIALLY_CANCELLED');
      assert.deepEqual(remaining.lines.map((l) => l.quantity), [1, 1]);

      const before = await snapshot();
      const [withLines] = await confirm([{ fulfillmentOrderId: fo.fulfillmentOrderId, lines: [{ lineItemId: o.products[0]!.lineItemId, quantity: 2 }] }]);
      assert.equal(withLines!.success, false);
      assert.match(withLines!.errorMessage, /lines are not supported/);
      assert.deepEqual(await snapshot(), before);

      const [ok] = await confirm([{ fulfillmentOrderId: fo.fulfillmentOrderId }]);
      assert.deepEqual(ok, { fulfillmentOrderId: fo.fulfillmentOrderId, success: true, errorMessage: '', alreadyRecorded: false });
      assert.deepEqual((await needToCancel(t, seed.shipping.token)).cancellations.filter((c) => c.fulfillmentOrderId === fo.fulfillmentOrderId), []);
      const [replay] = await confirm([{ fulfillmentOrderId: fo.fulfillmentOrderId }]);
      assert.deepEqual(replay, { fulfillmentOrderId: fo.fulfillmentOrderId, success: true, errorMessage: '', alreadyRecorded: true });
    });

    it('fails a confirmation with no outstanding request, for a shipped or a rejected order', async () => {
      const none = await order([{ requestedSku: 'WA', quantity: 1 }]);
      const foNone = await foOf(t, seed.shipping.token, none.orderNumber);
      const shipped = await order([{ requestedSku: 'WA', quantity: 1 }]);
      const foShipped = await foOf(t, seed.shipping.token, shipped.orderNumber);
      await ship([{ fulfillmentOrderId: foShipped.fulfillmentOrderId, externalShipmentId: 'C-S', trackingNumber: 'T', serviceLevel: 'G' }]);
      const rejected = await order([{ requestedSku: 'WA', quantity: 1 }]);
      const foRejected = await foOf(t, seed.shipping.token, rejected.orderNumber);
      await reject([{ fulfillmentOrderId: foRejected.fulfillmentOrderId, reason: 'REJECTION_REASON_DAMAGED' }]);
      const before = await snapshot();
      const results = await confirm([
        { fulfillmentOrderId: foNone.fulfillmentOrderId },
        { fulfillmentOrderId: foShipped.fulfillmentOrderId },
        { fulfillmentOrderId: foRejected.fulfillmentOrderId },
        { fulfillmentOrderId: 'nope' },
      ]);
      assert.ok(results.every((r) => !r.success && r.alreadyRecorded === false));
      assert.match(results[0]!.errorMessage, /no cancellation request is outstanding/);
      assert.match(results[1]!.errorMessage, /already shipped/);
      assert.match(results[2]!.errorMessage, /rejected/);
      assert.match(results[3]!.errorMessage, /not found/);
      assert.deepEqual(await snapshot(), before);
    });

    it('alreadyShipped drains the request and alerts the seller', async () => {
      const o = await order([{ requestedSku: 'WA', quantity: 1 }]);
      const fo = await foOf(t, seed.shipping.token, o.orderNumber);
      await acknowledge(fo, 'EXT-AS');
      await cancelV1(o.orderNumber);
      const [r] = await confirm([{ fulfillmentOrderId: fo.fulfillmentOrderId, already_shipped: true }]);
      assert.equal(r!.success, true, r!.errorMessage);
      const request = await t.deps.db.db.selectFrom('fulfillment_cancellation_requests').selectAll().where('fulfillment_order_id', '=', Number(fo.fulfillmentOrderId)).executeTakeFirstOrThrow();
      assert.equal(request.already_shipped, 1);
      const alerts = await t.deps.db.db.selectFrom('fulfillment_alerts').selectAll().where('fulfillment_order_id', '=', Number(fo.fulfillmentOrderId)).execute();
      assert.deepEqual(alerts.map((a) => [a.type, a.raised_by_installation_id, a.status]), [['ALERT_TYPE_OTHER', null, 'OPEN']]);
    });
  });

  describe('alerts', () => {
    it('opens one alert per type, refuses UNSPECIFIED and foreign lines, resolves only the caller\'s own', async () => {
      const o = await order([{ requestedSku: 'WA', quantity: 1 }]);
      const fo = await foOf(t, seed.shipping.token, o.orderNumber);
      const id = fo.fulfillmentOrderId;
      const line = o.products[0]!.lineItemId;
      const raised = await batch(t, seed.shipping.token, 'fulfillment_orders/alerts', 'alerts', [
        { fulfillmentOrderId: id, type: 'ALERT_TYPE_LATE_SHIPMENT', message: 'carrier delay', lineItemId: line },
        { fulfillmentOrderId: id, type: 2, message: 'again' },
        { fulfillmentOrderId: id, type: 'ALERT_TYPE_UNSPECIFIED', message: 'x' },
        { fulfillmentOrderId: id, type: 'ALERT_TYPE_LOST', message: 'x', lineItemId: '999999' },
        { fulfillmentOrderId: '999999', type: 'ALERT_TYPE_LOST', message: 'x' },
      ]);
      assert.deepEqual(raised[0], { fulfillmentOrderId: id, type: 'ALERT_TYPE_LATE_SHIPMENT', success: true, errorMessage: '', alreadyOpen: false });
      // Sent as its number (2), answered with the enum name.
      assert.deepEqual(raised[1], { fulfillmentOrderId: id, type: 'ALERT_TYPE_LATE_SHIPMENT', success: true, errorMessage: '', alreadyOpen: true });
      assert.match(raised[2]!.errorMessage, /UNSPECIFIED is refused/);
      assert.match(raised[3]!.errorMessage, /not a line of this fulfillment order/);
      assert.match(raised[4]!.errorMessage, /not found/);
      assert.ok(raised.slice(2).every((r) => !r.success));
      const view = await fulfillmentOrder(t, seed.shipping.token, id);
      assert.deepEqual(view.openAlerts, [{ fulfillmentOrderId: id, type: 'ALERT_TYPE_LATE_SHIPMENT', message: 'carrier delay', lineItemId: line }]);
      const status = (await t.app.inject({ url: '/v2/shipping/status', headers: bearer(seed.shipping.token) })).json() as { checks: { name: string; state: string }[] };
      assert.equal(status.checks.find((c) => c.name === 'open_alerts')!.state, 'CHECK_STATE_WARN');

      const resolved = await batch(t, seed.shipping.token, 'fulfillment_orders/alerts/resolve', 'resolutions', [
        { fulfillmentOrderId: id, type: 'ALERT_TYPE_LATE_SHIPMENT', resolution: 'delivered' },
        { fulfillmentOrderId: id, type: 'ALERT_TYPE_LATE_SHIPMENT', resolution: 'delivered' },
        { fulfillmentOrderId: id, type: 'ALERT_TYPE_UNSPECIFIED' },
      ]);
      assert.deepEqual(resolved[0], { fulfillmentOrderId: id, type: 'ALERT_TYPE_LATE_SHIPMENT', success: true, errorMessage: '', alreadyResolved: false });
      assert.deepEqual(resolved[1], { fulfillmentOrderId: id, type: 'ALERT_TYPE_LATE_SHIPMENT', success: true, errorMessage: '', alreadyResolved: true });
      assert.equal(resolved[2]!.success, false);
      assert.deepEqual((await fulfillmentOrder(t, seed.shipping.token, id)).openAlerts, []);
      const row = await t.deps.db.db.selectFrom('fulfillment_alerts').selectAll().where('fulfillment_order_id', '=', Number(id)).executeTakeFirstOrThrow();
      assert.equal(row.resolution, 'delivered');
      // A new alert of the same type can be opened once the old one is resolved.
      const [reopened] = await batch(t, seed.shipping.token, 'fulfillment_orders/alerts', 'alerts', [{ fulfillmentOrderId: id, type: 'ALERT_TYPE_LATE_SHIPMENT', message: 'again' }]);
      assert.equal(reopened!.alreadyOpen, false);
    });

    it('takes types by number and echoes names; absent is UNSPECIFIED (entry fails)', async () => {
      const o = await order([{ requestedSku: 'WA', quantity: 1 }]);
      const id = (await foOf(t, seed.shipping.token, o.orderNumber)).fulfillmentOrderId;
      const raised = await batch(t, seed.shipping.token, 'fulfillment_orders/alerts', 'alerts', [
        { fulfillmentOrderId: id, type: 3, message: 'lost in transit' },
        { fulfillmentOrderId: id, message: 'no type' },
        { fulfillmentOrderId: id, type: 0, message: 'zero' },
      ]);
      assert.deepEqual(raised.map((r) => [r.type, r.success]), [
        ['ALERT_TYPE_LOST', true],
        ['ALERT_TYPE_UNSPECIFIED', false],
        ['ALERT_TYPE_UNSPECIFIED', false],
      ]);
      const stored = await t.deps.db.db.selectFrom('fulfillment_alerts').select('type').where('fulfillment_order_id', '=', Number(id)).execute();
      assert.deepEqual(stored, [{ type: 'ALERT_TYPE_LOST' }]);
      const resolved = await batch(t, seed.shipping.token, 'fulfillment_orders/alerts/resolve', 'resolutions', [{ fulfillmentOrderId: id, type: 3, resolution: 'found' }]);
      assert.deepEqual(resolved[0], { fulfillmentOrderId: id, type: 'ALERT_TYPE_LOST', success: true, errorMessage: '', alreadyResolved: false });
    });

    it('an unknown type name or number fails the whole request; nothing is raised or resolved', async () => {
      const o = await order([{ requestedSku: 'WA', quantity: 1 }]);
      const id = (await foOf(t, seed.shipping.token, o.orderNumber)).fulfillmentOrderId;
      await batch(t, seed.shipping.token, 'fulfillment_orders/alerts', 'alerts', [{ fulfillmentOrderId: id, type: 'ALERT_TYPE_OTHER', message: 'open' }]);
      const before = await snapshot();
      for (const bad of ['ALERT_TYPE_BOGUS', 5, 1.5]) {
        const raise = await post(t, seed.shipping.token, '/v2/shipping/fulfillment_orders/alerts', {
          alerts: [
            { fulfillmentOrderId: id, type: 'ALERT_TYPE_LOST', message: 'valid entry' },
            { fulfillmentOrderId: id, type: bad, message: 'bad entry' },
          ],
        });
        assertV2Error(raise, 400, 3, /alerts\[1\]\.type: must be/);
        const resolve = await post(t, seed.shipping.token, '/v2/shipping/fulfillment_orders/alerts/resolve', {
          resolutions: [
            { fulfillmentOrderId: id, type: 'ALERT_TYPE_OTHER', resolution: 'valid entry' },
            { fulfillmentOrderId: id, type: bad },
          ],
        });
        assertV2Error(resolve, 400, 3, /resolutions\[1\]\.type: must be/);
      }
      assert.deepEqual(await snapshot(), before);
    });
  });
});
