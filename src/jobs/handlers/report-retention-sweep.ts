import type { Deps } from '../../deps.js';
import { nextTurn } from '../../lib/next-turn.js';

export const REPORT_RETENTION_SWEEP = 'reports.retention-sweep';

/** Reports (or validations, or files) per batch; each batch's rows go in short statements of their own. */
const BATCH = 100;
/**
 * Line errors or validation results per DELETE: a few milliseconds of SQLite's time (5,000 took 11 ms), so a
 * report with a million errors never holds the database, or the event loop, long.
 */
const ROWS_PER_DELETE = 2000;
/** An upload still WRITING after this long belongs to a process that died mid-upload. */
export const ABANDONED_UPLOAD_MS = 24 * 60 * 60_000;

export interface RetentionSweepResult {
  reports: number;
  validations: number;
  abandonedFiles: number;
}

/**
 * Deletes what is past its retention (REPORT_RETENTION_DAYS), in bounded batches with a turn of the event
 * loop after each statement, so one sweep never holds the database long, nor (on SQLite, where every
 * statement runs on the loop) the API of the same process:
 * - reports finished (completed_at: COMPLETE or CANCELED) at or before `cutoff`, with their line errors,
 *   their uploaded file and their export file;
 * - import validations finished at or before `cutoff`, with their results and their file;
 * - and, whatever the retention, stored files still WRITING a day after they were started (an upload
 *   whose process died before it could clean up).
 * A report or validation that has not finished is never deleted, however old. Files go first: a sweep
 * interrupted between a file and its report leaves a report without its file (the next sweep deletes it),
 * never an orphaned file. `cutoff` null skips reports and validations (retention 0 keeps them all).
 */
export async function sweepReportRetention(deps: Pick<Deps, 'db' | 'files'>, cutoff: Date | null, now: Date): Promise<RetentionSweepResult> {
  const result: RetentionSweepResult = { reports: 0, validations: 0, abandonedFiles: 0 };
  if (cutoff !== null) {
    result.reports = await deleteFinishedReports(deps, cutoff.toISOString());
    result.validations = await deleteFinishedValidations(deps, cutoff.toISOString());
  }
  result.abandonedFiles = await deleteAbandonedUploads(deps, new Date(now.getTime() - ABANDONED_UPLOAD_MS).toISOString());
  return result;
}

async function deleteFinishedReports(deps: Pick<Deps, 'db' | 'files'>, cutoffIso: string): Promise<number> {
  const db = deps.db.db;
  let total = 0;
  for (;;) {
    const reports = await db
      .selectFrom('reports')
      .select(['id', 'account_id', 'source_file_id', 'result_file_id'])
      .where('completed_at', '<=', cutoffIso)
      .orderBy('completed_at')
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const report of reports) {
      for (const fileId of [report.source_file_id, report.result_file_id]) {
        if (fileId !== null) await deps.files.delete(report.account_id, fileId);
      }
      await deleteInSlices(() =>
        db
          .deleteFrom('report_line_errors')
          .where('id', 'in', (eb) => eb.selectFrom('report_line_errors').select('id').where('report_id', '=', report.id).limit(ROWS_PER_DELETE))
          .executeTakeFirst(),
      );
    }
    if (reports.length > 0) {
      const deleted = await db
        .deleteFrom('reports')
        .where('id', 'in', reports.map((r) => r.id))
        .where('completed_at', '<=', cutoffIso)
        .executeTakeFirst();
      total += Number(deleted.numDeletedRows);
      await nextTurn();
    }
    if (reports.length < BATCH) return total;
  }
}

async function deleteFinishedValidations(deps: Pick<Deps, 'db' | 'files'>, cutoffIso: string): Promise<number> {
  const db = deps.db.db;
  let total = 0;
  for (;;) {
    const validations = await db
      .selectFrom('import_validations')
      .select(['id', 'account_id', 'source_file_id'])
      .where('completed_at', '<=', cutoffIso)
      .orderBy('completed_at')
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const validation of validations) {
      await deps.files.delete(validation.account_id, validation.source_file_id);
      await deleteInSlices(() =>
        db
          .deleteFrom('import_validation_results')
          .where('id', 'in', (eb) =>
            eb.selectFrom('import_validation_results').select('id').where('validation_id', '=', validation.id).limit(ROWS_PER_DELETE),
          )
          .executeTakeFirst(),
      );
    }
    if (validations.length > 0) {
      const deleted = await db
        .deleteFrom('import_validations')
        .where('id', 'in', validations.map((v) => v.id))
        .where('completed_at', '<=', cutoffIso)
        .executeTakeFirst();
      total += Number(deleted.numDeletedRows);
      await nextTurn();
    }
    if (validations.length < BATCH) return total;
  }
}

async function deleteAbandonedUploads(deps: Pick<Deps, 'db' | 'files'>, startedBeforeIso: string): Promise<number> {
  const db = deps.db.db;
  let total = 0;
  for (;;) {
    const files = await db
      .selectFrom('stored_files')
      .select(['id', 'account_id'])
      .where('created_at', '<=', startedBeforeIso)
      .where('state', '=', 'WRITING')
      .orderBy('created_at')
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const file of files) {
      await deps.files.delete(file.account_id, file.id);
      await nextTurn();
    }
    total += files.length;
    if (files.length < BATCH) return total;
  }
}

/** Repeats a DELETE bounded to ROWS_PER_DELETE rows until it removes fewer: a huge report never holds the database long. */
async function deleteInSlices(remove: () => Promise<{ numDeletedRows: bigint }>): Promise<void> {
  for (;;) {
    const deleted = await remove();
    await nextTurn();
    if (Number(deleted.numDeletedRows) < ROWS_PER_DELETE) return;
  }
}

/** The recurring run: REPORT_RETENTION_DAYS days of finished reports and validations (0 keeps them all). */
export async function runReportRetentionSweep(deps: Deps): Promise<void> {
  const days = deps.config.reportRetentionDays;
  const now = deps.clock.now();
  const cutoff = days === 0 ? null : new Date(now.getTime() - days * 86_400_000);
  const result = await sweepReportRetention(deps, cutoff, now);
  if (result.reports + result.validations + result.abandonedFiles > 0) {
    deps.log.info({ ...result, retentionDays: days }, 'deleted reports, import validations and abandoned uploads past their retention');
  }
}
