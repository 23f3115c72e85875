import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import type { Db } from '../../../db/tx.js';
import { failedPrecondition, notFound } from '../../../domain/errors.js';
import { getReport } from '../../../domain/reports/create-report.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { ReportIdParams } from '../../schemas/reports.js';
import { REPORT_ROUTE_CONFIG, REPORT_TAGS } from './route-config.js';

const FileBody = Type.String({ format: 'binary', description: 'the file' });

/** `attachment` with an ASCII fallback name and the exact name in RFC 5987 form. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** GET /v1/report/{reportId}/file and /errors: streamed, never built in memory. */
export function registerReportDownloads(app: App, deps: Deps) {
  app.get(
    '/v1/report/:reportId/file',
    {
      config: REPORT_ROUTE_CONFIG,
      schema: {
        tags: REPORT_TAGS,
        summary: "Download a report's file",
        description:
          'An export\'s file once the report is COMPLETE (text/csv, or an .xlsx workbook for exportForExcel); an import\'s ' +
          'uploaded file. Before an export is COMPLETE: 400. After the retention period (REPORT_RETENTION_DAYS) the file is ' +
          'gone: 404.',
        params: ReportIdParams,
        response: v1Responses(
          {
            200: {
              description: 'the file',
              content: {
                'text/csv': { schema: FileBody },
                'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: FileBody },
              },
            } as never,
          },
          [400, 401, 403, 404, 429],
        ),
      },
    },
    async (request, reply) => sendReportFile(deps, reply, principalOf(request).accountId, request.params.reportId),
  );

  app.get(
    '/v1/report/:reportId/errors',
    {
      config: REPORT_ROUTE_CONFIG,
      schema: {
        tags: REPORT_TAGS,
        summary: "Download an import's line errors",
        description:
          'CSV `line,column,message` (resolutions §8), one row per problem, in line order: `line` is the file line the ' +
          'record starts on (the header is line 1; line-1 rows are notes on the header, such as an ignored column), ' +
          '`column` the header of the cell ("" for the whole line). Readable while the import runs (the errors so far). ' +
          'An export has none: the header row only.',
        params: ReportIdParams,
        response: v1Responses(
          { 200: { description: 'the errors as CSV', content: { 'text/csv': { schema: Type.String() } } } as never },
          [400, 401, 403, 404, 429],
        ),
      },
    },
    async (request, reply) => sendReportErrors(deps, reply, principalOf(request).accountId, request.params.reportId),
  );
}

/**
 * A report's file as a download (also the console's): an export's once COMPLETE (400 before), an import's
 * upload; a file past retention is a 404, as is another account's report.
 */
export async function sendReportFile(deps: Deps, reply: FastifyReply, accountId: number, reportId: number): Promise<FastifyReply> {
  const report = await getReport(deps.db.db, accountId, reportId);
  const fileId = report.is_export === 1 ? report.result_file_id : report.source_file_id;
  if (report.is_export === 1 && report.status !== 'COMPLETE') {
    throw failedPrecondition(`report ${report.id} is ${report.status}; an export's file can be downloaded once it is COMPLETE`);
  }
  const info = fileId === null ? null : await deps.files.info(accountId, fileId);
  const stream = info ? await deps.files.read(accountId, info.id) : null;
  if (!info || !stream) throw notFound(`the file of report ${report.id} is no longer stored`);
  return reply
    .type(info.contentType)
    .header('Content-Length', String(info.byteSize))
    .header('Content-Disposition', contentDisposition(report.file_name ?? info.name))
    .send(stream);
}

/** An import's line errors as CSV `line,column,message`, streamed (also the console's download). */
export async function sendReportErrors(deps: Deps, reply: FastifyReply, accountId: number, reportId: number): Promise<FastifyReply> {
  const report = await getReport(deps.db.db, accountId, reportId);
  const csv = stringify({ header: true, columns: ['line', 'column', 'message'] });
  Readable.from(lineErrorRows(deps.db.db, accountId, report.id)).pipe(csv);
  return reply
    .type('text/csv; charset=utf-8')
    .header('Content-Disposition', contentDisposition(`report-${report.id}-errors.csv`))
    .send(csv);
}

/** The report's line errors in pages (keyset on line, id), as CSV records. */
async function* lineErrorRows(db: Db, accountId: number, reportId: number): AsyncGenerator<[number, string, string]> {
  let after: { line: number; id: number } | null = null;
  for (;;) {
    let query = db
      .selectFrom('report_line_errors')
      .select(['id', 'line', 'column_name', 'message'])
      .where('report_id', '=', reportId)
      .where('account_id', '=', accountId);
    if (after) {
      const { line, id } = after;
      query = query.where((eb) => eb.or([eb('line', '>', line), eb.and([eb('line', '=', line), eb('id', '>', id)])]));
    }
    const rows = await query.orderBy('line').orderBy('id').limit(1000).execute();
    for (const r of rows) yield [r.line, r.column_name, r.message];
    if (rows.length < 1000) return;
    const last = rows[rows.length - 1]!;
    after = { line: last.line, id: last.id };
  }
}
