import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { issueAdHocToken } from '../../src/domain/accounts/oauth.js';
import { chunkPacer, IMPORT_CHUNK_LINES } from '../../src/domain/reports/imports/chunks.js';
import { RUN_REPORT_JOB } from '../../src/domain/reports/model.js';
import { manualClock } from '../../src/lib/clock.js';
import { assertV1Error } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { getReport, lineErrors, multipartBody, postImport, runJobs, type ReportJson } from '../helpers/reports.js';

/**
 * The report lifecycle (resolutions §3, §6): PENDING → PROCESSING → COMPLETE, cancel while PENDING or
 * PROCESSING, failures ending CANCELED with errorMessage; the list, the file and error downloads, upload
 * limits and Idempotency-Key with uploads. SQLite, and PostgreSQL with TEST_DATABASE_URL.
 */

/** `lines` Inventory lines, each +1 on its own SKU `<prefix>-<n>` in the Main warehouse. */
function deltaFile(prefix: string, lines: number): string {
  const out = ['sku,warehouse,delta_quantity'];
  for (let i = 0; i < lines; i++) out.push(`${prefix}-${i},Main,1`);
  return `${out.join('\n')}\n`;
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

describe('report lifecycle', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  const create = async (content: string, fields: Record<string, string | number | boolean> = {}) => {
    const res = await postImport(t, seed.sellerToken, content, { importType: 'Inventory', createNewProducts: true, ...fields });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as ReportJson;
  };
  const read = async (reportId: number) => {
    const res = await getReport(t, seed.sellerToken, reportId);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as ReportJson;
  };
  const cancel = (reportId: number, token = seed.sellerToken) => t.app.inject({ method: 'POST', url: `/v1/report/${reportId}/cancel`, headers: bearer(token) });
  const row = (reportId: number) => t.deps.db.db.selectFrom('reports').select(['status', 'lines_done', 'expected_lines']).where('id', '=', reportId).executeTakeFirstOrThrow();
  /** Available quantity in Main of every product whose SKU starts with the prefix. */
  const stockOf = async (prefix: string) => {
    const rows = await t.deps.db.db
      .selectFrom('products as p')
      .leftJoin('inventory as i', (j) => j.onRef('i.product_id', '=', 'p.id').on('i.warehouse_id', '=', seed.warehouses.main))
      .select(['p.sku', 'i.available_quantity'])
      .where('p.account_id', '=', seed.accountId)
      .where('p.sku', 'like', `${prefix}-%`)
      .execute();
    return new Map(rows.map((r) => [r.sku, r.available_quantity]));
  };

  it('PENDING → PROCESSING → COMPLETE', async () => {
    const created = await create(deltaFile('LIFE', 3000));
    assert.equal(created.status, 'PENDING');
    assert.equal(created.startedTs, null);
    assert.equal(created.completedTs, null);
    assert.equal(created.totalLines, 0);
    assert.equal(created.fileName, 'import.csv');
    assert.equal((await read(created.reportId)).status, 'PENDING');

    const worker = runJobs(t);
    const processing = await waitFor('PROCESSING', async () => {
      const r = await read(created.reportId);
      return r.status === 'PROCESSING' ? r : null;
    });
    assert.ok(processing.startedTs);
    assert.equal(processing.completedTs, null);
    assert.equal(await worker, 1);

    const done = await read(created.reportId);
    assert.equal(done.status, 'COMPLETE', JSON.stringify(done));
    assert.equal(done.totalLines, 3000);
    assert.equal(done.expectedLines, 3000);
    assert.equal(done.linesSuccessfullyProcessed, 3000);
    assert.equal(done.linesWithErrors, 0);
    assert.equal(done.errorMessage, null);
    assert.deepEqual(done.columnTypes, ['sku', 'warehouse', 'delta_quantity']);
    const ts = done as ReportJson & { requestedTs: string; startedTs: string; completedTs: string };
    assert.ok(ts.completedTs >= ts.startedTs && ts.startedTs >= ts.requestedTs, JSON.stringify(ts));
    const stock = await stockOf('LIFE');
    assert.equal(stock.size, 3000);
    assert.ok([...stock.values()].every((q) => q === 1));
  });

  it('cancel while PENDING: CANCELED at once, and the job then does nothing', async () => {
    const created = await create(deltaFile('PEND', 10));
    const res = await cancel(created.reportId);
    assert.equal(res.statusCode, 200, res.body);
    const canceled = res.json() as ReportJson;
    assert.equal(canceled.status, 'CANCELED');
    assert.match(canceled.errorMessage ?? '', /canceled on request before processing started/);
    assert.ok(canceled.completedTs);
    assert.equal(await runJobs(t), 1);
    const after = await read(created.reportId);
    assert.deepEqual(after, canceled);
    assert.equal((await stockOf('PEND')).size, 0, 'no line was applied');
    const job = await t.deps.db.db.selectFrom('jobs').select(['status']).where('type', '=', RUN_REPORT_JOB).orderBy('id', 'desc').executeTakeFirstOrThrow();
    assert.equal(job.status, 'SUCCEEDED');
  });

  it('cancel while PROCESSING stops between chunks; the counts say exactly what was applied', async () => {
    const created = await create(deltaFile('STOP', 3000));
    const worker = runJobs(t);
    const first = chunkPacer(t.deps.db.dialect).lines;
    await waitFor('the first chunk', async () => (await row(created.reportId)).lines_done >= first);
    const res = await cancel(created.reportId);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as ReportJson).status, 'CANCELED');
    await worker;

    const report = await read(created.reportId);
    assert.equal(report.status, 'CANCELED');
    assert.match(report.errorMessage ?? '', /canceled on request while processing/);
    assert.equal(report.expectedLines, 3000);
    assert.ok(report.linesSuccessfullyProcessed >= first && report.linesSuccessfullyProcessed < 3000, String(report.linesSuccessfullyProcessed));
    // Whole chunks only: the counts are the checkpoint's (on PostgreSQL every chunk has IMPORT_CHUNK_LINES).
    assert.equal(report.linesSuccessfullyProcessed, (await row(created.reportId)).lines_done);
    if (t.deps.db.dialect === 'postgres') assert.equal(report.linesSuccessfullyProcessed % IMPORT_CHUNK_LINES, 0);
    assert.equal(report.totalLines, report.linesSuccessfullyProcessed);
    assert.equal(report.linesWithErrors, 0);
    // Every SKU of the file: exactly the applied lines' SKUs exist, each with the one unit of its line.
    const stock = await stockOf('STOP');
    let changed = 0;
    for (let i = 0; i < 3000; i++) {
      const quantity = stock.get(`STOP-${i}`);
      if (quantity === undefined) continue;
      assert.equal(quantity, 1, `STOP-${i}`);
      changed++;
    }
    assert.equal(changed, report.linesSuccessfullyProcessed);
    assert.equal(stock.size, changed);
    // The lines applied are the first ones of the file.
    assert.equal(stock.has(`STOP-${changed - 1}`), true);
    assert.equal(stock.has(`STOP-${changed}`), false);
  });

  it('a COMPLETE report cannot be canceled (400); canceling twice answers the report unchanged', async () => {
    const complete = await create(deltaFile('DONE', 2));
    await runJobs(t);
    assertV1Error(await cancel(complete.reportId), 400, /COMPLETE/);
    assert.equal((await read(complete.reportId)).status, 'COMPLETE');

    const pending = await create(deltaFile('TWICE', 2));
    const first = await cancel(pending.reportId);
    assert.equal(first.statusCode, 200);
    const second = await cancel(pending.reportId);
    assert.equal(second.statusCode, 200);
    assert.deepEqual(second.json(), first.json());
    await runJobs(t);
    assertV1Error(await cancel(999_999_999), 404);
  });

  it('needs the legacy or report scope', async () => {
    const created = await create(deltaFile('SCOPE', 1));
    const token = seed.inventory.token; // inventory:self only
    for (const req of [
      { url: '/v1/report' },
      { url: `/v1/report/${created.reportId}` },
      { url: `/v1/report/${created.reportId}/file` },
      { url: `/v1/report/${created.reportId}/errors` },
      { method: 'POST' as const, url: `/v1/report/${created.reportId}/cancel` },
    ]) {
      assertV1Error(await t.app.inject({ ...req, headers: bearer(token) }), 403);
    }
    const { payload, headers } = multipartBody({ importType: 'Inventory' }, { content: deltaFile('SCOPE', 1) });
    assertV1Error(await t.app.inject({ method: 'POST', url: '/v1/report', payload, headers: { ...headers, ...bearer(token) } }), 403);
    for (const scope of ['legacy', 'report'] as const) {
      const { accessToken } = await issueAdHocToken(t.deps.db.db, seed.accountId, [scope], new Date());
      assert.equal((await getReport(t, accessToken, created.reportId)).statusCode, 200, scope);
    }
    await runJobs(t);
  });

  it('GET /file streams the uploaded file back byte for byte; /errors is CSV line,column,message', async () => {
    const content = Buffer.from('\ufeffsku,warehouse,quantity,extra\r\nFILE-1,Main,3,\r\n"FILE-2, quoted",Main,x,\r\n\r\nFILE-3,Nowhere,1,\r\nFILE-4,Main\r\n', 'utf8');
    const { payload, headers } = multipartBody({ importType: 'Inventory', createNewProducts: true }, { content, name: 'stock count.csv' });
    const res = await t.app.inject({ method: 'POST', url: '/v1/report', payload, headers: { ...headers, ...bearer(seed.sellerToken) } });
    assert.equal(res.statusCode, 200, res.body);
    const created = res.json() as ReportJson;
    assert.equal(created.fileName, 'stock count.csv');
    assert.match(created.filePath ?? '', new RegExp(`^http://localhost(:\\d+)?/v1/report/${created.reportId}/file$`));
    assert.match(created.errorFilePath ?? '', new RegExp(`/v1/report/${created.reportId}/errors$`));

    const file = await t.app.inject({ url: `/v1/report/${created.reportId}/file`, headers: bearer(seed.sellerToken) });
    assert.equal(file.statusCode, 200);
    assert.deepEqual(file.rawPayload, content);
    assert.equal(file.headers['content-length'], String(content.length));
    assert.equal(file.headers['content-disposition'], `attachment; filename="stock count.csv"; filename*=UTF-8''stock%20count.csv`);

    await runJobs(t);
    const report = await read(created.reportId);
    assert.equal(report.status, 'COMPLETE');
    assert.equal(report.totalLines, 4);
    assert.equal(report.linesSuccessfullyProcessed, 1);
    assert.equal(report.linesWithErrors, 3);
    const errors = await t.app.inject({ url: `/v1/report/${created.reportId}/errors`, headers: bearer(seed.sellerToken) });
    assert.equal(errors.statusCode, 200);
    assert.match(String(errors.headers['content-type']), /^text\/csv/);
    assert.match(String(errors.headers['content-disposition']), /attachment; filename="report-\d+-errors\.csv"/);
    const rows = errors.body.trim().split(/\r?\n/);
    assert.equal(rows[0], 'line,column,message');
    // Line numbers are file lines (header line 1; the blank line 4 is counted but is no record).
    assert.match(rows[1]!, /^1,extra,"not an Inventory column; ignored/);
    assert.match(rows[2]!, /^3,quantity,/);
    assert.match(rows[3]!, /^5,warehouse,.*not found/);
    assert.match(rows[4]!, /^6,,the line has 2 fields but the header has 4/);
    assert.equal(rows.length, 5);
    assert.equal(await lineErrors(t, seed.sellerToken, created.reportId), errors.body);
  });

  it('Idempotency-Key on an upload replays the same report; the same key with another file is 409', async () => {
    const files = async () => (await t.deps.db.db.selectFrom('stored_files').select('id').where('account_id', '=', seed.accountId).execute()).length;
    const before = await files();
    const key = { 'idempotency-key': 'upload-key-1' };
    const first = await postImport(t, seed.sellerToken, deltaFile('IDEM', 3), { importType: 'Inventory', createNewProducts: true }, key);
    assert.equal(first.statusCode, 200, first.body);
    const replay = await postImport(t, seed.sellerToken, deltaFile('IDEM', 3), { importType: 'Inventory', createNewProducts: true }, key);
    assert.equal(replay.statusCode, 200, replay.body);
    assert.equal(replay.headers['idempotency-replayed'], 'true');
    assert.equal((replay.json() as ReportJson).reportId, (first.json() as ReportJson).reportId);
    const other = await postImport(t, seed.sellerToken, deltaFile('IDEM', 4), { importType: 'Inventory', createNewProducts: true }, key);
    assertV1Error(other, 409);
    // The replayed and the refused uploads are not kept (deleted once their response is sent).
    await waitFor('the unused uploads to be deleted', async () => (await files()) === before + 1, 5000);
    const reports = await t.deps.db.db.selectFrom('reports').select('id').where('file_name', '=', 'import.csv').where('account_id', '=', seed.accountId).execute();
    assert.equal(reports.filter((r) => r.id === (first.json() as ReportJson).reportId).length, 1);
    await runJobs(t);
    assert.equal((await stockOf('IDEM')).get('IDEM-0'), 1);
  });
});

