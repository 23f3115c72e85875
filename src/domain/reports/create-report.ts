import type { Db, Tx } from '../../db/tx.js';
import { enqueueJob } from '../../db/outbox.js';
import { invalidField, notFound } from '../errors.js';
import { checkExportRequest } from './exports/check-request.js';
import { fileDelimiter } from './csv/delimiter.js';
import { checkImportOptions } from './imports/options.js';
import { resolveImportTarget, TAKES_INTEGRATION, TAKES_TEMPLATE } from './imports/import-target.js';
import {
  RUN_REPORT_JOB,
  type ExportType,
  type ImportType,
  type ReportOptions,
  type ReportRow,
  type RunReportPayload,
} from './model.js';
import { REPORT_INITIAL_STATUS } from './report-status.js';

export interface CreateReportInput {
  /** Default: false when a file is given, true otherwise. */
  isExport?: boolean | undefined;
  label?: string | undefined;
  options: ReportOptions;
  importType?: ImportType | undefined;
  exportType?: ExportType | undefined;
  templateId?: number | undefined;
  integrationId?: number | undefined;
  /** The uploaded file of an import, already in the file store. */
  file?: { fileId: number; name: string } | undefined;
  uploader?: string | null;
}

/**
 * Records a report and queues its job in one transaction (document 4.2, resolutions §3/§8). Everything
 * that can be checked before any line is read is checked here, so a bad request is a 400 at creation and
 * never a report that fails later: the combination of fields, the export filter formula, the template
 * of a FullProductData import and the custom store of an Orders import.
 */
export async function createReport(tx: Tx, accountId: number, input: CreateReportInput, now: Date): Promise<ReportRow> {
  const isExport = input.isExport ?? input.file === undefined;
  const options = input.options;
  if (isExport && input.file) throw invalidField('file', 'an export takes no file: to import it, send isExport false (or leave isExport out)');
  if (!isExport && !input.file) {
    throw invalidField('file', 'an import needs the file: send multipart/form-data with the CSV in a part named "file"');
  }
  if (isExport && input.importType !== undefined) throw invalidField('importType', 'applies to imports only; an export takes exportType');
  if (!isExport && input.exportType !== undefined) throw invalidField('exportType', 'applies to exports only; an import takes importType');
  checkImportOptions(options);

  let reportType: string;
  let target: { integrationId: number | null; templateId: number | null } = { integrationId: null, templateId: null };
  if (isExport) {
    const exportType = input.exportType ?? 'Products';
    checkExportRequest(exportType, options);
    reportType = exportType;
  } else {
    const importType = input.importType ?? 'TemplatelessProduct';
    reportType = importType;
    fileDelimiter(options.delimiter);
    if (TAKES_TEMPLATE.includes(importType) && input.templateId === undefined) {
      throw invalidField('templateId', `is required for a ${importType} import: the saved column mapping to read the file with`);
    }
    if (!TAKES_TEMPLATE.includes(importType) && input.templateId !== undefined) {
      throw invalidField('templateId', `applies to ${TAKES_TEMPLATE.join(', ')} imports only, not ${importType}`);
    }
    if (!TAKES_INTEGRATION.includes(importType) && input.integrationId !== undefined) {
      throw invalidField('integrationId', `applies to ${TAKES_INTEGRATION.join(', ')} imports only (the custom store the orders go to), not ${importType}`);
    }
    target = await resolveImportTarget(tx, accountId, importType, { integrationId: input.integrationId ?? null, templateId: input.templateId ?? null });
  }

  const iso = now.toISOString();
  const row = await tx
    .insertInto('reports')
    .values({
      account_id: accountId,
      label: input.label ?? null,
      is_export: isExport ? 1 : 0,
      report_type: reportType,
      status: REPORT_INITIAL_STATUS,
      options: JSON.stringify(options),
      template_id: target.templateId,
      integration_id: target.integrationId,
      uploader: input.uploader ?? null,
      column_types: null,
      total_lines: 0,
      lines_processed: 0,
      error_lines: 0,
      lines_done: 0,
      cancel_requested: 0,
      source_file_id: input.file?.fileId ?? null,
      result_file_id: null,
      file_name: input.file?.name ?? null,
      requested_at: iso,
      updated_at: iso,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const payload: RunReportPayload = { reportId: row.id };
  // Few attempts: a report that fails for a reason other than the database will fail again.
  await enqueueJob(tx, { type: RUN_REPORT_JOB, payload, accountId, maxAttempts: 5 }, now);
  return row;
}

/** One report of the account, or null. */
export async function findReport(db: Db, accountId: number, reportId: number): Promise<ReportRow | null> {
  if (!Number.isSafeInteger(reportId)) return null;
  const row = await db.selectFrom('reports').selectAll().where('account_id', '=', accountId).where('id', '=', reportId).executeTakeFirst();
  return row ?? null;
}

export async function getReport(db: Db, accountId: number, reportId: number): Promise<ReportRow> {
  const row = await findReport(db, accountId, reportId);
  if (!row) throw notFound(`report ${reportId} not found`);
  return row;
}
