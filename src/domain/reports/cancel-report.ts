import type { Tx } from '../../db/tx.js';
import { failedPrecondition } from '../errors.js';
import { getReport } from './create-report.js';
import type { ReportRow, ReportStatus } from './model.js';
import { moveReportStatus, REPORT_TRANSITIONS } from './report-status.js';
import { canMove, sourcesOf } from './status-machine.js';

/**
 * POST /v1/report/{reportId}/cancel (resolutions §3, §6): PENDING or PROCESSING → CANCELED. A report being
 * processed stops at its next chunk: each chunk commits only while the report is still PROCESSING (the
 * chunk's own conditional update of the checkpoint), so what the record says was applied is exactly what
 * was. Canceling a canceled report answers it as it is; a complete one cannot be canceled.
 */
export async function cancelReport(tx: Tx, accountId: number, reportId: number, now: Date): Promise<ReportRow> {
  const report = await getReport(tx, accountId, reportId);
  const status = report.status as ReportStatus;
  if (status === 'CANCELED') return report;
  // The seller asked for a move the report's state no longer allows: a refusal, not a programming error.
  if (!canMove(REPORT_TRANSITIONS, status, 'CANCELED')) {
    throw failedPrecondition(`report ${reportId} is ${status}; only a ${sourcesOf(REPORT_TRANSITIONS, 'CANCELED').join(' or ')} report can be canceled`);
  }
  const iso = now.toISOString();
  const updated = await moveReportStatus(tx, report, { from: ['PENDING', 'PROCESSING'], to: 'CANCELED' }, (eb) => ({
    cancel_requested: 1,
    completed_at: iso,
    updated_at: iso,
    error_message: eb
      .case()
      .when('status', '=', 'PROCESSING')
      .then('canceled on request while processing; the counts show what was applied before it stopped')
      .else('canceled on request before processing started')
      .end(),
  }));
  // Finished between the read and the update (the job completed it): answer it as it now is.
  return updated ?? getReport(tx, accountId, reportId);
}
