import type { Tx } from '../../db/tx.js';
import { failedPrecondition } from '../errors.js';
import { getReport } from './create-report.js';
import type { ReportRow } from './model.js';

/**
 * POST /v1/report/{reportId}/cancel (resolutions §3, §6): PENDING or PROCESSING → CANCELED. A report being
 * processed stops at its next chunk: each chunk commits only while the report is still PROCESSING (the
 * chunk's own conditional update of the checkpoint), so what the record says was applied is exactly what
 * was. Canceling a canceled report answers it as it is; a complete one cannot be canceled.
 */
export async function cancelReport(tx: Tx, accountId: number, reportId: number, now: Date): Promise<ReportRow> {
  const report = await getReport(tx, accountId, reportId);
  if (report.status === 'CANCELED') return report;
  if (report.status === 'COMPLETE') throw failedPrecondition(`report ${reportId} is COMPLETE; only a PENDING or PROCESSING report can be canceled`);
  const iso = now.toISOString();
  const updated = await tx
    .updateTable('reports')
    .set((eb) => ({
      status: 'CANCELED',
      cancel_requested: 1,
      completed_at: iso,
      updated_at: iso,
      error_message: eb
        .case()
        .when('status', '=', 'PROCESSING')
        .then('canceled on request while processing; the counts show what was applied before it stopped')
        .else('canceled on request before processing started')
        .end(),
    }))
    .where('account_id', '=', accountId)
    .where('id', '=', reportId)
    .where('status', 'in', ['PENDING', 'PROCESSING'])
    .returningAll()
    .executeTakeFirst();
  // Finished between the read and the update (the job completed it): answer it as it now is.
  return updated ?? getReport(tx, accountId, reportId);
}
