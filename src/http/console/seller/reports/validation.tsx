import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { invalidArgument, invalidField } from '../../../../domain/errors.js';
import { createValidation } from '../../../../domain/reports/validation/create-validation.js';
import { parseDefinitionId, resolveDefinition } from '../../../../domain/reports/validation/definition-id.js';
import { listValidations } from '../../../../domain/reports/validation/list-validations.js';
import { readValidation, type ValidationView } from '../../../../domain/reports/validation/read-results.js';
import { validationResultRows } from '../../../../domain/reports/validation/results-rows.js';
import { contentDisposition } from '../../../v1/reports/downloads.js';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { adoptUpload, deleteUnadoptedUpload, readUpload } from '../../../plugins/uploads.js';
import { ValidationCreateQuery } from '../../../schemas/import-validation.js';
import { formFields } from '../../../v1/reports/form-fields.js';
import { Pager, Table, formatTs } from '../../components.js';
import { queryText } from '../inventory/nav.js';
import { checkForm } from '../../form-check.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { createAction } from '../form-redirect.js';
import { ImportOptions, UploadForm } from './forms.js';
import { ReportStatus, importTitle } from './status.js';
import { importMessageText } from './report-words.js';

const PAST_PAGE = 20;

function validationId(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  return /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
}

/** Status, lines validated and the results by group; refreshed by htmx every 2 s while it runs. */
function Results({ v }: { v: ValidationView }) {
  const running = v.status !== 'COMPLETE';
  const base = `/console/reports/validation/${v.import_validation_id}`;
  return (
    <section id="progress" hx-get={running ? `${base}/progress` : undefined} hx-trigger={running ? 'every 2s' : undefined} hx-swap="outerHTML">
      <dl class="facts">
        <dt>File type</dt>
        <dd safe>{importTitle(v.import_definition_id.split(';')[0] ?? '')}</dd>
        <dt>Status</dt>
        <dd>
          <ReportStatus status={v.status} />
        </dd>
        <dt>Lines validated</dt>
        <dd safe>{String(v.lines_validated)}</dd>
      </dl>
      {running ? (
        <p>
          <a href={base}>Reload</a>
        </p>
      ) : (
        ''
      )}
      {v.validation_result_groups.length === 0 && !running ? <p>No problems found.</p> : ''}
      {v.validation_result_groups.length > 0 && !running ? (
        <p>
          <a href={`${base}/results.csv`} hx-boost="false">
            Download every result (CSV)
          </a>
          , to fix the file line by line in a spreadsheet.
        </p>
      ) : (
        ''
      )}
      {v.validation_result_groups.map((g) => (
        <>
          <h2 safe>{`${g.name}: ${g.total_results} result${g.total_results === 1 ? '' : 's'}${g.omitted_results > 0 ? ` (${g.omitted_results} not shown)` : ''}`}</h2>
          <Table caption={`Results of ${g.name}`} head={['Line', 'Column', 'Severity', 'Message']}>
            {g.validation_results.map((r) => (
              <tr>
                <td class="num" safe>{String(r.row)}</td>
                <td safe>{r.column}</td>
                <td>{r.severity === 'ERROR' ? 'Error' : r.severity === 'WARNING' ? 'Warning' : r.severity}</td>
                <td safe>{importMessageText(r.message)}</td>
              </tr>
            ))}
          </Table>
        </>
      ))}
    </section>
  );
}

