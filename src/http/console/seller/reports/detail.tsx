import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { cancelReport } from '../../../../domain/reports/cancel-report.js';
import { getReport } from '../../../../domain/reports/create-report.js';
import { lineErrorPage } from '../../../../domain/reports/line-errors.js';
import { toReportRecord, type ReportRecord } from '../../../../domain/reports/model.js';
import { sendReportErrors, sendReportFile } from '../../../v1/reports/downloads.js';
import { Pager, PostForm, Table, formAction, formatTs, type DisplaySettings } from '../../components.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { queryText } from '../inventory/nav.js';
import { ReportStatus, importTitle, isFinal, progressText } from './status.js';
import { importMessageText } from './report-words.js';

const ERRORS_PER_PAGE = 100;

/** The report id of the URL; anything but digits names no report (getReport answers 404). */
function reportId(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  return /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
}

function parseErrorCursor(text: string): { line: number; id: number } | null {
  const match = /^(\d{1,10})~(\d{1,12})$/.exec(text);
  return match ? { line: Number(match[1]), id: Number(match[2]) } : null;
}

/**
 * The report's status and progress. While it runs, htmx refreshes this fragment every 2 seconds; without
 * JavaScript the reload link does the same.
 */
function Progress({ r, settings }: { r: ReportRecord; settings: DisplaySettings }) {
  const base = `/console/reports/${r.reportId}`;
  const running = !isFinal(r.status);
  return (
    <section id="progress" hx-get={running ? `${base}/progress` : undefined} hx-trigger={running ? 'every 2s' : undefined} hx-swap="outerHTML">
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <ReportStatus status={r.status} />
        </dd>
        <dt>Progress</dt>
        <dd safe>{progressText(r)}</dd>
        <dt>Started / completed</dt>
        <dd safe>{`${formatTs(r.startedTs, settings)} / ${formatTs(r.completedTs, settings)}`}</dd>
        {r.errorMessage ? (
          <>
            <dt>Message</dt>
            <dd safe>{r.errorMessage}</dd>
          </>
        ) : (
          ''
        )}
      </dl>
      <p>
        {/* Downloads are plain links: a boosted (htmx) click would put the file's text in the page. */}
        {r.filePath ? (
          <a href={`${base}/file`} hx-boost="false">
            {r.isExport ? 'Download the export' : 'Download the uploaded file'}
          </a>
        ) : (
          ''
        )}
        {!r.isExport ? (
          <>
            {' · '}
            <a href={`${base}/errors`} hx-boost="false">
              Download the line errors (CSV)
            </a>
          </>
        ) : (
          ''
        )}
        {running ? (
          <>
            {' · '}
            <a href={base}>Reload</a>
          </>
        ) : (
          ''
        )}
      </p>
    </section>
  );
}

/** /console/reports/{id}: one report, its progress, its files and (imports) its line errors; another account's is a 404. */
export function registerReportDetailPages(scope: FastifyInstance, deps: Deps): void {
  scope.get('/reports/:id', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const r = toReportRecord(await getReport(deps.db.db, user.accountId, reportId(request)), '');
    const cursor = queryText(request.query, 'errorsAfter');
    const errors = r.isExport ? null : await lineErrorPage(deps.db.db, user.accountId, r.reportId, parseErrorCursor(cursor), ERRORS_PER_PAGE);
    const ctx = pageContext(request, reply, user, '/console/reports');
    const title = `${r.isExport ? 'Export' : 'Import'} #${r.reportId}`;
    return sendHtml(
      reply,
      <Layout ctx={ctx} title={title}>
        <h1 safe>{`${title}: ${r.isExport ? (r.exportType ?? '') : importTitle(r.importType)}`}</h1>
        <p class="muted" safe>{`${r.label ?? r.fileName ?? ''} requested ${formatTs(r.requestedTs, user.settings)} by ${r.uploader ?? 'the API'}`}</p>
        <Progress r={r} settings={user.settings} />
        {!isFinal(r.status) ? (
          <PostForm action={`/console/reports/${r.reportId}/cancel`} csrfToken={ctx.csrfToken} confirm="Cancel this report?">
            <button type="submit" class="danger">
              Cancel report
            </button>
          </PostForm>
        ) : (
          ''
        )}
        {errors ? (
          <>
            <h2>Line errors</h2>
            {errors.errors.length === 0 ? <p class="muted">No line errors{isFinal(r.status) ? '' : ' so far'}.</p> : ''}
            {errors.errors.length > 0 ? (
              <Table caption="Line errors, in file order" head={['Line', 'Column', 'Message']}>
                {errors.errors.map((e) => (
                  <tr>
                    <td class="num" safe>{String(e.line)}</td>
                    <td safe>{e.column}</td>
                    <td safe>{importMessageText(e.message)}</td>
                  </tr>
                ))}
              </Table>
            ) : (
              ''
            )}
            <Pager base={`/console/reports/${r.reportId}`} params={{}} cursorName="errorsAfter" next={errors.next ? `${errors.next.line}~${errors.next.id}` : null} />
          </>
        ) : (
          ''
        )}
        <p>
          <a href="/console/reports">All reports</a>
        </p>
      </Layout>,
    );
  });

  scope.get('/reports/:id/progress', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const r = toReportRecord(await getReport(deps.db.db, user.accountId, reportId(request)), '');
    // Polled by a page loaded while the report ran: once it is final, the whole page reloads, so its line
    // errors and actions (no more "Cancel report") are those of the finished report, not only this section.
    if (isFinal(r.status) && request.headers['hx-request'] === 'true') reply.header('HX-Refresh', 'true');
    return sendHtml(reply, <Progress r={r} settings={user.settings} />);
  });

  scope.get('/reports/:id/file', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    return sendReportFile(deps, reply, user.accountId, reportId(request));
  });

  scope.get('/reports/:id/errors', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    return sendReportErrors(deps, reply, user.accountId, reportId(request));
  });

  scope.post('/reports/:id/cancel', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const id = reportId(request);
    return formAction(deps, request, reply, `/console/reports/${id}`, 'Report canceled.', async () => {
      await withTx(deps.db.db, (tx) => cancelReport(tx, user.accountId, id, deps.clock.now()));
    });
  });
}
