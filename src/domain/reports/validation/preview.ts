import { CsvFileError, readCsvRecords } from '../csv/read-records.js';
import { PREVIEW_CELL_CHARS, PREVIEW_ROWS } from './model.js';

export interface Preview {
  /** The header as the file has it; null when the file has no record at all. */
  header: string[] | null;
  /** Up to PREVIEW_ROWS data rows, cells as read (each cut at PREVIEW_CELL_CHARS). */
  rows: string[][];
  /** Why reading stopped early: the file is not CSV within the first lines. */
  error: CsvFileError | null;
}

const cut = (cell: string) => (cell.length <= PREVIEW_CELL_CHARS ? cell : `${cell.slice(0, PREVIEW_CELL_CHARS)}…`);

/**
 * Reads the header and the first PREVIEW_ROWS data rows of a stored file and stops there, whatever the
 * file's size (the reader is closed as soon as they are in).
 */
export async function readPreview(source: AsyncIterable<Uint8Array>, delimiter: string): Promise<Preview> {
  let header: string[] | null = null;
  const rows: string[][] = [];
  try {
    for await (const record of readCsvRecords(source, delimiter)) {
      if (header === null) header = record.cells;
      else rows.push(record.cells.map(cut));
      if (rows.length >= PREVIEW_ROWS) break;
    }
  } catch (error) {
    if (error instanceof CsvFileError) return { header, rows, error };
    throw error;
  }
  return { header, rows, error: null };
}
