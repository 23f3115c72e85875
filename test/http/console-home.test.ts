import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';
import { batch, foOf } from './v2-shipping-support.js';

const PASSWORD = 'correct horse battery';

/** The count a home tile shows and where it links (null for a tile without a list). */
function figure(body: string, key: string): { count: number; href: string | null } {
  const link = new RegExp(`<a href="([^"]+)" data-count="(\\d+)" data-figure="${key}"`).exec(body);
  if (link) return { count: Number(link[2]), href: link[1]!.replaceAll('&amp;', '&') };
  const plain = new RegExp(`<div data-count="(\\d+)" data-figure="${key}"`).exec(body);
  assert.ok(plain, `a ${key} figure on the home page`);
  return { count: Number(plain[1]), href: null };
}

const orderLinks = (body: string) => [...body.matchAll(/href="\/console\/orders\/(\d+)"/g)].map((m) => m[1]!).sort();

describe('console: the seller home page (counts that link to their lists, the last 30 days)', () => {
  const clock = manualClock(new Date('2026-11-23T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let empty: SeededAccount;
  let owner: ConsoleBrowser;
  let otherOwner: ConsoleBrowser;
  let emptyOwner: ConsoleBrowser;
  const orders: Record<string, Order> = {};

  const signedIn = async (accountId: number, email: string) => {
    assert.equal((await admin(t, 'POST', `/admin/accounts/${accountId}/users`, { email, password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    const b = consoleBrowser(t);
    assert.equal((await b.signIn(email, PASSWORD)).statusCode, 303);
    return b;
  };
  const home = async (b: ConsoleBrowser) => {
    const res = await b.get('/console/home');
    assert.equal(res.statusCode, 200, res.body);
    return res.body;
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Home Shop');
    other = await seedAccount(t, 'Other Home Shop');
    empty = await seedAccount(t, 'Empty Home Shop');
    const token = seed.channel.token;
    await stock(t, seed.sellerToken, 'MUG', seed.warehouses.main, 50);
    await stock(t, seed.sellerToken, 'AL', seed.warehouses.main, 10);
    await stock(t, seed.sellerToken, 'BO', seed.warehouses.main, 0);
    orders.toShip = await createOrder(t, token, orderBody('H-SHIP', [{ requestedSku: 'MUG', quantity: 2, unitPrice: 9.5 }]));
    orders.backordered = await createOrder(t, token, orderBody('H-BACK', [{ requestedSku: 'BO', quantity: 33, unitPrice: 1 }]));
    orders.unroutable = await createOrder(t, token, orderBody('H-UNR', [{ requestedSku: 'NO-SUCH-SKU', quantity: 1, unitPrice: 3 }]));
    orders.late = await createOrder(t, token, orderBody('H-LATE', [{ requestedSku: 'MUG', quantity: 1, unitPrice: 5, latestShipBy: '2026-11-21T00:00:00Z' }]));
    // A ship-by date still ahead is not late.
    orders.onTime = await createOrder(t, token, orderBody('H-ONTIME', [{ requestedSku: 'MUG', quantity: 1, unitPrice: 5, latestShipBy: '2026-11-30T00:00:00Z' }]));
    // Only main holds AL: the shipper's rejection finds no other warehouse, so an alert is raised.
    orders.alert = await createOrder(t, token, orderBody('H-ALERT', [{ requestedSku: 'AL', quantity: 2, unitPrice: 4.5 }]));
    const fo = await foOf(t, seed.shipping.token, orders.alert.orderNumber);
    const [rejection] = await batch(t, seed.shipping.token, 'fulfillment_orders/reject', 'rejections', [
      { fulfillmentOrderId: fo.fulfillmentOrderId, reason: 'REJECTION_REASON_DAMAGED', detail: 'crushed' },
    ]);
    assert.ok(rejection!.success, rejection!.errorMessage);
    // An open return (requested, not received): written as the return request writes it, without shipping first.
    orders.returned = await createOrder(t, token, orderBody('H-RET', [{ requestedSku: 'MUG', quantity: 1, unitPrice: 7 }]));
    const iso = clock.now().toISOString();
    await t.deps.db.db
      .insertInto('sales_order_returns')
      .values({ account_id: seed.accountId, order_id: Number(orders.returned.orderNumber), channel_return_id: 'RMA-1', request_ts: iso, cancelled: 0, received_ts: null, created_at: iso, restock_warehouse_id: null, closed_ts: null })
      .execute();
    // A closed one does not count.
    await t.deps.db.db
      .insertInto('sales_order_returns')
      .values({ account_id: seed.accountId, order_id: Number(orders.toShip.orderNumber), channel_return_id: 'RMA-0', request_ts: iso, cancelled: 0, received_ts: iso, created_at: iso, restock_warehouse_id: null, closed_ts: iso })
      .execute();
    // The other account has its own late, unroutable and backordered orders: none counts for the first.
    await stock(t, other.sellerToken, 'MUG', other.warehouses.main, 5);
    orders.otherLate = await createOrder(t, other.channel.token, orderBody('O-LATE', [{ requestedSku: 'MUG', quantity: 1, latestShipBy: '2026-11-22T00:00:00Z' }]));
    orders.otherUnroutable = await createOrder(t, other.channel.token, orderBody('O-UNR', [{ requestedSku: 'NOPE', quantity: 2 }]));
    owner = await signedIn(seed.accountId, 'owner@home.example');
    otherOwner = await signedIn(other.accountId, 'owner@other-home.example');
    emptyOwner = await signedIn(empty.accountId, 'owner@empty-home.example');
  });
  after(() => t.close());

  it('counts each kind of work, each number a link to the list of exactly those orders', async () => {
    const body = await home(owner);
    const expected: Record<string, { count: number; href: string; orders: Order[] }> = {
      'to-ship': {
        count: 7,
        href: '/console/orders?tab=to-ship',
        orders: [orders.toShip!, orders.backordered!, orders.unroutable!, orders.late!, orders.onTime!, orders.alert!, orders.returned!],
      },
      'past-ship-by': { count: 1, href: '/console/orders?needs=overdue', orders: [orders.late!] },
      backordered: { count: 2, href: '/console/orders?tab=backordered', orders: [orders.backordered!, orders.unroutable!] },
      unroutable: { count: 1, href: '/console/orders?needs=unroutable', orders: [orders.unroutable!] },
      'open-returns': { count: 1, href: '/console/orders?needs=returns', orders: [orders.returned!] },
      alerts: { count: 1, href: '/console/orders?needs=alert', orders: [orders.alert!] },
      rejected: { count: 1, href: '/console/orders?needs=rejected', orders: [orders.alert!] },
      unacknowledged: { count: 0, href: '/console/orders?needs=late', orders: [] },
    };
    for (const [key, want] of Object.entries(expected)) {
      const got = figure(body, key);
      assert.deepEqual(got, { count: want.count, href: want.href }, key);
      const list = await owner.get(got.href!);
      assert.equal(list.statusCode, 200, list.body);
      assert.deepEqual(orderLinks(list.body), want.orders.map((o) => o.orderNumber).sort(), `${key}: the list it links to`);
    }
    assert.deepEqual(figure(body, 'failed-callbacks'), { count: 0, href: '/console/apps/callbacks?state=DEAD' });
    assert.deepEqual(figure(body, 'dead-jobs'), { count: 0, href: null });
    assert.ok(!body.includes('All clear'), 'no "All clear" while anything waits');
    assert.ok(!body.includes('No orders yet'));
  });

  it('a late order stops counting once its owed units are shipped or cancelled; an order past ship-by in a list says why it is there', async () => {
    const list = await owner.get('/console/orders?needs=overdue');
    assert.match(list.body, /Showing orders past their ship-by date with units still to ship\./);
    const res = await t.app.inject({ method: 'POST', url: `/v1/salesOrder/cancel/${orders.late!.orderNumber}`, headers: bearer(seed.channel.token), payload: { cancellationReason: 'BuyerCanceled' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(figure(await home(owner), 'past-ship-by').count, 0);
    // The cancelled order leaves the to-ship count too.
    assert.equal(figure(await home(owner), 'to-ship').count, 6);
  });

  it('another account sees only its own figures', async () => {
    const body = await home(otherOwner);
    assert.match(body, /<h1>Other Home Shop<\/h1>/);
    assert.equal(figure(body, 'past-ship-by').count, 1);
    assert.equal(figure(body, 'unroutable').count, 1);
    assert.equal(figure(body, 'open-returns').count, 0);
    assert.equal(figure(body, 'alerts').count, 0);
    assert.equal(figure(body, 'to-ship').count, 2);
    const late = await otherOwner.get('/console/orders?needs=overdue');
    assert.deepEqual(orderLinks(late.body), [orders.otherLate!.orderNumber]);
    const returns = await otherOwner.get('/console/orders?needs=returns');
    assert.deepEqual(orderLinks(returns.body), []);
  });

  it('a new account: first steps, "All clear" with every check at 0, no chart', async () => {
    const body = await home(emptyOwner);
    assert.match(body, /No orders yet/);
    assert.match(body, /data-all-clear="true"/);
    assert.match(body, /All clear: nothing to ship, nothing late, no alerts or failures\./);
    for (const key of ['to-ship', 'past-ship-by', 'backordered', 'unroutable', 'open-returns', 'alerts', 'rejected', 'unacknowledged', 'failed-callbacks', 'dead-jobs']) {
      assert.equal(figure(body, key).count, 0, key);
    }
    assert.ok(!body.includes('<svg'), 'no chart without orders');
  });

  it('counts dead background jobs of the account only, with what to do (no seller list exists)', async () => {
    const iso = clock.now().toISOString();
    const job = { type: 'test.noop', payload: '{}', status: 'DEAD', attempts: 5, max_attempts: 5, run_at: iso, created_at: iso, updated_at: iso, finished_at: iso };
    await t.deps.db.db.insertInto('jobs').values([{ ...job, account_id: empty.accountId }, { ...job, account_id: other.accountId }, { ...job, account_id: empty.accountId, status: 'SUCCEEDED' }]).execute();
    const body = await home(emptyOwner);
    assert.deepEqual(figure(body, 'dead-jobs'), { count: 1, href: null });
    assert.match(body, /Ask your platform operator/);
    assert.ok(!body.includes('All clear'), 'a failure is never hidden under "All clear"');
    assert.equal(figure(await home(owner), 'dead-jobs').count, 0);
  });

  it('an account whose orders are all older than 30 days: no first steps, the chart says there were none', async () => {
    const old = await seedAccount(t, 'Quiet Shop');
    await stock(t, old.sellerToken, 'MUG', old.warehouses.main, 5);
    await createOrder(t, old.channel.token, orderBody('Q-1', [{ requestedSku: 'MUG', quantity: 1, unitPrice: 4 }], { orderTs: '2026-09-01T10:00:00Z' }));
    const body = await home(await signedIn(old.accountId, 'owner@quiet.example'));
    assert.ok(!body.includes('No orders yet'));
    assert.match(body, /No orders in the last 30 days\./);
    assert.match(body, /data-orders="0" data-sales="0"/);
    assert.ok(!body.includes('<svg'));
  });

  it('a zone whose days start on the half hour (Asia/Kolkata) counts each order in its own day', async () => {
    const shop = await seedAccount(t, 'Half Hour Shop');
    assert.equal((await admin(t, 'PATCH', `/admin/accounts/${shop.accountId}`, { timeZone: 'Asia/Kolkata' })).statusCode, 200);
    await stock(t, shop.sellerToken, 'TEE', shop.warehouses.main, 10);
    // 2026-11-23 09:00 UTC is 14:30 in Kolkata; Nov 23 there started at 2026-11-22 18:30 UTC.
    await createOrder(t, shop.channel.token, orderBody('K-1', [{ requestedSku: 'TEE', quantity: 1, unitPrice: '1.25' }], { orderTs: '2026-11-22T18:29:00Z' }));
    await createOrder(t, shop.channel.token, orderBody('K-2', [{ requestedSku: 'TEE', quantity: 1, unitPrice: '2.50' }], { orderTs: '2026-11-22T18:30:00Z' }));
    const body = await home(await signedIn(shop.accountId, 'owner@kolkata.example'));
    assert.match(body, /<tr data-day="2026-11-23"><th scope="row">2026-11-23<\/th><td class="num">1<\/td><td class="num">\$2\.50<\/td><\/tr>/);
    assert.match(body, /<tr data-day="2026-11-22"><th scope="row">2026-11-22<\/th><td class="num">1<\/td><td class="num">\$1\.25<\/td><\/tr>/);
  });

  it("charts the last 30 days' orders and sales by day in the seller's time zone", async () => {
    const shop = await seedAccount(t, 'Chart Shop');
    assert.equal((await admin(t, 'PATCH', `/admin/accounts/${shop.accountId}`, { currencyCode: 'EUR', timeZone: 'America/New_York' })).statusCode, 200);
    await stock(t, shop.sellerToken, 'TEE', shop.warehouses.main, 100);
    const placed = async (id: string, orderTs: string, quantity: number, unitPrice: string) =>
      createOrder(t, shop.channel.token, orderBody(id, [{ requestedSku: 'TEE', quantity, unitPrice }], { orderTs }));
    // 2026-11-23 09:00 UTC is 04:00 in New York (EST): today there is Nov 23, the first charted day Oct 25 (EDT).
    await placed('C-1', '2026-11-23T04:00:00Z', 1, '10.10'); // Nov 22, 23:00 in New York
    await placed('C-2', '2026-11-22T05:30:00Z', 3, '2.25'); // Nov 22, 00:30
    await placed('C-3', '2026-11-23T06:00:00Z', 2, '0.05'); // Nov 23, 01:00
    await placed('C-4', '2026-10-25T04:00:00Z', 1, '100'); // Oct 25, 00:00 EDT: the first day's first instant
    await placed('C-5', '2026-10-25T03:59:00Z', 1, '1000'); // Oct 24, 23:59: before the window
    const cancelled = await placed('C-6', '2026-11-22T12:00:00Z', 1, '500'); // cancelled in full: left out
    const res = await t.app.inject({ method: 'POST', url: `/v1/salesOrder/cancel/${cancelled.orderNumber}`, headers: bearer(shop.channel.token), payload: { cancellationReason: 'BuyerCanceled' } });
    assert.equal(res.statusCode, 200, res.body);
    const b = await signedIn(shop.accountId, 'owner@chart.example');
    const body = await home(b);
    assert.match(body, /data-orders="4" data-sales="116.95"/);
    assert.match(body, /€116\.95<\/span> in sales from <span>4 orders<\/span>/);
    const rows = [...body.matchAll(/<tr data-day="([\d-]+)"><th scope="row">[\d-]+<\/th><td class="num">(\d+)<\/td><td class="num">([^<]+)<\/td><\/tr>/g)].map((m) => [m[1], m[2], m[3]]);
    assert.equal(rows.length, 30, 'every day, zeros included');
    assert.deepEqual(rows[0], ['2026-11-23', '1', '€0.10']);
    assert.deepEqual(rows[1], ['2026-11-22', '2', '€16.85']);
    assert.deepEqual(rows[29], ['2026-10-25', '1', '€100.00']);
    assert.deepEqual(rows.slice(2, 29).filter((r) => r[1] !== '0'), [], 'the days between had no orders');
    // The charts: a title and a description each, no inline style or script.
    assert.match(body, /<svg class="chart" viewBox="0 0 360 170" role="img" aria-labelledby="chart-sales-title chart-sales-desc" data-chart="sales">/);
    assert.match(body, /<desc id="chart-sales-desc">Sales per day from 2026-10-25 to 2026-11-23\. Highest: €100\.00 on 2026-10-25\./);
    assert.match(body, /<desc id="chart-orders-desc">Orders per day from 2026-10-25 to 2026-11-23\. Highest: 2 orders on 2026-11-22\./);
    assert.ok(!/style=|<script(?! src)/.test(body.replace(/<script src="[^"]+"[^>]*><\/script>/g, '')), 'no inline style or script');
  });
});