describe('report list', () => {
  let t: TestApp;
  let seed: SeededAccount;
  const clock = manualClock(new Date('2026-06-01T10:00:00.000Z'));
  const ids: number[] = [];
  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    for (let i = 0; i < 5; i++) {
      clock.advance(60_000);
      const res = await postImport(t, seed.sellerToken, 'sku,warehouse,quantity\n', { importType: 'Inventory', label: `r${i}` });
      assert.equal(res.statusCode, 200, res.body);
      ids.push((res.json() as ReportJson).reportId);
    }
  });
  after(async () => t.close());

  const list = (query: string, token = seed.sellerToken) => t.app.inject({ url: `/v1/report${query}`, headers: bearer(token) });
  type Page = { results: ReportJson[]; pagination: { nextToken: string } };

  it('most recent first, createdTs keeps only later reports', async () => {
    const all = (await list('')).json() as Page;
    assert.deepEqual(all.results.map((r) => r.reportId), [...ids].reverse());
    assert.equal(all.pagination.nextToken, '');
    // Created after the second report's instant: the last three.
    const since = (await list(`?createdTs=${encodeURIComponent('2026-06-01T10:02:00.000Z')}`)).json() as Page;
    assert.deepEqual(since.results.map((r) => r.reportId), ids.slice(2).reverse());
    assertV1Error(await list('?createdTs=yesterday'), 400);
  });

  it('pageLength and nextToken (an absolute URL for the same token only)', async () => {
    const first = await list('?pageLength=2');
    assert.equal(first.statusCode, 200, first.body);
    const page1 = first.json() as Page;
    assert.deepEqual(page1.results.map((r) => r.reportId), [ids[4], ids[3]]);
    const next = new URL(page1.pagination.nextToken);
    assert.equal(next.pathname, '/v1/report');
    assert.match(page1.pagination.nextToken, /^http:\/\/localhost(:\d+)?\/v1\/report\?nextToken=/);
    const seen = page1.results.map((r) => r.reportId);
    let url: string = page1.pagination.nextToken;
    while (url !== '') {
      // The token overrides the other parameters.
      const res = await list(`${new URL(url).search}&pageLength=100&createdTs=2030-01-01T00:00:00Z`);
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json() as Page;
      assert.ok(page.results.length <= 2);
      seen.push(...page.results.map((r) => r.reportId));
      url = page.pagination.nextToken;
    }
    assert.deepEqual(seen, [...ids].reverse());

    const { accessToken: other } = await issueAdHocToken(t.deps.db.db, seed.accountId, ['report'], clock.now());
    assertV1Error(await list(next.search, other), 400, /invalid nextToken/);
    assertV1Error(await list('?pageLength=101'), 400);
  });
});

