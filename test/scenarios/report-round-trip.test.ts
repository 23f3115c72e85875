import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { getReport, importAndRun, lineErrors, postExport, runJobs, type ReportJson } from '../helpers/reports.js';

/**
 * A seller's catalog round trip through files (issue 9): import products, export them, edit the export in
 * a spreadsheet, import the edited file, export again — the second export is the first with the edits.
 */
describe('catalog round trip: export → edit → import → export', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  async function exportCatalog(body: Record<string, unknown> = {}): Promise<{ report: ReportJson; rows: Record<string, string>[]; text: string }> {
    const created = await postExport(t, seed.sellerToken, body);
    assert.equal(created.statusCode, 200, created.body);
    await runJobs(t);
    const report = (await getReport(t, seed.sellerToken, (created.json() as ReportJson).reportId)).json() as ReportJson;
    assert.equal(report.status, 'COMPLETE', JSON.stringify(report));
    assert.ok(report.filePath?.endsWith(`/v1/report/${report.reportId}/file`));
    const file = await t.app.inject({ url: new URL(report.filePath!).pathname, headers: bearer(seed.sellerToken) });
    assert.equal(file.statusCode, 200, file.body);
    assert.match(String(file.headers['content-type']), /^text\/csv/);
    assert.match(String(file.headers['content-disposition']), /^attachment; filename="/);
    const rows = parse(file.body, { columns: true, bom: true }) as Record<string, string>[];
    return { report, rows, text: file.body };
  }

  it('the edited export imports back, and the next export shows exactly the edits', async () => {
    const seedFile = [
      'sku,title,brand,price,color,size',
      'RT-1,Blue mug,Acme,12.50,blue,M',
      'RT-2,Red mug,Acme,13.00,red,',
      'RT-3,"Plate, large",Plates & Co,7.5,white,L',
    ].join('\n');
    const seeded = await importAndRun(t, seed.sellerToken, seedFile, { createNewProducts: true });
    assert.equal(seeded.status, 'COMPLETE', JSON.stringify(seeded));
    assert.equal(seeded.linesSuccessfullyProcessed, 3);

    const first = await exportCatalog();
    assert.deepEqual(first.report.columnTypes, Object.keys(first.rows[0]!));
    assert.ok(first.report.columnTypes.includes('color') && first.report.columnTypes.includes('size'));
    const bySku = new Map(first.rows.map((r) => [r.sku, r]));
    assert.equal(bySku.get('RT-3')?.title, 'Plate, large');
    assert.equal(bySku.get('RT-1')?.price, '12.50');

    // The seller edits two cells and blanks one attribute, then imports the whole export with overwriteWithBlank.
    const edited = first.rows.map((r) =>
      r.sku === 'RT-1' ? { ...r, title: 'Blue mug, large', price: '14.00' } : r.sku === 'RT-2' ? { ...r, color: '' } : r,
    );
    const csv = stringify(edited, { header: true, columns: first.report.columnTypes });
    const reimport = await importAndRun(t, seed.sellerToken, csv, { overwriteWithBlank: true });
    assert.equal(reimport.status, 'COMPLETE', JSON.stringify(reimport));
    assert.equal(reimport.totalLines, 3);
    assert.equal(reimport.linesSuccessfullyProcessed, 3, await lineErrors(t, seed.sellerToken, reimport.reportId));
    assert.equal(reimport.linesWithErrors, 0);

    const second = await exportCatalog();
    const after2 = new Map(second.rows.map((r) => [r.sku, r]));
    for (const [sku, before2] of bySku) {
      const now = after2.get(sku)!;
      const expected: Record<string, string> = { ...before2, ...(sku === 'RT-1' ? { title: 'Blue mug, large', price: '14.00' } : {}), ...(sku === 'RT-2' ? { color: '' } : {}) };
      // updated_at moves for the edited products only.
      const { updated_at: u1, ...rest1 } = expected;
      const { updated_at: u2, ...rest2 } = now;
      assert.deepEqual(rest2, rest1, sku);
      if (sku === 'RT-3') assert.equal(u2, u1);
    }
  });

  it('an unchanged export imported again changes nothing', async () => {
    const first = await exportCatalog();
    const again = await importAndRun(t, seed.sellerToken, first.text, {});
    assert.equal(again.status, 'COMPLETE');
    assert.equal(again.linesSuccessfullyProcessed, first.rows.length);
    const second = await exportCatalog();
    assert.equal(second.text, first.text);
  });

  it('an Excel export is a real workbook with the same header', async () => {
    const created = await postExport(t, seed.sellerToken, { exportForExcel: true });
    assert.equal(created.statusCode, 200, created.body);
    await runJobs(t);
    const report = (await getReport(t, seed.sellerToken, (created.json() as ReportJson).reportId)).json() as ReportJson;
    assert.equal(report.status, 'COMPLETE');
    const file = await t.app.inject({ url: `/v1/report/${report.reportId}/file`, headers: bearer(seed.sellerToken) });
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    assert.match(String(file.headers['content-disposition']), /\.xlsx"/);
    const ExcelJS = (await import('exceljs')).default;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    assert.deepEqual(header, report.columnTypes);
    assert.equal(sheet.actualRowCount, 4);
  });
});
