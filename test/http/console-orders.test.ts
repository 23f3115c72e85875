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
const PAGED = 55;

const orderLinks = (body: string) => [...body.matchAll(/href="\/console\/orders\/(\d+)"/g)].map((m) => m[1]!);
const countOf = (body: string, needs: string) => {
  const match = new RegExp(`href="/console/orders\\?needs=${needs}" data-count="(\\d+)"`).exec(body);
  assert.ok(match, `a ${needs} count on the home page`);
  return Number(match[1]);
};

describe('console: seller home and orders', () => {
  const clock = manualClock(new Date('2026-11-23T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let rejected: Order;
  const paged: Order[] = [];
  let otherOrder: Order;
  let owner: ConsoleBrowser;

  const apiOrder = async (orderNumber: string) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order & { products: { lineItemId: string; cancelQuantity: number }[] };
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Console Orders Shop');
    other = await seedAccount(t, 'Other Shop');
    await stock(t, seed.sellerToken, 'AL', seed.warehouses.main, 10);
    await stock(t, seed.sellerToken, 'PG', seed.warehouses.main, 500);
    // Only main holds AL: the shipping partner's rejection finds no other home, so an alert is raised.
    rejected = await createOrder(t, seed.channel.token, orderBody('AL-1', [{ requestedSku: 'AL', quantity: 2, unitPrice: 4.5 }]));
    const fo = await foOf(t, seed.shipping.token, rejected.orderNumber);
    const [result] = await batch(t, seed.shipping.token, 'fulfillment_orders/reject', 'rejections', [
      { fulfillmentOrderId: fo.fulfillmentOrderId, reason: 'REJECTION_REASON_DAMAGED', detail: 'crushed' },
    ]);
    assert.ok(result!.success, result!.errorMessage);
    for (let i = 0; i < PAGED; i++) {
      clock.advance(1000);
      paged.push(await createOrder(t, seed.channel.token, orderBody(`PG-${i}`, [{ requestedSku: 'PG', quantity: 3, unitPrice: 2 }])));
    }
    await stock(t, other.sellerToken, 'PG', other.warehouses.main, 5);
    otherOrder = await createOrder(t, other.channel.token, orderBody('OTHER-1', [{ requestedSku: 'PG', quantity: 1 }]));
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@orders.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'staff@orders.example', password: PASSWORD, role: 'STAFF' })).statusCode, 201);
    owner = consoleBrowser(t);
    assert.equal((await owner.signIn('owner@orders.example', PASSWORD)).statusCode, 303);
  });
  after(() => t.close());

  it('home counts the open alert and the rejected fulfillment order, each linking to the filtered list', async () => {
    const home = await owner.get('/console/home');
    assert.equal(home.statusCode, 200, home.body);
    assert.equal(countOf(home.body, 'alert'), 1);
    assert.equal(countOf(home.body, 'rejected'), 1);
    assert.equal(countOf(home.body, 'late'), 0);
    const list = await owner.get('/console/orders?needs=alert');
    assert.equal(list.statusCode, 200, list.body);
    assert.deepEqual(orderLinks(list.body), [rejected.orderNumber]);
    assert.deepEqual(orderLinks((await owner.get('/console/orders?needs=rejected')).body), [rejected.orderNumber]);
  });

  it('lists orders newest change first, filters them and pages with a cursor', async () => {
    const first = await owner.get('/console/orders?sku=PG');
    assert.equal(first.statusCode, 200, first.body);
    const page1 = orderLinks(first.body);
    assert.equal(page1.length, 50);
    assert.equal(page1[0], paged[PAGED - 1]!.orderNumber, 'the most recently changed first');
    const next = /href="(\/console\/orders\?[^"]*cursor=[^"]+)"/.exec(first.body)?.[1]?.replace(/&amp;/g, '&');
    assert.ok(next, 'a next page link');
    assert.match(next, /q=PG/, 'the filters are kept (the SKU box of earlier links is now the search)');
    const second = await owner.get(next);
    const page2 = orderLinks(second.body);
    assert.equal(page2.length, PAGED - 50);
    assert.match(second.body, /End of the list/);
    assert.equal(new Set([...page1, ...page2]).size, PAGED, 'no order twice');
    assert.ok(!page2.includes(rejected.orderNumber), 'the SKU filter leaves the AL order out');
    // Status, channel and date filters.
    assert.deepEqual(orderLinks((await owner.get('/console/orders?status=CANCELLED')).body), []);
    assert.equal(orderLinks((await owner.get(`/console/orders?channel=s%3A${seed.channel.installationId}&status=PENDING`)).body).length, 50);
    assert.deepEqual(orderLinks((await owner.get('/console/orders?from=2027-01-01')).body), []);
    assert.equal(orderLinks((await owner.get('/console/orders?from=2026-11-20&to=2026-11-20&sku=AL')).body).length, 1);
    const bad = await owner.get('/console/orders?cursor=forged');
    assert.equal(bad.statusCode, 400);
    assert.match(bad.headers['content-type'] as string, /text\/html/);
  });

  it("shows an order's lines, routing, fulfillment order and alert", async () => {
    const page = await owner.get(`/console/orders/${rejected.orderNumber}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /<td>AL<\/td>/);
    assert.match(page.body, /<td>Main<\/td>/);
    // Statuses, reasons and alert types in the seller's words, never the API's enums.
    assert.match(page.body, /Rejected by the shipper/);
    assert.match(page.body, /Damaged: crushed/);
    assert.match(page.body, /Cannot be fulfilled/);
    assert.doesNotMatch(page.body, /REJECTION_REASON_|ALERT_TYPE_|FULFILLMENT_ORDER_STATUS_/);
    assert.match(page.body, /Re-route or cancel them/);
    assert.match(page.body, /action="\/console\/orders\/\d+\/alerts\/\d+\/resolve"/);
    assert.match(page.body, /Timeline/);
  });

  it('cancels units of a line through the page; the API sees the cancellation; a refusal is a flash', async () => {
    const order = paged[0]!;
    const lineId = order.products[0]!.lineItemId;
    const url = `/console/orders/${order.orderNumber}`;
    const page = await owner.get(url);
    assert.match(page.body, new RegExp(`name="qty_${lineId}"`));
    const res = await owner.post(`${url}/cancel`, { [`qty_${lineId}`]: '1', reason: 'customer called' });
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, url);
    const after = await owner.get(url);
    assert.match(after.body, /Units cancelled\./);
    const api = await apiOrder(order.orderNumber);
    assert.equal(api.products[0]!.cancelQuantity, 1);
    assert.equal(api.cancellationReason, 'customer called');
    // More than is left: the domain refuses, the flash says why, nothing changes.
    const refused = await owner.post(`${url}/cancel`, { [`qty_${lineId}`]: '9', reason: 'too many' });
    assert.equal(refused.statusCode, 303);
    const shown = await owner.get(url);
    assert.match(shown.body, /class="flash bad"/);
    assert.equal((await apiOrder(order.orderNumber)).products[0]!.cancelQuantity, 1);
  });

  it('refuses a POST without the CSRF token (403) and changes nothing', async () => {
    const order = paged[1]!;
    const lineId = order.products[0]!.lineItemId;
    const res = await owner.post(`/console/orders/${order.orderNumber}/cancel`, { [`qty_${lineId}`]: '1', reason: 'no token' }, { csrf: false });
    assert.equal(res.statusCode, 403);
    assert.equal((await apiOrder(order.orderNumber)).products[0]!.cancelQuantity, 0);
  });

  it("answers another account's order, and a nonsense number, with a 404 page", async () => {
    for (const number of [otherOrder.orderNumber, 'abc', '999999']) {
      const res = await owner.get(`/console/orders/${number}`);
      assert.equal(res.statusCode, 404, number);
      assert.match(res.body, /Not found/);
    }
    const res = await owner.post(`/console/orders/${otherOrder.orderNumber}/cancel`, { qty_1: '1', reason: 'x' });
    assert.equal(res.statusCode, 303, 'a refusal flash, as for any domain refusal');
    assert.match((await owner.get('/console/orders')).body, /There is no such order in your account\./);
  });

  it('resolves the alert from the order page; the home count drops', async () => {
    const page = await owner.get(`/console/orders/${rejected.orderNumber}`);
    const action = /action="(\/console\/orders\/\d+\/alerts\/\d+\/resolve)"/.exec(page.body)?.[1];
    assert.ok(action);
    assert.equal((await owner.post(action, { resolution: 'cancelled by phone' })).statusCode, 303);
    assert.match((await owner.get(`/console/orders/${rejected.orderNumber}`)).body, /Resolved .*cancelled by phone/);
    assert.equal(countOf((await owner.get('/console/home')).body, 'alert'), 0);
  });

  it('lets a staff user view the home, the list and an order', async () => {
    const staff = consoleBrowser(t);
    assert.equal((await staff.signIn('staff@orders.example', PASSWORD)).statusCode, 303);
    assert.equal((await staff.get('/console/home')).statusCode, 200);
    assert.equal(orderLinks((await staff.get('/console/orders')).body).length, 50);
    assert.equal((await staff.get(`/console/orders/${rejected.orderNumber}`)).statusCode, 200);
  });
});
