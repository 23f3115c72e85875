import type { ExpressionBuilder, UpdateObject } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Db } from '../../db/tx.js';
import type { ReportRow, ReportStatus } from './model.js';
import { checkMove, type StatusMove, type TransitionTable } from './status-machine.js';

/**
 * A report's life (resolutions §6): created PENDING; the job moves it to PROCESSING and then COMPLETE; a
 * cancel request, or a failure with errorMessage, ends a PENDING or PROCESSING one CANCELED. COMPLETE and
 * CANCELED are final.
 */
export const REPORT_TRANSITIONS: TransitionTable<ReportStatus> = {
  PENDING: ['PROCESSING', 'CANCELED'],
  PROCESSING: ['COMPLETE', 'CANCELED'],
  COMPLETE: [],
  CANCELED: [],
};

/** The status a report is recorded with (createReport). */
export const REPORT_INITIAL_STATUS = 'PENDING' satisfies ReportStatus;

/** The report a move applies to; account_id null only where the caller cannot know it (a dead job names the report alone). */
export interface ReportKey {
  id: number;
  account_id: number | null;
}

type ReportColumns = Omit<UpdateObject<Database, 'reports'>, 'id' | 'account_id' | 'status'>;
/** What the move sets besides the status, in the same statement; a function for values computed from the row as it was. */
export type ReportMoveColumns = ReportColumns | ((eb: ExpressionBuilder<Database, 'reports'>) => ReportColumns);

/**
 * The one writer of reports.status: a conditional UPDATE … WHERE status = from (or IN, for several), so
 * the report moves only if nothing moved it first. Losing that race is a normal outcome — a cancel while
 * the job finishes, a job that runs again after another finished the report — and answers null; the
 * moved row otherwise. A move the table forbids throws INTERNAL before anything is written.
 */
export async function moveReportStatus(db: Db, report: ReportKey, move: StatusMove<ReportStatus>, columns: ReportMoveColumns = {}): Promise<ReportRow | null> {
  const froms = checkMove('report', REPORT_TRANSITIONS, move);
  let update = db
    .updateTable('reports')
    .set((eb) => ({ ...(typeof columns === 'function' ? columns(eb) : columns), status: move.to }))
    .where('id', '=', report.id);
  if (report.account_id !== null) update = update.where('account_id', '=', report.account_id);
  update = froms.length === 1 ? update.where('status', '=', froms[0]!) : update.where('status', 'in', froms);
  if (move.atLinesDone !== undefined) update = update.where('lines_done', '=', move.atLinesDone);
  return (await update.returningAll().executeTakeFirst()) ?? null;
}
