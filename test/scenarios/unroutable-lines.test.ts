import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../src/domain/accounts/accounts.js';
import { SCOPES } from '../../src/domain/accounts/principal.js';
import { issueAdHocToken } from '../../src/domain/accounts/oauth.js';
import { createWarehouse } from '../../src/domain/accounts/warehouses.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { counters } from '../http/v1-inbound-receive-helpers.js';
import { createOrder, orderBody, routes, stock, type Order } from '../http/v1-sales-orders-helpers.js';
import { batch, foOf } from '../http/v2-shipping-support.js';

const PASSWORD = 'correct horse battery';

interface Alert {
  alertId: number | null;
  fulfillmentOrderId: string | null;
  orderNumber: string;
  warehouseId: number | null;
  type: string;
  message: string;
  lineItemId: string | null;
  raisedBy: string;
  status: string;
  resolvedTs: string | null;
}

/**
 * Issue 23 item 5 (resolutions §6 "Unroutable lines"): a line whose SKU is unknown, or that has no warehouse
 * to wait in, is kept, counts as backordered in the default warehouse (reserving nothing), and carries an
 * alert the seller sees (GET /admin/accounts/{id}/alerts, the console) until it is routed or cancelled;
 * creating and stocking the SKU routes it like any backorder fill.
 */