/** /console/reports/validation: check an import file without importing it (POST /v1/import/validation's domain). */
export function registerValidationPages(scope: FastifyInstance, deps: Deps): void {
  scope.get('/reports/validation', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const before = /^\d{1,10}$/.test(queryText(request.query, 'before')) ? Number(queryText(request.query, 'before')) : null;
    const past = await listValidations(deps.db.db, user.accountId, before, PAST_PAGE);
    const ctx = pageContext(request, reply, user, '/console/reports');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Validate an import file">
        <h1>Validate an import file</h1>
        <p class="muted">Every line is checked by the code the import runs, against your data now; nothing is imported.</p>
        <UploadForm action="/console/reports/validation" csrfToken={ctx.csrfToken} submit="Upload and validate">
          <ImportOptions />
        </UploadForm>
        <h2>Past validations</h2>
        {past.rows.length === 0 && before === null ? (
          <p class="muted">No file validated yet. Results of every validation stay here, newest first.</p>
        ) : (
          <>
            <Table caption="Past validations, newest first" head={['Validation', 'File type', 'Status', 'Lines checked', 'Started']}>
              {past.rows.map((r) => (
                <tr>
                  <td>
                    <a href={`/console/reports/validation/${r.id}`} safe>{`#${r.id}`}</a>
                  </td>
                  <td safe>{importTitle(r.importType)}</td>
                  <td>
                    <ReportStatus status={r.status} />
                  </td>
                  <td class="num" safe>{String(r.linesDone)}</td>
                  <td safe>{formatTs(r.createdAt, user.settings)}</td>
                </tr>
              ))}
            </Table>
            <Pager base="/console/reports/validation" params={{}} cursorName="before" next={past.next === null ? null : String(past.next)} />
          </>
        )}
        <p>
          <a href="/console/reports">All reports</a>
        </p>
      </Layout>,
    );
  });

  scope.post('/reports/validation', { schema: { hide: true }, config: { upload: true }, onResponse: deleteUnadoptedUpload(deps) }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    return createAction(deps, request, reply, '/console/reports/validation', async () => {
      if (!request.isMultipart()) throw invalidArgument('upload the file with the validation form (multipart/form-data)');
      const upload = await readUpload(request, deps, user.accountId);
      if (!upload.file) throw invalidField('file', 'choose the CSV file to validate');
      const f = upload.fields;
      // The form's parts make the definition id the API takes: <importType>;<integrationId>;<templateId>.
      const def = await resolveDefinition(
        deps.db.db,
        user.accountId,
        parseDefinitionId([f.importType ?? '', f.integrationId ?? '', f.templateId ?? ''].join(';')),
      );
      const { createNewProducts, overwriteWithBlank, insertOnly, delimiter } = formFields(f);
      const options = checkForm(ValidationCreateQuery, { createNewProducts, overwriteWithBlank, insertOnly, delimiter });
      const row = await createValidation(deps, user.accountId, def, upload.file, {
        createNewProducts: options.createNewProducts ?? false,
        overwriteWithBlank: options.overwriteWithBlank ?? false,
        insertOnly: options.insertOnly ?? false,
        delimiter: options.delimiter ?? null,
      });
      // The validation owns the file now: it must outlive the request.
      adoptUpload(request);
      return { message: `Validation #${row.id} queued.`, to: `/console/reports/validation/${row.id}` };
    });
  });

  scope.get('/reports/validation/:id', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const v = await readValidation(deps.db.db, user.accountId, validationId(request));
    const ctx = pageContext(request, reply, user, '/console/reports');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title={`Validation #${v.import_validation_id}`}>
        <h1 safe>{`Validation #${v.import_validation_id}`}</h1>
        <Results v={v} />
        <p>
          <a href="/console/reports/validation">Validate another file</a>
        </p>
      </Layout>,
    );
  });

  scope.get('/reports/validation/:id/results.csv', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const id = validationId(request);
    const rows = await validationResultRows(deps.db.db, user.accountId, id);
    const csv = stringify({ header: true, columns: ['line', 'column', 'severity', 'message'] });
    Readable.from(rows).pipe(csv);
    return reply.type('text/csv; charset=utf-8').header('Content-Disposition', contentDisposition(`validation-${id}-results.csv`)).send(csv);
  });

  scope.get('/reports/validation/:id/progress', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    return sendHtml(reply, <Results v={await readValidation(deps.db.db, user.accountId, validationId(request))} />);
  });
}
