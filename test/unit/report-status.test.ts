import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../src/domain/errors.js';
import { createReportFrom } from '../../src/domain/reports/create-report-from.js';
import { REPORT_STATUSES, type ReportStatus } from '../../src/domain/reports/model.js';
import { moveReportStatus, REPORT_INITIAL_STATUS, REPORT_TRANSITIONS } from '../../src/domain/reports/report-status.js';
import { canMove, checkMove, sourcesOf } from '../../src/domain/reports/status-machine.js';
import { VALIDATION_STATUSES, type ValidationStatus } from '../../src/domain/reports/validation/model.js';
import { moveValidationStatus, VALIDATION_INITIAL_STATUS, VALIDATION_TRANSITIONS } from '../../src/domain/reports/validation/validation-status.js';
import { toAppError } from '../../src/http/plugins/errors.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';

/** Every pair of statuses, as "FROM→TO", that the table allows. */
function allowedMoves<S extends string>(statuses: readonly S[], allowed: (from: S, to: S) => boolean): string[] {
  return statuses.flatMap((from) => statuses.filter((to) => allowed(from, to)).map((to) => `${from}→${to}`)).sort();
}

const isInternal = (error: unknown) => error instanceof AppError && error.code === 'INTERNAL';

describe('report status machine: the table', () => {
  it('allows exactly the moves of resolutions §6', () => {
    assert.deepEqual(
      allowedMoves(REPORT_STATUSES, (from, to) => canMove(REPORT_TRANSITIONS, from, to)),
      ['PENDING→CANCELED', 'PENDING→PROCESSING', 'PROCESSING→CANCELED', 'PROCESSING→COMPLETE'],
    );
    assert.equal(REPORT_INITIAL_STATUS, 'PENDING');
  });

  it('checks every allowed move without throwing, one status or several to move from', () => {
    for (const from of REPORT_STATUSES) {
      for (const to of REPORT_TRANSITIONS[from]) assert.deepEqual(checkMove('report', REPORT_TRANSITIONS, { from, to }), [from]);
    }
    assert.deepEqual(checkMove('report', REPORT_TRANSITIONS, { from: ['PENDING', 'PROCESSING'], to: 'CANCELED' }), ['PENDING', 'PROCESSING']);
  });

  it('refuses forbidden moves as a programming error (INTERNAL)', () => {
    const forbidden: [ReportStatus | ReportStatus[], ReportStatus][] = [
      ['COMPLETE', 'PROCESSING'],
      ['COMPLETE', 'CANCELED'],
      ['CANCELED', 'PENDING'],
      ['CANCELED', 'PROCESSING'],
      ['PROCESSING', 'PENDING'],
      ['PENDING', 'COMPLETE'],
      ['PENDING', 'PENDING'],
      [['PENDING', 'PROCESSING'], 'COMPLETE'],
      [[], 'CANCELED'],
    ];
    for (const [from, to] of forbidden) {
      assert.throws(() => checkMove('report', REPORT_TRANSITIONS, { from, to }), isInternal, `${String(from)} → ${to}`);
    }
  });

  it('names the statuses a report can be canceled from', () => {
    assert.deepEqual(sourcesOf(REPORT_TRANSITIONS, 'CANCELED'), ['PENDING', 'PROCESSING']);
    assert.deepEqual(sourcesOf(REPORT_TRANSITIONS, 'PENDING'), []);
  });
});

describe('import validation status machine: the table', () => {
  it('allows exactly the moves of resolutions §3', () => {
    assert.deepEqual(
      allowedMoves(VALIDATION_STATUSES, (from, to) => canMove(VALIDATION_TRANSITIONS, from, to)),
      ['PENDING→COMPLETE', 'PENDING→PROCESSING', 'PROCESSING→COMPLETE'],
    );
    assert.equal(VALIDATION_INITIAL_STATUS, 'PENDING');
  });

  it('refuses forbidden moves as a programming error (INTERNAL)', () => {
    const forbidden: [ValidationStatus, ValidationStatus][] = [
      ['COMPLETE', 'PROCESSING'],
      ['COMPLETE', 'PENDING'],
      ['PROCESSING', 'PENDING'],
    ];
    for (const [from, to] of forbidden) assert.throws(() => checkMove('import validation', VALIDATION_TRANSITIONS, { from, to }), isInternal);
  });
});

