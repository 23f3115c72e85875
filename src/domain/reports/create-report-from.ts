import type { ReportPorts } from './ports.js';
import { withTx } from '../../db/tx.js';
import type { StoredFile } from '../../db/file-store/index.js';
import { createReport } from './create-report.js';
import type { ExportType, ImportType, ReportOptions, ReportRow } from './model.js';

/**
 * The fields a report is requested with (document 2.9, resolutions §8), as POST /v1/report's schema and the
 * console's report forms have already checked them; every one optional.
 */
export interface ReportRequest {
  isExport?: boolean;
  label?: string;
  extension?: string;
  overwriteWithBlank?: boolean;
  createNewProducts?: boolean;
  insertOnly?: boolean;
  activeOnly?: boolean;
  includeHeader?: boolean;
  exportForExcel?: boolean;
  filter?: string;
  delimiter?: string;
  headersOnly?: boolean;
  importType?: ImportType;
  exportType?: ExportType;
  templateId?: number;
  integrationId?: number;
}

/**
 * A report from the requested fields and the held upload, in one transaction: POST /v1/report and the
 * console's report forms (with `uploader`, the signed-in user) both create theirs here.
 */
export async function createReportFrom(
  deps: Pick<ReportPorts, 'db' | 'clock'>,
  accountId: number,
  request: ReportRequest,
  file: StoredFile | null,
  uploader: string | null = null,
): Promise<ReportRow> {
  const options: ReportOptions = {
    extension: request.extension ?? null,
    overwriteWithBlank: request.overwriteWithBlank ?? null,
    createNewProducts: request.createNewProducts ?? null,
    insertOnly: request.insertOnly ?? null,
    activeOnly: request.activeOnly ?? null,
    includeHeader: request.includeHeader ?? null,
    exportForExcel: request.exportForExcel ?? null,
    filter: request.filter ?? null,
    delimiter: request.delimiter ?? null,
    headersOnly: request.headersOnly ?? null,
  };
  return withTx(deps.db.db, (tx) =>
    createReport(
      tx,
      accountId,
      {
        isExport: request.isExport,
        label: request.label,
        options,
        importType: request.importType,
        exportType: request.exportType,
        templateId: request.templateId,
        integrationId: request.integrationId,
        file: file ? { fileId: file.id, name: file.name } : undefined,
        uploader,
      },
      deps.clock.now(),
    ),
  );
}
