import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { assertV1Error, createOrder, orderBody, stock } from './v1-sales-orders-helpers.js';
import { batch, foOf } from './v2-shipping-support.js';

interface AlertView {
  alertId: number;
  fulfillmentOrderId: string;
  orderNumber: string;
  warehouseId: number;
  type: string;
  message: string;
  lineItemId: string | null;
  raisedBy: string;
  raisedByInstallationId: number | null;
  status: string;
  resolution: string | null;
  createdAt: string;
  resolvedTs: string | null;
}

/** GET /admin/accounts/{accountId}/alerts and POST …/alerts/{alertId}/resolve: the seller sees service alerts. */
describe('admin alerts', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let homeless: { orderNumber: string; fulfillmentOrderId: string; lineItemId: string };
  let shippedCancel: { orderNumber: string; fulfillmentOrderId: string };
  let partner: { orderNumber: string; fulfillmentOrderId: string };

  const admin = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(ADMIN_TOKEN), ...(payload === undefined ? {} : { payload: payload as object }) });
  const list = async (query = '', accountId = seed.accountId) => {
    const res = await admin('GET', `/admin/accounts/${accountId}/alerts${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { results: AlertView[]; nextCursor: string };
  };
  const alertRows = () => t.deps.db.db.selectFrom('fulfillment_alerts').selectAll().orderBy('id').execute();

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    const ship = seed.shipping.token;
    // Only main (the shipping fixture's warehouse) holds AL: a rejection finds no other home.
    await stock(t, seed.sellerToken, 'AL', seed.warehouses.main, 10);

    clock.advance(1000);
    const o1 = await createOrder(t, seed.channel.token, orderBody('AL-1', [{ requestedSku: 'AL', quantity: 2 }]));
    const fo1 = await foOf(t, ship, o1.orderNumber);
    const [rejected] = await batch(t, ship, 'fulfillment_orders/reject', 'rejections', [
      { fulfillmentOrderId: fo1.fulfillmentOrderId, reason: 'REJECTION_REASON_DAMAGED', detail: 'crushed' },
    ]);
    assert.ok(rejected!.success, rejected!.errorMessage);
    homeless = { orderNumber: o1.orderNumber, fulfillmentOrderId: fo1.fulfillmentOrderId, lineItemId: o1.products[0]!.lineItemId };

    // An acknowledged order the channel cancels; the partner reports the units had already shipped.
    clock.advance(1000);
    const o2 = await createOrder(t, seed.channel.token, orderBody('AL-2', [{ requestedSku: 'AL', quantity: 1 }]));
    const fo2 = await foOf(t, ship, o2.orderNumber);
    await batch(t, ship, 'fulfillment_orders/acknowledge', 'acknowledgements', [{ fulfillmentOrderId: fo2.fulfillmentOrderId, externalOrderId: 'AL-WMS-2' }]);
    clock.advance(1000);
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/v1/salesOrder/cancel/${o2.orderNumber}`,
      headers: bearer(seed.channel.token),
      payload: { cancellationReason: 'BuyerCanceled' },
    });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    clock.advance(1000);
    const [confirmed] = await batch(t, ship, 'fulfillment_orders/confirm_cancellations', 'confirmations', [
      { fulfillmentOrderId: fo2.fulfillmentOrderId, alreadyShipped: true },
    ]);
    assert.ok(confirmed!.success, confirmed!.errorMessage);
    shippedCancel = { orderNumber: o2.orderNumber, fulfillmentOrderId: fo2.fulfillmentOrderId };

    // A partner's own alert.
    clock.advance(1000);
    const o3 = await createOrder(t, seed.channel.token, orderBody('AL-3', [{ requestedSku: 'AL', quantity: 1 }]));
    const fo3 = await foOf(t, ship, o3.orderNumber);
    const [raised] = await batch(t, ship, 'fulfillment_orders/alerts', 'alerts', [
      { fulfillmentOrderId: fo3.fulfillmentOrderId, type: 'ALERT_TYPE_LATE_SHIPMENT', message: 'carrier pickup missed' },
    ]);
    assert.ok(raised!.success, raised!.errorMessage);
    partner = { orderNumber: o3.orderNumber, fulfillmentOrderId: fo3.fulfillmentOrderId };
  });
  after(async () => t.close());

  it("lists the account's alerts newest first, service ones marked SERVICE", async () => {
    const { results, nextCursor } = await list();
    assert.equal(nextCursor, '');
    assert.deepEqual(
      results.map((a) => [a.orderNumber, a.fulfillmentOrderId, a.type, a.raisedBy, a.status]),
      [
        [partner.orderNumber, partner.fulfillmentOrderId, 'ALERT_TYPE_LATE_SHIPMENT', 'INTEGRATION', 'OPEN'],
        [shippedCancel.orderNumber, shippedCancel.fulfillmentOrderId, 'ALERT_TYPE_OTHER', 'SERVICE', 'OPEN'],
        [homeless.orderNumber, homeless.fulfillmentOrderId, 'ALERT_TYPE_FULFILL', 'SERVICE', 'OPEN'],
      ],
    );
    const [late, other_, fulfil] = results;
    assert.equal(late!.raisedByInstallationId, seed.shipping.installationId);
    assert.equal(late!.message, 'carrier pickup missed');
    assert.equal(other_!.raisedByInstallationId, null);
    assert.match(other_!.message, /already shipped/);
    assert.equal(fulfil!.warehouseId, seed.warehouses.main);
    assert.equal(fulfil!.lineItemId, homeless.lineItemId);
    assert.match(fulfil!.message, /REJECTION_REASON_DAMAGED: crushed.*2 × AL/);
    assert.equal(fulfil!.createdAt, '2026-11-21T12:00:01.000Z');
    assert.equal(fulfil!.resolution, null);
    assert.equal(fulfil!.resolvedTs, null);
  });

  it('filters by orderNumber and status, and pages by keyset', async () => {
    assert.deepEqual((await list(`?orderNumber=${homeless.orderNumber}`)).results.map((a) => a.type), ['ALERT_TYPE_FULFILL']);
    assert.deepEqual((await list('?orderNumber=999999')).results, []);
    assert.deepEqual((await list('?orderNumber=not-a-number')).results, []);
    assert.deepEqual((await list('?status=RESOLVED')).results, []);
    assert.equal((await list('?status=OPEN')).results.length, 3);

    const seen: number[] = [];
    let cursor = '';
    for (let page = 0; page < 5; page += 1) {
      const res = await list(`?pageSize=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...res.results.map((a) => a.alertId));
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    assert.deepEqual(seen, (await list()).results.map((a) => a.alertId));

    const first = await list('?pageSize=1');
    assert.notEqual(first.nextCursor, '');
    // A cursor is bound to its account.
    assertV1Error(await admin('GET', `/admin/accounts/${other.accountId}/alerts?cursor=${encodeURIComponent(first.nextCursor)}`), 400, /cursor/);
    assertV1Error(await admin('GET', `/admin/accounts/${seed.accountId}/alerts?cursor=garbage`), 400, /cursor/);
    assertV1Error(await admin('GET', `/admin/accounts/${seed.accountId}/alerts?status=SOMETIMES`), 400);
    assertV1Error(await admin('GET', `/admin/accounts/${seed.accountId}/alerts?pageSize=0`), 400);
    assertV1Error(await admin('GET', '/admin/accounts/999999/alerts'), 404);
    assert.deepEqual((await list('', other.accountId)).results, [], "another account's alerts are not listed");
    const anonymous = await t.app.inject({ url: `/admin/accounts/${seed.accountId}/alerts`, headers: bearer(seed.sellerToken) });
    assertV1Error(anonymous, 401);
  });

  it('resolves an alert once; a repeat keeps the first resolution; bad input changes nothing', async () => {
    const [fulfil] = (await list(`?orderNumber=${homeless.orderNumber}`)).results;
    const url = (accountId: number, alertId: number) => `/admin/accounts/${accountId}/alerts/${alertId}/resolve`;
    const before = await alertRows();
    assertV1Error(await admin('POST', url(seed.accountId, fulfil!.alertId), {}), 400, /resolution/);
    assertV1Error(await admin('POST', url(seed.accountId, fulfil!.alertId), { resolution: '' }), 400, /resolution/);
    assertV1Error(await admin('POST', url(seed.accountId, fulfil!.alertId), { resolution: 'x', extra: 1 }), 400);
    assertV1Error(await admin('POST', url(other.accountId, fulfil!.alertId), { resolution: 'x' }), 404);
    assertV1Error(await admin('POST', url(seed.accountId, 999999), { resolution: 'x' }), 404);
    assertV1Error(await admin('POST', url(999999, fulfil!.alertId), { resolution: 'x' }), 404);
    assert.deepEqual(await alertRows(), before);

    clock.advance(1000);
    const res = await admin('POST', url(seed.accountId, fulfil!.alertId), { resolution: 'cancelled the order' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { alert: AlertView; alreadyResolved: boolean };
    assert.equal(body.alreadyResolved, false);
    assert.deepEqual(body.alert, { ...fulfil!, status: 'RESOLVED', resolution: 'cancelled the order', resolvedTs: clock.now().toISOString() });

    clock.advance(1000);
    const again = await admin('POST', url(seed.accountId, fulfil!.alertId), { resolution: 'something else' });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(again.json(), { alert: body.alert, alreadyResolved: true });

    assert.deepEqual((await list('?status=RESOLVED')).results.map((a) => a.alertId), [fulfil!.alertId]);
    assert.equal((await list('?status=OPEN')).results.length, 2);

    // Resolving a partner's alert frees its slot: the partner may raise that type again.
    const [late] = (await list(`?orderNumber=${partner.orderNumber}`)).results;
    assert.equal((await admin('POST', url(seed.accountId, late!.alertId), { resolution: 'called the carrier' })).statusCode, 200);
    const [reraised] = await batch(t, seed.shipping.token, 'fulfillment_orders/alerts', 'alerts', [
      { fulfillmentOrderId: partner.fulfillmentOrderId, type: 'ALERT_TYPE_LATE_SHIPMENT', message: 'still late' },
    ]);
    assert.equal(reraised!.alreadyOpen, false);
    assert.deepEqual(
      (await list(`?orderNumber=${partner.orderNumber}`)).results.map((a) => [a.status, a.message]),
      [
        ['OPEN', 'still late'],
        ['RESOLVED', 'carrier pickup missed'],
      ],
    );
  });
});