describe('report upload limits', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp({ config: { uploadBodyLimitBytes: 2048 } });
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  it('a file over the limit is 413 and leaves no stored file and no report', async () => {
    const res = await postImport(t, seed.sellerToken, deltaFile('BIG', 400), { importType: 'Inventory' });
    assertV1Error(res, 413);
    assert.deepEqual(await t.deps.db.db.selectFrom('stored_files').select('id').execute(), []);
    assert.deepEqual(await t.deps.db.db.selectFrom('stored_file_chunks').select('file_id').execute(), []);
    assert.deepEqual(await t.deps.db.db.selectFrom('reports').select('id').execute(), []);
    const small = await postImport(t, seed.sellerToken, deltaFile('SMALL', 10), { importType: 'Inventory' });
    assert.equal(small.statusCode, 200, small.body);
  });
});

describe('report failure on the last job attempt', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'report-fail-'));
    t = await createTestApp({ config: { fileStoreDir: dir } });
    seed = await seedAccount(t);
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an attempt that throws leaves the report PROCESSING for the retry; the last one ends it CANCELED with errorMessage', async () => {
    const res = await postImport(t, seed.sellerToken, deltaFile('GONE', 5), { importType: 'Inventory', createNewProducts: true });
    assert.equal(res.statusCode, 200, res.body);
    const reportId = (res.json() as ReportJson).reportId;
    // The stored bytes vanish (a disk problem): reading the source file now fails with an I/O error.
    const accountDir = path.join(dir, String(seed.accountId));
    for (const name of readdirSync(accountDir)) rmSync(path.join(accountDir, name));

    assert.equal(await runJobs(t), 1);
    const job = () => t.deps.db.db.selectFrom('jobs').selectAll().where('type', '=', RUN_REPORT_JOB).executeTakeFirstOrThrow();
    const retrying = await job();
    assert.equal(retrying.status, 'PENDING', 'retried later');
    assert.equal(retrying.attempts, 1);
    assert.match(retrying.last_error ?? '', /ENOENT/);
    let report = (await getReport(t, seed.sellerToken, reportId)).json() as ReportJson;
    assert.equal(report.status, 'PROCESSING');

    // Time passes and the other attempts fail the same way: run the last one now.
    await t.deps.db.db
      .updateTable('jobs')
      .set({ attempts: retrying.max_attempts - 1, run_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', retrying.id)
      .execute();
    assert.equal(await runJobs(t), 1);
    assert.equal((await job()).status, 'DEAD');
    report = (await getReport(t, seed.sellerToken, reportId)).json() as ReportJson;
    assert.equal(report.status, 'CANCELED');
    assert.match(report.errorMessage ?? '', /^processing failed after 5 attempts: .*ENOENT/);
    assert.ok(report.completedTs);
    assert.equal(report.linesSuccessfullyProcessed, 0);
    const again = await t.app.inject({ method: 'POST', url: `/v1/report/${reportId}/cancel`, headers: bearer(seed.sellerToken) });
    assert.equal(again.statusCode, 200);
    assert.deepEqual(again.json(), report);
  });

  it('a worker that dies during the last attempt: the job is DEAD without running again, and the report still ends CANCELED', async () => {
    const res = await postImport(t, seed.sellerToken, deltaFile('LAST', 5), { importType: 'Inventory', createNewProducts: true });
    assert.equal(res.statusCode, 200, res.body);
    const reportId = (res.json() as ReportJson).reportId;
    await t.deps.db.db.updateTable('reports').set({ status: 'PROCESSING' }).where('id', '=', reportId).execute();
    // The last attempt was claimed by a worker that then died: its lease has run out.
    const job = await t.deps.db.db.selectFrom('jobs').selectAll().where('type', '=', RUN_REPORT_JOB).where('status', '=', 'PENDING').executeTakeFirstOrThrow();
    await t.deps.db.db
      .updateTable('jobs')
      .set({ status: 'RUNNING', attempts: job.max_attempts, lease_owner: 'dead-worker', lease_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', job.id)
      .execute();
    assert.equal(await runJobs(t), 1);
    const dead = await t.deps.db.db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
    assert.equal(dead.status, 'DEAD');
    const report = (await getReport(t, seed.sellerToken, reportId)).json() as ReportJson;
    assert.equal(report.status, 'CANCELED');
    assert.match(report.errorMessage ?? '', /^processing failed after \d+ attempts: the worker running the last attempt stopped/);
  });
});
