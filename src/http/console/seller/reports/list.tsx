import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { invalidArgument, invalidField } from '../../../../domain/errors.js';
import { createReportFrom } from '../../../../domain/reports/create-report-from.js';
import { listReports, type ReportKeyset } from '../../../../domain/reports/list-reports.js';
import { toReportRecord } from '../../../../domain/reports/model.js';
import { adoptUpload, deleteUnadoptedUpload, readUpload } from '../../../plugins/uploads.js';
import { ReportCreateBody } from '../../../schemas/reports.js';
import { formFields } from '../../../v1/reports/form-fields.js';
import { Pager, Table, formatTs } from '../../components.js';
import { checkForm } from '../../form-check.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { CSRF_FIELD } from '../../security.js';
import { sellerOf } from '../../session.js';
import { createAction } from '../form-redirect.js';
import { queryText } from '../inventory/nav.js';
import { ExportForm, ImportOptions, UploadForm } from './forms.js';
import { ReportStatus, importTitle, progressText } from './status.js';

const PAGE_SIZE = 25;

function parseCursor(text: string): ReportKeyset | null {
  const match = /^(.{1,40})~(\d{1,10})$/.exec(text);
  return match ? { ts: match[1]!, id: Number(match[2]) } : null;
}

/** Form fields as POST /v1/report reads them (the CSRF field is the console's, not the report's). */
function reportFields(raw: Record<string, string>): Record<string, unknown> {
  const { [CSRF_FIELD]: _csrf, ...rest } = raw;
  return formFields(rest);
}

/** /console/reports: the account's reports (newest first), the export form and the import upload. */
export function registerReportListPages(scope: FastifyInstance, deps: Deps): void {
  scope.get('/reports', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const page = await listReports(deps.db.db, user.accountId, { createdAfter: null }, parseCursor(queryText(request.query, 'before')), PAGE_SIZE);
    const records = page.rows.map((row) => toReportRecord(row, ''));
    const ctx = pageContext(request, reply, user, '/console/reports');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Reports">
        <h1>Reports</h1>
        <p>
          <a href="/console/reports/validation">Validate an import file</a> without importing it, or see the{' '}
          <a href="/console/reports/formats">import file formats</a> (columns, templates and samples).
        </p>
        <Table caption="Reports, newest first" head={['Report', 'Kind', 'Label / file', 'Status', 'Progress', 'Requested', 'By']}>
          {records.map((r) => (
            <tr>
              <td>
                <a href={`/console/reports/${r.reportId}`} safe>{`#${r.reportId}`}</a>
              </td>
              <td safe>{r.isExport ? `Export: ${r.exportType ?? ''}` : `Import: ${importTitle(r.importType)}`}</td>
              <td safe>{r.label ?? r.fileName ?? ''}</td>
              <td>
                <ReportStatus status={r.status} />
              </td>
              <td safe>{progressText(r)}</td>
              <td safe>{formatTs(r.requestedTs, user.settings)}</td>
              <td safe>{r.uploader ?? 'API'}</td>
            </tr>
          ))}
        </Table>
        {records.length === 0 ? <p class="muted">No reports yet.</p> : ''}
        <Pager base="/console/reports" params={{}} cursorName="before" next={page.next ? `${page.next.ts}~${page.next.id}` : null} />

        <h2>New export</h2>
        <ExportForm csrfToken={ctx.csrfToken} />
        <h2>New import</h2>
        <UploadForm action="/console/reports/import" csrfToken={ctx.csrfToken} submit="Upload and import">
          <label>
            <span>Label</span>
            <input type="text" name="label" />
          </label>
          <ImportOptions />
        </UploadForm>
      </Layout>,
    );
  });

  scope.post('/reports/export', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const raw = (request.body ?? {}) as Record<string, unknown>;
    return createAction(deps, request, reply, '/console/reports', async () => {
      const text: Record<string, string> = {};
      for (const [k, v] of Object.entries(raw)) if (typeof v === 'string') text[k] = v;
      const body = checkForm(ReportCreateBody, { ...reportFields(text), isExport: true });
      const row = await createReportFrom(deps, user.accountId, body, null, user.email);
      return { message: `Export #${row.id} queued.`, to: `/console/reports/${row.id}` };
    });
  });

  scope.post('/reports/import', { schema: { hide: true }, config: { upload: true }, onResponse: deleteUnadoptedUpload(deps) }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    return createAction(deps, request, reply, '/console/reports', async () => {
      if (!request.isMultipart()) throw invalidArgument('upload the file with the import form (multipart/form-data)');
      const upload = await readUpload(request, deps, user.accountId);
      if (!upload.file) throw invalidField('file', 'choose the CSV file to import');
      const body = checkForm(ReportCreateBody, { ...reportFields(upload.fields), isExport: false });
      const row = await createReportFrom(deps, user.accountId, body, upload.file, user.email);
      // The report owns the file now: it must outlive the request.
      adoptUpload(request);
      return { message: `Import #${row.id} queued.`, to: `/console/reports/${row.id}` };
    });
  });
}
