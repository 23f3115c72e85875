import { normalizeFieldName } from '../../catalog/product-fields.js';
import type { CsvRecord } from '../csv/read-records.js';
import type { LineError } from './types.js';

const OTHER_DELIMITERS: Record<string, string> = { ';': 'a semicolon (;)', '\t': 'a tab', '|': 'a vertical bar (|)', ',': 'a comma (,)' };

/**
 * Problems of a header that make the whole file unreadable: a delimiter other than the one expected
 * (the header then reads as one column holding the others), an empty column name, the same name twice.
 */
export function checkHeader(header: string[], delimiter: string): string | null {
  if (header.length === 1) {
    const found = Object.keys(OTHER_DELIMITERS).find((d) => d !== delimiter && header[0]!.includes(d));
    if (found) {
      const hint = found === '\t' ? '\\t' : found;
      return `the header reads as one column "${header[0]!.slice(0, 80)}": the file seems to be separated by ${OTHER_DELIMITERS[found]}, not ${OTHER_DELIMITERS[delimiter] ?? `"${delimiter}"`}; send delimiter "${hint}" with the report, or save the file comma-separated`;
    }
  }
  const empty = header.findIndex((h) => h.trim() === '');
  if (empty !== -1) return `column ${empty + 1} of the header is empty; every column needs a name`;
  const seen = new Map<string, string>();
  for (const h of header) {
    const key = normalizeFieldName(h);
    const earlier = seen.get(key);
    if (earlier !== undefined) return `the header names the same column twice ("${earlier}" and "${h}"; names compare case-insensitively with spaces and _ equal)`;
    seen.set(key, h);
  }
  return null;
}

/**
 * A row with fewer fields than the header is refused (a value would land in the wrong column); extra
 * fields are accepted only when empty (spreadsheets add trailing delimiters).
 */
export function checkRaggedRow(record: CsvRecord, headerLength: number): LineError | null {
  const { cells, line } = record;
  if (cells.length === headerLength) return null;
  if (cells.length > headerLength && cells.slice(headerLength).every((c) => c.trim() === '')) return null;
  return {
    line,
    column: '',
    message: `the line has ${cells.length} field${cells.length === 1 ? '' : 's'} but the header has ${headerLength}; check this line's delimiters and quotes`,
  };
}
