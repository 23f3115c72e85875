import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { registerCreateReport } from './create-report.js';
import { registerReportDownloads } from './downloads.js';
import { registerReportReads } from './read-reports.js';

/** The v1 report routes (document 4.2; resolutions §3, §6, §8). */
export function registerV1ReportRoutes(app: App, deps: Deps): void {
  registerCreateReport(app, deps);
  registerReportReads(app, deps);
  registerReportDownloads(app, deps);
}
