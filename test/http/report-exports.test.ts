import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { Insertable } from 'kysely';
import type { ProductsTable } from '../../src/db/schema.js';
import { PRODUCT_FIELDS } from '../../src/domain/catalog/product-fields.js';
import { AppError } from '../../src/domain/errors.js';
import { checkExportRequest } from '../../src/domain/reports/exports/check-request.js';
import { produceExport, type ExportOutcome } from '../../src/domain/reports/exports/run-export.js';
import { EMPTY_OPTIONS, type ExportType, type ReportOptions, type ReportRow } from '../../src/domain/reports/model.js';
import { createAccountVia, createWarehouseVia } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * Export reports (document 2.9, resolutions §8), produced by calling produceExport with a PROCESSING report
 * row, as the report job does. (The HTTP routes come with the report routes; this file then drives them.)
 */

const FIELD_NAMES = PRODUCT_FIELDS.map((f) => f.name);
const NOW = '2026-11-20T10:00:00.000Z';

let t: TestApp;
let accountId: number;
let otherAccountId: number;
let north: number;
let south: number;
const productIds = new Map<string, number>();

type ProductInput = { sku: string } & Partial<Omit<Insertable<ProductsTable>, 'account_id' | 'sku' | 'sku_lower'>>;

async function insertProducts(account: number, products: ProductInput[]): Promise<void> {
  const db = t.deps.db.db;
  // Batches keep each statement under SQLite's parameter limit.
  for (let i = 0; i < products.length; i += 200) {
    const rows = await db
      .insertInto('products')
      .values(
        products.slice(i, i + 200).map((p) => ({
          standard_product_id: null,
          standard_product_id_type: null,
          title: null,
          active: 1,
          inventory_updated_at: NOW,
          created_at: NOW,
          updated_at: NOW,
          ...p,
          account_id: account,
          sku_lower: p.sku.toLowerCase(),
        })),
      )
      .returning(['id', 'sku'])
      .execute();
    if (account === accountId) for (const row of rows) productIds.set(row.sku, row.id);
  }
}

async function setAttributes(account: number, sku: string, values: Record<string, string>): Promise<void> {
  const product = await t.deps.db.db.selectFrom('products').select('id').where('account_id', '=', account).where('sku', '=', sku).executeTakeFirstOrThrow();
  await t.deps.db.db
    .insertInto('product_attributes')
    .values(Object.entries(values).map(([attribute_id, value]) => ({ account_id: account, product_id: product.id, attribute_id, value, updated_at: NOW })))
    .execute();
}

