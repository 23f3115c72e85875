/**
 * The exceljs writer the .xlsx export used before bench/xlsx-writer.ts measured it (issue 25), kept as that
 * benchmark's baseline: the same RowSink over exceljs 4.4's streaming WorkbookWriter. Not used by the service.
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { BytePipe } from '../src/domain/reports/exports/byte-pipe.js';
import type { Cell, RowSink } from '../src/domain/reports/exports/export-format.js';

/** Excel's limits: rows per sheet, characters per cell. */
const XLSX_MAX_ROWS = 1_048_576;
const XLSX_MAX_CELL_CHARS = 32_767;

interface XlsxSinkOptions {
  sheetName: string;
  /** The header row, repeated at the top of every sheet; null when the export has no header. */
  header: readonly string[] | null;
  /** Rows per sheet before the next sheet starts (Excel's limit; tests lower it). */
  maxRowsPerSheet?: number;
}

function xlsxValue(cell: Cell): ExcelJS.CellValue {
  // A string is always a string cell: exceljs makes a formula only from {formula}, so "=SUM(A1)" or
  // "+1" stays the text it is. Longer text than a cell holds would make Excel refuse the workbook.
  if (typeof cell === 'string' && cell.length > XLSX_MAX_CELL_CHARS) {
    // Never cut between the two halves of a surrogate pair (a lone half is not valid XML text).
    const end = /[\uD800-\uDBFF]/.test(cell.charAt(XLSX_MAX_CELL_CHARS - 1)) ? XLSX_MAX_CELL_CHARS - 1 : XLSX_MAX_CELL_CHARS;
    return cell.slice(0, end);
  }
  return cell;
}

/** The writable side of the stream archiver reads a sheet's XML from (a readable-stream 2 PassThrough). */
interface ZipInput {
  _writableState?: { needDrain?: unknown };
  once(event: 'drain', listener: () => void): unknown;
  removeListener(event: 'drain', listener: () => void): unknown;
}

function isZipInput(value: unknown): value is ZipInput {
  const candidate = value as Partial<ZipInput> | null;
  return typeof candidate?.once === 'function' && typeof candidate.removeListener === 'function' && typeof candidate._writableState === 'object';
}

/**
 * Waits until the zip has taken in the rows written so far. exceljs 4.4 writes a sheet's XML into a StreamBuf
 * that ignores backpressure, and archiver compresses it only as zlib callbacks come back; with a row source
 * that never yields to the event loop (better-sqlite3 answers synchronously) the whole sheet piles up in
 * memory before any of it is compressed (measured with 100,000 products: memory grew to 95 MB; with this
 * wait it stays at 33 MB, close to the CSV export's 25 MB). StreamBuf pipes into a PassThrough that
 * archiver reads (`pipes`), whose writable side reports needDrain while the zip lags behind. These are
 * internals, so they are looked up defensively: when they are not found, one turn of the event loop is all
 * this waits (the test of the sink's streaming then fails). The file store stopping ends the wait too.
 */
async function zipCaughtUp(sheet: ExcelJS.Worksheet, pipe: BytePipe): Promise<void> {
  if (pipe.stream.destroyed) return;
  const input = (sheet as unknown as { stream?: { pipes?: unknown[] } }).stream?.pipes?.[0];
  if (!isZipInput(input) || input._writableState?.needDrain !== true) {
    await new Promise((resolve) => setImmediate(resolve));
    return;
  }
  await new Promise<void>((resolve) => {
    const done = () => {
      input.removeListener('drain', done);
      pipe.stream.off('close', done);
      resolve();
    };
    input.once('drain', done);
    pipe.stream.once('close', done);
  });
}

/**
 * An .xlsx workbook written with exceljs's streaming writer: each row is committed as it comes, the zip is
 * built as the store reads it, and strings are inline (no shared-string table held in memory). A sheet holds
 * at most Excel's 1,048,576 rows; a larger export continues on "<name> 2", "<name> 3", … with the header again.
 */
export function openExceljsXlsxSink(options: XlsxSinkOptions): RowSink {
  const pipe = new BytePipe();
  const maxRows = options.maxRowsPerSheet ?? XLSX_MAX_ROWS;
  // The zip goes to the file store through a pump of our own rather than straight into the pipe, so that
  // an export stopped half-way can end the pipe cleanly (close) while archiver still holds unwritten parts.
  const zipOut = new PassThrough();
  zipOut.on('error', () => undefined);
  let closing = false;
  const pumped = (async () => {
    try {
      for await (const chunk of zipOut) await pipe.write(chunk as Buffer);
    } catch (error) {
      if (!closing) throw error;
    }
  })();
  // Observed by finish() and close(); a store that stopped reading reaches the writer through the pipe.
  pumped.catch(() => undefined);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: zipOut, useStyles: false, useSharedStrings: false });
  let sheets = 0;
  let sheet: ExcelJS.Worksheet | null = null;
  let rowsInSheet = 0;

  function startSheet(): ExcelJS.Worksheet {
    sheets++;
    const next = workbook.addWorksheet(sheets === 1 ? options.sheetName : `${options.sheetName} ${sheets}`);
    rowsInSheet = 0;
    if (options.header) {
      next.addRow(options.header.map(xlsxValue)).commit();
      rowsInSheet++;
    }
    return next;
  }

  return {
    bytes: pipe.stream,
    async writeRows(rows) {
      for (const row of rows) {
        if (sheet === null) sheet = startSheet();
        else if (rowsInSheet >= maxRows) {
          sheet.commit();
          sheet = startSheet();
        }
        sheet.addRow(row.map(xlsxValue)).commit();
        rowsInSheet++;
      }
      if (sheet) await zipCaughtUp(sheet, pipe);
      await pipe.caughtUp();
    },
    async finish() {
      // A workbook needs a sheet even when the export has no rows and no header.
      if (sheet === null) sheet = startSheet();
      sheet.commit();
      await workbook.commit();
      await pumped;
      pipe.end();
    },
    async close() {
      closing = true;
      zipOut.destroy();
      await pumped.catch(() => undefined);
      pipe.end();
    },
    abort(reason) {
      closing = true;
      zipOut.destroy();
      pipe.abort(reason);
    },
  };
}
