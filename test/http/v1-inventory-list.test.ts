import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { assertV1Error, setStock } from './v1-inventory-helpers.js';

interface Record {
  SKU: string;
  active: boolean;
  totalAvailableQuantity: number;
  warehouses: { warehouseId: number; warehouseUniqueId: string; availableQuantity: number }[];
  lastInventoryUpdateTs: string;
}
interface Page {
  results: Record[];
  errors: string[];
  pagination: { hasNext: boolean; nextToken: string };
}

const T1 = '2026-06-01T08:00:00.000Z';
const T2 = '2026-06-01T09:00:00.000Z';
const T3 = '2026-06-01T10:00:00.000Z';
const LATER = '2026-06-01T11:00:00.000Z';

describe('GET /v1/inventory', () => {
  const clock = manualClock(new Date('2026-06-01T07:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  const bulk = Array.from({ length: 60 }, (_, i) => `BULK-${String(i).padStart(2, '0')}`);

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other seller');
    // 60 SKUs over three instants, 20 each, so page boundaries fall between SKUs with equal timestamps.
    for (const [i, ts] of [T1, T2, T3].entries()) {
      clock.set(new Date(ts));
      const slice = bulk.slice(i * 20, i * 20 + 20);
      await setStock(t, seed.sellerToken, slice.map((SKU, j) => ({ SKU, warehouseId: seed.warehouses.main, quantity: j })));
    }
    clock.set(new Date(LATER));
    await setStock(t, seed.sellerToken, [
      { SKU: 'Mixed-Case', warehouseId: seed.warehouses.main, quantity: 1 },
      { SKU: 'CHAN-ONLY', warehouseId: seed.warehouses.channel, quantity: 6 },
      { SKU: 'SPLIT', warehouseId: seed.warehouses.main, quantity: 2 },
      { SKU: 'SPLIT', warehouseId: seed.warehouses.channel, quantity: 5 },
      { SKU: 'RETIRED', warehouseId: seed.warehouses.main, quantity: 1 },
    ]);
    await setStock(t, seed.inventory.token, [{ SKU: 'SPLIT', warehouseId: seed.warehouses.second, quantity: 7 }]);
    await t.deps.db.db.updateTable('products').set({ active: 0 }).where('account_id', '=', seed.accountId).where('sku', '=', 'RETIRED').execute();
    await setStock(t, other.sellerToken, [{ SKU: 'BULK-00', warehouseId: other.warehouses.main, quantity: 99 }]);
  });
  after(async () => t.close());

  async function page(url: string, token = seed.sellerToken, headers: { [name: string]: string } = {}): Promise<Page> {
    const res = await t.app.inject({ url, headers: { ...bearer(token), ...headers } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Page;
  }

  /** Follows nextToken URLs as given until the last page. */
  async function all(url: string, token = seed.sellerToken): Promise<{ pages: Page[]; skus: string[] }> {
    const pages = [await page(url, token)];
    while (pages.at(-1)!.pagination.hasNext) {
      const next = new URL(pages.at(-1)!.pagination.nextToken);
      assert.equal(next.origin, 'http://localhost');
      assert.equal(next.pathname, '/v1/inventory');
      pages.push(await page(next.pathname + next.search, token));
      assert.ok(pages.length < 20, 'paging does not end');
    }
    assert.equal(pages.at(-1)!.pagination.nextToken, '');
    return { pages, skus: pages.flatMap((p) => p.results.map((r) => r.SKU)) };
  }

  describe('paging', () => {
    it('follows nextToken through every page with no SKU lost or repeated, ordered by last change', async () => {
      const { pages, skus } = await all('/v1/inventory?lastUpdatedTs=2026-06-01T07:30:00Z');
      assert.deepEqual(pages.map((p) => p.results.length), [25, 25, 14]);
      assert.equal(new Set(skus).size, skus.length);
      assert.deepEqual(skus.slice(0, 60), bulk);
      // Inactive products are listed too unless activeOnly is set.
      assert.deepEqual(skus.slice(60).sort(), ['CHAN-ONLY', 'Mixed-Case', 'RETIRED', 'SPLIT']);
      const stamps = pages.flatMap((p) => p.results.map((r) => r.lastInventoryUpdateTs));
      assert.deepEqual([...stamps].sort(), stamps);
      assert.ok(pages.every((p) => p.errors.length === 0));
    });

    it('defaults pageLength to 25 and honours 1..100', async () => {
      assert.equal((await page('/v1/inventory?lastUpdatedTs=2026-06-01T07:30:00Z')).results.length, 25);
      assert.equal((await page('/v1/inventory?lastUpdatedTs=2026-06-01T07:30:00Z&pageLength=100')).results.length, 64);
      const one = await page('/v1/inventory?lastUpdatedTs=2026-06-01T07:30:00Z&pageLength=1');
      assert.deepEqual(one.results.map((r) => r.SKU), ['BULK-00']);
      assert.equal(one.pagination.hasNext, true);
    });

    it('lets nextToken override every other parameter', async () => {
      const first = await page('/v1/inventory?lastUpdatedTs=2026-06-01T07:30:00Z&pageLength=25');
      const next = new URL(first.pagination.nextToken);
      const plain = await page(next.pathname + next.search);
      const overridden = await page(`${next.pathname}${next.search}&pageLength=1&skus=NOPE&activeOnly=true`);
      assert.deepEqual(overridden, plain);
      assert.deepEqual(plain.results.map((r) => r.SKU), bulk.slice(25, 50));
    });

    it('shows a SKU changed while paging again later, never losing one', async () => {
      const first = await page('/v1/inventory?warehouses=' + seed.warehouses.main + '&pageLength=30');
      clock.set(new Date('2026-06-01T12:00:00.000Z'));
      await setStock(t, seed.sellerToken, [{ SKU: 'BULK-01', warehouseId: seed.warehouses.main, delta_quantity: 1 }]);
      const rest = await all(new URL(first.pagination.nextToken).pathname + new URL(first.pagination.nextToken).search);
      const skus = [...first.results.map((r) => r.SKU), ...rest.skus];
      assert.equal(skus.filter((s) => s === 'BULK-01').length, 2);
      for (const sku of bulk) assert.ok(skus.includes(sku), sku);
    });

    it('builds the next URL from the Host when PUBLIC_BASE_URL is unset, ignoring forwarded headers without TRUST_PROXY', async () => {
      const p = await page('/v1/inventory?lastUpdatedTs=2026-06-01T07:30:00Z', seed.sellerToken, {
        host: 'api.example.com',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'evil.example',
      });
      assert.match(p.pagination.nextToken, /^http:\/\/api\.example\.com\/v1\/inventory\?nextToken=[\w.%-]+$/);
    });

    it('answers 400 "invalid nextToken" for a tampered, garbage or foreign token', async () => {
      const first = await page('/v1/inventory?lastUpdatedTs=2026-06-01T07:30:00Z');
      const token = new URL(first.pagination.nextToken).searchParams.get('nextToken')!;
      const flipped = token.slice(0, 5) + (token[5] === 'A' ? 'B' : 'A') + token.slice(6);
      for (const bad of [flipped, 'garbage', `${token}x`]) {
        const res = await t.app.inject({ url: `/v1/inventory?nextToken=${encodeURIComponent(bad)}`, headers: bearer(seed.sellerToken) });
        assertV1Error(res, 400, /invalid nextToken/);
      }
      // Another account's token is refused, not applied to this account.
      const foreign = await t.app.inject({ url: `/v1/inventory?nextToken=${encodeURIComponent(token)}`, headers: bearer(other.sellerToken) });
      assertV1Error(foreign, 400, /invalid nextToken/);
    });

    it('answers 400 for pageLength 0, 101 or not a number', async () => {
      for (const value of ['0', '101', 'ten', '-1']) {
        const res = await t.app.inject({ url: `/v1/inventory?lastUpdatedTs=2026-06-01T07:30:00Z&pageLength=${value}`, headers: bearer(seed.sellerToken) });
        assertV1Error(res, 400, /pageLength/);
      }
    });
  });

  describe('filters', () => {
    it('needs at least one of lastUpdatedTs, skus, warehouses', async () => {
      for (const url of ['/v1/inventory', '/v1/inventory?activeOnly=true&pageLength=5', '/v1/inventory?skus=,']) {
        assertV1Error(await t.app.inject({ url, headers: bearer(seed.sellerToken) }), 400, /at least one of lastUpdatedTs, skus, warehouses/);
      }
    });

    it('takes lastUpdatedTs as a strict lower bound, URL-encoded or not', async () => {
      const at = await page(`/v1/inventory?lastUpdatedTs=${encodeURIComponent(T3)}&pageLength=100`);
      assert.ok(!at.results.some((r) => r.SKU === 'BULK-40'));
      const justBefore = await page('/v1/inventory?lastUpdatedTs=2026-06-01T09%3A59%3A59.999Z&pageLength=100');
      assert.ok(justBefore.results.some((r) => r.SKU === 'BULK-40'));
      const offset = await page('/v1/inventory?lastUpdatedTs=2026-06-01T11:59:59%2B02:00&pageLength=100');
      assert.ok(offset.results.some((r) => r.SKU === 'BULK-40'));
    });

    it('answers 400 for a lastUpdatedTs without a zone', async () => {
      const res = await t.app.inject({ url: '/v1/inventory?lastUpdatedTs=2026-06-01T09:00:00', headers: bearer(seed.sellerToken) });
      assertV1Error(res, 400, /lastUpdatedTs: .*time zone/);
    });

    it('selects skus given comma-separated and as repeated keys, listing missing ones in errors', async () => {
      const p = await page('/v1/inventory?skus=BULK-05,NOPE-1&skus=SPLIT&skus=mixed-case');
      assert.deepEqual(p.results.map((r) => r.SKU).sort(), ['BULK-05', 'SPLIT']);
      // Case-sensitive by default: "mixed-case" does not name "Mixed-Case".
      assert.deepEqual(p.errors, ['NOPE-1', 'mixed-case']);
    });

    it('matches skus case-insensitively with isCaseSensitive=false', async () => {
      const p = await page('/v1/inventory?skus=mixed-case,bulk-07,nope-2&isCaseSensitive=false');
      assert.deepEqual(p.results.map((r) => r.SKU).sort(), ['BULK-07', 'Mixed-Case']);
      assert.deepEqual(p.errors, ['nope-2']);
    });

    it('ignores lastUpdatedTs and warehouses when skus is given', async () => {
      const p = await page(`/v1/inventory?skus=BULK-00&lastUpdatedTs=2030-01-01T00:00:00Z&warehouses=999999`);
      assert.deepEqual(p.results.map((r) => r.SKU), ['BULK-00']);
      // Only this account's BULK-00.
      assert.equal(p.results[0]!.totalAvailableQuantity, 0);
    });

    it('keeps active products only with activeOnly=true; an inactive SKU is not an error', async () => {
      const all = await page('/v1/inventory?skus=RETIRED,SPLIT');
      assert.deepEqual(all.results.map((r) => [r.SKU, r.active]).sort(), [['RETIRED', false], ['SPLIT', true]]);
      const active = await page('/v1/inventory?skus=RETIRED,SPLIT&activeOnly=true');
      assert.deepEqual(active.results.map((r) => r.SKU), ['SPLIT']);
      assert.deepEqual(active.errors, []);
      const byTime = await page('/v1/inventory?lastUpdatedTs=2026-06-01T10:30:00Z&activeOnly=true&pageLength=100');
      assert.ok(!byTime.results.some((r) => r.SKU === 'RETIRED'));
    });

    it('selects SKUs stocked in the given warehouses and shows only those warehouses', async () => {
      const p = await page(`/v1/inventory?warehouses=${seed.warehouses.channel}`);
      assert.deepEqual(p.results.map((r) => r.SKU).sort(), ['CHAN-ONLY', 'SPLIT']);
      const split = p.results.find((r) => r.SKU === 'SPLIT')!;
      assert.deepEqual(split.warehouses.map((w) => w.warehouseId), [seed.warehouses.channel]);
      assert.equal(split.totalAvailableQuantity, 5);

      const both = await page(`/v1/inventory?warehouses=${seed.warehouses.channel},${seed.warehouses.second}`);
      const again = await page(`/v1/inventory?warehouses=${seed.warehouses.channel}&warehouses=${seed.warehouses.second}`);
      assert.deepEqual(both, again);
      assert.equal(both.results.find((r) => r.SKU === 'SPLIT')!.totalAvailableQuantity, 12);

      const recent = await page(`/v1/inventory?warehouses=${seed.warehouses.main}&lastUpdatedTs=2026-06-01T10:30:00Z`);
      assert.deepEqual(recent.results.map((r) => r.SKU).sort(), ['BULK-01', 'Mixed-Case', 'RETIRED', 'SPLIT']);
    });

    it("answers 400 naming unknown warehouse ids, another account's included", async () => {
      const url = `/v1/inventory?warehouses=${seed.warehouses.main},999999,${other.warehouses.main}`;
      const res = await t.app.inject({ url, headers: bearer(seed.sellerToken) });
      assertV1Error(res, 400, new RegExp(`unknown warehouse ids 999999, ${other.warehouses.main}`));
      const notNumber = await t.app.inject({ url: '/v1/inventory?warehouses=main', headers: bearer(seed.sellerToken) });
      assertV1Error(notNumber, 400, /warehouses: "main" is not a whole number/);
    });

    it('narrows an inventory:self token to its mapped warehouses', async () => {
      const p = await page('/v1/inventory?skus=SPLIT,BULK-00', seed.inventory.token);
      const split = p.results.find((r) => r.SKU === 'SPLIT')!;
      assert.deepEqual(split.warehouses.map((w) => w.warehouseUniqueId), ['WH-SECOND']);
      assert.equal(split.totalAvailableQuantity, 7);
      assert.deepEqual(p.results.find((r) => r.SKU === 'BULK-00')!.warehouses, []);

      const own = await page(`/v1/inventory?warehouses=${seed.warehouses.second}`, seed.inventory.token);
      assert.deepEqual(own.results.map((r) => r.SKU), ['SPLIT']);
      const res = await t.app.inject({ url: `/v1/inventory?warehouses=${seed.warehouses.main}`, headers: bearer(seed.inventory.token) });
      assertV1Error(res, 400, /not mapped to this token's integration/);
    });

    it('needs legacy, inventory or inventory:self (403 naming them otherwise), and answers 401 without a token', async () => {
      assert.equal((await page('/v1/inventory?skus=SPLIT', seed.sellerToken)).results[0]!.totalAvailableQuantity, 14);
      const shipping = await t.app.inject({ url: '/v1/inventory?skus=SPLIT', headers: bearer(seed.shipping.token) });
      assertV1Error(shipping, 403, /legacy, inventory, inventory:self/);
      assertV1Error(await t.app.inject({ url: '/v1/inventory?skus=SPLIT' }), 401);
      assertV1Error(await t.app.inject({ url: '/v1/inventory?skus=SPLIT', headers: bearer('mcs_wrong') }), 401);
    });
  });
});
