import { stringify } from 'csv-stringify/sync';
import { BytePipe } from './byte-pipe.js';
import type { Cell, RowSink } from './export-format.js';

function csvText(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  return String(cell);
}

/**
 * A delimited text file (RFC 4180 quoting, CRLF line ends, UTF-8 without a byte order mark).
 * Values are written exactly as stored, including those starting with = + - @: a CSV file is data, and
 * changing a SKU such as "-1001" to make spreadsheets safe would break the file's re-import. Sellers who open
 * exports in a spreadsheet ask for exportForExcel, where such values are text cells (docs/partners/reports-exports.md).
 */
export function openCsvSink(delimiter: string, header: readonly string[] | null): RowSink {
  const pipe = new BytePipe();
  let pendingHeader = header;
  async function write(rows: readonly (readonly Cell[])[]): Promise<void> {
    const lines = pendingHeader ? [pendingHeader, ...rows] : rows;
    pendingHeader = null;
    if (lines.length === 0) return;
    // One page at a time: the sync stringifier holds the page's text only, never the file's.
    const text = stringify(
      lines.map((row) => row.map(csvText)),
      { delimiter, record_delimiter: 'windows' },
    );
    await pipe.write(Buffer.from(text, 'utf8'));
  }
  return {
    bytes: pipe.stream,
    writeRows: write,
    async finish() {
      await write([]);
      pipe.end();
    },
    async close() {
      pipe.end();
    },
    abort(reason) {
      pipe.abort(reason);
    },
  };
}
