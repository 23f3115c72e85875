import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { produceExport } from '../../domain/reports/exports/run-export.js';
import { failReport } from '../../domain/reports/fail-report.js';
import { runImport } from '../../domain/reports/imports/run-import.js';
import { RUN_REPORT_JOB, type ReportRow, type RunReportPayload } from '../../domain/reports/model.js';
import { moveReportStatus } from '../../domain/reports/report-status.js';
import { errorSummary, type Job } from '../types.js';

export { RUN_REPORT_JOB };

/**
 * Runs a report (resolutions §6): PENDING → PROCESSING, then the export or import, then COMPLETE. A report
 * canceled meanwhile is left as it is. The job may run again (a worker that died, a database outage): an
 * import resumes after its checkpoint, an export starts over. When the job is DEAD (reportJobDead) the report
 * ends CANCELED with the reason in errorMessage, so no report stays PROCESSING forever.
 */
export async function runReport(deps: Deps, job: Job): Promise<void> {
  const { reportId } = (job.payload ?? {}) as Partial<RunReportPayload>;
  if (job.accountId === null || !Number.isSafeInteger(reportId)) throw new Error(`malformed ${RUN_REPORT_JOB} job ${job.id}`);
  const report = await startReport(deps, job.accountId, reportId!);
  if (!report) return;
  if (report.is_export === 1) await runExport(deps, report);
  else await runImport(deps, report);
}

/** The job is DEAD: the report ends CANCELED with the reason, never PROCESSING forever. */
export async function reportJobDead(deps: Deps, job: Job, error: string): Promise<void> {
  const { reportId } = (job.payload ?? {}) as Partial<RunReportPayload>;
  if (!Number.isSafeInteger(reportId)) return;
  await failReport(deps, { id: reportId!, account_id: job.accountId }, `processing failed after ${job.attempts} attempts: ${errorSummary(error)}`);
}

/** Moves the report to PROCESSING (a resumed run finds it there); null when it is no longer to be run. */
async function startReport(deps: Deps, accountId: number, reportId: number): Promise<ReportRow | null> {
  const now = deps.clock.now().toISOString();
  return withTx(deps.db.db, async (tx) => {
    await moveReportStatus(tx, { id: reportId, account_id: accountId }, { from: 'PENDING', to: 'PROCESSING' }, { started_at: now, updated_at: now });
    const row = await tx.selectFrom('reports').selectAll().where('account_id', '=', accountId).where('id', '=', reportId).executeTakeFirst();
    return row && row.status === 'PROCESSING' ? row : null;
  });
}

async function runExport(deps: Deps, report: ReportRow): Promise<void> {
  const db = deps.db.db;
  const stillWanted = async () => {
    const row = await db.selectFrom('reports').select('status').where('id', '=', report.id).executeTakeFirst();
    return row?.status === 'PROCESSING';
  };
  const outcome = await produceExport(deps, report, stillWanted);
  if (!outcome) return;
  const now = deps.clock.now().toISOString();
  const completed = await moveReportStatus(db, report, { from: 'PROCESSING', to: 'COMPLETE' }, {
    column_types: JSON.stringify(outcome.columnTypes),
    total_lines: outcome.rows,
    lines_processed: outcome.rows,
    lines_done: outcome.rows,
    result_file_id: outcome.fileId,
    file_name: outcome.fileName,
    completed_at: now,
    updated_at: now,
  });
  // Canceled while the last page was written: the file is nobody's.
  if (!completed) await deps.files.delete(report.account_id, outcome.fileId);
}
