import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createCustomStore } from '../../src/domain/accounts/custom-stores.js';
import { createImportTemplate } from '../../src/domain/reports/templates.js';
import { chunkPacer } from '../../src/domain/reports/imports/chunks.js';
import { importKind } from '../../src/domain/reports/imports/kinds.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { assertV1Error } from '../helpers/admin.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { importAndRun, lineErrors, multipartBody, runJobs } from '../helpers/reports.js';

/** Import validation (document 2.7, 4.2; resolutions §3, §8) through HTTP, on SQLite or PostgreSQL. */

interface Result {
  row: number;
  column: string;
  severity: 'ERROR' | 'WARNING';
  message: string;
}
interface Group {
  name: string;
  validation_results: Result[];
  total_results: number;
  omitted_results: number;
}
interface ValidationData {
  import_validation_id: number;
  status: string;
  lines_validated: number;
  validation_result_groups: Group[];
  supplied_headers: string[];
  actual_headers: string[];
  first_10_rows: string[][];
}

function postCsv(t: TestApp, token: string, definitionId: string, csv: string | Buffer, query = '', contentType = 'text/csv') {
  return t.app.inject({
    method: 'POST',
    url: `/v1/import/validation/${definitionId}${query}`,
    payload: csv,
    headers: { 'content-type': contentType, ...bearer(token) },
  });
}

function postForm(t: TestApp, token: string, definitionId: string, csv: string | Buffer, fields: Record<string, string> = {}) {
  const { payload, headers } = multipartBody(fields, { content: csv, name: 'stock.csv' });
  return t.app.inject({ method: 'POST', url: `/v1/import/validation/${definitionId}`, payload, headers: { ...headers, ...bearer(token) } });
}

async function results(t: TestApp, token: string, id: number): Promise<ValidationData> {
  const res = await t.app.inject({ url: `/v1/import/validation/results/${id}`, headers: bearer(token) });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as ValidationData;
}

/** Validates `csv` (text/csv), runs the jobs and answers the validation data. */
async function validate(t: TestApp, token: string, definitionId: string, csv: string, query = ''): Promise<ValidationData> {
  const res = await postCsv(t, token, definitionId, csv, query);
  assert.equal(res.statusCode, 200, res.body);
  await runJobs(t);
  return results(t, token, (res.json() as { import_validation_id: number }).import_validation_id);
}

const group = (data: ValidationData, name: string) => data.validation_result_groups.find((g) => g.name === name);

