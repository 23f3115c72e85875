import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { assertV1Error, createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';
import { batch, foOf } from './v2-shipping-support.js';

const ORDERED = '2026-11-20T10:00:00.000Z';
const DAY = 24 * 60 * 60 * 1000;

/**
 * Issue 23 item 6: a package dated before its order's orderTs, or more than a day after the service's clock,
 * is refused naming the package and the field, and nothing changes: v1 POST /v1/salesOrder/shipments fails
 * the whole call (400, v1 error body); v2 POST /v2/shipping/shipments fails that entry (success false, the
 * batch rule of document 7.3) and records the others. The bounds themselves are accepted. The console's
 * timeline lists events by their time.
 */
describe('shipment dates', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let n = 0;

  const order = async (quantity = 2): Promise<Order> => {
    n += 1;
    clock.advance(1000);
    return createOrder(t, seed.channel.token, orderBody(`SD-${n}`, [{ requestedSku: 'SD', quantity }], { orderTs: ORDERED }));
  };
  const v1Package = (o: Order, id: string, shippedTs: string | undefined, quantity = 1) => ({
    orderNumber: o.orderNumber,
    fulfillmentPackageId: id,
    warehouseId: seed.warehouses.main,
    carrier: 'UPS',
    tracking: `1Z-${id}`,
    service_level: 'Ground',
    ...(shippedTs === undefined ? {} : { shippedTs }),
    products: [{ lineItemId: o.products[0]!.lineItemId, quantity }],
  });
  const shipV1 = (packages: unknown[]) => t.app.inject({ method: 'POST', url: '/v1/salesOrder/shipments', headers: bearer(seed.sellerToken), payload: { packages } });
  const read = async (o: Order) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${o.orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order & { packages: { shippedTs: string }[] };
  };
  const snapshot = async (o: Order) => ({
    order: await read(o),
    packages: await t.deps.db.db.selectFrom('sales_order_packages').selectAll().where('order_id', '=', Number(o.orderNumber)).orderBy('id').execute(),
    routes: await t.deps.db.db.selectFrom('order_line_routes').selectAll().where('order_id', '=', Number(o.orderNumber)).orderBy('id').execute(),
    inventory: await t.deps.db.db.selectFrom('inventory').selectAll().where('account_id', '=', seed.accountId).orderBy('id').execute(),
  });
  const iso = (ms: number) => new Date(ms).toISOString();

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Ship Dates Shop');
    await stock(t, seed.sellerToken, 'SD', seed.warehouses.main, 1000);
  });
  after(async () => t.close());

  describe('v1 POST /v1/salesOrder/shipments', () => {
    it('refuses a package dated before orderTs (400 naming it), recording none of the call', async () => {
      const a = await order();
      const b = await order();
      const before = { a: await snapshot(a), b: await snapshot(b) };
      const res = await shipV1([v1Package(a, 'OK-1', undefined), v1Package(b, 'EARLY', '2026-11-20T09:59:59.999Z')]);
      const [message] = assertV1Error(res, 400, /packages\[1\]\.shippedTs: package "EARLY" is dated 2026-11-20T09:59:59\.999Z, before its order was placed \(orderTs 2026-11-20T10:00:00\.000Z\)/);
      assert.ok(message);
      assert.deepEqual({ a: await snapshot(a), b: await snapshot(b) }, before, 'the valid package was not recorded either');
      // The same instant in another zone is judged as an instant: 11:59+02:00 is 09:59Z.
      assertV1Error(await shipV1([v1Package(b, 'EARLY-TZ', '2026-11-20T11:59:00+02:00')]), 400, /packages\[0\]\.shippedTs: package "EARLY-TZ"/);
      assert.deepEqual(await snapshot(b), before.b);
    });

    it('refuses a package dated more than a day ahead of now', async () => {
      const o = await order();
      const before = await snapshot(o);
      const late = iso(clock.now().getTime() + DAY + 1);
      assertV1Error(await shipV1([v1Package(o, 'LATE', late)]), 400, new RegExp(`packages\\[0\\]\\.shippedTs: package "LATE" is dated ${late.replace(/\./g, '\\.')}, more than a day after now`));
      assertV1Error(await shipV1([v1Package(o, 'NEXT-YEAR', '2027-11-21T12:00:00Z')]), 400, /more than a day after now/);
      assert.deepEqual(await snapshot(o), before);
    });

    it('accepts exactly orderTs, exactly now, no date (now) and exactly a day ahead', async () => {
      const o = await order(4);
      const edge = iso(clock.now().getTime() + DAY);
      const res = await shipV1([
        v1Package(o, 'AT-ORDER', ORDERED),
        v1Package(o, 'AT-NOW', clock.now().toISOString()),
        v1Package(o, 'DEFAULT', undefined),
        v1Package(o, 'A-DAY-AHEAD', edge),
      ]);
      assert.equal(res.statusCode, 200, res.body);
      const shipped = await read(o);
      assert.equal(shipped.status, 'SHIPPED');
      assert.deepEqual(
        shipped.packages.map((p) => p.shippedTs),
        [ORDERED, clock.now().toISOString(), clock.now().toISOString(), edge],
      );
      // A replay is answered as before, whatever date it carries: the package is already recorded.
      const before = await snapshot(o);
      const replay = await shipV1([v1Package(o, 'AT-ORDER', '2020-01-01T00:00:00Z')]);
      assert.equal(replay.statusCode, 200, replay.body);
      assert.deepEqual(await snapshot(o), before);
    });
  });

  describe('v2 POST /v2/shipping/shipments', () => {
    const entry = (fulfillmentOrderId: string, externalShipmentId: string, shippedTs: string | undefined) => ({
      fulfillmentOrderId,
      externalShipmentId,
      carrier: 'UPS',
      trackingNumber: `T-${externalShipmentId}`,
      serviceLevel: 'Ground',
      ...(shippedTs === undefined ? {} : { shippedTs }),
      lines: [],
    });

    it('fails an entry dated before orderTs or more than a day ahead (naming it), records the others', async () => {
      const early = await order();
      const late = await order();
      const fine = await order();
      const [foEarly, foLate, foFine] = [await foOf(t, seed.shipping.token, early.orderNumber), await foOf(t, seed.shipping.token, late.orderNumber), await foOf(t, seed.shipping.token, fine.orderNumber)];
      // The account's inventory moves with the entry that ships; the refused ones' orders must not.
      const state = async (o: Order) => {
        const { inventory: _shared, ...own } = await snapshot(o);
        return own;
      };
      const before = { early: await state(early), late: await state(late) };
      const lateTs = iso(clock.now().getTime() + DAY + 1000);
      const results = await batch(t, seed.shipping.token, 'shipments', 'shipments', [
        entry(foEarly!.fulfillmentOrderId, 'V2-EARLY', '2026-11-19T23:00:00Z'),
        entry(foLate!.fulfillmentOrderId, 'V2-LATE', lateTs),
        entry(foFine!.fulfillmentOrderId, 'V2-FINE', undefined),
      ]);
      assert.equal(results[0]!.success, false);
      assert.match(results[0]!.errorMessage, /^shipments\[0\]\.shippedTs: package "V2-EARLY" is dated 2026-11-19T23:00:00\.000Z, before its order was placed \(orderTs 2026-11-20T10:00:00\.000Z\)/);
      assert.equal(results[1]!.success, false);
      assert.match(results[1]!.errorMessage, /^shipments\[1\]\.shippedTs: package "V2-LATE" is dated .*more than a day after now/);
      assert.equal(results[2]!.success, true, results[2]!.errorMessage);
      assert.deepEqual({ early: await state(early), late: await state(late) }, before, 'refused entries changed nothing');
      assert.equal((await read(fine)).status, 'SHIPPED');
      // Still owed: the partner corrects the date and sends it again.
      const again = await batch(t, seed.shipping.token, 'shipments', 'shipments', [entry(foEarly!.fulfillmentOrderId, 'V2-EARLY', ORDERED)]);
      assert.equal(again[0]!.success, true, again[0]!.errorMessage);
      assert.equal((await read(early)).packages[0]!.shippedTs, ORDERED);
    });

    it('accepts exactly a day ahead', async () => {
      const o = await order();
      const fo = await foOf(t, seed.shipping.token, o.orderNumber);
      const edge = iso(clock.now().getTime() + DAY);
      const [result] = await batch(t, seed.shipping.token, 'shipments', 'shipments', [entry(fo.fulfillmentOrderId, 'V2-EDGE', edge)]);
      assert.equal(result!.success, true, result!.errorMessage);
      assert.equal((await read(o)).packages[0]!.shippedTs, edge);
    });
  });

  it('the console timeline lists events by their time, ties in the order things happen', async () => {
    const o = await order(2);
    clock.advance(60_000);
    const shippedAt = '2026-11-20T18:30:00.000Z';
    assert.equal((await shipV1([v1Package(o, 'TL-1', shippedAt, 2)])).statusCode, 200);
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@dates.example', password: 'correct horse battery', role: 'OWNER' })).statusCode, 201);
    const owner = consoleBrowser(t);
    assert.equal((await owner.signIn('owner@dates.example', 'correct horse battery')).statusCode, 303);
    const page = await owner.get(`/console/orders/${o.orderNumber}`);
    assert.equal(page.statusCode, 200, page.body);
    const timeline = page.body.slice(page.body.indexOf('<ol class="timeline">'), page.body.indexOf('</ol>', page.body.indexOf('<ol class="timeline">')));
    const times = [...timeline.matchAll(/<time datetime="([^"]+)"/g)].map((m) => Date.parse(m[1]!));
    assert.ok(times.length >= 4, timeline);
    assert.deepEqual(times, [...times].sort((a, b) => a - b), 'chronological');
    const at = (text: string) => timeline.indexOf(text);
    assert.ok(at('Ordered on') >= 0 && at('Ordered on') < at('shipped with UPS'), 'ordered before shipped');
    assert.ok(at('shipped with UPS') < at('routed to'), 'the package (shipped 18:30 on the 20th) comes before routing (the 21st), by time');
    assert.ok(at('Last change') > at('routed to'));
  });
});