describe('unroutable lines', () => {
  const clock = manualClock(new Date('2026-11-24T08:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let main: number;
  let owner: ConsoleBrowser;
  let n = 0;
  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Unroutable Shop');
    main = seed.warehouses.main;
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@unroutable.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    owner = consoleBrowser(t);
    assert.equal((await owner.signIn('owner@unroutable.example', PASSWORD)).statusCode, 303);
  });
  after(async () => t.close());

  async function order(lines: Record<string, unknown>[], token = seed.channel.token, extra: Record<string, unknown> = {}): Promise<Order> {
    n += 1;
    clock.advance(1000);
    return createOrder(t, token, orderBody(`UR-${n}`, lines, extra));
  }
  async function alerts(accountId = seed.accountId, query = ''): Promise<{ results: Alert[]; nextCursor: string }> {
    const res = await admin(t, 'GET', `/admin/accounts/${accountId}/alerts${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { results: Alert[]; nextCursor: string };
  }
  const unrouted = async (o: Order, i = 0) =>
    (await t.deps.db.db.selectFrom('sales_order_lines').select('unrouted_quantity').where('id', '=', Number(o.products[i]!.lineItemId)).executeTakeFirstOrThrow()).unrouted_quantity;
  async function readOrder(o: Order, token = seed.sellerToken): Promise<Order> {
    const res = await t.app.inject({ url: `/v1/salesOrder/${o.orderNumber}`, headers: bearer(token) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order;
  }
  const homeCount = async () => {
    const home = await owner.get('/console/home');
    assert.equal(home.statusCode, 200);
    const match = /href="\/console\/orders\?needs=unroutable" data-count="(\d+)"/.exec(home.body);
    assert.ok(match, 'the home page counts orders with unroutable lines');
    return Number(match[1]);
  };

  it('keeps an unknown SKU line, counts it as backordered in the default warehouse and lists its alert until it is routed', async () => {
    await stock(t, seed.sellerToken, 'UR-KNOWN', main, 5);
    const o = await order([
      { requestedSku: 'UR-KNOWN', quantity: 1 },
      { requestedSku: 'UR-GHOST', quantity: 2 },
    ]);
    const ghost = o.products[1]!;
    assert.equal(o.products.length, 2, 'the line is kept');
    assert.equal(ghost.requestedSku, 'UR-GHOST');
    assert.equal(ghost.sku, null);
    assert.deepEqual(ghost.routing_info, [], 'routed nowhere, reserving nothing');
    assert.equal(o.status, 'PENDING');
    assert.equal(await unrouted(o, 1), 2);
    assert.equal(await unrouted(o, 0), 0);

    const listed = (await alerts()).results.filter((a) => a.orderNumber === o.orderNumber);
    assert.equal(listed.length, 1);
    const alert = listed[0]!;
    assert.equal(alert.type, 'UNROUTABLE_LINE');
    assert.equal(alert.alertId, null);
    assert.equal(alert.fulfillmentOrderId, null);
    assert.equal(alert.warehouseId, main, 'counted as backordered in the default warehouse');
    assert.equal(alert.lineItemId, ghost.lineItemId);
    assert.equal(alert.raisedBy, 'SERVICE');
    assert.equal(alert.status, 'OPEN');
    assert.match(alert.message, /2 × "UR-GHOST".*no product in your catalog has this SKU.*backordered in Main/);
    assert.deepEqual((await alerts(seed.accountId, `?orderNumber=${o.orderNumber}`)).results.map((a) => a.type), ['UNROUTABLE_LINE']);
    assert.deepEqual((await alerts(seed.accountId, `?status=RESOLVED&orderNumber=${o.orderNumber}`)).results, []);

    // The console: the order page says so in the seller's words and counts the units as backordered.
    const page = await owner.get(`/console/orders/${o.orderNumber}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /lines not sent to a warehouse/);
    assert.match(page.body, /no product in your catalog has this SKU/);
    assert.match(page.body, /UR-GHOST \(not in catalog\)<\/td>(?:<td>(?:(?!<\/td>).)*<\/td>){5}<td>2<\/td>/, 'the Backordered column counts the 2 units');
    assert.equal(await homeCount(), 1);
    const list = await owner.get('/console/orders?needs=unroutable');
    assert.deepEqual([...list.body.matchAll(/href="\/console\/orders\/(\d+)"/g)].map((m) => m[1]), [o.orderNumber]);

    // Creating the SKU without stock routes nothing yet; the alert now says it waits for stock.
    clock.advance(1000);
    await stock(t, seed.sellerToken, 'UR-GHOST', main, 0);
    assert.equal(await unrouted(o, 1), 2);
    assert.match((await alerts(seed.accountId, `?orderNumber=${o.orderNumber}`)).results[0]!.message, /routed as soon as stock of this SKU arrives/);

    // Stock of it arrives: the line is routed like any backorder fill, the alert goes, the shipper gets the line.
    clock.advance(1000);
    await stock(t, seed.sellerToken, 'UR-GHOST', main, 5);
    const after = await readOrder(o);
    assert.equal(after.products[1]!.sku, 'UR-GHOST');
    assert.deepEqual(routes(after.products[1]), { [main]: 2 });
    assert.equal(after.lastUpdatedTs, clock.now().toISOString());
    assert.equal(await unrouted(o, 1), 0);
    assert.deepEqual(await counters(t, seed.accountId, 'UR-GHOST', main), { available: 3, onhand: 5, reserved: 2 });
    assert.deepEqual((await alerts(seed.accountId, `?orderNumber=${o.orderNumber}`)).results, []);
    const fo = await foOf(t, seed.shipping.token, o.orderNumber);
    assert.deepEqual(
      fo.lines.map((l) => [l.sku, l.quantity]).sort(),
      [
        ['UR-GHOST', 2],
        ['UR-KNOWN', 1],
      ],
    );
    assert.doesNotMatch((await owner.get(`/console/orders/${o.orderNumber}`)).body, /lines not sent to a warehouse/);
    assert.equal(await homeCount(), 0);
  });

  it('a line routed once its SKU exists waits as an ordinary backorder when the stock is short', async () => {
    const o = await order([{ requestedSku: 'UR-SHORT', quantity: 3 }]);
    await stock(t, seed.sellerToken, 'UR-SHORT', main, 1);
    const after = await readOrder(o);
    assert.deepEqual(routes(after.products[0]), { [main]: 3 });
    const route = await t.deps.db.db
      .selectFrom('order_line_routes')
      .select(['reserved_quantity', 'backorder_quantity'])
      .where('line_id', '=', Number(o.products[0]!.lineItemId))
      .executeTakeFirstOrThrow();
    assert.deepEqual(route, { reserved_quantity: 1, backorder_quantity: 2 });
    assert.equal(await unrouted(o), 0);
    // From here on it is a backorder like any other: more stock fills it.
    await stock(t, seed.sellerToken, 'UR-SHORT', main, 2);
    assert.deepEqual(await counters(t, seed.accountId, 'UR-SHORT', main), { available: 0, onhand: 3, reserved: 3 });
  });

  it('cancelling the line closes its alert', async () => {
    const o = await order([{ requestedSku: 'UR-NOPE', quantity: 3 }]);
    assert.equal((await alerts(seed.accountId, `?orderNumber=${o.orderNumber}`)).results.length, 1);
    const partial = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/orders/${o.orderNumber}/cancel`, {
      reason: 'not something we sell',
      lineItems: [{ lineItemId: o.products[0]!.lineItemId, quantity: 1 }],
    });
    assert.equal(partial.statusCode, 200, partial.body);
    assert.equal(await unrouted(o), 2);
    assert.match((await alerts(seed.accountId, `?orderNumber=${o.orderNumber}`)).results[0]!.message, /2 × "UR-NOPE"/);
    const rest = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/orders/${o.orderNumber}/cancel`, { reason: 'not something we sell' });
    assert.equal(rest.statusCode, 200, rest.body);
    assert.equal(await unrouted(o), 0);
    assert.equal((await readOrder(o)).status, 'CANCELLED');
    assert.deepEqual((await alerts(seed.accountId, `?orderNumber=${o.orderNumber}`)).results, []);
    // Stock of that SKU later routes nothing: the line is cancelled.
    await stock(t, seed.sellerToken, 'UR-NOPE', main, 4);
    assert.deepEqual(await counters(t, seed.accountId, 'UR-NOPE', main), { available: 4, onhand: 4, reserved: 0 });
  });

  it('pages through unroutable-line alerts first, then the fulfillment alerts', async () => {
    const o = await order([{ requestedSku: 'UR-PAGE', quantity: 1 }]);
    // A fulfillment alert: the shipper rejects and no other warehouse has the SKU.
    await stock(t, seed.sellerToken, 'UR-REJ', main, 1);
    const rejected = await order([{ requestedSku: 'UR-REJ', quantity: 1 }]);
    const fo = await foOf(t, seed.shipping.token, rejected.orderNumber);
    const [result] = await batch(t, seed.shipping.token, 'fulfillment_orders/reject', 'rejections', [
      { fulfillmentOrderId: fo.fulfillmentOrderId, reason: 'REJECTION_REASON_DAMAGED', detail: 'crushed' },
    ]);
    assert.ok(result!.success, result!.errorMessage);

    const seen: Alert[] = [];
    let cursor = '';
    for (let pages = 0; pages < 20; pages++) {
      const page = await alerts(seed.accountId, `?pageSize=1${cursor === '' ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      seen.push(...page.results);
      cursor = page.nextCursor;
      if (cursor === '') break;
    }
    assert.equal(cursor, '', 'the last page says so');
    const kinds = seen.map((a) => (a.type === 'UNROUTABLE_LINE' ? 'line' : 'stored'));
    assert.deepEqual(kinds, [...kinds].sort(), 'unroutable lines first, then stored alerts');
    assert.ok(seen.some((a) => a.type === 'UNROUTABLE_LINE' && a.orderNumber === o.orderNumber));
    assert.ok(seen.some((a) => a.type !== 'UNROUTABLE_LINE' && a.orderNumber === rejected.orderNumber && a.alertId !== null));
    assert.equal(new Set(seen.map((a) => `${a.type}:${a.alertId}:${a.lineItemId}`)).size, seen.length, 'nothing twice');
  });

  it('a line with no warehouse to wait in is kept and routed once a warehouse has stock of it', async () => {
    const now = clock.now();
    const { accountId } = await createAccount(t.deps.db.db, { name: 'Marketplace-only shop' }, now);
    await createWarehouse(t.deps.db.db, accountId, { name: 'Marketplace network', channelFulfilled: true }, now);
    const network = (await createWarehouse(t.deps.db.db, accountId, { name: 'Marketplace network 2', channelFulfilled: true }, now)).warehouseId;
    const { accessToken: seller } = await issueAdHocToken(t.deps.db.db, accountId, [...SCOPES], now);
    // The SKU is known (the marketplace's count of it), but no warehouse can hold a backorder of a seller order.
    await stock(t, seller, 'UR-NOWH', network, 0);
    const o = await order([{ requestedSku: 'UR-NOWH', quantity: 2 }], seller, { channel: 'Web' });
    assert.deepEqual(o.products[0]!.routing_info, []);
    assert.equal(await unrouted(o), 2);
    const [alert] = (await alerts(accountId)).results;
    assert.equal(alert!.type, 'UNROUTABLE_LINE');
    assert.equal(alert!.warehouseId, null);
    assert.match(alert!.message, /run by a sales channel/);

    const shelf = (await createWarehouse(t.deps.db.db, accountId, { name: 'Shelf' }, clock.now())).warehouseId;
    await stock(t, seller, 'UR-NOWH', shelf, 5);
    assert.deepEqual(routes((await readOrder(o, seller)).products[0]), { [shelf]: 2 });
    assert.deepEqual((await alerts(accountId)).results, []);
  });
});
