import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { postExport, runJobs } from '../helpers/reports.js';

const PASSWORD = 'correct horse battery';

/** The seller's report pages over HTTP: exports, uploaded imports, downloads, line errors, validations. */
describe('console: seller report pages', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let b: ConsoleBrowser;

  const follow = async (res: { statusCode: number; headers: Record<string, unknown>; body: string }) => {
    assert.equal(res.statusCode, 303, res.body);
    return b.get(res.headers.location as string);
  };

  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t, 'Console Reports Shop');
    other = await seedAccount(t, 'Other Shop');
    const created = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@reports.example', password: PASSWORD, role: 'OWNER' });
    assert.equal(created.statusCode, 201, created.body);
    b = consoleBrowser(t);
    assert.equal((await b.signIn('owner@reports.example', PASSWORD)).statusCode, 303);
    // Some stock to export.
    const stock = await t.app.inject({
      method: 'POST',
      url: '/v1/inventory',
      headers: bearer(seed.sellerToken),
      payload: { products: [{ SKU: 'REP-MUG', warehouseId: seed.warehouses.main, quantity: 7 }] },
    });
    assert.equal(stock.statusCode, 200, stock.body);
  });
  after(() => t.close());

  it('creates an export through the page; the worker runs it; the page shows it COMPLETE and downloads the file', async () => {
    assert.equal((await b.get('/console/reports')).statusCode, 200);
    const created = await b.post('/console/reports/export', { exportType: 'Inventory', label: 'Stock count', includeHeader: '' });
    assert.equal(created.statusCode, 303, created.body);
    const location = created.headers.location as string;
    assert.match(location, /^\/console\/reports\/\d+$/);
    const pending = await b.get(location);
    assert.match(pending.body, /Export #\d+ queued/);
    assert.match(pending.body, />Waiting</);
    assert.match(pending.body, /hx-trigger="every 2s"/);
    assert.equal((await b.get(`${location}/progress`, { 'hx-request': 'true' })).headers['hx-refresh'], undefined, 'no reload while it runs');
    await runJobs(t);
    const done = await b.get(location);
    assert.match(done.body, />Done</);
    assert.doesNotMatch(done.body, /hx-trigger/);
    assert.match(done.body, /owner@reports\.example/);
    const file = await b.get(`${location}/file`);
    assert.equal(file.statusCode, 200);
    assert.match(file.headers['content-type'] as string, /text\/csv/);
    assert.match(file.headers['content-disposition'] as string, /attachment/);
    assert.match(file.body, /REP-MUG/);
    const list = await b.get('/console/reports');
    assert.match(list.body, /Stock count/);
    assert.match((await b.get(`${location}/progress`)).body, /^<section id="progress"/);
  });

  it('imports an uploaded file with a bad line; the worker runs it; the page lists the line error and downloads them', async () => {
    const csv = 'sku,warehouse,quantity\nREP-MUG,Main,9\nREP-MUG,Nowhere,5\n';
    const res = await b.upload('/console/reports/import', { importType: 'Inventory', label: 'Stock file' }, { name: 'stock.csv', content: csv });
    const page = await follow(res);
    assert.match(page.body, /Import #\d+ queued/);
    const location = res.headers.location as string;
    await runJobs(t);
    const done = await b.get(location);
    assert.match(done.body, />Done</);
    assert.match(done.body, /2 of 2 lines read, 1 applied, 1 with errors/);
    assert.match(done.body, /<td class="num">3<\/td><td>warehouse<\/td><td>[^<]*Nowhere/);
    assert.match(done.body, /href="\/console\/reports\/\d+\/errors" hx-boost="false"/, 'a download is a plain link, not an htmx swap');
    // A page loaded while the report ran polls its progress: once final, htmx reloads the whole page.
    assert.equal((await b.get(`${location}/progress`, { 'hx-request': 'true' })).headers['hx-refresh'], 'true');
    const errors = await b.get(`${location}/errors`);
    assert.equal(errors.statusCode, 200);
    assert.match(errors.body, /^line,column,message\r?\n3,warehouse,/);
    const uploaded = await b.get(`${location}/file`);
    assert.equal(uploaded.body, csv);
    const stock = await t.app.inject({ url: '/v1/inventory/REP-MUG', headers: bearer(seed.sellerToken) });
    assert.equal(stock.json<{ totalAvailableQuantity: number }>().totalAvailableQuantity, 9);
  });

  it('refuses an upload without the file or with bad options, keeping the seller on the page with the reason', async () => {
    const refused = await b.upload('/console/reports/import', { importType: 'NoSuchType' }, { name: 'x.csv', content: 'sku\nA\n' });
    const page = await follow(refused);
    assert.match(page.body, /class="flash bad"[^>]*>Import type: /);
  });

  it("answers another account's report with the 404 page, for the page, its file and its errors", async () => {
    const theirs = await postExport(t, other.sellerToken, {});
    const id = theirs.json<{ reportId: number }>().reportId;
    for (const url of [`/console/reports/${id}`, `/console/reports/${id}/file`, `/console/reports/${id}/errors`, '/console/reports/abc']) {
      const res = await b.get(url);
      assert.equal(res.statusCode, 404, url);
      assert.match(res.headers['content-type'] as string, /text\/html/);
      assert.match(res.body, /Not found/);
    }
  });

  it('refuses POSTs without the CSRF token (403): export form and upload', async () => {
    const before = await t.deps.db.db.selectFrom('reports').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    assert.equal((await b.post('/console/reports/export', { exportType: 'Products' }, { csrf: false })).statusCode, 403);
    assert.equal((await b.upload('/console/reports/import', { importType: 'Inventory' }, { name: 'x.csv', content: 'sku\nA\n' }, { csrf: false })).statusCode, 403);
    const afterCount = await t.deps.db.db.selectFrom('reports').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    assert.equal(Number(afterCount.n), Number(before.n));
  });

  it('validates an uploaded file without importing it: progress, then the results by group', async () => {
    assert.equal((await b.get('/console/reports/validation')).statusCode, 200);
    const res = await b.upload('/console/reports/validation', { importType: 'Inventory' }, { name: 'check.csv', content: 'sku,warehouse,quantity\nREP-MUG,Main,1\nREP-MUG,Nowhere,2\n' });
    const page = await follow(res);
    assert.match(page.body, /Validation #\d+ queued/);
    await runJobs(t);
    const done = await b.get(res.headers.location as string);
    assert.match(done.body, />Done</);
    assert.match(done.body, /<td class="num">3<\/td><td>warehouse<\/td><td>Error<\/td>/);
    assert.match(done.body, /<dt>File type<\/dt><dd>Stock levels<\/dd>/);
    const stock = await t.app.inject({ url: '/v1/inventory/REP-MUG', headers: bearer(seed.sellerToken) });
    assert.notEqual(stock.json<{ totalAvailableQuantity: number }>().totalAvailableQuantity, 1, 'nothing imported');
    // Read from Set-Cookie: the test browser sends cookies back decoded, and this message holds a ";".
    const bad = await b.upload('/console/reports/validation', { importType: 'Nope' }, { name: 'x.csv', content: 'sku\nA\n' });
    assert.equal(bad.statusCode, 303);
    assert.equal(bad.headers.location, '/console/reports/validation');
    assert.match(decodeURIComponent(String(bad.headers['set-cookie'])), /mcs_flash=\{"kind":"bad","text":"Import type: \\"Nope\\" is not an import type/);
  });
});
