import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withTx } from '../../src/db/tx.js';
import { applyStockChange } from '../../src/domain/inventory/stock.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createProducts, reportStock } from './v2-inventory-support.js';

interface Item {
  sku: string;
  warehouseUniqueId: string;
  quantity: number;
  lastUpdatedTs: string;
}

describe('GET /v2/inventory', () => {
  const start = new Date('2026-07-01T08:00:00.000Z');
  const clock = manualClock(start);
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  const skus = Array.from({ length: 7 }, (_, i) => `SKU-${i}`);

  const list = async (query: string, token = seed.inventory.token) => {
    const res = await t.app.inject({ url: `/v2/inventory${query}`, headers: bearer(token) });
    return res;
  };
  const page = async (query: string, token = seed.inventory.token) => {
    const res = await list(query, token);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { items: Item[]; nextCursor: string };
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other seller');
    const ids = await createProducts(t, seed.accountId, [...skus, 'SELLER-MAIN']);
    await createProducts(t, other.accountId, ['OTHER-1']);
    // All seven rows share one timestamp, so paging must break ties on the row id.
    await reportStock(t, seed.inventory.token, 'WH-SECOND', skus.map((s, i) => [s, i * 10]));
    // Stock in a warehouse the integration is not mapped to never shows.
    await withTx(t.deps.db.db, (tx) =>
      applyStockChange(tx, seed.accountId, ids.get('SELLER-MAIN')!, seed.warehouses.main, { mode: 'onhand', quantity: 5 }, clock.now()),
    );
    await reportStock(t, other.inventory.token, 'WH-SECOND', [['OTHER-1', 1]]);
  });
  after(async () => t.close());

  it('lists the mapped warehouses\' rows with on-hand quantities as strings', async () => {
    const body = await page('');
    assert.equal(body.nextCursor, '');
    assert.deepEqual(
      body.items.map((i) => i.sku).sort(),
      [...skus].sort(),
    );
    const sku3 = body.items.find((i) => i.sku === 'SKU-3')!;
    assert.deepEqual(sku3, { sku: 'SKU-3', warehouseUniqueId: 'WH-SECOND', quantity: 30, lastUpdatedTs: start.toISOString() });
  });

  it('shows another account\'s integration only its own rows', async () => {
    const body = await page('', other.inventory.token);
    assert.deepEqual(body.items.map((i) => i.sku), ['OTHER-1']);
  });

  it('pages through everything with pageSize 2, nothing lost or doubled, camelCase or snake_case', async () => {
    for (const sizeParam of ['pageSize', 'page_size']) {
      const seen: string[] = [];
      let cursor = '';
      let pages = 0;
      do {
        const body = await page(`?${sizeParam}=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        assert.ok(body.items.length <= 2);
        seen.push(...body.items.map((i) => i.sku));
        cursor = body.nextCursor;
        pages += 1;
        assert.ok(pages <= 10, 'paging ends');
      } while (cursor !== '');
      assert.equal(pages, 4);
      assert.equal(seen.length, skus.length);
      assert.deepEqual([...seen].sort(), [...skus].sort());
    }
  });

  it('orders by change time and filters on updatedSince (inclusive), repeated on every page', async () => {
    clock.advance(60_000);
    const changedAt = clock.now().toISOString();
    await reportStock(t, seed.inventory.token, 'WH-SECOND', [['SKU-1', 11], ['SKU-5', 55]]);
    const all = await page('');
    assert.deepEqual(all.items.slice(-2).map((i) => [i.sku, i.quantity, i.lastUpdatedTs]), [
      ['SKU-1', 11, changedAt],
      ['SKU-5', 55, changedAt],
    ]);
    const first = await page(`?updatedSince=${encodeURIComponent(changedAt)}&pageSize=1`);
    assert.deepEqual(first.items.map((i) => i.sku), ['SKU-1']);
    const second = await page(`?updatedSince=${encodeURIComponent(changedAt)}&pageSize=1&cursor=${first.nextCursor}`);
    assert.deepEqual(second.items.map((i) => i.sku), ['SKU-5']);
    assert.equal(second.nextCursor, '', 'a full last page says so');
    // Another zone naming the same instant, and the snake_case name.
    const snake = await page(`?updated_since=${encodeURIComponent('2026-07-01T10:01:00+02:00')}`);
    assert.deepEqual(snake.items.map((i) => i.sku), ['SKU-1', 'SKU-5']);
    const later = await page(`?updatedSince=${encodeURIComponent('2026-07-01T08:01:00.001Z')}`);
    assert.deepEqual(later.items, []);
  });

  it('rejects an updatedSince without a zone or that is no timestamp', async () => {
    for (const value of ['2026-07-01T08:00:00', 'yesterday', '2026-02-30T00:00:00Z']) {
      const res = await list(`?updatedSince=${encodeURIComponent(value)}`);
      assert.equal(res.statusCode, 400, value);
      assert.equal(res.json().code, 3);
      assert.equal(res.json().details[0].fieldViolations[0].field, 'updatedSince');
    }
  });

  it('rejects a tampered, garbage, foreign-route or another integration\'s cursor with "invalid cursor"', async () => {
    const { nextCursor } = await page('?pageSize=2');
    const [body, mac] = nextCursor.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ t: '1970-01-01T00:00:00.000Z', i: 0, n: seed.inventory.installationId })).toString('base64url');
    const otherCursor = (await page('?pageSize=0', other.inventory.token)).nextCursor;
    assert.equal(otherCursor, '');
    const foreignInstallation = t.deps.signer.sign('cursor:GET /v2/inventory', { t: '1970-01-01T00:00:00.000Z', i: 0, n: other.inventory.installationId });
    const foreignRoute = t.deps.signer.sign('cursor:GET /v2/shipping/need_to_cancel', { t: '1970-01-01T00:00:00.000Z', i: 0, n: seed.inventory.installationId });
    for (const cursor of [`${forged}.${mac}`, `${body}.${mac.slice(1)}x`, 'garbage', '....', foreignInstallation, foreignRoute]) {
      const res = await list(`?cursor=${encodeURIComponent(cursor)}`);
      assert.equal(res.statusCode, 400, cursor);
      assert.equal(res.json().code, 3);
      assert.match(res.json().message, /invalid cursor/);
    }
  });

  it('rejects a pageSize that is not a number', async () => {
    const res = await list('?pageSize=many');
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 3);
    assert.equal(res.json().details[0].fieldViolations[0].field, 'pageSize');
  });

  it('uses 50 rows for pageSize 0, negative or absent, and lowers 9999 to 500', async () => {
    const many = Array.from({ length: 505 }, (_, i) => `BULK-${String(i).padStart(3, '0')}`);
    await createProducts(t, seed.accountId, many);
    clock.advance(60_000);
    await reportStock(t, seed.inventory.token, 'WH-SECOND', many.map((s) => [s, 1]));
    for (const query of ['?pageSize=0', '?pageSize=-3', '', '?page_size=0']) {
      const body = await page(query);
      assert.equal(body.items.length, 50, query);
      assert.notEqual(body.nextCursor, '');
    }
    const big = await page('?pageSize=9999');
    assert.equal(big.items.length, 500);
    const rest = await page(`?pageSize=9999&cursor=${big.nextCursor}`);
    assert.equal(big.items.length + rest.items.length, many.length + skus.length);
    assert.equal(rest.nextCursor, '');
    assert.equal(new Set([...big.items, ...rest.items].map((i) => i.sku)).size, many.length + skus.length);
  });
});
