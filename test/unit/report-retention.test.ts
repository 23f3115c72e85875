import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { REPORT_RETENTION_SWEEP, runReportRetentionSweep, sweepReportRetention } from '../../src/jobs/handlers/report-retention-sweep.js';
import { RECURRING_JOBS } from '../../src/jobs/schedules.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { postImport, runJobs, type ReportJson } from '../helpers/reports.js';

const DAY = 86_400_000;

/** Helpers over one test app: reports made through the API, the rest inserted as the other features store it. */
function fixtures(t: TestApp, seed: () => SeededAccount) {
  const db = t.deps.db.db;
  const now = () => t.deps.clock.now();
  return {
    async importReport(content: string): Promise<number> {
      const res = await postImport(t, seed().sellerToken, content, { importType: 'Inventory', createNewProducts: true });
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as ReportJson).reportId;
    },
    async file(content: string): Promise<number> {
      return (await t.deps.files.write(seed().accountId, { name: 'f.csv', contentType: 'text/csv' }, Readable.from([Buffer.from(content)]))).id;
    },
    async exportReport(fileId: number, completedAt: Date): Promise<number> {
      const iso = completedAt.toISOString();
      const row = await db
        .insertInto('reports')
        .values({ account_id: seed().accountId, label: null, is_export: 1, report_type: 'Products', status: 'COMPLETE', options: '{}', template_id: null, integration_id: null, uploader: null, column_types: '[]', total_lines: 1, lines_processed: 1, error_lines: 0, lines_done: 1, cancel_requested: 0, source_file_id: null, result_file_id: fileId, file_name: 'export.csv', requested_at: iso, started_at: iso, completed_at: iso, updated_at: iso })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async validation(fileId: number, completedAt: Date | null, results: number): Promise<number> {
      const iso = now().toISOString();
      const row = await db
        .insertInto('import_validations')
        .values({ account_id: seed().accountId, definition_id: 'Inventory', import_type: 'Inventory', integration_id: null, template_id: null, status: completedAt ? 'COMPLETE' : 'PROCESSING', supplied_headers: '[]', actual_headers: '[]', first_rows: '[]', lines_done: 0, error_message: null, source_file_id: fileId, created_at: iso, completed_at: completedAt?.toISOString() ?? null, updated_at: iso })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (let i = 0; i < results; i += 500) {
        await db
          .insertInto('import_validation_results')
          .values(Array.from({ length: Math.min(500, results - i) }, (_, k) => ({ account_id: seed().accountId, validation_id: row.id, group_name: 'errors', row_number: i + k + 2, column_name: 'sku', severity: 'ERROR', message: 'bad' })))
          .execute();
      }
      return row.id;
    },
    /** A stored file left WRITING (its upload's process died), with one chunk of bytes. */
    async abandoned(createdAt: Date): Promise<number> {
      const row = await db
        .insertInto('stored_files')
        .values({ account_id: seed().accountId, name: 'upload.csv', content_type: 'text/csv', byte_size: 0, chunk_count: 0, state: 'WRITING', storage: t.deps.config.fileStoreDir ? 'dir' : 'db', created_at: createdAt.toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (!t.deps.config.fileStoreDir) await db.insertInto('stored_file_chunks').values({ file_id: row.id, seq: 0, data: Buffer.from('sku,warehouse\n') }).execute();
      return row.id;
    },
    reportIds: async () => (await db.selectFrom('reports').select('id').orderBy('id').execute()).map((r) => r.id),
    fileIds: async () => (await db.selectFrom('stored_files').select('id').orderBy('id').execute()).map((r) => r.id),
    chunkFileIds: async () => [...new Set((await db.selectFrom('stored_file_chunks').select('file_id').execute()).map((r) => r.file_id))].sort((a, b) => a - b),
    lineErrorCount: async (reportId: number) => (await db.selectFrom('report_line_errors').select('id').where('report_id', '=', reportId).execute()).length,
    validationIds: async () => (await db.selectFrom('import_validations').select('id').orderBy('id').execute()).map((r) => r.id),
    resultCount: async (validationId: number) => (await db.selectFrom('import_validation_results').select('id').where('validation_id', '=', validationId).execute()).length,
    sourceFileOf: async (reportId: number) => (await db.selectFrom('reports').select('source_file_id').where('id', '=', reportId).executeTakeFirstOrThrow()).source_file_id!,
  };
}

describe('reports.retention-sweep job', () => {
  const start = new Date('2026-01-01T00:00:00.000Z');
  const clock = manualClock(start);
  let t: TestApp;
  let seed: SeededAccount;
  let f: ReturnType<typeof fixtures>;
  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    f = fixtures(t, () => seed);
  });
  after(async () => t.close());

  it('deletes finished reports and validations past REPORT_RETENTION_DAYS with their errors, results and files; keeps the rest', async () => {
    assert.equal(t.deps.config.reportRetentionDays, 90);
    // Finished on day 0: an import with line errors, an export with its file, a validation with results.
    const oldImport = await f.importReport('sku,warehouse,quantity\nOLD-1,Main,1\nOLD-2,Nowhere,1\nOLD-3,Main,x\n');
    await runJobs(t);
    const oldImportFile = await f.sourceFileOf(oldImport);
    assert.equal(await f.lineErrorCount(oldImport), 2);
    const exportFile = await f.file('sku\nOLD-1\n');
    const oldExport = await f.exportReport(exportFile, clock.now());
    const validationFile = await f.file('sku,warehouse,quantity\n');
    const oldValidation = await f.validation(validationFile, clock.now(), 3);
    const crashedUpload = await f.abandoned(clock.now());

    // Still open on day 0 (never finished): kept however old.
    const pending = await f.importReport('sku,warehouse,quantity\nPEND-1,Main,1\n');
    const openValidationFile = await f.file('sku\n');
    const openValidation = await f.validation(openValidationFile, null, 1);

    // Finished on day 80: inside the retention.
    clock.set(new Date(start.getTime() + 80 * DAY));
    const recent = await f.importReport('sku,warehouse,quantity\nNEW-1,Main,1\n');
    // Only the day-80 report's job runs: the pending report's job is kept far in the future.
    const pendingJob = await t.deps.db.db.selectFrom('jobs').select('id').where('payload', 'like', `%"reportId":${pending}%`).executeTakeFirstOrThrow();
    await t.deps.db.db.updateTable('jobs').set({ run_at: new Date(start.getTime() + 3650 * DAY).toISOString() }).where('id', '=', pendingJob.id).execute();
    await runJobs(t);

    // Day 91, 23 hours after an upload that is still being written (not abandoned yet).
    clock.set(new Date(start.getTime() + 91 * DAY));
    const writingNow = await f.abandoned(new Date(clock.now().getTime() - 23 * 3600_000));

    const w = new JobWorker(t.deps, { id: 'report-retention', schedules: RECURRING_JOBS.filter((s) => s.name === REPORT_RETENTION_SWEEP) });
    assert.equal((await w.runSchedules()).length, 1);
    assert.equal(await w.runUntilIdle(), 1);
    const job = await t.deps.db.db.selectFrom('jobs').select(['status', 'last_error']).where('type', '=', REPORT_RETENTION_SWEEP).executeTakeFirstOrThrow();
    assert.deepEqual(job, { status: 'SUCCEEDED', last_error: null });

    assert.deepEqual(await f.reportIds(), [pending, recent]);
    assert.equal((await f.reportIds()).includes(oldExport), false);
    assert.equal(await f.lineErrorCount(oldImport), 0);
    assert.deepEqual(await f.validationIds(), [openValidation]);
    assert.equal(await f.resultCount(oldValidation), 0);
    assert.equal(await f.resultCount(openValidation), 1);
    const files = await f.fileIds();
    for (const gone of [oldImportFile, exportFile, validationFile, crashedUpload]) assert.equal(files.includes(gone), false, `file ${gone} deleted`);
    for (const kept of [await f.sourceFileOf(pending), await f.sourceFileOf(recent), openValidationFile, writingNow]) assert.equal(files.includes(kept), true, `file ${kept} kept`);
    assert.deepEqual(await f.chunkFileIds(), files, 'no chunk outlives its file');

    const res = await t.app.inject({ url: `/v1/report/${oldImport}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 404);
    // The product data the old import wrote is not report data: it stays.
    const stock = await t.app.inject({ url: '/v1/inventory/OLD-1', headers: bearer(seed.sellerToken) });
    assert.equal(stock.statusCode, 200);
  });

  it('finds finished reports and validations oldest first through an index, not by reading the whole table', async () => {
    // The sweep's batch reads (src/jobs/handlers/report-retention-sweep.ts): completed_at <= cutoff, oldest first.
    for (const table of ['reports', 'import_validations'] as const) {
      const query = t.deps.db.db
        .selectFrom(table)
        .select('id')
        .where('completed_at', '<=', start.toISOString())
        .orderBy('completed_at')
        .orderBy('id')
        .limit(100)
        .compile();
      const raw = t.deps.db.raw;
      if ('sqlite' in raw) {
        const plan = raw.sqlite.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[])) as { detail: string }[];
        const details = plan.map((r) => r.detail).join('; ');
        assert.match(details, new RegExp(`SEARCH ${table} USING (COVERING )?INDEX ${table === 'reports' ? 'reports' : 'import_validations'}_completed`), details);
      } else {
        // PostgreSQL's plan for a small test table is a scan either way: the index must exist for large ones.
        const indexes = await sql<{ indexdef: string }>`select indexdef from pg_indexes where schemaname = current_schema() and tablename = ${table}`.execute(t.deps.db.db);
        assert.ok(indexes.rows.some((r) => /\(completed_at, id\)/.test(r.indexdef)), JSON.stringify(indexes.rows));
      }
    }
  });

  it('works through any number of reports and line errors in bounded batches', async () => {
    const db = t.deps.db.db;
    const finished = new Date(clock.now().getTime() - 200 * DAY).toISOString();
    const before = (await f.reportIds()).length;
    const ids: number[] = [];
    for (let i = 0; i < 250; i++) {
      const fileId = await f.file(`sku\nBULK-${i}\n`);
      const row = await db
        .insertInto('reports')
        .values({ account_id: seed.accountId, label: null, is_export: 0, report_type: 'Inventory', status: i % 2 ? 'COMPLETE' : 'CANCELED', options: '{}', template_id: null, integration_id: null, uploader: null, column_types: '[]', total_lines: 1, lines_processed: 1, error_lines: 0, lines_done: 1, cancel_requested: 0, source_file_id: fileId, result_file_id: null, file_name: 'f.csv', requested_at: finished, started_at: finished, completed_at: finished, updated_at: finished })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    // One report with 12,345 line errors: deleted a slice at a time.
    for (let i = 0; i < 12_345; i += 1000) {
      await db
        .insertInto('report_line_errors')
        .values(Array.from({ length: Math.min(1000, 12_345 - i) }, (_, k) => ({ account_id: seed.accountId, report_id: ids[0]!, line: i + k + 2, column_name: 'sku', message: 'bad' })))
        .execute();
    }
    await f.validation(await f.file('sku\n'), new Date(finished), 12_001);

    const result = await sweepReportRetention(t.deps, new Date(clock.now().getTime() - 90 * DAY), clock.now());
    assert.deepEqual(result, { reports: 250, validations: 1, abandonedFiles: 0 });
    assert.equal((await f.reportIds()).length, before);
    assert.equal((await db.selectFrom('report_line_errors').select('id').where('report_id', 'in', ids).execute()).length, 0);
    assert.equal((await db.selectFrom('import_validation_results').select('id').execute()).length, 1, 'only the open validation\'s result');
    assert.deepEqual(await f.chunkFileIds(), await f.fileIds());
  });
});

describe('reports.retention-sweep with REPORT_RETENTION_DAYS=0', () => {
  const clock = manualClock(new Date('2026-01-01T00:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp({ clock, config: { reportRetentionDays: 0 } });
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  it('keeps every report and validation, and still removes abandoned uploads', async () => {
    const f = fixtures(t, () => seed);
    const report = await f.importReport('sku,warehouse,quantity\nZERO-1,Main,1\n');
    await runJobs(t);
    const validation = await f.validation(await f.file('sku\n'), clock.now(), 1);
    const abandoned = await f.abandoned(clock.now());
    clock.advance(10 * 365 * DAY);
    await runReportRetentionSweep(t.deps);
    assert.deepEqual(await f.reportIds(), [report]);
    assert.deepEqual(await f.validationIds(), [validation]);
    assert.equal((await f.fileIds()).includes(abandoned), false);
    assert.equal((await f.fileIds()).length, 2);
  });
});

describe('reports.retention-sweep with FILE_STORE_DIR', () => {
  const clock = manualClock(new Date('2026-01-01T00:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'retention-files-'));
    t = await createTestApp({ clock, config: { fileStoreDir: dir } });
    seed = await seedAccount(t);
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('removes the files from the directory, and the partial file of an abandoned upload', async () => {
    const f = fixtures(t, () => seed);
    const report = await f.importReport('sku,warehouse,quantity\nDIR-1,Main,1\n');
    await runJobs(t);
    const fileId = await f.sourceFileOf(report);
    const accountDir = path.join(dir, String(seed.accountId));
    assert.deepEqual(readdirSync(accountDir), [`${fileId}.bin`]);
    const abandoned = await f.abandoned(clock.now());
    writeFileSync(path.join(accountDir, `${abandoned}.bin.partial`), 'sku,war');
    clock.advance(91 * DAY);
    await runReportRetentionSweep(t.deps);
    assert.deepEqual(await f.reportIds(), []);
    assert.deepEqual(await f.fileIds(), []);
    assert.deepEqual(readdirSync(accountDir), []);
    assert.equal(existsSync(dir), true);
  });
});
