import type { Deps } from '../../deps.js';
import type { ReportRow } from './model.js';

/** Ends a report that cannot be processed: CANCELED with errorMessage (resolutions §3). */
export async function failReport(deps: Deps, report: Pick<ReportRow, 'id'>, message: string): Promise<void> {
  const now = deps.clock.now().toISOString();
  await deps.db.db
    .updateTable('reports')
    .set({ status: 'CANCELED', error_message: message, completed_at: now, updated_at: now })
    .where('id', '=', report.id)
    .where('status', 'in', ['PENDING', 'PROCESSING'])
    .execute();
}

