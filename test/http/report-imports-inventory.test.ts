import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { assertV1Error } from '../helpers/admin.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { getReport, importAndRun, lineErrors, postImport, runJobs, type ReportJson } from '../helpers/reports.js';

/** Inventory imports (resolutions §8) through POST /v1/report, run by the report job. */
describe('inventory import', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  const inventoryOf = async (sku: string) => {
    const res = await t.app.inject({ url: `/v1/inventory/${encodeURIComponent(sku)}`, headers: bearer(seed.sellerToken) });
    return res.statusCode === 200 ? (res.json() as { warehouses: { warehouseName: string; availableQuantity: number; inventoryLocations: { binLocation: string }[] }[] }) : null;
  };

  it('applies each mode, by warehouse id or name, and creates SKUs only with createNewProducts', async () => {
    const csv = [
      'SKU,Warehouse,Quantity,Onhand Quantity,delta_quantity,bin_location',
      `INV-A,${seed.warehouses.main},10,,,A-1`,
      'INV-B,Main,,7,,',
      'INV-A,main,,,-3,',
    ].join('\r\n');
    const report = await importAndRun(t, seed.sellerToken, csv, { importType: 'Inventory', createNewProducts: true });
    assert.equal(report.status, 'COMPLETE', JSON.stringify(report));
    assert.equal(report.importType, 'Inventory');
    assert.equal(report.totalLines, 3);
    assert.equal(report.expectedLines, 3);
    assert.equal(report.linesSuccessfullyProcessed, 3);
    assert.equal(report.linesWithErrors, 0);
    const a = await inventoryOf('INV-A');
    assert.equal(a?.warehouses.find((w) => w.warehouseName === 'Main')?.availableQuantity, 7);
    const b = await inventoryOf('INV-B');
    assert.equal(b?.warehouses.find((w) => w.warehouseName === 'Main')?.availableQuantity, 7);

    const without = await importAndRun(t, seed.sellerToken, 'sku,warehouse,quantity\nINV-NEW,Main,4\nINV-A,Main,9\n', { importType: 'Inventory' });
    assert.equal(without.status, 'COMPLETE');
    assert.equal(without.linesSuccessfullyProcessed, 1);
    assert.equal(without.linesWithErrors, 1);
    assert.equal(await inventoryOf('INV-NEW'), null);
    assert.match(await lineErrors(t, seed.sellerToken, without.reportId), /^line,column,message\r?\n2,sku,.*createNewProducts/m);
  });

  it('refuses per line: controlled warehouse, unknown warehouse, two modes, bad numbers, ragged rows, negative stock', async () => {
    const csv = [
      'sku,warehouse,quantity,delta_quantity',
      'INV-C,Second,5,', // controlled by the inventory integration
      'INV-C,Nowhere,5,',
      'INV-C,Main,5,1',
      'INV-C,Main,five,',
      'INV-C,Main',
      'INV-C,Main,,-100',
      'INV-C,Main,2,',
    ].join('\n');
    const report = await importAndRun(t, seed.sellerToken, csv, { importType: 'Inventory', createNewProducts: true });
    assert.equal(report.status, 'COMPLETE');
    assert.equal(report.totalLines, 7);
    assert.equal(report.linesSuccessfullyProcessed, 1);
    assert.equal(report.linesWithErrors, 6);
    const errors = await lineErrors(t, seed.sellerToken, report.reportId);
    assert.match(errors, /^2,warehouse,.*controlled by an integration/m);
    assert.match(errors, /^3,warehouse,.*not found/m);
    assert.match(errors, /^4,.*only one of/m);
    assert.match(errors, /^5,quantity,.*not a whole number/m);
    assert.match(errors, /^6,,the line has 2 fields but the header has 4/m);
    assert.match(errors, /^7,delta_quantity,.*negative/m);
    assert.equal((await inventoryOf('INV-C'))?.warehouses.find((w) => w.warehouseName === 'Main')?.availableQuantity, 2);
  });

  it('a header without the needed columns, a wrong delimiter or broken quoting fails the report with errorMessage, applying nothing', async () => {
    const missing = await importAndRun(t, seed.sellerToken, 'sku,quantity\nX,1\n', { importType: 'Inventory' });
    assert.equal(missing.status, 'CANCELED');
    assert.match(missing.errorMessage ?? '', /no warehouse column/);
    const semicolons = await importAndRun(t, seed.sellerToken, 'sku;warehouse;quantity\nINV-D;Main;1\n', { importType: 'Inventory', createNewProducts: true });
    assert.equal(semicolons.status, 'CANCELED');
    assert.match(semicolons.errorMessage ?? '', /semicolon.*delimiter ";"/);
    const withDelimiter = await importAndRun(t, seed.sellerToken, 'sku;warehouse;quantity\nINV-D;Main;1\n', { importType: 'Inventory', createNewProducts: true, delimiter: ';' });
    assert.equal(withDelimiter.status, 'COMPLETE');
    assert.equal(withDelimiter.linesSuccessfullyProcessed, 1);
    const broken = await importAndRun(t, seed.sellerToken, 'sku,warehouse,quantity\nINV-E,Main,1\n"INV-F"x,Main,1\nINV-G,Main,1\n', { importType: 'Inventory', createNewProducts: true });
    assert.equal(broken.status, 'CANCELED');
    assert.match(broken.errorMessage ?? '', /not valid CSV at line 3.*nothing was imported/);
    assert.equal(await inventoryOf('INV-E'), null);
  });

  it('a stray quote in an unquoted value ends the import CANCELED at its first run, naming the line, with no retry (issue 22)', async () => {
    const created = await postImport(t, seed.sellerToken, 'sku,warehouse,quantity\nINV-S1,Main,1\nM2 "x",Main,3\nINV-S3,Main,1\n', { importType: 'Inventory', createNewProducts: true });
    assert.equal(created.statusCode, 200, created.body);
    const { reportId } = created.json() as { reportId: number };
    await runJobs(t);
    const report = (await getReport(t, seed.sellerToken, reportId)).json() as ReportJson;
    assert.equal(report.status, 'CANCELED');
    assert.match(report.errorMessage ?? '', /^the file is not valid CSV at line 3: a " is inside the unquoted value of column 1 \(sku\), after "M2 ".*; nothing was imported$/);
    assert.equal(await inventoryOf('INV-S1'), null);
    // One attempt, and it succeeded: the file is refused, not the job failed and retried.
    const jobs = await t.deps.db.db.selectFrom('jobs').select(['status', 'attempts', 'last_error']).where('type', '=', 'report.run').where('payload', 'like', `%"reportId":${reportId}}%`).execute();
    assert.deepEqual(jobs, [{ status: 'SUCCEEDED', attempts: 1, last_error: null }]);
  });

  it('a file gone between the two readings ends the import CANCELED at once, saying how far it got', async () => {
    const created = await postImport(t, seed.sellerToken, 'sku,warehouse,quantity\nINV-G1,Main,1\n', { importType: 'Inventory', createNewProducts: true });
    const { reportId } = created.json() as { reportId: number };
    const files = t.deps.files;
    const read = files.read.bind(files);
    let reads = 0;
    // The first reading finds the file; the second (the one that applies it) no longer does.
    files.read = async (accountId, fileId) => (++reads === 1 ? read(accountId, fileId) : null);
    try {
      await runJobs(t);
    } finally {
      files.read = read;
    }
    const report = (await getReport(t, seed.sellerToken, reportId)).json() as ReportJson;
    assert.equal(report.status, 'CANCELED');
    assert.match(report.errorMessage ?? '', /^the file is no longer stored .*; 0 lines were imported before it$/);
    const jobs = await t.deps.db.db.selectFrom('jobs').select(['status', 'attempts']).where('type', '=', 'report.run').where('payload', 'like', `%"reportId":${reportId}}%`).execute();
    assert.deepEqual(jobs, [{ status: 'SUCCEEDED', attempts: 1 }]);
  });

  it('an import naming a delimiter that is not one plain character is a 400 at creation, as an export is', async () => {
    const before = await t.deps.db.db.selectFrom('reports').select('id').execute();
    for (const delimiter of ['::', '"']) {
      const res = await postImport(t, seed.sellerToken, 'sku,warehouse,quantity\nINV-X,Main,1\n', { importType: 'Inventory', delimiter });
      assertV1Error(res, 400, /delimiter: must be one character other than a quote or a line break/);
    }
    assert.equal((await t.deps.db.db.selectFrom('reports').select('id').execute()).length, before.length, 'no report was created');
  });

  it('BOM, CRLF and quoted fields with line breaks are read; blank lines are not data', async () => {
    const csv = '\ufeffsku,warehouse,quantity,bin_location\r\n"INV-H",Main,3,"shelf\r\nback"\r\n\r\n,,,\r\nINV-I,Main,4,\r\n';
    const report = await importAndRun(t, seed.sellerToken, csv, { importType: 'Inventory', createNewProducts: true });
    assert.equal(report.status, 'COMPLETE', JSON.stringify(report));
    assert.equal(report.totalLines, 2);
    assert.equal(report.linesSuccessfullyProcessed, 2);
    const h = await inventoryOf('INV-H');
    assert.equal(h?.warehouses.find((w) => w.warehouseName === 'Main')?.inventoryLocations[0]?.binLocation, 'shelf\r\nback');
  });

  it('a file that is not UTF-8 is a 400 at upload naming the line; nothing is created', async () => {
    const latin1 = Buffer.concat([Buffer.from('sku,warehouse,quantity\nINV-J,Main,1\nINV-'), Buffer.from([0xe9]), Buffer.from(',Main,1\n')]);
    const res = await postImport(t, seed.sellerToken, latin1, { importType: 'Inventory' });
    assertV1Error(res, 400, /not UTF-8 text \(line 3\)/);
    const files = await t.deps.db.db.selectFrom('stored_files').select('id').where('account_id', '=', seed.accountId).execute();
    const reports = await t.deps.db.db.selectFrom('reports').select('source_file_id').where('account_id', '=', seed.accountId).execute();
    assert.equal(files.length, reports.length, 'no file outlives a refused upload');
  });

  it("another account's report is 404", async () => {
    const other = await seedAccount(t, 'Other');
    const report = await importAndRun(t, seed.sellerToken, 'sku,warehouse,quantity\n', { importType: 'Inventory' });
    const res = await getReport(t, other.sellerToken, report.reportId);
    assertV1Error(res, 404);
    const file = await t.app.inject({ url: `/v1/report/${report.reportId}/file`, headers: bearer(other.sellerToken) });
    assertV1Error(file, 404);
  });
});
