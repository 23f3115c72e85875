import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { JobWorker } from '../../src/jobs/worker.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { stock } from '../http/v1-sales-orders-helpers.js';
import { skip, startConsoleHarness, type ConsoleHarness } from './support.js';

const EMAIL = 'owner@reports-browser.example';

describe('console in a browser: reports (upload an import, download its line errors, file formats and validations)', () => {
  let h: ConsoleHarness;
  let seed: SeededAccount;

  before(async () => {
    if (skip) return;
    h = await startConsoleHarness();
    seed = await seedAccount(h.t, 'Reports Browser Shop');
    await h.addSeller(seed.accountId, EMAIL);
    // The SKU exists (an import of stock does not create products).
    await stock(h.t, seed.sellerToken, 'BR-MUG', seed.warehouses.main, 1);
  });
  after(async () => {
    await h?.close();
  });

  it('uploads an import with a bad line; after the worker runs the seller downloads its line errors', { skip }, async () => {
    const page = await h.newPage();
    await h.signIn(page, EMAIL);
    await page.waitForURL(`${h.base}/console/home`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
    await page.waitForURL(`${h.base}/console/reports`);

    const csv = 'sku,warehouse,quantity\nBR-MUG,Main,4\nBR-MUG,Nowhere,5\n';
    await page.getByLabel('File').setInputFiles({ name: 'stock.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByLabel('Import type').selectOption('Inventory');
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Upload and import' }) });
    await form.getByLabel('Label', { exact: true }).fill('Stock from the browser');
    await form.getByRole('button', { name: 'Upload and import' }).click();
    await page.waitForURL(/\/console\/reports\/\d+$/);
    const reportUrl = page.url();
    await page.getByRole('status').filter({ hasText: /Import #\d+ queued/ }).waitFor();

    // The worker runs; the page's progress section refreshes itself (htmx, every 2 s) until the report is final.
    await new JobWorker(h.t.deps, { schedules: [] }).runUntilIdle();
    const progress = page.locator('#progress');
    await progress.getByText('Done', { exact: true }).waitFor();
    assert.match((await progress.textContent()) ?? '', /2 of 2 lines read, 1 applied, 1 with errors/);
    const errorRow = page.getByRole('table', { name: 'Line errors, in file order' }).getByRole('row', { name: /Nowhere/ });
    assert.match((await errorRow.textContent()) ?? '', /^3warehouse/);

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download the line errors (CSV)' }).click();
    const file = await download;
    const path = await file.path();
    const text = await readFile(path, 'utf8');
    assert.match(text, /^line,column,message\r?\n3,warehouse,[^\r\n]*Nowhere/);
    assert.equal(page.url(), reportUrl, 'the download leaves the page as it was');

    const stock = await h.t.app.inject({ url: '/v1/inventory/BR-MUG', headers: bearer(seed.sellerToken) });
    assert.equal(stock.json<{ totalAvailableQuantity: number }>().totalAvailableQuantity, 4, 'the good line was applied');
    await h.finish(page);
  });

  it('finds the columns of a stock file, downloads a sample, validates it and downloads the results, on a phone too', { skip }, async () => {
    const page = await h.newPage();
    await h.signIn(page, EMAIL);
    await page.waitForURL(`${h.base}/console/home`);
    await page.goto(`${h.base}/console/reports`);
    await page.getByRole('link', { name: 'import file formats' }).click();
    await page.waitForURL(`${h.base}/console/reports/formats`);
    const stockSection = page.getByRole('region', { name: 'Stock levels' });
    assert.match((await stockSection.getByRole('table').textContent()) ?? '', /delta_quantity\s*one of these three/);
    const download = page.waitForEvent('download');
    await stockSection.getByRole('link', { name: 'Download a sample' }).click();
    const sample = await readFile(await (await download).path(), 'utf8');
    assert.match(sample, /^sku,warehouse,quantity,onhand_quantity,delta_quantity,bin_location\r?\nBR-MUG,Main,25/);

    // The sample, with one line broken, through the validation form.
    await page.goto(`${h.base}/console/reports/validation`);
    await page.getByLabel('File').setInputFiles({ name: 'stock.csv', mimeType: 'text/csv', buffer: Buffer.from(`${sample}BR-MUG,Nowhere,1,,,\n`) });
    await page.getByLabel('Import type').selectOption({ label: 'Stock levels' });
    await page.getByRole('button', { name: 'Upload and validate' }).click();
    await page.waitForURL(/\/console\/reports\/validation\/\d+$/);
    await new JobWorker(h.t.deps, { schedules: [] }).runUntilIdle();
    await page.reload();
    const results = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download every result (CSV)' }).click();
    assert.match(await readFile(await (await results).path(), 'utf8'), /^line,column,severity,message\r?\n5,warehouse,ERROR,[^\r\n]*Nowhere/);
    await page.goto(`${h.base}/console/reports/validation`);
    assert.match((await page.getByRole('table', { name: 'Past validations, newest first' }).textContent()) ?? '', /Stock levels/);

    for (const url of ['/console/reports/formats', '/console/reports/validation']) {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${h.base}${url}`);
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390, `${url} fits a phone`);
    }
    await h.finish(page);
  });
});
