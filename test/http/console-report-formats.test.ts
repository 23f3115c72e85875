import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { runJobs } from '../helpers/reports.js';
import { IMPORT_TYPES } from '../../src/domain/reports/model.js';

const PASSWORD = 'correct horse battery';

/**
 * Issue 24 item 8 (reports part): a column guide, an empty template and a sample per import type; the samples
 * use the seller's own warehouse and SKUs and validate cleanly; validation results as CSV; past validations.
 */
describe('console: import file formats, samples and validation results', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let b: ConsoleBrowser;
  let otherBrowser: ConsoleBrowser;

  const validate = async (browser: ConsoleBrowser, importType: string, csv: string, extra: Record<string, string> = {}) => {
    const res = await browser.upload('/console/reports/validation', { importType, ...extra }, { name: 'check.csv', content: csv });
    assert.equal(res.statusCode, 303, res.body);
    const location = res.headers.location as string;
    assert.match(location, /^\/console\/reports\/validation\/\d+$/, location);
    await runJobs(t);
    return location;
  };

  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t, 'Formats Shop');
    other = await seedAccount(t, 'Other Formats Shop');
    for (const [s, email] of [
      [seed, 'owner@formats.example'],
      [other, 'owner@other-formats.example'],
    ] as const) {
      const created = await admin(t, 'POST', `/admin/accounts/${s.accountId}/users`, { email, password: PASSWORD, role: 'OWNER' });
      assert.equal(created.statusCode, 201, created.body);
    }
    b = consoleBrowser(t);
    assert.equal((await b.signIn('owner@formats.example', PASSWORD)).statusCode, 303);
    otherBrowser = consoleBrowser(t);
    assert.equal((await otherBrowser.signIn('owner@other-formats.example', PASSWORD)).statusCode, 303);
    const stock = await t.app.inject({
      method: 'POST',
      url: '/v1/inventory',
      headers: bearer(seed.sellerToken),
      payload: {
        products: ['FMT-A', 'FMT-B', 'FMT-C'].map((SKU) => ({ SKU, warehouseId: seed.warehouses.main, quantity: 5 })),
      },
    });
    assert.equal(stock.statusCode, 200, stock.body);
  });
  after(() => t.close());

  it('lists every import type in seller words with its columns and download links', async () => {
    const page = await b.get('/console/reports/formats');
    assert.equal(page.statusCode, 200);
    for (const title of ['Stock levels', 'Products', 'Products, through a saved column template', 'Kits', 'Orders']) assert.ok(page.body.includes(`>${title}</h2>`), title);
    for (const type of IMPORT_TYPES) {
      assert.ok(page.body.includes(`href="/console/reports/formats/${type.toLowerCase()}/template.csv"`), `${type} template link`);
      assert.ok(page.body.includes(`href="/console/reports/formats/${type.toLowerCase()}/sample.csv"`), `${type} sample link`);
    }
    assert.match(page.body, /<code>delta_quantity<\/code><\/td><td>one of these three<\/td>/);
    assert.match(page.body, /<code>ship_postal_code<\/code><\/td><td>required with an address<\/td>/);
    // The import form names the types in seller words and points to the guide.
    const reports = await b.get('/console/reports');
    assert.match(reports.body, /<option value="Inventory">Stock levels<\/option>/);
    assert.match(reports.body, /href="\/console\/reports\/formats"/);
  });

  it('serves an empty template and a sample per type as CSV downloads', async () => {
    for (const type of IMPORT_TYPES) {
      const template = await b.get(`/console/reports/formats/${type.toLowerCase()}/template.csv`);
      assert.equal(template.statusCode, 200, type);
      assert.match(template.headers['content-type'] as string, /^text\/csv/);
      assert.match(template.headers['content-disposition'] as string, new RegExp(`attachment; filename="${type.toLowerCase()}-template.csv"`));
      const header = parse(template.body) as string[][];
      assert.equal(header.length, 1, `${type}: the template is the header row only`);
      const sample = parse((await b.get(`/console/reports/formats/${type.toLowerCase()}/sample.csv`)).body) as string[][];
      assert.deepEqual(sample[0], header[0], `${type}: the sample has the template's header`);
      assert.ok(sample.length >= 3, `${type}: the sample has lines`);
      for (const row of sample) assert.equal(row.length, header[0]!.length, `${type}: every sample line has every column`);
    }
    const stock = parse((await b.get('/console/reports/formats/inventory/sample.csv')).body) as string[][];
    assert.equal(stock[1]![0], 'FMT-A', "the stock sample uses the seller's SKUs");
    assert.equal(stock[1]![1], 'Main', "and a warehouse whose stock the seller sets");
    assert.equal((await b.get('/console/reports/formats/nope/template.csv')).statusCode, 404);
    assert.equal((await b.get('/console/reports/formats/inventory/other.csv')).statusCode, 404);
  });

  it("validates the stock, products and kits samples with no problem on the seller's account", async () => {
    for (const [type, path] of [
      ['Inventory', 'inventory'],
      ['TemplatelessProduct', 'templatelessproduct'],
      ['Kits', 'kits'],
    ] as const) {
      const sample = (await b.get(`/console/reports/formats/${path}/sample.csv`)).body;
      // The kit in the sample is a new SKU: the form's "Create SKUs that do not exist" creates it.
      const location = await validate(b, type, sample, type === 'Kits' ? { createNewProducts: 'true' } : {});
      const page = await b.get(location);
      assert.match(page.body, /No problems found\./, `${type}: ${page.body.slice(page.body.indexOf('<main'), page.body.indexOf('<main') + 2000)}`);
      assert.doesNotMatch(page.body, /results\.csv/, 'no download when there is nothing to download');
    }
  });

  it('downloads every result of a validation as CSV, and lists past validations newest first', async () => {
    const location = await validate(b, 'Inventory', 'sku,warehouse,quantity\nFMT-A,Main,1\nFMT-A,Nowhere,2\nFMT-B,Nowhere,x\n');
    const page = await b.get(location);
    assert.match(page.body, new RegExp(`href="${location}/results.csv" hx-boost="false"`));
    const csv = await b.get(`${location}/results.csv`);
    assert.equal(csv.statusCode, 200);
    assert.match(csv.headers['content-disposition'] as string, /attachment; filename="validation-\d+-results.csv"/);
    const rows = parse(csv.body, { columns: true }) as { line: string; column: string; severity: string; message: string }[];
    assert.equal(rows.length, 2, `${csv.body}\n${page.body.slice(page.body.indexOf('<main'))}`);
    assert.ok(rows.some((r) => r.line === '3' && r.column === 'warehouse' && /Nowhere/.test(r.message)), csv.body);
    assert.ok(rows.some((r) => r.line === '4' && r.column === 'quantity'), csv.body);

    const list = await b.get('/console/reports/validation');
    const id = location.split('/').pop()!;
    assert.match(list.body, new RegExp(`<a href="/console/reports/validation/${id}">#${id}</a></td><td>Stock levels</td>`));
    const positions = [...list.body.matchAll(/href="\/console\/reports\/validation\/(\d+)">/g)].map((m) => Number(m[1]));
    assert.deepEqual(positions, [...positions].sort((x, y) => y - x), 'newest first');
    // Another account sees none of them and cannot download them.
    const theirs = await otherBrowser.get('/console/reports/validation');
    assert.match(theirs.body, /No file validated yet/);
    assert.equal((await otherBrowser.get(`${location}/results.csv`)).statusCode, 404);
  });

  it('pages through past validations', async () => {
    for (let i = 0; i < 21; i++) {
      await otherBrowser.upload('/console/reports/validation', { importType: 'Kits' }, { name: `k${i}.csv`, content: 'kit_sku,component_sku,quantity\nK,C,1\n' });
    }
    const first = await otherBrowser.get('/console/reports/validation');
    const ids = [...first.body.matchAll(/href="\/console\/reports\/validation\/(\d+)">/g)].map((m) => Number(m[1]));
    assert.equal(ids.length, 20);
    const next = /href="(\/console\/reports\/validation\?before=\d+)"/.exec(first.body.replaceAll('&amp;', '&'));
    assert.ok(next, 'a link to the next page');
    const second = await otherBrowser.get(next[1]!);
    const more = [...second.body.matchAll(/href="\/console\/reports\/validation\/(\d+)">/g)].map((m) => Number(m[1]));
    assert.equal(more.length, 1);
    assert.ok(more[0]! < Math.min(...ids));
  });
});
