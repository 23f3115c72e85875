import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import ExcelJS from 'exceljs';
import { PRODUCT_FIELDS } from '../../src/domain/catalog/product-fields.js';
import { openCsvSink } from '../../src/domain/reports/exports/csv-sink.js';
import { inventoryFilterRecord, PRODUCT_FILTER_FIELDS, productFilterRecord, type StoredProductValue } from '../../src/domain/reports/exports/export-filter.js';
import { exportFormat, type RowSink } from '../../src/domain/reports/exports/export-format.js';
import { openXlsxSink, XLSX_MAX_CELL_CHARS } from '../../src/domain/reports/exports/xlsx-sink.js';
import { parseFilterFormula } from '../../src/domain/reports/filter-formula.js';
import { EMPTY_OPTIONS } from '../../src/domain/reports/model.js';

/** The pieces of an export that need no database: the filter's view of a row, the file formats. */

function storedProduct(values: Partial<Record<(typeof PRODUCT_FIELDS)[number]['column'], StoredProductValue>>) {
  const product = Object.fromEntries(PRODUCT_FIELDS.map((f) => [f.column, null])) as Record<(typeof PRODUCT_FIELDS)[number]['column'], StoredProductValue>;
  return { ...product, ...values };
}

/** Reads the sink's bytes as the file store does; `bytesSoFar()` tells how many arrived. */
function drain(sink: RowSink) {
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of sink.bytes) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  })();
  return { done, bytesSoFar: () => chunks.reduce((n, c) => n + c.length, 0) };
}

test('the filter types of the product fields follow their kinds', () => {
  const type = (name: string) => PRODUCT_FILTER_FIELDS.find((f) => f.name === name)?.type;
  assert.equal(type('sku'), 'string');
  assert.equal(type('upc'), 'string', 'identifiers are text: leading zeros matter');
  assert.equal(type('weight_unit'), 'string');
  assert.equal(type('price'), 'number');
  assert.equal(type('map'), 'number');
  assert.equal(type('active'), 'boolean');
  assert.equal(type('updated_at'), 'timestamp');
  assert.equal(PRODUCT_FILTER_FIELDS.length, PRODUCT_FIELDS.length);
});

test('a stored product maps to the record the filter reads', () => {
  const product = storedProduct({ sku: 'A-1', active: 0, price: '10.50', map_price: '9', product_condition: 'new', updated_at: '2026-02-01T00:00:00.000Z' });
  const record = productFilterRecord(product, { color: 'red' });
  assert.equal(record.fields.sku, 'A-1');
  assert.equal(record.fields.active, false);
  assert.equal(record.fields.price, '10.50', 'decimals stay exact text; the filter reads them as numbers');
  assert.equal(record.fields.map, '9', 'fields by their file name, not their column');
  assert.equal(record.fields.condition, 'new');
  assert.equal(record.fields.brand, null);
  assert.deepEqual(record.attributes, { color: 'red' });
  assert.equal(productFilterRecord(storedProduct({ active: 1 }), {}).fields.active, true);

  const matches = (formula: string) => parseFilterFormula(formula, PRODUCT_FILTER_FIELDS).matches(record);
  assert.equal(matches('price > 9.5 AND price < 10.6'), true);
  assert.equal(matches('map = 9'), true);
  assert.equal(matches('NOT active'), true);
  assert.equal(matches('updated_at >= "2026-02-01"'), true);
  assert.equal(matches('condition = "NEW" AND attribute("color") = "Red"'), true);
  assert.equal(matches('brand IS BLANK'), true);
});

test('an inventory row maps to the record the filter reads', () => {
  const record = inventoryFilterRecord({ sku: 'A-1', warehouse_id: 3, warehouse: 'North', available_quantity: 0, assembled_quantity: null, updated_at: 'x' });
  assert.equal(record.fields.available_quantity, 0);
  assert.equal(record.fields.assembled_quantity, null);
  assert.equal(record.fields.bin_location, null);
  assert.deepEqual(record.attributes, {});
});

