import type { ReportPorts } from './ports.js';
import { moveReportStatus, type ReportKey } from './report-status.js';

/** Ends a report that cannot be processed: CANCELED with errorMessage (resolutions §3); one already ended stays as it is. */
export async function failReport(deps: Pick<ReportPorts, 'db' | 'clock'>, report: ReportKey, message: string): Promise<void> {
  const now = deps.clock.now().toISOString();
  await moveReportStatus(deps.db.db, report, { from: ['PENDING', 'PROCESSING'], to: 'CANCELED' }, { error_message: message, completed_at: now, updated_at: now });
}
