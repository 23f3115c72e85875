import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { crc32, inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { PRODUCT_FIELDS } from '../../src/domain/catalog/product-fields.js';
import { PipeClosedError } from '../../src/domain/reports/exports/byte-pipe.js';
import { openCsvSink } from '../../src/domain/reports/exports/csv-sink.js';
import { inventoryFilterRecord, PRODUCT_FILTER_FIELDS, productFilterRecord, type StoredProductValue } from '../../src/domain/reports/exports/export-filter.js';
import { exportFormat, type RowSink } from '../../src/domain/reports/exports/export-format.js';
import { cellText, columnName } from '../../src/domain/reports/exports/xlsx-parts.js';
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

/**
 * The parts of a zip, read from its central directory as any zip reader does (not with the writer's code):
 * each part inflated, its CRC and sizes checked against the directory.
 */
function zipParts(file: Buffer): Map<string, string> {
  const end = file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, 'an end-of-central-directory record');
  const count = file.readUInt16LE(end + 10);
  let at = file.readUInt32LE(end + 16);
  const parts = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    assert.equal(file.readUInt32LE(at), 0x02014b50, 'a central directory record');
    const [crc, compressed, size, nameLength] = [file.readUInt32LE(at + 16), file.readUInt32LE(at + 20), file.readUInt32LE(at + 24), file.readUInt16LE(at + 28)];
    const name = file.toString('utf8', at + 46, at + 46 + nameLength);
    const local = file.readUInt32LE(at + 42);
    assert.equal(file.readUInt32LE(local), 0x04034b50, `${name}: a local header where the directory says`);
    const dataStart = local + 30 + file.readUInt16LE(local + 26) + file.readUInt16LE(local + 28);
    const data = inflateRawSync(file.subarray(dataStart, dataStart + compressed));
    assert.equal(data.length, size, `${name}: size`);
    assert.equal(crc32(data), crc, `${name}: CRC`);
    parts.set(name, data.toString('utf8'));
    at += 46 + nameLength + file.readUInt16LE(at + 30) + file.readUInt16LE(at + 32);
  }
  return parts;
}