describe('an INTERNAL AppError at the edge', () => {
  it('is logged and answered with the fixed message, not its own', () => {
    const { appError, internal } = toAppError(new AppError('INTERNAL', 'report status cannot move from COMPLETE to PROCESSING'));
    assert.equal(internal, true);
    assert.equal(appError.status, 500);
    assert.doesNotMatch(appError.message, /COMPLETE|PROCESSING/);
  });
});

describe('the status writers', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
  });
  after(() => t.close());

  const statusOf = async (id: number) => (await t.deps.db.db.selectFrom('reports').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  it('moves a report only from the status it still has, answering null when it lost the race', async () => {
    const report = await createReportFrom(t.deps, seed.accountId, { isExport: true }, null);
    assert.equal(report.status, 'PENDING');
    const db = t.deps.db.db;
    const moved = await moveReportStatus(db, report, { from: 'PENDING', to: 'PROCESSING' }, { started_at: '2026-01-01T00:00:00.000Z' });
    assert.equal(moved?.status, 'PROCESSING');
    assert.equal(moved?.started_at, '2026-01-01T00:00:00.000Z');
    // Already moved (a job that runs again): nothing written.
    assert.equal(await moveReportStatus(db, report, { from: 'PENDING', to: 'PROCESSING' }), null);
    // Another account's report is never moved.
    assert.equal(await moveReportStatus(db, { id: report.id, account_id: seed.accountId + 1000 }, { from: 'PROCESSING', to: 'CANCELED' }), null);
    // The checkpoint guard: a run that another has overtaken does not end the report.
    assert.equal(await moveReportStatus(db, report, { from: 'PROCESSING', to: 'COMPLETE', atLinesDone: 5 }), null);
    assert.equal(await statusOf(report.id), 'PROCESSING');
    const completed = await moveReportStatus(db, report, { from: 'PROCESSING', to: 'COMPLETE', atLinesDone: 0 });
    assert.equal(completed?.status, 'COMPLETE');
    // A cancel that lands after the job completed it: not moved (the caller answers the report as it is).
    assert.equal(await moveReportStatus(db, report, { from: ['PENDING', 'PROCESSING'], to: 'CANCELED' }), null);
    await assert.rejects(moveReportStatus(db, report, { from: 'COMPLETE', to: 'PROCESSING' }), isInternal);
    assert.equal(await statusOf(report.id), 'COMPLETE');
  });

  it('moves a validation the same way', async () => {
    const db = t.deps.db.db;
    const now = new Date().toISOString();
    const file = await db
      .insertInto('stored_files')
      .values({ account_id: seed.accountId, name: 'v.csv', content_type: 'text/csv', byte_size: 0, chunk_count: 0, state: 'COMPLETE', storage: 'db', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = await db
      .insertInto('import_validations')
      .values({ account_id: seed.accountId, definition_id: 'Inventory', import_type: 'Inventory', integration_id: null, template_id: null, status: VALIDATION_INITIAL_STATUS, supplied_headers: '[]', actual_headers: '[]', first_rows: '[]', lines_done: 0, error_message: null, source_file_id: file.id, created_at: now, completed_at: null, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    assert.equal((await moveValidationStatus(db, row, { from: 'PENDING', to: 'PROCESSING' }))?.status, 'PROCESSING');
    assert.equal(await moveValidationStatus(db, row, { from: 'PENDING', to: 'PROCESSING' }), null);
    const ended = await moveValidationStatus(db, row, { from: ['PENDING', 'PROCESSING'], to: 'COMPLETE' }, { completed_at: now, error_message: 'gave up' });
    assert.equal(ended?.status, 'COMPLETE');
    assert.equal(ended?.error_message, 'gave up');
    await assert.rejects(moveValidationStatus(db, row, { from: 'COMPLETE', to: 'PROCESSING' }), isInternal);
  });
});
