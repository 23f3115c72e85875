import type { ReportOptions } from '../model.js';
import { fileDelimiter } from '../csv/delimiter.js';

/** One cell of an export: text, a number (quantities, ids), a boolean (TRUE/FALSE), or blank. */
export type Cell = string | number | boolean | null;

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface ExportFormat {
  kind: 'csv' | 'xlsx';
  /** `report-<id>.<extension>` */
  fileName: string;
  contentType: string;
  /** The CSV field delimiter (unused for xlsx). */
  delimiter: string;
}

/** How the export of this report is written: a delimited text file, or an .xlsx workbook for exportForExcel. */
export function exportFormat(reportId: number, options: ReportOptions): ExportFormat {
  const excel = options.exportForExcel === true;
  const extension = options.extension?.replace(/^\./, '').toLowerCase() || (excel ? 'xlsx' : 'csv');
  return {
    kind: excel ? 'xlsx' : 'csv',
    fileName: `report-${reportId}.${extension}`,
    contentType: excel ? XLSX_CONTENT_TYPE : CSV_CONTENT_TYPE,
    delimiter: fileDelimiter(options.delimiter),
  };
}

/**
 * Rows in, file bytes out (`bytes`, read by the file store while rows are written). The header given when a
 * sink is opened comes first, with the first rows or, when there are none, on finish.
 */
export interface RowSink {
  readonly bytes: AsyncIterable<Uint8Array>;
  /** Writes the rows, then waits until the file store has caught up. */
  writeRows(rows: readonly (readonly Cell[])[]): Promise<void>;
  /** Completes the file; the store's write then resolves. */
  finish(): Promise<void>;
  /**
   * Ends the bytes where they are, without completing the file (no closing rows, no workbook parts): the
   * store's write then resolves with a truncated file, which the export deletes. Used to stop an export.
   */
  close(): Promise<void>;
  /** Fails the bytes: for when the store already stopped reading, so that a waiting writer wakes up. */
  abort(reason: Error): void;
}

/** The rows of an export: its columns, then pages of data rows in file order (one page per database page). */
export interface ExportSource {
  /** The sheet name of an .xlsx file. */
  sheetName: string;
  columns: string[];
  /** A page may be empty when the filter kept none of its rows; the export still polls stillWanted after it. */
  pages(): AsyncIterable<Cell[][]>;
}

/**
 * Rows read per database page, and written between two turns of the event loop: on SQLite a page (its
 * queries, its cells, its text) runs on the loop in one go, about 10 ms for 200 products of a few columns
 * each; more rows per page would save little (the page queries are keyset seeks) and hold the API longer.
 */
export const EXPORT_PAGE_SIZE = 200;
/** On PostgreSQL a page's queries leave the event loop free: pages as large as before issue 22. */
export const EXPORT_PAGE_SIZE_POSTGRES = 1000;
