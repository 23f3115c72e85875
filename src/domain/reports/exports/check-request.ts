import { invalidField } from '../../errors.js';
import type { ExportType, ReportOptions } from '../model.js';

/** Delimiters an export may use: one character that cannot be part of a value's quoting. */
export function exportDelimiter(options: Pick<ReportOptions, 'delimiter'>): string {
  const d = options.delimiter;
  if (d === null || d === '') return ',';
  if (d === '\\t' || d.toLowerCase() === 'tab') return '\t';
  return d;
}

/** What an export request is checked for at creation (a bad request is a 400, never a failed job). */
export function checkExportRequest(exportType: ExportType, options: ReportOptions): void {
  void exportType;
  const delimiter = exportDelimiter(options);
  if ([...delimiter].length !== 1 || /["\r\n]/.test(delimiter)) {
    throw invalidField('delimiter', 'must be one character other than a quote or a line break (\\t or "tab" for a tab)');
  }
  const extension = options.extension?.replace(/^\./, '').toLowerCase() ?? null;
  if (extension !== null && !/^[a-z0-9]{1,10}$/.test(extension)) throw invalidField('extension', 'must be a file extension such as csv, txt or xlsx');
  if (options.exportForExcel === true && extension !== null && extension !== 'xlsx') {
    throw invalidField('extension', 'an exportForExcel export is an .xlsx workbook; leave extension out or send xlsx');
  }
  if (options.exportForExcel !== true && extension === 'xlsx') {
    throw invalidField('extension', 'xlsx needs exportForExcel true (the file is then an Excel workbook)');
  }
}
