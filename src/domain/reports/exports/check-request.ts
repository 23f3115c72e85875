import { invalidField } from '../../errors.js';
import { fileDelimiter } from '../csv/delimiter.js';
import { FilterFormulaError } from '../filter-formula.js';
import type { ExportType, ReportOptions } from '../model.js';
import { compileExportFilter, INVENTORY_COLUMNS } from './export-filter.js';

/** What an export request is checked for at creation (a bad request is a 400, never a failed job). */
export function checkExportRequest(exportType: ExportType, options: ReportOptions): void {
  fileDelimiter(options.delimiter);
  const extension = options.extension?.replace(/^\./, '').toLowerCase() ?? null;
  if (extension !== null && !/^[a-z0-9]{1,10}$/.test(extension)) throw invalidField('extension', 'must be a file extension such as csv, txt or xlsx');
  if (options.exportForExcel === true && extension !== null && extension !== 'xlsx') {
    throw invalidField('extension', 'an exportForExcel export is an .xlsx workbook; leave extension out or send xlsx');
  }
  if (options.exportForExcel !== true && extension === 'xlsx') {
    throw invalidField('extension', 'xlsx needs exportForExcel true (the file is then an Excel workbook)');
  }
  if (options.headersOnly === true && options.includeHeader === false) {
    throw invalidField('headersOnly', 'asks for the header row alone, so it cannot be combined with includeHeader false');
  }
  checkExportFilter(exportType, options);
}

/** The formula is compiled here once so that a formula that cannot run is a 400, never a failed report. */
function checkExportFilter(exportType: ExportType, options: ReportOptions): void {
  let attributeIds: string[];
  try {
    attributeIds = compileExportFilter(exportType, options)?.attributeIds ?? [];
  } catch (error) {
    if (error instanceof FilterFormulaError) throw invalidField('filter', error.message);
    throw error;
  }
  if (exportType === 'Inventory' && attributeIds.length > 0) {
    // An inventory row has no attributes: attribute(…) would be blank on every row, never what was meant.
    const columns = INVENTORY_COLUMNS.map((c) => c.name).join(', ');
    throw invalidField('filter', `attribute(…) applies to Products exports; an Inventory export filters on its columns: ${columns}`);
  }
}
