import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildProductSearch } from '../../src/db/migrations/034_product_search.js';
import { FORM_FIELDS } from '../../src/domain/reports/imports/product-form.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { importAndRun } from '../helpers/reports.js';
import { stock } from './v1-sales-orders-helpers.js';

/**
 * The catalog search's index (product_search_terms, migration 034, src/domain/catalog/product-search.ts)
 * through the console page: every writer of a product's SKU, title or brand keeps it, so the page finds
 * products by the start of any word of those, and no longer by a word a product lost.
 */

const PASSWORD = 'correct horse battery';
const skuLinks = (body: string) => [...body.matchAll(/class="row-link" href="\/console\/catalog\/\d+">([^<]+)</g)].map((m) => m[1]!);

function form(values: Record<string, string>): [string, string][] {
  const entries: [string, string][] = [];
  if (values.sku !== undefined) entries.push(['sku', values.sku]);
  for (const f of FORM_FIELDS) entries.push([f.name, values[f.name] ?? '']);
  entries.push(['attr_name', ''], ['attr_value', '']);
  return entries;
}

describe('console: the catalog search index, kept by every product writer', () => {
  const clock = manualClock(new Date('2026-11-24T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let owner: ConsoleBrowser;

  const found = async (q: string, b: ConsoleBrowser = owner) => {
    const res = await b.get(`/console/catalog?q=${encodeURIComponent(q)}`);
    assert.equal(res.statusCode, 200, res.body);
    return skuLinks(res.body);
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Search Shop');
    other = await seedAccount(t, 'Other Search Shop');
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@search.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    owner = consoleBrowser(t);
    assert.equal((await owner.signIn('owner@search.example', PASSWORD)).statusCode, 303);
  });
  after(() => t.close());

  it('finds a product created by a stock update by the start of its SKU words', async () => {
    await stock(t, seed.sellerToken, 'ZEBRA-420', seed.warehouses.main, 3);
    assert.deepEqual(await found('zebra'), ['ZEBRA-420']);
    assert.deepEqual(await found('zeb-42'), ['ZEBRA-420'], 'each word starts a word of the SKU');
    assert.deepEqual(await found('zebra420'), ['ZEBRA-420'], 'the SKU run together');
    assert.deepEqual(await found('ebra'), [], 'the middle of a word is not a start');
  });

  it('finds a product from the form by title and brand, and follows an edit of either', async () => {
    const res = await owner.postEntries('/console/catalog/new', form({ sku: 'TP-1', title: 'Heron Teapot', brand: 'Wader Works', price: '20' }));
    assert.equal(res.statusCode, 303, res.body);
    assert.deepEqual(await found('heron'), ['TP-1']);
    assert.deepEqual(await found('WADER teap'), ['TP-1'], 'words of the brand and the title together, any case');
    const id = /\/console\/catalog\/(\d+)/.exec(res.headers.location as string)![1];
    const edited = await owner.postEntries(`/console/catalog/${id}`, form({ title: 'Égret Teapot', brand: '', price: '20' }));
    assert.equal(edited.statusCode, 303, edited.body);
    assert.deepEqual(await found('heron'), [], 'the old title word is gone');
    assert.deepEqual(await found('wader'), [], 'so is the cleared brand');
    assert.deepEqual(await found('egret'), ['TP-1'], 'the new one is found, accents dropped');
    assert.deepEqual(await found('tp'), ['TP-1'], 'the SKU still is');
  });

  it('finds products created and retitled by a product import', async () => {
    const created = await importAndRun(t, seed.sellerToken, 'sku,title,brand\nIMP-1,Ibis Vase,Marsh Studio\nIMP-2,Plain Bowl,\n', { createNewProducts: true });
    assert.equal(created.linesSuccessfullyProcessed, 2, JSON.stringify(created));
    assert.deepEqual(await found('ibis'), ['IMP-1']);
    assert.deepEqual(await found('marsh'), ['IMP-1']);
    clock.advance(1000);
    const retitled = await importAndRun(t, seed.sellerToken, 'sku,title,brand\nIMP-2,Stork Bowl,Marsh Studio\n');
    assert.equal(retitled.linesSuccessfullyProcessed, 1, JSON.stringify(retitled));
    assert.deepEqual(await found('marsh'), ['IMP-1', 'IMP-2']);
    assert.deepEqual(await found('plain'), []);
    assert.deepEqual(await found('stork bowl'), ['IMP-2']);
  });

  it("never finds another account's products", async () => {
    await stock(t, other.sellerToken, 'ZEBRA-999', other.warehouses.main, 1);
    assert.deepEqual(await found('zebra'), ['ZEBRA-420']);
  });

  it("the migration's backfill indexes what the writers indexed", async () => {
    const db = t.deps.db.db;
    const read = async () =>
      (await db.selectFrom('product_search_terms').select(['account_id', 'term', 'product_id']).orderBy('account_id').orderBy('product_id').orderBy('term').execute()).map(
        (r) => `${r.account_id}:${r.product_id}:${r.term}`,
      );
    const written = await read();
    assert.ok(written.length > 10);
    await db.deleteFrom('product_search_terms').execute();
    await buildProductSearch(db as unknown as Parameters<typeof buildProductSearch>[0], 2);
    assert.deepEqual(await read(), written);
  });
});
