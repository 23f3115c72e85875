import { Type, type Static } from '@sinclair/typebox';
import { EXPORT_TYPES, IMPORT_TYPES, REPORT_STATUSES } from '../../domain/reports/model.js';
import { MAX_FILTER_LENGTH } from '../../domain/reports/filter-formula.js';
import { NameText, Nullable, Timestamp, V1Pagination } from './common.js';

const Bool = (description: string) => Type.Optional(Type.Boolean({ description }));
const NullableBool = (description: string) => Nullable(Type.Boolean({ description }));

/** The settable fields of a report (document 2.9, 4.2) plus importType/exportType, templateId, integrationId (resolutions §8). */
const reportFields = {
  isExport: Bool('true for an export, false for an import; default: false when a file is sent, true otherwise'),
  label: Type.Optional(NameText({ description: 'your name for the report' })),
  extension: Type.Optional(Type.String({ maxLength: 16, description: 'exports: file extension (csv default; xlsx with exportForExcel)' })),
  overwriteWithBlank: Bool('imports: a blank cell clears the value (null equals false)'),
  createNewProducts: Bool('imports: create SKUs that do not exist (null equals false)'),
  insertOnly: Bool('imports: only fill blank data, never overwrite'),
  activeOnly: Bool('exports: active products only'),
  includeHeader: Bool('exports: write the header row (default true)'),
  exportForExcel: Bool('exports: an Excel .xlsx workbook instead of CSV'),
  filter: Type.Optional(Type.String({ maxLength: MAX_FILTER_LENGTH, description: 'exports: a filter formula (see the partner guide "Report filters")' })),
  delimiter: Type.Optional(Type.String({ maxLength: 8, description: 'field delimiter (default ","; \\t or "tab" for a tab); imports read with it too' })),
  headersOnly: Bool('exports: the header row only'),
  importType: Type.Optional(Type.Union(IMPORT_TYPES.map((t) => Type.Literal(t)), { description: 'imports: TemplatelessProduct (default), FullProductData, Inventory, Kits, Orders' })),
  exportType: Type.Optional(Type.Union(EXPORT_TYPES.map((t) => Type.Literal(t)), { description: 'exports: Products (default) or Inventory' })),
  templateId: Type.Optional(Type.Integer({ minimum: 1, description: 'FullProductData imports: the import template (column mapping) to read the file with' })),
  integrationId: Type.Optional(Type.Integer({ minimum: 1, description: 'Orders imports: the custom store the orders go to (default: the default store)' })),
};

export const ReportCreateBody = Type.Object(reportFields, {
  additionalProperties: false,
  examples: [{ isExport: true, exportType: 'Products', activeOnly: true, filter: 'brand = "Acme"' }],
});
export type ReportCreateBody = Static<typeof ReportCreateBody>;

/** The multipart form of an import: the same fields as form fields, plus the file. */
export const ReportCreateForm = Type.Object(
  { ...reportFields, file: Type.String({ format: 'binary', description: 'the CSV file to import (UTF-8)' }) },
  { additionalProperties: false, examples: [{ importType: 'Inventory', createNewProducts: false, file: 'sku,warehouse,quantity\nMUG-RED,Main,25\n' }] },
);

export const Report = Type.Object({
  reportId: Type.Integer(),
  label: Nullable(Type.String()),
  isExport: Type.Boolean(),
  requestedTs: Timestamp,
  completedTs: Nullable(Timestamp),
  columnTypes: Type.Array(Type.String(), { description: 'the column headers of the file' }),
  status: Type.Union(REPORT_STATUSES.map((s) => Type.Literal(s))),
  totalLines: Type.Integer({ description: 'data lines read so far (header excluded); exports: rows written' }),
  linesSuccessfullyProcessed: Type.Integer({ description: 'data lines applied (imports) or written (exports)' }),
  filePath: Nullable(Type.String({ description: 'URL of the file: an export\'s once COMPLETE, an import\'s uploaded file' })),
  errorMessage: Nullable(Type.String({ description: 'why the report was canceled or failed' })),
  overwriteWithBlank: NullableBool('imports'),
  createNewProducts: NullableBool('imports'),
  insertOnly: NullableBool('imports'),
  activeOnly: NullableBool('exports'),
  includeHeader: NullableBool('exports'),
  exportForExcel: NullableBool('exports'),
  filter: Nullable(Type.String()),
  delimiter: Nullable(Type.String()),
  headersOnly: NullableBool('exports'),
  uploader: Nullable(Type.String({ description: 'null when the report was created through the API' })),
  extension: Nullable(Type.String()),
  importType: Nullable(Type.Union(IMPORT_TYPES.map((t) => Type.Literal(t)))),
  exportType: Nullable(Type.Union(EXPORT_TYPES.map((t) => Type.Literal(t)))),
  templateId: Nullable(Type.Integer()),
  integrationId: Nullable(Type.Integer()),
  linesWithErrors: Type.Integer({ description: 'imports: data lines refused with a line error' }),
  expectedLines: Nullable(Type.Integer({ description: 'imports: data lines in the file, known once processing started' })),
  errorFilePath: Nullable(Type.String({ description: 'imports: URL of the line errors as CSV (line,column,message)' })),
  startedTs: Nullable(Timestamp),
  fileName: Nullable(Type.String()),
});

export const ReportList = Type.Object({ results: Type.Array(Report), pagination: V1Pagination });

export const ReportListQuery = Type.Object({
  createdTs: Type.Optional(Type.String({ description: 'only reports created after this instant (RFC 3339 with a zone)' })),
  pageLength: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: '1..100, default 25' })),
  nextToken: Type.Optional(Type.String({ description: 'the nextToken URL of the previous page; overrides every other parameter' })),
});
export type ReportListQuery = Static<typeof ReportListQuery>;

export const ReportIdParams = Type.Object({ reportId: Type.Integer({ minimum: 1 }) });
