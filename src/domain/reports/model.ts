import type { Selectable } from 'kysely';
import type { ReportsTable } from '../../db/schema.js';

/** Report states (document 3.4, resolutions §6). */
export const REPORT_STATUSES = ['PENDING', 'PROCESSING', 'CANCELED', 'COMPLETE'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** Import types (resolutions §8); TemplatelessProduct is the default. */
export const IMPORT_TYPES = ['TemplatelessProduct', 'FullProductData', 'Inventory', 'Kits', 'Orders'] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

/** Export types (resolutions §8); Products is the default. */
export const EXPORT_TYPES = ['Products', 'Inventory'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

/** The settable fields of a report (document 2.9, 4.2), as stored in reports.options. */
export interface ReportOptions {
  extension: string | null;
  overwriteWithBlank: boolean | null;
  createNewProducts: boolean | null;
  insertOnly: boolean | null;
  activeOnly: boolean | null;
  includeHeader: boolean | null;
  exportForExcel: boolean | null;
  filter: string | null;
  delimiter: string | null;
  headersOnly: boolean | null;
}

export const EMPTY_OPTIONS: ReportOptions = {
  extension: null,
  overwriteWithBlank: null,
  createNewProducts: null,
  insertOnly: null,
  activeOnly: null,
  includeHeader: null,
  exportForExcel: null,
  filter: null,
  delimiter: null,
  headersOnly: null,
};

export type ReportRow = Selectable<ReportsTable>;

export function reportOptions(row: Pick<ReportRow, 'options'>): ReportOptions {
  return { ...EMPTY_OPTIONS, ...(JSON.parse(row.options) as Partial<ReportOptions>) };
}

/** The report record (document 2.9) plus the documented additions. */
export interface ReportRecord {
  reportId: number;
  label: string | null;
  isExport: boolean;
  requestedTs: string;
  completedTs: string | null;
  columnTypes: string[];
  status: ReportStatus;
  totalLines: number;
  linesSuccessfullyProcessed: number;
  filePath: string | null;
  errorMessage: string | null;
  overwriteWithBlank: boolean | null;
  createNewProducts: boolean | null;
  insertOnly: boolean | null;
  activeOnly: boolean | null;
  includeHeader: boolean | null;
  exportForExcel: boolean | null;
  filter: string | null;
  delimiter: string | null;
  headersOnly: boolean | null;
  uploader: string | null;
  // Additions (resolutions §8 and the partner guide):
  extension: string | null;
  importType: ImportType | null;
  exportType: ExportType | null;
  templateId: number | null;
  integrationId: number | null;
  /** Data lines refused with at least one line error. */
  linesWithErrors: number;
  /** Data lines in an import's file, known once processing has read it through (progress: totalLines of expectedLines). */
  expectedLines: number | null;
  /** Where the per-line errors of an import are served as CSV (null for exports). */
  errorFilePath: string | null;
  startedTs: string | null;
  fileName: string | null;
}

/** Builds the record; `baseUrl` makes filePath and errorFilePath absolute URLs on this service. */
export function toReportRecord(row: ReportRow, baseUrl: string): ReportRecord {
  const options = reportOptions(row);
  const isExport = row.is_export === 1;
  const self = `${baseUrl}/v1/report/${row.id}`;
  const downloadable = isExport ? row.status === 'COMPLETE' && row.result_file_id !== null : row.source_file_id !== null;
  return {
    reportId: row.id,
    label: row.label,
    isExport,
    requestedTs: row.requested_at,
    completedTs: row.completed_at,
    columnTypes: row.column_types ? (JSON.parse(row.column_types) as string[]) : [],
    status: row.status as ReportStatus,
    totalLines: row.total_lines,
    linesSuccessfullyProcessed: row.lines_processed,
    filePath: downloadable ? `${self}/file` : null,
    errorMessage: row.error_message,
    overwriteWithBlank: options.overwriteWithBlank,
    createNewProducts: options.createNewProducts,
    insertOnly: options.insertOnly,
    activeOnly: options.activeOnly,
    includeHeader: options.includeHeader,
    exportForExcel: options.exportForExcel,
    filter: options.filter,
    delimiter: options.delimiter,
    headersOnly: options.headersOnly,
    uploader: row.uploader,
    extension: options.extension,
    importType: isExport ? null : (row.report_type as ImportType),
    exportType: isExport ? (row.report_type as ExportType) : null,
    templateId: row.template_id,
    integrationId: row.integration_id,
    linesWithErrors: row.error_lines,
    expectedLines: row.expected_lines,
    errorFilePath: isExport ? null : `${self}/errors`,
    startedTs: row.started_at,
    fileName: row.file_name,
  };
}

/** The job that runs a report (src/jobs/handlers/run-report.ts). */
export const RUN_REPORT_JOB = 'report.run';
export interface RunReportPayload {
  reportId: number;
}
