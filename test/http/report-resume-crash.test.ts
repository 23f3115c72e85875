import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RUN_REPORT_JOB } from '../../src/domain/reports/model.js';
import { FIRST_CHUNK_LINES, IMPORT_CHUNK_LINES, MIN_CHUNK_LINES } from '../../src/domain/reports/imports/chunks.js';
import type { Deps } from '../../src/deps.js';
import type { App } from '../../src/http/types.js';
import type { TestApp } from '../helpers/app.js';
import type { SeededAccount } from '../helpers/fixtures.js';
import { postImport, type ReportJson } from '../helpers/reports.js';
import { crashTestService, exitWithin, takenOverWithin, waitFor, type CrashTestService } from '../helpers/worker-process.js';

/**
 * A worker killed with SIGKILL in the middle of an import resumes after its last committed chunk: no line
 * applied twice, none lost, and a new worker takes the job over within 30 s of its start (the dead worker's
 * lease, JOB_LEASE_SECONDS, runs out). The real worker runs as a child process (`src/main.ts worker`); a
 * test-only preload (test/fixtures/crash-after-chunks.ts) kills it right after its third chunk commit. SQLite in a
 * temporary DATA_DIR, or a fresh schema on TEST_DATABASE_URL in the PostgreSQL run.
 */
const LINES = 20_000;
const SKUS = 7;
const CRASH_AFTER_CHUNKS = 3;

describe('report import: a worker killed mid-import resumes exactly', { timeout: 300_000 }, () => {
  const pgUrl = process.env.TEST_DATABASE_URL;
  let service: CrashTestService;
  let deps: Deps;
  let app: App;
  let seed: SeededAccount;

  before(async () => {
    service = await crashTestService('resume');
    ({ deps, app, seed } = service);
  });
  after(async () => {
    await service?.close();
  });

  const report = (id: number) => deps.db.db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  async function stock(): Promise<Map<string, number>> {
    const rows = await deps.db.db
      .selectFrom('inventory as i')
      .innerJoin('products as p', 'p.id', 'i.product_id')
      .select(['p.sku', 'i.available_quantity', 'i.onhand_quantity'])
      .where('p.account_id', '=', seed.accountId)
      .where('i.warehouse_id', '=', seed.warehouses.main)
      .where('p.sku', 'like', 'RESUME-%')
      .execute();
    for (const r of rows) assert.equal(r.onhand_quantity, r.available_quantity, r.sku);
    return new Map(rows.map((r) => [r.sku, r.available_quantity]));
  }

  it('SIGKILL after a chunk commit, lease expiry, a new worker: COMPLETE and every SKU has exactly its lines', async () => {
    const expected = new Map<string, number>();
    const lines = ['sku,warehouse,delta_quantity'];
    for (let i = 0; i < LINES; i++) {
      const sku = `RESUME-${i % SKUS}`;
      lines.push(`${sku},Main,1`);
      expected.set(sku, (expected.get(sku) ?? 0) + 1);
    }
    const t: TestApp = { app, deps, close: async () => {} };
    const created = await postImport(t, seed.sellerToken, `${lines.join('\n')}\n`, { importType: 'Inventory', createNewProducts: true });
    assert.equal(created.statusCode, 200, created.body);
    const reportId = (created.json() as ReportJson).reportId;

    // 1. The worker dies right after its third chunk commit.
    const crashing = service.startWorker([], { afterChunks: CRASH_AFTER_CHUNKS });
    const crash = await exitWithin(crashing, 120_000);
    assert.equal(crash.signal, 'SIGKILL', crash.output);
    assert.match(crash.output, /SIGKILL after chunk commit 3/);

    const interrupted = await report(reportId);
    assert.equal(interrupted.status, 'PROCESSING');
    assert.equal(interrupted.expected_lines, LINES);
    // Three chunks, past the first and before the end: on PostgreSQL of IMPORT_CHUNK_LINES each; on SQLite sized
    // by the time they take (ChunkPacer), the first of FIRST_CHUNK_LINES.
    if (pgUrl) assert.equal(interrupted.lines_done, CRASH_AFTER_CHUNKS * IMPORT_CHUNK_LINES);
    else {
      const [least, most] = [FIRST_CHUNK_LINES + (CRASH_AFTER_CHUNKS - 1) * MIN_CHUNK_LINES, CRASH_AFTER_CHUNKS * IMPORT_CHUNK_LINES];
      assert.ok(interrupted.lines_done >= least && interrupted.lines_done <= most, `lines_done ${interrupted.lines_done}, not in [${least}, ${most}]`);
    }
    assert.equal(interrupted.lines_processed, interrupted.lines_done);
    // What is committed is exactly the checkpoint's lines.
    const partial = [...(await stock()).values()].reduce((a, b) => a + b, 0);
    assert.equal(partial, interrupted.lines_done);
    const job = await deps.db.db.selectFrom('jobs').selectAll().where('type', '=', RUN_REPORT_JOB).executeTakeFirstOrThrow();
    assert.equal(job.status, 'RUNNING', 'the dead worker still holds the lease');
    assert.equal(job.attempts, 1);

    // 2. A new worker starts at once; it takes the job over when the dead worker's lease runs out (the default
    // JOB_LEASE_SECONDS, 20 s), so the import resumes within 30 s of the restart.
    const resumed = service.startWorker([], null);
    assert.ok((await takenOverWithin(deps, job.id, 30_000)) < 30_000);
    await waitFor('the import to complete', 180_000, async () => ((await report(reportId)).status === 'PROCESSING' ? undefined : true));
    resumed.child.kill('SIGTERM');
    const end = await exitWithin(resumed, 30_000);
    assert.equal(end.code, 0, end.output);

    const done = await report(reportId);
    assert.equal(done.status, 'COMPLETE', done.error_message ?? '');
    assert.equal(done.total_lines, LINES);
    assert.equal(done.lines_done, LINES);
    assert.equal(done.lines_processed, LINES);
    assert.equal(done.error_lines, 0);
    assert.deepEqual(Object.fromEntries(await stock()), Object.fromEntries(expected), 'no line applied twice or lost');
    const finished = await deps.db.db.selectFrom('jobs').select(['status', 'attempts']).where('id', '=', job.id).executeTakeFirstOrThrow();
    assert.deepEqual(finished, { status: 'SUCCEEDED', attempts: 2 });
  });
});
