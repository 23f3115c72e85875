import { ZipWriter } from '../../../lib/zip-writer.js';
import { BytePipe, PipeClosedError } from './byte-pipe.js';
import type { RowSink } from './export-format.js';
import {
  columnName,
  contentTypesXml,
  ROOT_RELS_XML,
  rowXml,
  SHEET_END,
  SHEET_START,
  sheetPath,
  STYLES_XML,
  workbookRelsXml,
  workbookXml,
} from './xlsx-parts.js';

export { XLSX_MAX_CELL_CHARS } from './xlsx-parts.js';

/** Excel's limit of rows per sheet. */
export const XLSX_MAX_ROWS = 1_048_576;
/**
 * A sheet's XML must stay under 4 GiB (the zip writer has no zip64); a sheet whose rows are very long (a
 * million products with long descriptions) continues on the next sheet before that, like a full one.
 */
const MAX_SHEET_BYTES = 3.5 * 2 ** 30;

export interface XlsxSinkOptions {
  sheetName: string;
  /** The header row, repeated at the top of every sheet; null when the export has no header. */
  header: readonly string[] | null;
  /** Rows per sheet before the next sheet starts (Excel's limit; tests lower it). */
  maxRowsPerSheet?: number;
  /** Bytes of sheet XML before the next sheet starts (under the zip's 4 GiB; tests lower it). */
  maxSheetBytes?: number;
}

/**
 * An .xlsx workbook written as it goes: each page of rows becomes worksheet XML, deflated into the zip (by
 * zlib, off the event loop) and handed to the file store before the next page is taken, so memory holds a
 * page and zlib's buffers whatever the size of the export. Strings are inline (no shared-string table).
 * A sheet holds at most Excel's 1,048,576 rows (and 3.5 GiB of XML); a larger export continues on "<name> 2",
 * "<name> 3", … with the header again. The sheet parts come first and the workbook parts (which list the
 * sheets) last: a zip's central directory, not the order of its parts, is what readers go by. Measured against
 * exceljs's streaming writer, which this replaces (bench/xlsx-writer.ts, bench/RESULTS.md).
 */
export function openXlsxSink(options: XlsxSinkOptions): RowSink {
  const pipe = new BytePipe();
  const zip = new ZipWriter((bytes) => pipe.write(bytes));
  const maxRows = options.maxRowsPerSheet ?? XLSX_MAX_ROWS;
  const maxBytes = options.maxSheetBytes ?? MAX_SHEET_BYTES;
  const sheetNames: string[] = [];
  let rowsInSheet = 0;
  // Column references ("A", "B", …) are worked out once, not per cell.
  const columns: string[] = [];
  const refs = (count: number) => {
    while (columns.length < count) columns.push(columnName(columns.length));
    return columns;
  };

  async function startSheet(): Promise<void> {
    if (sheetNames.length > 0) await zip.write(SHEET_END);
    sheetNames.push(sheetNames.length === 0 ? options.sheetName : `${options.sheetName} ${sheetNames.length + 1}`);
    await zip.startEntry(sheetPath(sheetNames.length));
    rowsInSheet = 0;
    let xml = SHEET_START;
    if (options.header) xml += rowXml(++rowsInSheet, options.header, refs(options.header.length));
    await zip.write(xml);
  }

  /** A write stopped by abort() (the store stopped reading) fails as the pipe's, whatever zlib said. */
  async function guarded(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      throw pipe.stream.destroyed ? new PipeClosedError() : error;
    }
  }

  async function write(rows: Parameters<RowSink['writeRows']>[0]): Promise<void> {
    let xml = '';
    for (const row of rows) {
      // xml.length counts UTF-16 units, each at most 3 bytes of UTF-8: a bound, without encoding the text twice.
      if (sheetNames.length === 0 || rowsInSheet >= maxRows || zip.entryBytes + 3 * xml.length >= maxBytes) {
        if (xml) await zip.write(xml);
        xml = '';
        await startSheet();
      }
      xml += rowXml(++rowsInSheet, row, refs(row.length));
    }
    if (xml) await zip.write(xml);
    await pipe.caughtUp();
  }

  async function finish(): Promise<void> {
    // A workbook needs a sheet even when the export has no rows and no header.
    if (sheetNames.length === 0) await startSheet();
    await zip.write(SHEET_END);
    const parts: [string, string][] = [
      ['xl/workbook.xml', workbookXml(sheetNames)],
      ['xl/_rels/workbook.xml.rels', workbookRelsXml(sheetNames.length)],
      ['xl/styles.xml', STYLES_XML],
      ['_rels/.rels', ROOT_RELS_XML],
      ['[Content_Types].xml', contentTypesXml(sheetNames.length)],
    ];
    for (const [name, xml] of parts) {
      await zip.startEntry(name);
      await zip.write(xml);
    }
    await zip.finish();
    pipe.end();
  }

  return {
    bytes: pipe.stream,
    writeRows: (rows) => guarded(() => write(rows)),
    finish: () => guarded(finish),
    async close() {
      zip.destroy();
      pipe.end();
    },
    abort(reason) {
      zip.destroy();
      pipe.abort(reason);
    },
  };
}
