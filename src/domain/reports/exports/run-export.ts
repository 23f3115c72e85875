import type { Deps } from '../../../deps.js';
import type { ReportRow } from '../model.js';

/** What an export produced; the report job records it on the report (COMPLETE) in one transaction. */
export interface ExportOutcome {
  /** The header of the file (the record's columnTypes). */
  columnTypes: string[];
  /** Data rows written (the record's totalLines and linesSuccessfullyProcessed). */
  rows: number;
  /** The file in the file store. */
  fileId: number;
  fileName: string;
}

/**
 * Produces the file of an export report (document 2.9): streams the account's rows into the file store.
 * `stillWanted` is polled between pages; when it answers false (the report was canceled) the export stops,
 * deletes what it wrote and returns null.
 */
export async function produceExport(deps: Deps, report: ReportRow, stillWanted: () => Promise<boolean>): Promise<ExportOutcome | null> {
  void deps;
  void report;
  void stillWanted;
  throw new Error('exports are not built yet');
}