describe('import validation', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other seller');
    // SKUs that exist: INV-1..INV-3.
    const created = await importAndRun(t, seed.sellerToken, 'sku,warehouse,quantity\nINV-1,Main,5\nINV-2,Main,5\nINV-3,Main,5\n', { importType: 'Inventory', createNewProducts: true });
    assert.equal(created.linesSuccessfullyProcessed, 3);
  });
  after(async () => t.close());

  it('takes the definition id with ";" or ":" between parts and refuses each bad form', async () => {
    const csv = 'sku,warehouse,quantity\nINV-1,Main,3\n';
    for (const id of ['Inventory', 'inventory', 'Inventory;', 'Inventory::']) {
      const res = await postCsv(t, seed.sellerToken, id, csv);
      assert.equal(res.statusCode, 200, `${id}: ${res.body}`);
    }
    assertV1Error(await postCsv(t, seed.sellerToken, 'Widgets', csv), 400, /"Widgets" is not an import type; the types are TemplatelessProduct, FullProductData, Inventory, Kits, Orders/);
    assertV1Error(await postCsv(t, seed.sellerToken, 'Inventory;5', csv), 400, /Inventory takes no integrationId/);
    assertV1Error(await postCsv(t, seed.sellerToken, 'Inventory:5', csv), 400, /Inventory takes no integrationId/);
    assertV1Error(await postCsv(t, seed.sellerToken, 'Inventory;;5', csv), 400, /Inventory takes no templateId/);
    assertV1Error(await postCsv(t, seed.sellerToken, 'Orders::5', csv), 400, /Orders takes no templateId/);
    assertV1Error(await postCsv(t, seed.sellerToken, 'Kits;3', csv), 400, /Kits takes no integrationId/);
    assertV1Error(await postCsv(t, seed.sellerToken, 'FullProductData', csv), 400, /FullProductData needs a templateId/);
    assertV1Error(await postCsv(t, seed.sellerToken, 'FullProductData;4', csv), 400, /FullProductData takes no integrationId/);
    assertV1Error(await postCsv(t, seed.sellerToken, 'Orders;abc', csv), 400, /integrationId part must be a positive whole number/);
    assertV1Error(await postCsv(t, seed.sellerToken, 'Orders;1;2;3', csv), 400, /more than three parts/);

    // Unknown or another account's store and template: 404, with either separator.
    const now = t.deps.clock.now();
    const foreignStore = await createCustomStore(t.deps.db.db, other.accountId, { name: 'Their shop' }, now);
    const foreignTemplate = await createImportTemplate(t.deps.db.db, other.accountId, { name: 'theirs', importType: 'FullProductData', columns: { SKU: 'sku' } }, now);
    assertV1Error(await postCsv(t, seed.sellerToken, 'Orders;999999', csv), 404, /custom store 999999 not found/);
    assertV1Error(await postCsv(t, seed.sellerToken, `Orders:${foreignStore.integrationId}`, csv), 404, /custom store/);
    assertV1Error(await postCsv(t, seed.sellerToken, 'FullProductData;;999999', csv), 404, /import template 999999 not found/);
    assertV1Error(await postCsv(t, seed.sellerToken, `FullProductData::${foreignTemplate.templateId}`, csv), 404, /import template/);

    // The seller's own store and template are accepted.
    const store = await createCustomStore(t.deps.db.db, seed.accountId, { name: 'Web shop' }, now);
    const template = await createImportTemplate(t.deps.db.db, seed.accountId, { name: 'mine', importType: 'FullProductData', columns: { SKU: 'sku' } }, now);
    for (const id of [`Orders;${store.integrationId}`, `FullProductData::${template.templateId}`, 'Kits']) {
      const res = await postCsv(t, seed.sellerToken, id, csv);
      assert.equal(res.statusCode, 200, `${id}: ${res.body}`);
    }
  });

  it('needs the legacy or report scope', async () => {
    const res = await postCsv(t, seed.inventory.token, 'Inventory', 'sku,warehouse,quantity\nINV-1,Main,1\n');
    assertV1Error(res, 403, /legacy, report/);
  });

  it('answers the preview from a text/csv or a multipart body: headers as supplied, the fields they are read as, the first 10 rows', async () => {
    const lines = Array.from({ length: 15 }, (_, i) => `INV-${i},Main,${i},x${i}`);
    const csv = ['SKU,Warehouse Name,Quantity,Colour', ...lines].join('\r\n');
    const expected = {
      supplied_headers: ['SKU', 'Warehouse Name', 'Quantity', 'Colour'],
      actual_headers: ['sku', 'warehouse', 'quantity', ''],
      first_10_rows: lines.slice(0, 10).map((l) => l.split(',')),
    };
    for (const res of [
      await postCsv(t, seed.sellerToken, 'Inventory', csv),
      await postCsv(t, seed.sellerToken, 'Inventory', csv, '', 'text/csv; charset=utf-8'),
      await postForm(t, seed.sellerToken, 'Inventory', csv),
    ]) {
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as Record<string, unknown>;
      assert.ok(Number.isInteger(body.import_validation_id));
      assert.deepEqual({ ...body, import_validation_id: undefined }, { import_validation_id: undefined, ...expected });
    }
  });

  it('serves the results while PENDING and grouped by column once COMPLETE', async () => {
    const csv = [
      'sku,warehouse,quantity,notes', // notes: ignored (WARNING)
      'INV-1,Main,4,a', // fine
      'INV-1,Nowhere,4,b', // warehouse not found
      'INV-2,Main,many,c', // quantity not a number
      'INV-3,Main', // ragged: whole line
      'NOPE-1,Main,1,d', // SKU does not exist (createNewProducts not sent)
      'INV-2,Second,3,e', // controlled warehouse
    ].join('\n');
    const res = await postCsv(t, seed.sellerToken, 'Inventory', csv);
    assert.equal(res.statusCode, 200, res.body);
    const id = (res.json() as { import_validation_id: number }).import_validation_id;

    const pendingData = await results(t, seed.sellerToken, id);
    assert.equal(pendingData.status, 'PENDING');
    assert.deepEqual(pendingData.validation_result_groups, []);
    assert.deepEqual(pendingData.supplied_headers, ['sku', 'warehouse', 'quantity', 'notes']);
    assert.deepEqual(pendingData.actual_headers, ['sku', 'warehouse', 'quantity', '']);
    assert.equal(pendingData.first_10_rows.length, 6);

    await runJobs(t);
    const data = await results(t, seed.sellerToken, id);
    assert.equal(data.status, 'COMPLETE');
    assert.equal(data.lines_validated, 6);
    assert.deepEqual(
      data.validation_result_groups.map((g) => g.name),
      ['header', 'line', 'sku', 'warehouse', 'quantity'],
      'file, header, line, then the columns in file order',
    );
    const header = group(data, 'header')!;
    assert.equal(header.validation_results.length, 1);
    assert.deepEqual({ ...header.validation_results[0], message: undefined }, { row: 1, column: 'notes', severity: 'WARNING', message: undefined });
    assert.match(header.validation_results[0]!.message, /not an Inventory column; ignored/);
    const rows = (name: string) => group(data, name)!.validation_results.map((r) => [r.row, r.column, r.severity]);
    assert.deepEqual(rows('line'), [[5, '', 'ERROR']]);
    assert.deepEqual(rows('warehouse'), [[3, 'warehouse', 'ERROR'], [7, 'warehouse', 'ERROR']]);
    assert.deepEqual(rows('quantity'), [[4, 'quantity', 'ERROR']]);
    assert.deepEqual(rows('sku'), [[6, 'sku', 'ERROR']]);
    assert.match(group(data, 'sku')!.validation_results[0]!.message, /createNewProducts/);
    for (const g of data.validation_result_groups) assert.deepEqual([g.total_results, g.omitted_results], [g.validation_results.length, 0]);

    // With createNewProducts the unknown SKU is fine, as it would be in such an import.
    const creating = await validate(t, seed.sellerToken, 'Inventory', csv, '?createNewProducts=true');
    assert.equal(group(creating, 'sku'), undefined);
  });

  it('flags exactly the lines the import refuses', async () => {
    const csv = [
      'sku,warehouse,quantity,onhand_quantity,delta_quantity,bin_location',
      'INV-1,Main,7,,,A-1',
      'INV-2,Main,,9,,',
      'INV-3,Main,,,2,',
      'INV-1,Nowhere,1,,,',
      'INV-1,Second,1,,,',
      ',Main,1,,,',
      'INV-2,Main,1,1,,',
      'INV-2,Main,,,,',
      'INV-2,Main,-4,,,',
      'INV-3,Main,1.5,,,',
      'UNKNOWN-SKU,Main,1,,,',
      'INV-3,Main',
      `INV-3,Main,1,,,${'b'.repeat(300)}`,
      `INV-2,${seed.warehouses.main},3,,,`,
      '"INV-1","Main","2","","",""',
    ].join('\n');
    const validation = await validate(t, seed.sellerToken, 'Inventory', csv);
    assert.equal(validation.status, 'COMPLETE');
    const flagged = new Set(validation.validation_result_groups.flatMap((g) => g.validation_results.filter((r) => r.severity === 'ERROR').map((r) => r.row)));

    const report = await importAndRun(t, seed.sellerToken, csv, { importType: 'Inventory' });
    assert.equal(report.status, 'COMPLETE');
    const refused = new Set(
      (await lineErrors(t, seed.sellerToken, report.reportId))
        .split(/\r?\n/)
        .slice(1)
        .filter(Boolean)
        .map((l) => Number(l.split(',')[0])),
    );
    assert.deepEqual([...flagged].sort((a, b) => a - b), [...refused].sort((a, b) => a - b));
    assert.deepEqual([...refused].sort((a, b) => a - b), [5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    assert.equal(report.linesSuccessfullyProcessed, 5);
  });

  it('flags a delta that would take the stock below zero, as the import refuses it, playing the lines in order', async () => {
    const csv = ['sku,warehouse,delta_quantity', 'INV-1,Main,-1', 'INV-1,Main,-100', 'INV-1,Main,+3', 'INV-1,Main,-2', 'DELTA-NEW,Main,-1'].join('\n');
    const validation = await validate(t, seed.sellerToken, 'Inventory', csv, '?createNewProducts=true');
    const flagged = validation.validation_result_groups.flatMap((g) => g.validation_results.filter((r) => r.severity === 'ERROR').map((r) => r.row));
    const report = await importAndRun(t, seed.sellerToken, csv, { importType: 'Inventory', createNewProducts: true });
    const refused = (await lineErrors(t, seed.sellerToken, report.reportId)).split(/\r?\n/).slice(1).filter(Boolean).map((l) => Number(l.split(',')[0]));
    assert.deepEqual(flagged.sort((a, b) => a - b), [3, 6]);
    assert.deepEqual(refused.sort((a, b) => a - b), [3, 6]);
  });

  it('reports a file that stops being CSV (group "file", as the import refuses it whole) and header problems (group "header")', async () => {
    // Past the preview (header and 10 rows): a file broken within it is a 400 (the next test).
    const filler = 'INV-1,Main,1\n'.repeat(10);
    const broken = await validate(t, seed.sellerToken, 'Inventory', `sku,warehouse,quantity\n${filler}INV-1,Main,1\nINV-1,Nowhere,1\n"INV-2,Main,1\nINV-3,Main,1\n`);
    assert.equal(broken.status, 'COMPLETE');
    assert.deepEqual(broken.validation_result_groups.map((g) => g.name), ['file']);
    const file = group(broken, 'file')!;
    assert.equal(file.validation_results.length, 1);
    const at = /not valid CSV at line (\d+).*the import would refuse the whole file/.exec(file.validation_results[0]!.message);
    assert.ok(at, file.validation_results[0]!.message);
    assert.equal(file.validation_results[0]!.row, Number(at[1]));

    // Broken past the preview (header and 10 rows): accepted, and the job reports where (group "file").
    const rows = Array.from({ length: 12 }, (_, i) => `INV-1,Main,${i}`);
    const late = await validate(t, seed.sellerToken, 'Inventory', ['sku,warehouse,quantity', ...rows, 'INV-2,Main "x",1', 'INV-3,Main,1'].join('\n'));
    assert.equal(late.first_10_rows.length, 10);
    assert.deepEqual(late.validation_result_groups.map((g) => g.name), ['file']);
    assert.equal(group(late, 'file')!.validation_results[0]!.row, 14);
    assert.match(group(late, 'file')!.validation_results[0]!.message, /not valid CSV at line 14: a " is inside the unquoted value of column 2 \(warehouse\)/);

    const semicolons = await validate(t, seed.sellerToken, 'Inventory', 'sku;warehouse;quantity\nINV-1;Main;1\n');
    assert.deepEqual(semicolons.actual_headers, []);
    assert.deepEqual(semicolons.validation_result_groups.map((g) => g.name), ['header']);
    assert.match(semicolons.validation_result_groups[0]!.validation_results[0]!.message, /separated by a semicolon/);
    const withDelimiter = await validate(t, seed.sellerToken, 'Inventory', 'sku;warehouse;quantity\nINV-1;Main;1\n', '?delimiter=%3B');
    assert.deepEqual(withDelimiter.validation_result_groups, []);
    assert.deepEqual(withDelimiter.actual_headers, ['sku', 'warehouse', 'quantity']);

    const missing = await validate(t, seed.sellerToken, 'Inventory', 'sku,quantity\nINV-1,1\n');
    assert.deepEqual(missing.validation_result_groups.map((g) => [g.name, g.validation_results[0]!.severity]), [['header', 'ERROR']]);
    assert.match(missing.validation_result_groups[0]!.validation_results[0]!.message, /no warehouse column/);
  });

  it('caps each group at 1,000 results and counts the rest, across chunks', async () => {
    const bad = Array.from({ length: 1203 }, (_, i) => `INV-1,Nowhere-${i},1`);
    const data = await validate(t, seed.sellerToken, 'Inventory', ['sku,warehouse,quantity', ...bad, 'INV-1,Main,1'].join('\n'));
    assert.equal(data.status, 'COMPLETE');
    assert.equal(data.lines_validated, 1204);
    const warehouse = group(data, 'warehouse')!;
    assert.equal(warehouse.validation_results.length, 1000);
    assert.equal(warehouse.total_results, 1203);
    assert.equal(warehouse.omitted_results, 203);
    assert.deepEqual(warehouse.validation_results.slice(0, 3).map((r) => r.row), [2, 3, 4]);
    assert.equal(warehouse.validation_results[999]!.row, 1001);
  });

  it('resumes after the last committed chunk when a run dies, storing no result twice', async () => {
    const kind = importKind('Inventory');
    const original = kind.processChunk.bind(kind);
    let calls = 0;
    kind.processChunk = async (...args) => {
      calls++;
      if (calls === 2) throw new Error('worker died');
      return original(...args);
    };
    const bad = Array.from({ length: 1203 }, (_, i) => `INV-1,Nowhere-${i},1,x`);
    const res = await postCsv(t, seed.sellerToken, 'Inventory', ['sku,warehouse,quantity,extra', ...bad].join('\n'));
    const id = (res.json() as { import_validation_id: number }).import_validation_id;
    try {
      await runJobs(t);
    } finally {
      kind.processChunk = original;
    }
    const halfway = await results(t, seed.sellerToken, id);
    assert.equal(halfway.status, 'PROCESSING');
    // The first chunk, whose size is fixed (the later ones follow their time on SQLite).
    const first = chunkPacer(t.deps.db.dialect).lines;
    assert.equal(halfway.lines_validated, first);
    assert.equal(group(halfway, 'warehouse')?.total_results, first);
    // The retry is due later (backoff): make it due now.
    await t.deps.db.db.updateTable('jobs').set({ run_at: new Date(0).toISOString() }).where('type', '=', 'import-validation.run').where('status', '=', 'PENDING').execute();
    await runJobs(t);
    const data = await results(t, seed.sellerToken, id);
    assert.equal(data.status, 'COMPLETE');
    assert.equal(data.lines_validated, 1203);
    assert.equal(group(data, 'warehouse')?.total_results, 1203);
    assert.equal(group(data, 'header')?.total_results, 1, 'the header note is stored once');
    const rows = await t.deps.db.db.selectFrom('import_validation_results').select('row_number').where('validation_id', '=', id).where('group_name', '=', 'warehouse').execute();
    assert.equal(new Set(rows.map((r) => r.row_number)).size, 1203);
  });

  it('refuses empty, non-UTF-8 and missing files, other content types, and bad options', async () => {
    assertV1Error(await postCsv(t, seed.sellerToken, 'Inventory', ''), 400, /file: is empty/);
    assertV1Error(await postCsv(t, seed.sellerToken, 'Inventory', '\n\n'), 400, /file: is empty/);
    const latin1 = Buffer.concat([Buffer.from('sku,warehouse,quantity\nCAF'), Buffer.from([0xc9]), Buffer.from(',Main,1\n')]);
    assertV1Error(await postCsv(t, seed.sellerToken, 'Inventory', latin1), 400, /body: is not UTF-8 text \(line 2\)/);
    assertV1Error(await postForm(t, seed.sellerToken, 'Inventory', latin1), 400, /file: is not UTF-8 text \(line 2\)/);
    const { payload, headers } = multipartBody({ note: 'x' });
    assertV1Error(
      await t.app.inject({ method: 'POST', url: '/v1/import/validation/Inventory', payload, headers: { ...headers, ...bearer(seed.sellerToken) } }),
      400,
      /file: is required/,
    );
    assertV1Error(await postCsv(t, seed.sellerToken, 'Inventory', 'sku,warehouse,quantity\n', '', 'application/octet-stream'), 415);
    assertV1Error(await postCsv(t, seed.sellerToken, 'Inventory', 'sku,warehouse,quantity\n', '', 'text/plain'), 400, /text\/csv body/);
    assertV1Error(await postCsv(t, seed.sellerToken, 'Inventory', 'sku,warehouse,quantity\n', '?insertOnly=true&overwriteWithBlank=true'), 400, /insertOnly/);
    assertV1Error(await postCsv(t, seed.sellerToken, 'Inventory', 'sku,warehouse,quantity\n', '?delimiter=ab'), 400, /delimiter/);
    // Refused uploads leave no file behind (every kept file belongs to a report or a validation). The
    // stored file of a request refused after its upload is deleted once the response is sent.
    const orphans = () =>
      t.deps.db.db
        .selectFrom('stored_files')
        .select('id')
        .where('account_id', '=', seed.accountId)
        .where('id', 'not in', (eb) => eb.selectFrom('import_validations').select('source_file_id'))
        .where('id', 'not in', (eb) => eb.selectFrom('reports').select('source_file_id').where('source_file_id', 'is not', null))
        .execute();
    for (let i = 0; i < 50 && (await orphans()).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(await orphans(), []);
  });

  it('answers a file that is not CSV within the preview with a 400 naming the line, and keeps nothing (issue 22)', async () => {
    const validations = async () => (await t.deps.db.db.selectFrom('import_validations').select('id').where('account_id', '=', seed.accountId).execute()).length;
    const files = async () => (await t.deps.db.db.selectFrom('stored_files').select('id').where('account_id', '=', seed.accountId).execute()).length;
    const [validationsBefore, filesBefore] = [await validations(), await files()];
    // A stray quote in an unquoted value: csv-parse's INVALID_OPENING_QUOTE, once a 500.
    const stray = 'sku,quantity,warehouse\nINV-1,2,Main\nM2 "x",3,Main\nINV-3,1,Main\n';
    assertV1Error(await postCsv(t, seed.sellerToken, 'Inventory', stray), 400, /^file: is not valid CSV at line 3: a " is inside the unquoted value of column 1 \(sku\), after "M2 "/);
    assertV1Error(await postForm(t, seed.sellerToken, 'Inventory', stray), 400, /^file: is not valid CSV at line 3: /);
    // Quoting that never closes, and a broken header line.
    assertV1Error(await postCsv(t, seed.sellerToken, 'Inventory', 'sku,warehouse,quantity\nINV-1,Main,1\n"INV-2,Main,1\n'), 400, /^file: is not valid CSV at line 3: the quoted value of column 1 \(sku\) is never closed/);
    assertV1Error(await postCsv(t, seed.sellerToken, 'Inventory', 'sku,"warehouse"x,quantity\nINV-1,Main,1\n'), 400, /^file: is not valid CSV at line 1: the quoted value of column 2 is followed by other characters/);
    // The v1 body, and nothing kept: no validation, and the upload is deleted once the answer is sent.
    const res = await postCsv(t, seed.sellerToken, 'Inventory', stray);
    assert.deepEqual(Object.keys(res.json() as object).sort(), ['errorCode', 'errorMessages', 'referenceId']);
    assert.equal(await validations(), validationsBefore);
    for (let i = 0; i < 50 && (await files()) > filesBefore; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(await files(), filesBefore);
  });

  it('replays an Idempotency-Key request with the same file, and refuses the key with another file', async () => {
    const csv = 'sku,warehouse,quantity\nINV-1,Main,1\n';
    const key = { 'idempotency-key': 'validate-once' };
    const send = (body: string) =>
      t.app.inject({ method: 'POST', url: '/v1/import/validation/Inventory', payload: body, headers: { 'content-type': 'text/csv', ...key, ...bearer(seed.sellerToken) } });
    const first = await send(csv);
    assert.equal(first.statusCode, 200, first.body);
    const again = await send(csv);
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.headers['idempotency-replayed'], 'true');
    assert.deepEqual(again.json(), first.json());
    assertV1Error(await send(`${csv}INV-2,Main,2\n`), 409, /different request/);
  });

  it('keeps another account\'s validation out of reach', async () => {
    const res = await postCsv(t, seed.sellerToken, 'Inventory', 'sku,warehouse,quantity\nINV-1,Main,1\n');
    const id = (res.json() as { import_validation_id: number }).import_validation_id;
    assertV1Error(await t.app.inject({ url: `/v1/import/validation/results/${id}`, headers: bearer(other.sellerToken) }), 404, /not found/);
    assertV1Error(await t.app.inject({ url: '/v1/import/validation/results/99999999', headers: bearer(seed.sellerToken) }), 404);
    assertV1Error(await t.app.inject({ url: '/v1/import/validation/results/abc', headers: bearer(seed.sellerToken) }), 400);
  });

  it('describes both bodies and the responses in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> }; responses: Record<string, unknown>; parameters?: { name: string }[] }>>;
    };
    const post = doc.paths['/v1/import/validation/{importDefinitionId}']?.post;
    assert.ok(post, 'POST documented');
    assert.deepEqual(Object.keys(post.requestBody?.content ?? {}).sort(), ['multipart/form-data', 'text/csv']);
    for (const status of ['200', '400', '404', '413', '415', '503']) assert.ok(post.responses[status], `POST lists ${status}`);
    const get = doc.paths['/v1/import/validation/results/{validationID}']?.get;
    assert.ok(get?.responses['200'] && get.responses['404'], 'GET documented');
  });
});

describe('import validation body limit', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp({ config: { uploadBodyLimitBytes: 1024 } });
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  it('answers 413 for a body over the limit (declared, streamed or multipart) and keeps nothing', async () => {
    const big = `sku,warehouse,quantity\n${'INV-1,Main,1\n'.repeat(200)}`;
    assertV1Error(await postCsv(t, seed.sellerToken, 'Inventory', big), 413, /larger than the service accepts/);
    assertV1Error(await postForm(t, seed.sellerToken, 'Inventory', big), 413);
    const streamed = await t.app.inject({
      method: 'POST',
      url: '/v1/import/validation/Inventory',
      payload: Readable.from([Buffer.from(big.slice(0, 900)), Buffer.from(big.slice(900))]),
      headers: { 'content-type': 'text/csv', ...bearer(seed.sellerToken) },
    });
    assertV1Error(streamed, 413);
    const small = await postCsv(t, seed.sellerToken, 'Inventory', 'sku,warehouse,quantity\nINV-1,Main,1\n');
    assert.equal(small.statusCode, 200, small.body);
    const files = await t.deps.db.db.selectFrom('stored_files').select('id').where('account_id', '=', seed.accountId).execute();
    assert.equal(files.length, 1);
  });
});
