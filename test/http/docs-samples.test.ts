import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { withTx } from '../../src/db/tx.js';
import { createFullSandbox } from '../../src/cli/sandbox.js';
import { buildSandbox, type SandboxSummary } from '../../src/domain/sandbox-partner/sandbox.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer } from '../helpers/fixtures.js';
import { importAndRun, lineErrors } from '../helpers/reports.js';
import { REPO_ROOT } from '../helpers/repo-root.js';

const sample = (name: string) => readFileSync(path.join(REPO_ROOT, 'docs/partners/samples', name), 'utf8');

/**
 * docs/partners/reports.md says the sample files import into a fresh sandbox without a line error, in its
 * order: this replays exactly that, through POST /v1/report and the worker.
 */
/** Imports one sample and checks it applied every line. */
async function importsCleanly(t: TestApp, token: string, file: string, fields: Record<string, string | number | boolean>, lines: number) {
  const report = await importAndRun(t, token, sample(file), fields);
  assert.equal(report.status, 'COMPLETE', `${file}: ${report.errorMessage ?? ''}`);
  assert.equal(report.linesWithErrors, 0, `${file}: ${await lineErrors(t, token, report.reportId)}`);
  assert.equal(report.linesSuccessfullyProcessed, lines, file);
}

/** The order docs/partners/reports.md gives: products, stock in Main, kits, orders, products through the template. */
async function replaySamples(t: TestApp, sandbox: SandboxSummary): Promise<void> {
  const token = sandbox.sellerToken.accessToken;
  await importsCleanly(t, token, 'templateless-products.csv', { importType: 'TemplatelessProduct', createNewProducts: true }, 3);
  await importsCleanly(t, token, 'inventory.csv', { importType: 'Inventory' }, 4);
  await importsCleanly(t, token, 'kits.csv', { importType: 'Kits', createNewProducts: true }, 4);
  await importsCleanly(t, token, 'orders.csv', { importType: 'Orders' }, 3);
  const template = await admin(t, 'POST', `/admin/accounts/${sandbox.account.accountId}/import-templates`, {
    name: 'Supplier feed',
    importType: 'FullProductData',
    columns: { 'Item Number': 'sku', 'Product Name': 'title', 'Retail Price': 'price', Colour: 'color' },
  });
  assert.equal(template.statusCode, 201, template.body);
  await importsCleanly(t, token, 'full-product-data.csv', { importType: 'FullProductData', templateId: (template.json() as { templateId: number }).templateId }, 2);
}

/**
 * docs/partners/reports.md says the sample files import into a fresh sandbox without a line error, in its
 * order: this replays exactly that, through POST /v1/report and the worker.
 */
describe("the partner docs' sample import files", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  it('import cleanly into the sandbox `npm run cli -- sandbox` creates (its products, stock and orders included)', async () => {
    const { summary } = await withTx(t.deps.db.db, (tx) => createFullSandbox(tx, t.deps.signer, t.deps.clock.now(), 'Docs sandbox'));
    await replaySamples(t, summary);
    const orders = await t.app.inject({ url: '/v1/salesOrder?channelOrderIds=POS-1001,POS-1002', headers: bearer(summary.sellerToken.accessToken) });
    assert.equal(orders.statusCode, 200, orders.body);
    assert.deepEqual((orders.json() as { results: { channelOrderId: string }[] }).results.map((o) => o.channelOrderId).sort(), ['POS-1001', 'POS-1002']);
  });

  it('leave exactly what the files say in an account with nothing else: stock at Main and the two orders holding it', async () => {
    const sandbox = await withTx(t.deps.db.db, (tx) => buildSandbox(tx, t.deps.signer, t.deps.clock.now(), { accountName: 'Bare sandbox' }));
    await replaySamples(t, sandbox);
    // On hand 25 − 2, 40 and +10; available less the units the sample orders hold (2 red mugs and a T-shirt on
    // POS-1001, a blue mug on POS-1002).
    const main = sandbox.warehouses.find((w) => w.name === 'Main')!.warehouseId;
    const stock = await t.app.inject({ url: `/v1/inventory?warehouses=${main}`, headers: bearer(sandbox.sellerToken.accessToken) });
    assert.equal(stock.statusCode, 200, stock.body);
    type Row = { SKU: string; totalAvailableQuantity: number; warehouses: { inventoryLocations: { quantity: number }[] }[] };
    const figures = (stock.json() as { results: Row[] }).results
      .map((r) => [r.SKU, r.warehouses[0]!.inventoryLocations.reduce((sum, l) => sum + l.quantity, 0), r.totalAvailableQuantity])
      .sort();
    assert.deepEqual(figures, [
      ['SANDBOX-MUG-BLUE', 40, 39],
      ['SANDBOX-MUG-RED', 23, 21],
      ['SANDBOX-TEE-M', 10, 9],
    ]);
  });

  it('the inventory sample alone does not add SKUs: without the products first, its unknown SKUs are line errors', async () => {
    const sandbox = await withTx(t.deps.db.db, (tx) => buildSandbox(tx, t.deps.signer, t.deps.clock.now(), { accountName: 'Empty sandbox' }));
    const report = await importAndRun(t, sandbox.sellerToken.accessToken, sample('inventory.csv'), { importType: 'Inventory' });
    assert.ok(report.linesWithErrors > 0, JSON.stringify(report));
  });
});
