import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { buildOrderSearch } from '../../src/db/migrations/030_order_search.js';
import { withTx } from '../../src/db/tx.js';
import { rebuildOrderSearch } from '../../src/domain/orders/order-search.js';
import { listSellerOrders, SELLER_ORDER_SORTS, type SellerOrderFilter } from '../../src/domain/orders/seller-list.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';

const PASSWORD = 'correct horse battery';
const PAGED = 60;
/** The paged orders' totals: 1…60 in an order unlike their dates. */
const totalOf = (i: number) => ((i * 7) % PAGED) + 1;

/** The order numbers a list page links to, in order. */
const orderLinks = (body: string) => [...body.matchAll(/href="\/console\/orders\/(\d+)"/g)].map((m) => m[1]!);
const pageLink = (body: string, label: string) => {
  const match = new RegExp(`href="(/console/orders\\?[^"]*)">${label}`).exec(body);
  return match ? match[1]!.replace(/&amp;/g, '&') : null;
};
const tabCount = (body: string, tab: string) => {
  const match = new RegExp(`data-tab="${tab}"[^>]*>.*?<span class="count">([^<]+)</span>`).exec(body);
  assert.ok(match, `a count on the ${tab} tab`);
  return match[1];
};

describe('console: order search, status tabs, sort and paging', () => {
  const clock = manualClock(new Date('2026-11-23T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let owner: ConsoleBrowser;
  const o: Record<string, Order> = {};
  const paged: Order[] = [];

  const list = async (query: string) => {
    const res = await owner.get(`/console/orders${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res;
  };
  const found = async (q: string, extra = '') => orderLinks((await list(`?q=${encodeURIComponent(q)}${extra}`)).body).sort();
  const numbers = (...names: string[]) => names.map((n) => o[n]!.orderNumber).sort();
  const order = async (key: string, channelOrderId: string, products: Record<string, unknown>[], extra: Record<string, unknown> = {}) => {
    clock.advance(1000);
    o[key] = await createOrder(t, seed.channel.token, orderBody(channelOrderId, products, extra));
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Search Shop');
    other = await seedAccount(t, 'Other Search Shop');
    await stock(t, seed.sellerToken, 'MUG-RED', seed.warehouses.main, 100);
    await stock(t, seed.sellerToken, 'TEE-BLK', seed.warehouses.main, 100);
    await stock(t, seed.sellerToken, 'PAGE-SKU', seed.warehouses.main, 500);
    await order('zoe', '112-5550001-0000001', [{ requestedSku: 'MUG-RED', quantity: 2, unitPrice: 12.5 }], {
      customerName: 'Zoë Fontaine',
      customerEmail: 'zoe@fontaine.example',
    });
    await order('jane', 'WEB-2002', [{ requestedSku: 'TEE-BLK', quantity: 1, unitPrice: 30 }], { customerName: 'Jane Smith', customerEmail: 'jane.smith@example.org' });
    await order('john', 'WEB-2003', [{ requestedSku: 'TEE-BLK', quantity: 3, unitPrice: 5 }], {
      // No customer name: the ship-to name is the customer's.
      shippingAddress: { name: 'John Smithson', addressLine1: '1 Main St', city: 'Town', postalCode: '12345', countryCode: 'US' },
    });
    await order('ann', 'WEB-2004', [{ requestedSku: 'MUG-RED', quantity: 1, unitPrice: 9 }], { customerName: 'Ann Lee' });
    await order('ghost', 'WEB-2005', [{ requestedSku: 'GHOST-1', quantity: 2, unitPrice: 7 }], { customerName: 'Gus Host' });
    await order('unpaid', 'WEB-2006', [{ requestedSku: 'MUG-RED', quantity: 1, unitPrice: 100 }], { customerName: 'Pat Doe', status: 'PENDING_PAYMENT' });
    await order('back', 'WEB-2007', [{ requestedSku: 'MUG-RED', quantity: 1, unitPrice: 3 }], { customerName: 'Rita Back' });

    // Shipped: every unit of john's line; cancelled: ann's order.
    const john = o.john!;
    const shipped = await t.app.inject({
      method: 'POST',
      url: '/v1/salesOrder/shipments',
      headers: bearer(seed.channel.token),
      payload: { packages: [{ orderNumber: john.orderNumber, fulfillmentPackageId: 'P1', warehouseId: seed.warehouses.main, carrier: 'UPS', service_level: 'Ground', tracking: '1Z', products: [{ lineItemId: john.products[0]!.lineItemId, quantity: 3 }] }] },
    });
    assert.equal(shipped.statusCode, 200, shipped.body);
    const cancelled = await t.app.inject({ method: 'POST', url: `/v1/salesOrder/cancel/${o.ann!.orderNumber}`, headers: bearer(seed.channel.token), payload: { cancellationReason: 'BuyerCanceled' } });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    // A return was requested (the return flows have their own tests; the list only reads the status).
    await t.deps.db.db.updateTable('sales_orders').set({ status: 'RETURN_REQUESTED' }).where('id', '=', Number(o.back!.orderNumber)).execute();

    for (let i = 0; i < PAGED; i++) {
      clock.advance(1000);
      const orderTs = new Date(Date.parse('2026-11-01T00:00:00.000Z') + i * 60_000).toISOString();
      paged.push(await createOrder(t, seed.channel.token, orderBody(`PG-${i}`, [{ requestedSku: 'PAGE-SKU', quantity: 1, unitPrice: totalOf(i) }], { orderTs })));
    }

    // Another seller with the same customer, channel order id and SKU: never in this seller's list.
    await stock(t, other.sellerToken, 'TEE-BLK', other.warehouses.main, 5);
    await createOrder(t, other.channel.token, orderBody('WEB-2002', [{ requestedSku: 'TEE-BLK', quantity: 1 }], { customerName: 'Jane Smith', customerEmail: 'jane.smith@example.org' }));

    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@search.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    owner = consoleBrowser(t);
    assert.equal((await owner.signIn('owner@search.example', PASSWORD)).statusCode, 303);
  });
  after(() => t.close());

  it('finds an order by its number, channel order id, customer name or email and SKU', async () => {
    assert.ok((await found(o.zoe!.orderNumber)).includes(o.zoe!.orderNumber), 'by order number');
    assert.ok((await found(`#${o.jane!.orderNumber}`)).includes(o.jane!.orderNumber), 'by order number with a #');
    assert.deepEqual(await found('112-5550001-0000001'), numbers('zoe'), 'by channel order id');
    assert.deepEqual(await found('5550001'), numbers('zoe'), 'by a part of it');
    assert.deepEqual(await found('11255500010000001'), numbers('zoe'), 'without its dashes');
    assert.deepEqual(await found('WEB-2002'), numbers('jane'), "never another seller's order with the same id");
    assert.deepEqual(await found('zoe'), numbers('zoe'), 'a name without its accent');
    assert.deepEqual(await found('FONTAINE'), numbers('zoe'), 'any case');
    assert.deepEqual(await found('smith'), numbers('jane', 'john'), 'the start of a name, and the ship-to name');
    assert.deepEqual(await found('jane smi'), numbers('jane'), 'every word must match');
    assert.deepEqual(await found('jane.smith@example.org'), numbers('jane'), 'by email');
    assert.deepEqual(await found('tee-blk'), numbers('jane', 'john'), 'by SKU');
    assert.deepEqual(await found('GHOST-1'), numbers('ghost'), 'by a SKU not in the catalog');
    const none = await list('?q=nothing-like-this');
    assert.deepEqual(orderLinks(none.body), []);
    assert.match(none.body, /No orders match\./);
    // Punctuation only searches nothing: the whole list.
    assert.equal(orderLinks((await list('?q=%2D%2D')).body).length, 50);
  });

  it('shows the customer, the status in words and the total in the currency on each row', async () => {
    const page = await list(`?q=${o.john!.orderNumber}`);
    const row = new RegExp(`<tr><td class="order"><a class="row-link" href="/console/orders/${o.john!.orderNumber}">.*?</tr>`).exec(page.body)?.[0];
    assert.ok(row, page.body);
    assert.match(row, /John Smithson/);
    assert.match(row, />Shipped</);
    assert.match(row, /\$15\.00/);
    assert.match(row, /WEB-2003/);
    assert.doesNotMatch(page.body, /PENDING|SHIPPED|CANCELLED/, 'no raw status');
  });

  it('has status tabs with counts, each listing its orders, combined with the search', async () => {
    const all = await list('');
    assert.equal(tabCount(all.body, 'all'), String(7 + PAGED));
    assert.equal(tabCount(all.body, 'shipped'), '1');
    assert.equal(tabCount(all.body, 'cancelled'), '1');
    assert.equal(tabCount(all.body, 'backordered'), '1');
    assert.equal(tabCount(all.body, 'awaiting-payment'), '1');
    assert.equal(tabCount(all.body, 'returns'), '1');
    assert.equal(tabCount(all.body, 'to-ship'), String(3 + PAGED));
    assert.deepEqual(orderLinks((await list('?tab=shipped')).body), numbers('john'));
    assert.deepEqual(orderLinks((await list('?tab=cancelled')).body), numbers('ann'));
    assert.deepEqual(orderLinks((await list('?tab=backordered')).body), numbers('ghost'));
    assert.deepEqual(orderLinks((await list('?tab=awaiting-payment')).body), numbers('unpaid'));
    assert.deepEqual(orderLinks((await list('?tab=returns')).body), numbers('back'));
    assert.deepEqual(await found('smith', '&tab=to-ship'), numbers('jane'));
    const shipped = await list('?tab=shipped');
    assert.match(shipped.body, /data-tab="shipped" aria-current="page"/);
    // The tabs keep the search.
    assert.match((await list('?q=smith')).body, /href="\/console\/orders\?q=smith&(?:amp;)?tab=cancelled"/);
  });

  it('sorts by date and by total, both ways', async () => {
    const byDate = [...paged].sort((a, b) => b.orderTs.localeCompare(a.orderTs)).map((p) => p.orderNumber);
    const byTotal = paged
      .map((p, i) => ({ number: p.orderNumber, total: totalOf(i) }))
      .sort((a, b) => b.total - a.total)
      .map((p) => p.number);
    assert.deepEqual(orderLinks((await list('?q=page-sku')).body), byDate.slice(0, 50), 'newest first by default');
    assert.deepEqual(orderLinks((await list('?q=page-sku&sort=oldest')).body), [...byDate].reverse().slice(0, 50));
    assert.deepEqual(orderLinks((await list('?q=page-sku&sort=total-desc')).body), byTotal.slice(0, 50));
    assert.deepEqual(orderLinks((await list('?q=page-sku&sort=total-asc')).body), [...byTotal].reverse().slice(0, 50));
    // The column headings sort, and say which way.
    const page = await list('?q=page-sku&sort=total-desc');
    assert.match(page.body, /aria-sort="descending"><a class="sort" href="\/console\/orders\?q=page-sku&(?:amp;)?sort=total-asc"/);
  });

  for (const sort of ['newest', 'total-asc']) {
    it(`pages forwards and back (${sort})`, async () => {
      const first = await list(`?q=page-sku&sort=${sort}`);
      const page1 = orderLinks(first.body);
      assert.equal(page1.length, 50);
      assert.equal(pageLink(first.body, '← Previous page'), null, 'no previous page on the first');
      const next = pageLink(first.body, 'Next page →');
      assert.ok(next);
      assert.match(next, /q=page-sku/, 'the search is kept');
      const second = await list(next.slice('/console/orders'.length));
      const page2 = orderLinks(second.body);
      assert.equal(page2.length, PAGED - 50);
      assert.match(second.body, /End of the list/);
      assert.equal(new Set([...page1, ...page2]).size, PAGED, 'no order twice');
      const previous = pageLink(second.body, '← Previous page');
      assert.ok(previous);
      const back = await list(previous.slice('/console/orders'.length));
      assert.deepEqual(orderLinks(back.body), page1, 'back to the same first page');
      assert.equal(pageLink(back.body, '← Previous page'), null);
      assert.ok(pageLink(back.body, 'Next page →'));
    });
  }

  it('answers a forged, foreign or mismatched page link with a 400 page in plain words', async () => {
    const next = pageLink((await list('?q=page-sku')).body, 'Next page →')!;
    const cursor = new URL(next, 'http://x').searchParams.get('cursor')!;
    for (const url of ['/console/orders?cursor=forged', `/console/orders?sort=total-desc&cursor=${encodeURIComponent(cursor)}`]) {
      const res = await owner.get(url);
      assert.equal(res.statusCode, 400, url);
      assert.match(res.headers['content-type'] as string, /text\/html/);
      assert.match(res.body, /This page link is out of date or was changed/);
      assert.doesNotMatch(res.body, /cursor/i);
    }
    assert.equal((await admin(t, 'POST', `/admin/accounts/${other.accountId}/users`, { email: 'owner@other-search.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    const stranger = consoleBrowser(t);
    assert.equal((await stranger.signIn('owner@other-search.example', PASSWORD)).statusCode, 303);
    assert.equal((await stranger.get(next)).statusCode, 400, "another account's page link");
    assert.deepEqual(orderLinks((await stranger.get('/console/orders?q=jane')).body).length, 1, 'the other seller sees only its own order');
    for (const bad of ['?tab=nope', '?sort=sideways', '?from=yesterday']) assert.equal((await owner.get(`/console/orders${bad}`)).statusCode, 400, bad);
  });

  it('reads the same pages when the lists are long: walking the sort, and long lists intersected', async () => {
    const db = t.deps.db.db;
    const base: SellerOrderFilter = { statuses: null, backordered: false, search: null, channelKey: null, orderedFrom: null, orderedBefore: null, orderIds: null };
    const filters: Partial<SellerOrderFilter>[] = [
      {},
      { search: 'smith' },
      { search: 'jane smith' },
      { search: 'page-sku' },
      { statuses: ['PENDING', 'PARTIALLY_SHIPPED'] },
      { statuses: ['PENDING', 'PARTIALLY_SHIPPED'], search: 'tee blk' },
      { statuses: ['PENDING'], search: 'pg', orderedFrom: '2026-11-01T00:10:00.000Z', orderedBefore: '2026-11-01T00:40:00.000Z' },
      { backordered: true },
      { search: 'web', channelKey: `s:${seed.channel.installationId}` },
    ];
    // Lists of more than one row are long; "wide" reads of 3 or of 1000 rows (the walk, or the intersection).
    for (const limits of [{ short: 1, wide: 3 }, { short: 1, wide: 1000 }]) {
      for (const f of filters) {
        for (const sort of SELLER_ORDER_SORTS) {
          const filter = { ...base, ...f };
          const expected = await listSellerOrders(db, seed.accountId, filter, sort, null, 7);
          const got = await listSellerOrders(db, seed.accountId, filter, sort, null, 7, limits);
          assert.deepEqual(got, expected, `${JSON.stringify(f)} ${sort}`);
          if (expected.next) {
            const position = { ...expected.next, direction: 'after' as const };
            const after = await listSellerOrders(db, seed.accountId, filter, sort, position, 7);
            assert.deepEqual(await listSellerOrders(db, seed.accountId, filter, sort, position, 7, limits), after, `${JSON.stringify(f)} ${sort} page 2`);
            const back = { ...after.previous!, direction: 'before' as const };
            assert.deepEqual((await listSellerOrders(db, seed.accountId, filter, sort, back, 7, limits)).orders, expected.orders, `${JSON.stringify(f)} ${sort} back`);
          }
        }
      }
    }
  });

  it('rebuilds the index: existing orders (the migration) and an order whose personal data was cleared', async () => {
    const jane = Number(o.jane!.orderNumber);
    const db = t.deps.db.db;
    await db.deleteFrom('sales_order_search_terms').where('order_id', '=', jane).execute();
    await db.deleteFrom('sales_order_totals').where('order_id', '=', jane).execute();
    assert.deepEqual(await found('jane'), []);
    await buildOrderSearch(db as unknown as Kysely<unknown>, 2);
    assert.deepEqual(await found('jane'), numbers('jane'), 'the migration indexes orders in batches');
    assert.ok(orderLinks((await list('?sort=total-desc')).body).includes(o.jane!.orderNumber), 'and their totals');
    await db.updateTable('sales_orders').set({ customer_name: null, customer_email: null }).where('id', '=', jane).execute();
    await withTx(db, (tx) => rebuildOrderSearch(tx, seed.accountId, jane));
    assert.deepEqual(await found('jane'), [], 'no longer found by the cleared name or email');
    assert.deepEqual(await found('WEB-2002'), numbers('jane'), 'still found by its ids');
  });
});