test('file format: name, content type and delimiter from the options', () => {
  assert.deepEqual(exportFormat(7, EMPTY_OPTIONS), { kind: 'csv', fileName: 'report-7.csv', contentType: 'text/csv; charset=utf-8', delimiter: ',' });
  assert.equal(exportFormat(7, { ...EMPTY_OPTIONS, extension: '.TXT', delimiter: 'tab' }).fileName, 'report-7.txt');
  assert.equal(exportFormat(7, { ...EMPTY_OPTIONS, delimiter: 'tab' }).delimiter, '\t');
  const excel = exportFormat(8, { ...EMPTY_OPTIONS, exportForExcel: true });
  assert.equal(excel.kind, 'xlsx');
  assert.equal(excel.fileName, 'report-8.xlsx');
  assert.equal(excel.contentType, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
});

test('CSV: TRUE/FALSE, blanks, quoting, CRLF, values as stored', async () => {
  const sink = openCsvSink(',', ['a', 'b', 'c', 'd']);
  const reader = drain(sink);
  await sink.writeRows([
    [true, false, null, 3],
    ['=1+2', 'x,y', 'say "hi"', '-5'],
  ]);
  await sink.finish();
  assert.equal((await reader.done).toString('utf8'), 'a,b,c,d\r\nTRUE,FALSE,,3\r\n=1+2,"x,y","say ""hi""",-5\r\n');
});

test('CSV: an aborted file makes the reader fail', async () => {
  const sink = openCsvSink(',', ['a']);
  const reader = drain(sink);
  await sink.writeRows([['1']]);
  sink.abort(new Error('canceled'));
  await assert.rejects(reader.done, /canceled/);
});

test('xlsx: bytes reach the store while rows are written, not only at the end', async () => {
  const sink = openXlsxSink({ sheetName: 'Products', header: ['sku', 'noise'] });
  const reader = drain(sink);
  // Incompressible cells, written with no other pause than the sink's own: the zip must keep up.
  for (let page = 0; page < 20; page++) {
    await sink.writeRows(Array.from({ length: 1000 }, (_, i) => [`S-${page}-${i}`, randomBytes(24).toString('hex')]));
  }
  const beforeFinish = reader.bytesSoFar();
  await sink.finish();
  const file = await reader.done;
  assert.ok(beforeFinish > file.length / 2, `only ${beforeFinish} of ${file.length} bytes were written before the end`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ArrayBuffer);
  assert.equal(workbook.getWorksheet('Products')?.rowCount, 20_001);
});

test('xlsx: a sheet that is full continues on the next one with the header again; long text is cut at the cell limit', async () => {
  const sink = openXlsxSink({ sheetName: 'Inventory', header: ['sku', 'n'], maxRowsPerSheet: 3 });
  const reader = drain(sink);
  await sink.writeRows([
    ['a', 1],
    ['b', 2],
    ['c', 3],
    ['d', 4],
    ['e', 'x'.repeat(XLSX_MAX_CELL_CHARS + 10)],
  ]);
  await sink.finish();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await reader.done) as unknown as ArrayBuffer);
  const values = (name: string) => workbook.getWorksheet(name)!.getSheetValues().slice(1).map((row) => (row as unknown[]).slice(1));
  assert.deepEqual(values('Inventory'), [['sku', 'n'], ['a', 1], ['b', 2]]);
  assert.deepEqual(values('Inventory 2'), [['sku', 'n'], ['c', 3], ['d', 4]]);
  const last = values('Inventory 3');
  assert.equal(last.length, 2);
  assert.equal((last[1]![1] as string).length, XLSX_MAX_CELL_CHARS);
});

test('xlsx: an export with no rows and no header is still a workbook with its sheet', async () => {
  const sink = openXlsxSink({ sheetName: 'Products', header: null });
  const reader = drain(sink);
  await sink.finish();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await reader.done) as unknown as ArrayBuffer);
  assert.equal(workbook.getWorksheet('Products')?.rowCount, 0);
});

test('close ends the bytes where they are, without an error for the reader (the export then deletes the file)', async () => {
  const csv = openCsvSink(',', ['a']);
  const csvReader = drain(csv);
  await csv.writeRows([['1']]);
  await csv.close();
  assert.equal((await csvReader.done).toString('utf8'), 'a\r\n1\r\n');

  const xlsx = openXlsxSink({ sheetName: 'Products', header: ['a'] });
  const xlsxReader = drain(xlsx);
  await xlsx.writeRows(Array.from({ length: 2000 }, (_, i) => [randomBytes(16).toString('hex') + i]));
  await xlsx.close();
  const truncated = await xlsxReader.done;
  const workbook = new ExcelJS.Workbook();
  await assert.rejects(workbook.xlsx.load(truncated as unknown as ArrayBuffer), 'not a complete workbook');
});