async function insertReport(account: number, exportType: ExportType, options: Partial<ReportOptions> = {}, app = t): Promise<ReportRow> {
  const full = { ...EMPTY_OPTIONS, ...options };
  checkExportRequest(exportType, full);
  return app.deps.db.db
    .insertInto('reports')
    .values({
      account_id: account,
      label: null,
      is_export: 1,
      report_type: exportType,
      status: 'PROCESSING',
      options: JSON.stringify(full),
      template_id: null,
      integration_id: null,
      uploader: null,
      column_types: null,
      total_lines: 0,
      lines_processed: 0,
      error_lines: 0,
      lines_done: 0,
      cancel_requested: 0,
      source_file_id: null,
      result_file_id: null,
      file_name: null,
      requested_at: NOW,
      started_at: NOW,
      updated_at: NOW,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const always = async () => true;

async function runExport(
  exportType: ExportType,
  options: Partial<ReportOptions> = {},
  account = accountId,
  app = t,
): Promise<{ outcome: ExportOutcome; bytes: Buffer; report: ReportRow }> {
  const report = await insertReport(account, exportType, options, app);
  const outcome = await produceExport(app.deps, report, always);
  assert.ok(outcome, 'the export completes');
  const stream = await app.deps.files.read(account, outcome.fileId);
  assert.ok(stream, 'the file is in the store');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return { outcome, bytes: Buffer.concat(chunks), report };
}

async function exportCsv(exportType: ExportType, options: Partial<ReportOptions> = {}, account = accountId, app = t) {
  const { outcome, bytes, report } = await runExport(exportType, options, account, app);
  const text = bytes.toString('utf8');
  const delimiter = options.delimiter === 'tab' || options.delimiter === '\\t' ? '\t' : (options.delimiter ?? ',');
  const records = parse(text, { delimiter, relax_column_count: false }) as string[][];
  return { outcome, text, records, report };
}

before(async () => {
  t = await createTestApp();
  accountId = await createAccountVia(t, 'Exporter');
  otherAccountId = await createAccountVia(t, 'Someone else');
  north = await createWarehouseVia(t, accountId, 'North');
  south = await createWarehouseVia(t, accountId, 'South');
  await insertProducts(accountId, [
    {
      sku: 'A-100',
      title: 'Tweed jacket',
      brand: 'Acme',
      price: '120.50',
      msrp: '150.00',
      weight: '1.250',
      weight_unit: 'kg',
      upc: '012345678905',
      description: 'Warm, "classic"\nand long',
      created_at: '2026-01-15T08:00:00.000Z',
      updated_at: '2026-02-01T09:30:00.000Z',
    },
    { sku: 'B-200', title: '=HYPERLINK("http://evil.example","click")', brand: 'Globex', price: '9.99', active: 0 },
    { sku: '-300', title: '+1 trick', brand: 'Acme', price: '15' },
  ]);
  await setAttributes(accountId, 'A-100', { color: 'red', size: 'M' });
  await setAttributes(accountId, '-300', { material: '@wool' });
  await insertProducts(otherAccountId, [{ sku: 'OTHER-1', title: 'Not yours', brand: 'Acme', price: '1' }]);
  await setAttributes(otherAccountId, 'OTHER-1', { secret_attribute: 'x' });

  const other = await createWarehouseVia(t, otherAccountId, 'Elsewhere');
  const stock = (product: number, warehouse: number, available: number, extra: { bin?: string; assembled?: number; account?: number } = {}) => ({
    account_id: extra.account ?? accountId,
    product_id: product,
    warehouse_id: warehouse,
    available_quantity: available,
    onhand_quantity: available + 2,
    reserved_quantity: 2,
    assembled_quantity: extra.assembled ?? null,
    bin_location: extra.bin ?? null,
    updated_at: NOW,
  });
  const otherProduct = await t.deps.db.db.selectFrom('products').select('id').where('account_id', '=', otherAccountId).executeTakeFirstOrThrow();
  await t.deps.db.db
    .insertInto('inventory')
    .values([
      stock(productIds.get('A-100')!, south, 7, { bin: 'S-1' }),
      stock(productIds.get('A-100')!, north, 3, { assembled: 1 }),
      stock(productIds.get('B-200')!, north, 0),
      stock(otherProduct.id, other, 99, { account: otherAccountId }),
    ])
    .execute();
});

after(async () => {
  await t.close();
});

test('a Products export has every product field in order, then the attribute ids sorted, one row per product', async () => {
  const { outcome, records, report, text } = await exportCsv('Products');
  const columns = [...FIELD_NAMES, 'color', 'material', 'size'];
  assert.deepEqual(outcome.columnTypes, columns);
  assert.equal(outcome.fileName, `report-${report.id}.csv`);
  assert.equal(outcome.rows, 3);
  assert.deepEqual(records[0], columns);
  assert.equal(records.length, 4);
  assert.ok(text.includes('\r\n'), 'CRLF line ends');

  const row = (sku: string) => Object.fromEntries(columns.map((c, i) => [c, records.find((r) => r[0] === sku)![i]]));
  const a = row('A-100');
  assert.equal(a.active, 'TRUE');
  assert.equal(a.title, 'Tweed jacket');
  assert.equal(a.description, 'Warm, "classic"\nand long');
  assert.equal(a.price, '120.50', 'decimals as stored');
  assert.equal(a.weight, '1.250');
  assert.equal(a.upc, '012345678905');
  assert.equal(a.created_at, '2026-01-15T08:00:00.000Z');
  assert.equal(a.updated_at, '2026-02-01T09:30:00.000Z');
  assert.equal(a.color, 'red');
  assert.equal(a.size, 'M');
  assert.equal(a.material, '');
  assert.equal(a.mpn, '');
  assert.equal(row('B-200').active, 'FALSE');
  // CSV values are written as stored, formula-like ones included (documented).
  assert.equal(row('B-200').title, '=HYPERLINK("http://evil.example","click")');
  assert.equal(row('-300').material, '@wool');
  // Rows in product id order.
  assert.deepEqual(records.slice(1).map((r) => r[0]), ['A-100', 'B-200', '-300']);

  const file = await t.deps.files.info(accountId, outcome.fileId);
  assert.equal(file?.contentType, 'text/csv; charset=utf-8');
  assert.equal(file?.name, outcome.fileName);
});

test('another account never sees the products, attributes or stock of this one', async () => {
  const { records, outcome } = await exportCsv('Products', {}, otherAccountId);
  assert.deepEqual(outcome.columnTypes, [...FIELD_NAMES, 'secret_attribute']);
  assert.deepEqual(records.slice(1).map((r) => r[0]), ['OTHER-1']);
  const mine = await exportCsv('Products');
  assert.ok(!mine.records.some((r) => r[0] === 'OTHER-1'));
  assert.ok(!mine.outcome.columnTypes.includes('secret_attribute'));
  const stock = await exportCsv('Inventory', {}, otherAccountId);
  assert.deepEqual(stock.records.slice(1).map((r) => [r[0], r[2]]), [['OTHER-1', 'Elsewhere']]);
});

test('activeOnly leaves inactive products out, and their attributes out of the columns', async () => {
  await setAttributes(accountId, 'B-200', { zz_inactive_only: 'yes' });
  try {
    const all = await exportCsv('Products');
    assert.ok(all.outcome.columnTypes.includes('zz_inactive_only'));
    const { records, outcome } = await exportCsv('Products', { activeOnly: true });
    assert.deepEqual(records.slice(1).map((r) => r[0]), ['A-100', '-300']);
    assert.equal(outcome.rows, 2);
    assert.ok(!outcome.columnTypes.includes('zz_inactive_only'));
  } finally {
    await t.deps.db.db.deleteFrom('product_attributes').where('attribute_id', '=', 'zz_inactive_only').execute();
  }
});

test('a filter keeps the matching products; decimals, booleans, timestamps and attributes compare by type', async () => {
  const skus = async (filter: string, exportType: ExportType = 'Products') => {
    const { records, outcome } = await exportCsv(exportType, { filter });
    assert.equal(outcome.rows, records.length - 1);
    return records.slice(1).map((r) => r[0]);
  };
  assert.deepEqual(await skus('brand = "acme"'), ['A-100', '-300']);
  assert.deepEqual(await skus('price > 10 AND price < 100'), ['-300'], '15 > 10 numerically although "15" < "9.99" as text');
  assert.deepEqual(await skus('NOT active'), ['B-200']);
  assert.deepEqual(await skus('updated_at >= "2026-02-01" AND updated_at < "2026-02-02"'), ['A-100']);
  assert.deepEqual(await skus('attribute("color") IN ("red", "blue")'), ['A-100']);
  assert.deepEqual(await skus('attribute("color") IS BLANK'), ['B-200', '-300']);
  assert.deepEqual(await skus('msrp IS NOT BLANK OR sku STARTS WITH "-"'), ['A-100', '-300']);
  // The columns do not depend on the filter (documented): exports of one catalog share their header.
  const filtered = await exportCsv('Products', { filter: 'sku = "B-200"' });
  assert.deepEqual(filtered.outcome.columnTypes, [...FIELD_NAMES, 'color', 'material', 'size']);
  // A filter with activeOnly applies to the active products only.
  assert.deepEqual((await exportCsv('Products', { filter: 'brand = "Globex"', activeOnly: true })).records.slice(1), []);
});

test('a filter that does not compile is refused at creation with its position; Inventory filters take no attributes', () => {
  const refused = (exportType: ExportType, filter: string) => {
    try {
      checkExportRequest(exportType, { ...EMPTY_OPTIONS, filter });
    } catch (error) {
      assert.ok(error instanceof AppError);
      assert.equal(error.code, 'INVALID_ARGUMENT');
      return error.message;
    }
    assert.fail(`${filter} was accepted`);
  };
  assert.match(refused('Products', 'prise > 10'), /^filter: unknown field "prise" at position 1/);
  assert.match(refused('Products', 'price > "abc"'), /position 9/);
  assert.match(refused('Inventory', 'brand = "Acme"'), /unknown field "brand" at position 1; known fields: sku, warehouse_id, warehouse/);
  assert.match(refused('Inventory', 'attribute("color") = "red"'), /attribute\(…\) applies to Products exports/);
  assert.match(refused('Products', 'updated_at > "yesterday"'), /updated_at is a timestamp/);
  // A blank filter is no filter.
  checkExportRequest('Products', { ...EMPTY_OPTIONS, filter: '   ' });
  assert.throws(
    () => checkExportRequest('Products', { ...EMPTY_OPTIONS, headersOnly: true, includeHeader: false }),
    /headersOnly: asks for the header row alone/,
  );
});

test('includeHeader false writes the data rows only; columnTypes still names the columns', async () => {
  const { records, outcome } = await exportCsv('Products', { includeHeader: false });
  assert.equal(records.length, 3);
  assert.equal(records[0]![0], 'A-100');
  assert.equal(outcome.columnTypes[0], 'sku');
  assert.equal(outcome.rows, 3);
});

test('headersOnly writes the header row alone', async () => {
  const { records, outcome, text } = await exportCsv('Products', { headersOnly: true });
  assert.deepEqual(records, [[...FIELD_NAMES, 'color', 'material', 'size']]);
  assert.equal(outcome.rows, 0);
  assert.ok(text.endsWith('\r\n'));
  const stock = await exportCsv('Inventory', { headersOnly: true });
  assert.equal(stock.records.length, 1);
  assert.equal(stock.outcome.rows, 0);
});

test('delimiter ";" and tab; extension names the file', async () => {
  const semi = await exportCsv('Products', { delimiter: ';', extension: 'txt' });
  assert.equal(semi.outcome.fileName, `report-${semi.report.id}.txt`);
  assert.ok(semi.text.startsWith('sku;active;title;'));
  assert.equal(semi.records[1]![0], 'A-100');
  assert.equal(semi.records[1]![2], 'Tweed jacket');
  // A value holding the delimiter is quoted.
  const withSemicolon = await exportCsv('Products', { delimiter: ';', filter: 'sku = "A-100"' });
  assert.ok(withSemicolon.text.includes('"Warm, ""classic""\nand long"'));

  for (const delimiter of ['tab', '\\t']) {
    const tab = await exportCsv('Products', { delimiter, extension: '.TSV' });
    assert.equal(tab.outcome.fileName, `report-${tab.report.id}.tsv`);
    assert.ok(tab.text.startsWith('sku\tactive\ttitle\t'));
    assert.deepEqual(tab.records[0], [...FIELD_NAMES, 'color', 'material', 'size']);
    assert.equal(tab.records[3]![0], '-300');
  }
});

async function openWorkbook(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

test('exportForExcel writes an .xlsx workbook whose cells hold the values, formula-like text as text', async () => {
  const { outcome, bytes, report } = await runExport('Products', { exportForExcel: true });
  assert.equal(outcome.fileName, `report-${report.id}.xlsx`);
  assert.equal((await t.deps.files.info(accountId, outcome.fileId))?.contentType, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const workbook = await openWorkbook(bytes);
  const sheet = workbook.getWorksheet('Products');
  assert.ok(sheet);
  assert.equal(sheet.rowCount, 4);
  const columns = [...FIELD_NAMES, 'color', 'material', 'size'];
  const header = (sheet.getRow(1).values as unknown[]).slice(1);
  assert.deepEqual(header, columns);
  const cell = (row: number, column: string) => sheet.getRow(row).getCell(columns.indexOf(column) + 1);

  assert.equal(cell(2, 'sku').value, 'A-100');
  assert.equal(cell(2, 'active').value, true);
  assert.equal(cell(2, 'price').value, '120.50');
  assert.equal(cell(2, 'description').value, 'Warm, "classic"\nand long');
  assert.equal(cell(2, 'updated_at').value, '2026-02-01T09:30:00.000Z');
  assert.equal(cell(2, 'color').value, 'red');
  assert.equal(cell(2, 'mpn').value, null);
  assert.equal(cell(3, 'active').value, false);

  const formulaLike = cell(3, 'title');
  assert.equal(formulaLike.type, ExcelJS.ValueType.String);
  assert.equal(formulaLike.value, '=HYPERLINK("http://evil.example","click")');
  assert.equal(cell(4, 'sku').type, ExcelJS.ValueType.String);
  assert.equal(cell(4, 'sku').value, '-300');
  assert.equal(cell(4, 'title').value, '+1 trick');
  assert.equal(cell(4, 'material').value, '@wool');
  const raw = bytes.toString('latin1');
  assert.ok(!raw.includes('<f>'), 'no formula element anywhere in the workbook');
});

test('an .xlsx export without a header, headers only, and the Inventory export as a workbook', async () => {
  const noHeader = await runExport('Products', { exportForExcel: true, includeHeader: false, activeOnly: true });
  const rows = (await openWorkbook(noHeader.bytes)).getWorksheet('Products')!;
  assert.equal(rows.rowCount, 2);
  assert.equal(rows.getRow(1).getCell(1).value, 'A-100');

  const headerOnly = await runExport('Products', { exportForExcel: true, headersOnly: true });
  assert.equal(headerOnly.outcome.rows, 0);
  const header = (await openWorkbook(headerOnly.bytes)).getWorksheet('Products')!;
  assert.equal(header.rowCount, 1);

  const stock = await runExport('Inventory', { exportForExcel: true });
  const sheet = (await openWorkbook(stock.bytes)).getWorksheet('Inventory')!;
  assert.equal(sheet.rowCount, 4);
  const second = sheet.getRow(2);
  assert.equal(second.getCell(1).value, 'A-100');
  assert.equal(second.getCell(2).value, Math.min(north, south), 'warehouse ids are numbers');
  assert.equal(second.getCell(4).type, ExcelJS.ValueType.Number);
});

test('an Inventory export has one row per SKU and warehouse, by product then warehouse', async () => {
  const { records, outcome } = await exportCsv('Inventory');
  const columns = ['sku', 'warehouse_id', 'warehouse', 'available_quantity', 'onhand_quantity', 'reserved_quantity', 'assembled_quantity', 'bin_location', 'updated_at'];
  assert.deepEqual(outcome.columnTypes, columns);
  assert.deepEqual(records[0], columns);
  assert.equal(outcome.rows, 3);
  const [first, second] = north < south ? ['North', 'South'] : ['South', 'North'];
  assert.deepEqual(
    records.slice(1).map((r) => [r[0], r[2]]),
    [
      ['A-100', first],
      ['A-100', second],
      ['B-200', 'North'],
    ],
  );
  const southRow = records.find((r) => r[0] === 'A-100' && r[2] === 'South')!;
  assert.deepEqual(southRow, ['A-100', String(south), 'South', '7', '9', '2', '', 'S-1', NOW]);
  const northRow = records.find((r) => r[0] === 'A-100' && r[2] === 'North')!;
  assert.equal(northRow[6], '1');

  const active = await exportCsv('Inventory', { activeOnly: true });
  assert.deepEqual(active.records.slice(1).map((r) => r[0]), ['A-100', 'A-100']);
  const filtered = await exportCsv('Inventory', { filter: 'available_quantity >= 3 AND warehouse = "north"' });
  assert.deepEqual(filtered.records.slice(1).map((r) => [r[0], r[3]]), [['A-100', '3']]);
  const byBin = await exportCsv('Inventory', { filter: 'bin_location IS NOT BLANK OR assembled_quantity > 0', delimiter: ';' });
  assert.equal(byBin.outcome.rows, 2);
});

test('keyset pages: 2,500 products export completely, and a cancellation after the first page leaves no file', async () => {
  const bulkAccount = await createAccountVia(t, 'Bulk');
  await insertProducts(
    bulkAccount,
    Array.from({ length: 2500 }, (_, i) => ({ sku: `BULK-${String(i).padStart(5, '0')}`, title: `Item ${i}`, price: `${i}.00`, active: i % 10 === 0 ? 0 : 1 })),
  );

  const full = await exportCsv('Products', {}, bulkAccount);
  assert.equal(full.outcome.rows, 2500);
  assert.equal(full.records.length, 2501);
  assert.equal(new Set(full.records.slice(1).map((r) => r[0])).size, 2500);
  const active = await exportCsv('Products', { activeOnly: true, filter: 'price >= 1000' }, bulkAccount);
  assert.equal(active.outcome.rows, 1350);

  const filesBefore = await t.deps.db.db.selectFrom('stored_files').select('id').where('account_id', '=', bulkAccount).execute();
  for (const exportForExcel of [false, true]) {
    const report = await insertReport(bulkAccount, 'Products', { exportForExcel });
    let polls = 0;
    const outcome = await produceExport(t.deps, report, async () => {
      polls++;
      return false;
    });
    assert.equal(outcome, null, 'a canceled export returns null');
    assert.equal(polls, 1, 'polled after the first page, and stopped at its answer');
  }
  const filesAfter = await t.deps.db.db.selectFrom('stored_files').select('id').where('account_id', '=', bulkAccount).execute();
  assert.deepEqual(filesAfter, filesBefore, 'nothing of the canceled files stays');
  const orphanChunks = await t.deps.db.db
    .selectFrom('stored_file_chunks')
    .select('file_id')
    .where('file_id', 'not in', (eb) => eb.selectFrom('stored_files').select('id'))
    .execute();
  assert.deepEqual(orphanChunks, []);
});

test('with FILE_STORE_DIR the export is a file in the directory, and a canceled one leaves none behind', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'exports-'));
  const dirApp = await createTestApp({ config: { fileStoreDir: dir } });
  try {
    const account = await createAccountVia(dirApp, 'Directory');
    await dirApp.deps.db.db
      .insertInto('products')
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          account_id: account,
          sku: `D-${i}`,
          sku_lower: `d-${i}`,
          standard_product_id: null,
          standard_product_id_type: null,
          title: `Item ${i}`,
          active: 1,
          inventory_updated_at: NOW,
          created_at: NOW,
          updated_at: NOW,
        })),
      )
      .execute();
    const { records } = await exportCsv('Products', {}, account, dirApp);
    assert.equal(records.length, 31);
    const canceled = await insertReport(account, 'Products', { exportForExcel: true }, dirApp);
    assert.equal(await produceExport(dirApp.deps, canceled, async () => false, { pageSize: 10 }), null);
    const files = await readdir(path.join(dir, String(account)));
    assert.equal(files.length, 1, `only the finished export is kept: ${files.join(', ')}`);
    assert.ok(!files.some((f) => f.endsWith('.partial')));
  } finally {
    await dirApp.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a file store that fails, at once or half-way, fails the export with its error instead of leaving it waiting', async () => {
  const report = await insertReport(accountId, 'Products', { exportForExcel: true });
  const failAtOnce = { ...t.deps, files: { ...t.deps.files, write: async () => Promise.reject(new Error('disk full')) } };
  await assert.rejects(produceExport(failAtOnce, report, always, { pageSize: 1 }), /disk full/);

  const failHalfWay = {
    ...t.deps,
    files: {
      ...t.deps.files,
      write: async (_account: number, _meta: unknown, source: AsyncIterable<Uint8Array>) => {
        for await (const _chunk of source) throw new Error('connection lost');
        throw new Error('no bytes');
      },
    },
  };
  await assert.rejects(produceExport(failHalfWay, await insertReport(accountId, 'Products'), always, { pageSize: 1 }), /connection lost/);
});
