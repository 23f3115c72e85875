import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { countLowStock } from '../../src/domain/inventory/low-stock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock } from './v1-sales-orders-helpers.js';

const PASSWORD = 'correct horse battery';

/** The rows of one SKU's group on the stock page (its <tbody>). */
function groupOf(body: string, sku: string): string {
  const start = body.indexOf(`<strong class="sku">${sku}</strong>`);
  assert.ok(start >= 0, `${sku} is on the page`);
  const end = body.indexOf('</tbody>', start);
  return body.slice(start, end);
}

/** A row's number cells, in order (On hand, Reserved, Available, Backordered). */
function numbers(html: string): string[] {
  return [...html.matchAll(/<td class="num"[^>]*>(?:<strong>)?([^<]*)(?:<\/strong>)?<\/td>/g)].map((m) => m[1]!);
}

/**
 * The stock pages (issue 24 item 5): backordered and inbound units per SKU and warehouse, the low-stock alert
 * per SKU (set, cleared, refused), the low-stock list and its paging, countLowStock, and tenancy.
 */
describe('console: stock, low-stock alerts and the low-stock list', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let b: ConsoleBrowser;
  let o: ConsoleBrowser;
  let shipmentId = 0;

  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t, 'Stock Shop');
    other = await seedAccount(t, 'Other Stock Shop');
    for (const [account, email] of [
      [seed.accountId, 'owner@stock.example'],
      [other.accountId, 'owner@other-stock.example'],
    ] as const) {
      const created = await admin(t, 'POST', `/admin/accounts/${account}/users`, { email, password: PASSWORD, role: 'OWNER' });
      assert.equal(created.statusCode, 201, created.body);
    }
    b = consoleBrowser(t);
    assert.equal((await b.signIn('owner@stock.example', PASSWORD)).statusCode, 303);
    o = consoleBrowser(t);
    assert.equal((await o.signIn('owner@other-stock.example', PASSWORD)).statusCode, 303);

    // The scenario: 30 on hand, an order for 42 (30 reserved, 12 backordered), 30 on an open purchase order.
    await stock(t, seed.sellerToken, 'LOW-MUG', seed.warehouses.main, 30);
    await createOrder(t, seed.channel.token, orderBody('STOCK-1', [{ requestedSku: 'LOW-MUG', quantity: 42, unitPrice: 5 }]));
    // A line of a SKU not in the catalog yet: its units count as backordered at the default warehouse once it is.
    await createOrder(t, seed.channel.token, orderBody('STOCK-2', [{ requestedSku: 'LATE-CUP', quantity: 4, unitPrice: 5 }]));
    await stock(t, seed.sellerToken, 'LATE-CUP', seed.warehouses.main, 0);
    await b.get('/console/inventory/inbound');
    const created = await b.post('/console/inventory/inbound', {
      vendor_name: 'Acme Ceramics',
      destination_warehouse_id: String(seed.warehouses.main),
      purchase_order_number: 'PO-STOCK-1',
      status: 'PENDING',
      lines: 'LOW-MUG, 30',
    });
    assert.equal(created.statusCode, 303, created.body);
    shipmentId = Number(/(\d+)$/.exec(created.headers.location as string)![1]);
  });
  after(() => t.close());

  it('shows on hand, reserved, available, backordered and inbound (with its purchase order) per SKU and warehouse', async () => {
    const page = await b.get('/console/inventory?sku=LOW-');
    assert.equal(page.statusCode, 200, page.body);
    const group = groupOf(page.body, 'LOW-MUG');
    assert.match(group, /Main/);
    assert.deepEqual(numbers(group).slice(0, 4), ['30', '30', '0', '12'], 'on hand 30, reserved 30, available 0, backordered 12');
    assert.match(group, new RegExp(`<a href="/console/inventory/inbound/${shipmentId}"><span>30 on PO-STOCK-1</span></a>`));
    for (const heading of ['On hand', 'Reserved', 'Available', 'Backordered', 'Inbound', 'Low-stock alert']) assert.match(page.body, new RegExp(`>${heading}</th>`));

    const late = groupOf((await b.get('/console/inventory?sku=LATE-')).body, 'LATE-CUP');
    assert.deepEqual(numbers(late).slice(0, 4), ['0', '0', '0', '4'], "an unrouted line's units count at the default warehouse");
  });

  it('sets, clears and refuses a low-stock alert in plain words', async () => {
    await b.get('/console/inventory?sku=LOW-');
    const set = await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'LOW-MUG', threshold: '5', back: '/console/inventory?sku=LOW-' });
    assert.deepEqual(set, { kind: 'ok', text: 'LOW-MUG: low-stock alert at 5 or fewer units available.' });
    const page = await b.get('/console/inventory?sku=LOW-');
    assert.match(groupOf(page.body, 'LOW-MUG'), /At 5 or fewer/);
    assert.match(groupOf(page.body, 'LOW-MUG'), /class="badge bad">Low</);
    assert.match(page.body, /name="threshold"[^>]*value="5"/);

    for (const bad of ['ten', '-1', '2.5', '1000001']) {
      const refused = await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'LOW-MUG', threshold: bad, back: '/console/inventory' });
      assert.equal(refused.kind, 'bad', bad);
      assert.equal(refused.text, 'The low-stock alert must be a whole number from 0 to 1,000,000, or empty for no alert.');
    }
    assert.match((await b.get('/console/inventory?sku=LOW-')).body, /At 5 or fewer/, 'a refused value changes nothing');
    assert.equal((await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'LOW-MUG', threshold: '1,000,000', back: '' })).kind, 'ok');

    const cleared = await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'LOW-MUG', threshold: '', back: '/console/inventory' });
    assert.deepEqual(cleared, { kind: 'ok', text: 'LOW-MUG: no low-stock alert.' });
    assert.match(groupOf((await b.get('/console/inventory?sku=LOW-')).body, 'LOW-MUG'), /No alert/);
    const unknown = await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'NOPE', threshold: '3', back: '/console/inventory' });
    assert.deepEqual(unknown, { kind: 'bad', text: 'No product has the SKU "NOPE".' });

    // Back only to a page of this section.
    const res = await b.post('/console/inventory/low-stock-threshold', { sku: 'LOW-MUG', threshold: '', back: 'https://evil.example/' });
    assert.equal(res.headers.location, '/console/inventory');
  });

  it('lists low SKUs with available, alert, backordered and inbound; says so when there is nothing', async () => {
    const empty = await b.get('/console/inventory/low-stock');
    assert.equal(empty.statusCode, 200);
    assert.match(empty.body, /No SKU has a low-stock alert yet/);
    assert.match(empty.body, /aria-current="page"[^>]*>Low stock</);

    await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'LOW-MUG', threshold: '5', back: '' });
    await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'LATE-CUP', threshold: '0', back: '' });
    const list = await b.get('/console/inventory/low-stock');
    const row = /<tr><td><a href="\/console\/inventory\?sku=LOW-MUG">LOW-MUG<\/a><\/td>(.*?)<\/tr>/s.exec(list.body);
    assert.ok(row, list.body);
    assert.deepEqual(numbers(row[1]!), ['0', '5', '5', '12'], 'available 0, alert 5, short by 5, backordered 12');
    assert.match(row[1]!, new RegExp(`href="/console/inventory/inbound/${shipmentId}"><span>30 on PO-STOCK-1`));
    // Furthest below first: LOW-MUG (5 short) before LATE-CUP (at its alert).
    assert.ok(list.body.indexOf('>LOW-MUG<') < list.body.indexOf('>LATE-CUP<'));
    assert.equal(await countLowStock(t.deps.db.db, seed.accountId), 2);

    // Above the alert: not low.
    await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'LATE-CUP', threshold: '', back: '' });
    await stock(t, seed.sellerToken, 'OK-MUG', seed.warehouses.main, 10);
    await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'OK-MUG', threshold: '9', back: '' });
    assert.equal(await countLowStock(t.deps.db.db, seed.accountId), 1);
    assert.doesNotMatch((await b.get('/console/inventory/low-stock')).body, />OK-MUG</);
    await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'LOW-MUG', threshold: '', back: '' });
    assert.equal(await countLowStock(t.deps.db.db, seed.accountId), 0);
    assert.match((await b.get('/console/inventory/low-stock')).body, /Nothing is low/);
    await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'OK-MUG', threshold: '10', back: '' });
    assert.equal(await countLowStock(t.deps.db.db, seed.accountId), 1, 'exactly at the alert is low');
    await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'OK-MUG', threshold: '', back: '' });
    await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'LOW-MUG', threshold: '5', back: '' });
  });

  it('counts only sellable warehouses: stock a channel holds for itself does not lift a SKU above its alert', async () => {
    await stock(t, seed.sellerToken, 'CH-MUG', seed.warehouses.main, 1);
    await stock(t, seed.sellerToken, 'CH-MUG', seed.warehouses.channel, 50);
    await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'CH-MUG', threshold: '2', back: '' });
    assert.match((await b.get('/console/inventory/low-stock')).body, />CH-MUG</);
    assert.equal(await countLowStock(t.deps.db.db, seed.accountId), 2);
    await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'CH-MUG', threshold: '', back: '' });
  });

  it('follows orders and receipts: units an order reserves make a SKU low, units received lift it, without a stock edit', async () => {
    const before = await countLowStock(t.deps.db.db, seed.accountId);
    await stock(t, seed.sellerToken, 'ORD-MUG', seed.warehouses.main, 8);
    await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'ORD-MUG', threshold: '5', back: '' });
    assert.equal(await countLowStock(t.deps.db.db, seed.accountId), before);
    await createOrder(t, seed.channel.token, orderBody('STOCK-3', [{ requestedSku: 'ORD-MUG', quantity: 3, unitPrice: 5 }]));
    assert.equal(await countLowStock(t.deps.db.db, seed.accountId), before + 1, '5 left: at the alert');
    assert.match((await b.get('/console/inventory/low-stock')).body, />ORD-MUG</);
    await b.get('/console/inventory/inbound');
    const created = await b.post('/console/inventory/inbound', {
      vendor_name: 'Acme Ceramics',
      destination_warehouse_id: String(seed.warehouses.main),
      purchase_order_number: 'PO-STOCK-2',
      status: 'RECEIVED',
      lines: 'ORD-MUG, 4',
    });
    assert.equal(created.statusCode, 303, created.body);
    assert.equal(await countLowStock(t.deps.db.db, seed.accountId), before, 'received: 9 available, above the alert');
    await b.flashOf('/console/inventory/low-stock-threshold', { sku: 'ORD-MUG', threshold: '', back: '' });
  });

  it('keyset-pages the low-stock list, furthest below first, every SKU once', async () => {
    // 55 SKUs in the other account, each 100 − i short.
    const items = Array.from({ length: 55 }, (_, i) => ({ SKU: `PG-${String(i).padStart(2, '0')}`, warehouseId: other.warehouses.main, quantity: i }));
    for (const batch of [items.slice(0, 50), items.slice(50)]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/inventory', headers: bearer(other.sellerToken), payload: { products: batch } });
      assert.equal(res.statusCode, 200, res.body);
    }
    for (const item of items) {
      const put = await admin(t, 'PUT', `/admin/accounts/${other.accountId}/products/${item.SKU}/low-stock-threshold`, { lowStockThreshold: 100 });
      assert.equal(put.statusCode, 200, put.body);
    }
    assert.equal(await countLowStock(t.deps.db.db, other.accountId), 55);
    const skus = (body: string) => [...body.matchAll(/<tr><td><a href="\/console\/inventory\?sku=([^"]+)">/g)].map((m) => m[1]!);
    const first = await o.get('/console/inventory/low-stock');
    const next = /<a href="(\/console\/inventory\/low-stock\?after=[^"]+)">Next page/.exec(first.body);
    assert.ok(next, 'a next page link');
    const second = await o.get(next[1]!.replaceAll('&amp;', '&'));
    assert.doesNotMatch(second.body, /Next page/);
    const all = [...skus(first.body), ...skus(second.body)];
    assert.equal(skus(first.body).length, 50);
    assert.deepEqual(all, items.map((i) => i.SKU), 'most short (PG-00, 100 short) first, each once');
    // A cursor that is not one starts from the top.
    assert.deepEqual(skus((await o.get('/console/inventory/low-stock?after=junk')).body), skus(first.body));
  });

  it('keeps accounts apart: lists, counts, figures and the alert form', async () => {
    const mine = await b.get('/console/inventory/low-stock');
    assert.doesNotMatch(mine.body, /PG-0/);
    const theirs = await o.get('/console/inventory/low-stock');
    assert.doesNotMatch(theirs.body, /LOW-MUG/);
    assert.doesNotMatch((await o.get('/console/inventory')).body, /LOW-MUG|PO-STOCK-1/);
    await o.get('/console/inventory');
    const refused = await o.flashOf('/console/inventory/low-stock-threshold', { sku: 'LOW-MUG', threshold: '999', back: '' });
    assert.deepEqual(refused, { kind: 'bad', text: 'No product has the SKU "LOW-MUG".' });
    const read = await admin(t, 'GET', `/admin/accounts/${seed.accountId}/products/LOW-MUG/low-stock-threshold`);
    assert.deepEqual(read.json(), { sku: 'LOW-MUG', lowStockThreshold: 5 });
    assert.equal((await admin(t, 'GET', `/admin/accounts/${other.accountId}/products/LOW-MUG/low-stock-threshold`)).statusCode, 404);
  });

  it('sets and clears the alert through the operator API; refuses a bad value (400)', async () => {
    const url = `/admin/accounts/${seed.accountId}/products/LATE-CUP/low-stock-threshold`;
    assert.deepEqual((await admin(t, 'GET', url)).json(), { sku: 'LATE-CUP', lowStockThreshold: null }, 'a product starts with no alert (migration 031)');
    assert.deepEqual((await admin(t, 'PUT', url, { lowStockThreshold: 3 })).json(), { sku: 'LATE-CUP', lowStockThreshold: 3 });
    for (const bad of [-1, 1.5, 1_000_001, '3']) {
      const refused = await admin(t, 'PUT', url, { lowStockThreshold: bad });
      assert.equal(refused.statusCode, 400, String(bad));
      assert.equal(refused.json<{ errorCode: number }>().errorCode, 400, 'the contract error body');
    }
    assert.deepEqual((await admin(t, 'GET', url)).json(), { sku: 'LATE-CUP', lowStockThreshold: 3 }, 'a refused value changes nothing');
    assert.deepEqual((await admin(t, 'PUT', url, { lowStockThreshold: null })).json(), { sku: 'LATE-CUP', lowStockThreshold: null });
    assert.equal((await admin(t, 'PUT', `/admin/accounts/${seed.accountId}/products/NOPE/low-stock-threshold`, { lowStockThreshold: 1 })).statusCode, 404);
  });
});