test('xlsx cell text: formula-like text unchanged, XML escaped, controls and "_xHHHH_" as Excel escapes, CR kept', () => {
  assert.equal(cellText('=SUM(A1:A2)'), '=SUM(A1:A2)');
  assert.equal(cellText('a <b> & "c"'), 'a &lt;b&gt; &amp; &quot;c&quot;');
  assert.equal(cellText('bell\u0007|\u0000|\u001F'), 'bell_x0007_|_x0000_|_x001F_');
  assert.equal(cellText('_x0041_ and _x00e9_'), '_x005F_x0041_ and _x005F_x00e9_', 'Excel would show "A" and "é" otherwise');
  assert.equal(cellText('tab\t line\n cr\r'), 'tab\t line\n cr\r', 'XML carries these; readers turn CRLF into LF');
  assert.equal(cellText('🧥 ok, lone \uD83E end'), '🧥 ok, lone \uFFFD end');
  assert.equal(cellText('\uDC00x'), '\uFFFDx');
  assert.deepEqual([0, 25, 26, 27, 51, 52, 701, 702, 16_383].map(columnName), ['A', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA', 'XFD']);
});

test('xlsx: a complete package (every part in the zip directory with its CRC), cells typed as written', async () => {
  const sink = openXlsxSink({ sheetName: 'Inventory', header: ['sku', 'n', 'active', 'blank', 'title'], maxRowsPerSheet: 3 });
  const reader = drain(sink);
  await sink.writeRows([
    ['-0042', 7, true, null, '=HYPERLINK("http://evil.example","click")'],
    ['B & <C>', 1.5, false, null, 'Tweed 🧥 jacket, "classic"\nline two'],
    ['C', -3, true, 'x', '@wool'],
  ]);
  await sink.finish();
  const file = await reader.done;
  const parts = zipParts(file);
  assert.deepEqual([...parts.keys()].sort(), [
    '[Content_Types].xml',
    '_rels/.rels',
    'xl/_rels/workbook.xml.rels',
    'xl/styles.xml',
    'xl/workbook.xml',
    'xl/worksheets/sheet1.xml',
    'xl/worksheets/sheet2.xml',
  ]);
  for (const [name, xml] of parts) assert.ok(!/<f[ >]/.test(xml), `${name}: no formula element`);
  assert.match(parts.get('[Content_Types].xml')!, /PartName="\/xl\/worksheets\/sheet2\.xml"/);
  assert.match(parts.get('xl/workbook.xml')!, /<sheet name="Inventory" sheetId="1" r:id="rId1"\/><sheet name="Inventory 2" sheetId="2" r:id="rId2"\/>/);

  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ArrayBuffer);
  const first = workbook.getWorksheet('Inventory')!;
  const row = (sheet: ExcelJS.Worksheet, r: number) => [1, 2, 3, 4, 5].map((c) => sheet.getRow(r).getCell(c));
  assert.deepEqual(row(first, 2).map((c) => c.value), ['-0042', 7, true, null, '=HYPERLINK("http://evil.example","click")']);
  assert.deepEqual(row(first, 2).map((c) => c.type), [ExcelJS.ValueType.String, ExcelJS.ValueType.Number, ExcelJS.ValueType.Boolean, ExcelJS.ValueType.Null, ExcelJS.ValueType.String]);
  assert.deepEqual(row(first, 3).map((c) => c.value), ['B & <C>', 1.5, false, null, 'Tweed 🧥 jacket, "classic"\nline two']);
  const second = workbook.getWorksheet('Inventory 2')!;
  assert.equal(second.rowCount, 2);
  assert.deepEqual(row(second, 1).map((c) => c.value), ['sku', 'n', 'active', 'blank', 'title']);
  assert.deepEqual(row(second, 2).map((c) => c.value), ['C', -3, true, 'x', '@wool']);
});

test('xlsx: a sheet whose XML reaches its byte limit continues on the next sheet (the zip has no zip64)', async () => {
  const sink = openXlsxSink({ sheetName: 'Products', header: ['sku', 'description'], maxSheetBytes: 20_000 });
  const reader = drain(sink);
  const rows = Array.from({ length: 12 }, (_, i) => [`S-${i}`, 'd'.repeat(3000)]);
  await sink.writeRows(rows.slice(0, 5));
  await sink.writeRows(rows.slice(5));
  await sink.finish();
  const file = await reader.done;
  const parts = zipParts(file);
  const sheets = [...parts.keys()].filter((name) => name.startsWith('xl/worksheets/'));
  assert.ok(sheets.length >= 2, `${sheets.length} sheet(s)`);
  for (const name of sheets) assert.ok(Buffer.byteLength(parts.get(name)!) < 20_000 + 3100, `${name} stays near the limit`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ArrayBuffer);
  const skus = workbook.worksheets.flatMap((sheet) => {
    assert.equal(sheet.getRow(1).getCell(1).value, 'sku', `${sheet.name} starts with the header`);
    return sheet.getSheetValues().slice(2).map((row) => (row as unknown[])[1]);
  });
  assert.deepEqual(skus, rows.map((row) => row[0]), 'every row once, in order');
});

test('xlsx: a writer waiting for a store that stops reading fails with PipeClosedError (the export then reports the store\'s error)', async () => {
  const sink = openXlsxSink({ sheetName: 'Products', header: ['sku'] });
  // Nobody reads the bytes: the writer soon waits for the store (~3 MB of XML, far beyond the pipe's buffers).
  let settled = false;
  const writing = sink.writeRows(Array.from({ length: 20_000 }, () => [randomBytes(64).toString('hex')]));
  void writing.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(settled, false, 'the writer waits for the store');
  sink.abort(new Error('store failed'));
  await assert.rejects(writing, PipeClosedError);
  await assert.rejects(sink.writeRows([['more']]), PipeClosedError);
});
