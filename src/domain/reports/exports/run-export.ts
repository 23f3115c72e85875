import type { ReportPorts } from '../ports.js';
import type { StoredFile } from '../../../db/file-store/index.js';
import { nextTurn } from '../../../lib/next-turn.js';
import { reportOptions, type ExportType, type ReportOptions, type ReportRow } from '../model.js';
import { PipeClosedError } from './byte-pipe.js';
import { openCsvSink } from './csv-sink.js';
import { compileExportFilter } from './export-filter.js';
import { EXPORT_PAGE_SIZE_POSTGRES, exportFormat, type ExportFormat, type ExportSource, type RowSink } from './export-format.js';
import { inventoryExportSource } from './inventory-export.js';
import { productExportSource } from './product-export.js';
import { openXlsxSink } from './xlsx-sink.js';

/** What an export produced; the report job records it on the report (COMPLETE) in one transaction. */
export interface ExportOutcome {
  /** The header of the file (the record's columnTypes), also when the file itself has no header row. */
  columnTypes: string[];
  /** Data rows written (the record's totalLines and linesSuccessfullyProcessed). */
  rows: number;
  /** The file in the file store. */
  fileId: number;
  fileName: string;
}

export interface ProduceExportOptions {
  /** Rows per database page (tests lower it). */
  pageSize?: number;
}

async function openSource(deps: Pick<ReportPorts, 'db'>, report: ReportRow, options: ReportOptions, pageSize: number | undefined): Promise<ExportSource> {
  const exportType = report.report_type as ExportType;
  // Compiled at creation too (checkExportRequest), so a formula that reaches a job always compiles.
  // PostgreSQL runs a page's queries off the event loop (network round trips), so its pages are larger: small
  // ones only add round trips (a 200-row page made the 100,000-product export ~30 % slower there).
  const rows = pageSize ?? (deps.db.dialect === 'postgres' ? EXPORT_PAGE_SIZE_POSTGRES : undefined);
  const input = { accountId: report.account_id, activeOnly: options.activeOnly === true, filter: compileExportFilter(exportType, options), ...(rows ? { pageSize: rows } : {}) };
  return exportType === 'Inventory' ? inventoryExportSource(deps.db.db, input) : productExportSource(deps.db.db, input);
}

function openSink(format: ExportFormat, source: ExportSource, includeHeader: boolean): RowSink {
  const header = includeHeader ? source.columns : null;
  if (format.kind !== 'xlsx') return openCsvSink(format.delimiter, header);
  return openXlsxSink({ sheetName: source.sheetName, header });
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/**
 * Produces the file of an export report (document 2.9): streams the account's rows into the file store.
 * `stillWanted` is polled between pages; when it answers false (the report was canceled) the export stops,
 * deletes what it wrote and returns null.
 */
export async function produceExport(
  deps: Pick<ReportPorts, 'db' | 'files' | 'log'>,
  report: ReportRow,
  stillWanted: () => Promise<boolean>,
  produceOptions: ProduceExportOptions = {},
): Promise<ExportOutcome | null> {
  const options = reportOptions(report);
  const accountId = report.account_id;
  const format = exportFormat(report.id, options);
  const source = await openSource(deps, report, options, produceOptions.pageSize);
  const sink = openSink(format, source, options.includeHeader !== false);

  // The store reads the sink while rows are written; if the store fails first, aborting the sink makes
  // the waiting writer fail too instead of waiting for a reader that is gone.
  const stored = settle(deps.files.write(accountId, { name: format.fileName, contentType: format.contentType }, sink.bytes));
  void stored.then((outcome) => {
    if (!outcome.ok) sink.abort(new PipeClosedError());
  });

  /**
   * Stops the file and deletes it. The bytes end cleanly (a truncated file) rather than failing the store's
   * write: the directory store destroys its file stream while writes may still be in flight when its source
   * fails, and the late write then raises an uncaught ERR_STREAM_DESTROYED that would end the process.
   */
  const discard = async (): Promise<Settled<StoredFile>> => {
    await sink.close();
    const outcome = await stored;
    if (outcome.ok) {
      await deps.files.delete(accountId, outcome.value.id).catch((error: unknown) => {
        deps.log.warn({ err: error, reportId: report.id, fileId: outcome.value.id }, 'could not delete the file of a stopped export');
      });
    }
    return outcome;
  };

  let rows = 0;
  try {
    if (options.headersOnly !== true) {
      for await (const page of source.pages()) {
        await sink.writeRows(page);
        rows += page.length;
        if (!(await stillWanted())) {
          await discard();
          return null;
        }
        // A turn of the event loop per page: on SQLite the page's queries, and the store's reads of the pipe,
        // complete without one, so a whole export would otherwise run as one stretch (6.5 s at 100,000
        // products) while the API of the same process waits.
        await nextTurn();
      }
    }
    await sink.finish();
  } catch (error) {
    const outcome = await discard();
    // When the store failed, its error is the cause; the writer only saw the pipe close.
    throw error instanceof PipeClosedError && !outcome.ok ? outcome.error : error;
  }

  const outcome = await stored;
  if (!outcome.ok) throw outcome.error;
  return { columnTypes: source.columns, rows, fileId: outcome.value.id, fileName: format.fileName };
}
