import { stringify } from 'csv-stringify/sync';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { notFound } from '../../../../domain/errors.js';
import { importGuide, importGuides, sampleDataOf, type ImportGuide } from '../../../../domain/reports/imports/import-guides.js';
import { IMPORT_TYPES, type ImportType } from '../../../../domain/reports/model.js';
import { contentDisposition } from '../../../v1/reports/downloads.js';
import { Table } from '../../components.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';

/** The import type named in the URL, or a 404 (the console's page) for anything else. */
function typeOf(request: FastifyRequest): ImportType {
  const raw = (request.params as { type?: string }).type ?? '';
  const type = IMPORT_TYPES.find((t) => t.toLowerCase() === raw.toLowerCase());
  if (!type) throw notFound(`there is no import type "${raw.slice(0, 40)}"`);
  return type;
}

const fileName = (type: ImportType, what: 'template' | 'sample') => `${type.toLowerCase()}-${what}.csv`;

function Guide({ guide }: { guide: ImportGuide }) {
  const base = `/console/reports/formats/${guide.type.toLowerCase()}`;
  return (
    <section aria-labelledby={`format-${guide.type}`}>
      <h2 id={`format-${guide.type}`} safe>
        {guide.title}
      </h2>
      <p safe>{guide.summary}</p>
      <p>
        <a href={`${base}/template.csv`} hx-boost="false">
          Download an empty template
        </a>
        {' · '}
        <a href={`${base}/sample.csv`} hx-boost="false">
          Download a sample
        </a>
      </p>
      <Table caption={`Columns of a ${guide.title} file`} head={['Column', 'Needed', 'What it holds']}>
        {guide.columns.map((c) => (
          <tr>
            <td>
              <code safe>{c.name}</code>
            </td>
            <td safe>{c.need}</td>
            <td safe>{c.meaning}</td>
          </tr>
        ))}
      </Table>
      {guide.extra ? <p class="muted" safe>{guide.extra}</p> : ''}
    </section>
  );
}

/**
 * /console/reports/formats: what each import file holds (columns, what is required, what each means), with an
 * empty template and a sample per type to start from. The samples use the seller's own warehouse and SKUs.
 */
export function registerImportFormatPages(scope: FastifyInstance, deps: Deps): void {
  scope.get('/reports/formats', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const guides = importGuides(await sampleDataOf(deps.db.db, user.accountId));
    const ctx = pageContext(request, reply, user, '/console/reports');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Import file formats">
        <h1>Import file formats</h1>
        <p>
          Import files are CSV, UTF-8, with a header row. Column names match whatever their case, with spaces and underscores alike. Start from a template or a
          sample, then <a href="/console/reports/validation">validate your file</a> before you import it.
        </p>
        <nav aria-label="Import types">
          <p>
            {guides.map((g, i) => (
              <>
                {i > 0 ? ' · ' : ''}
                <a href={`#format-${g.type}`} safe>
                  {g.title}
                </a>
              </>
            ))}
          </p>
        </nav>
        {guides.map((g) => (
          <Guide guide={g} />
        ))}
        <p>
          <a href="/console/reports">All reports</a>
        </p>
      </Layout>,
    );
  });

  scope.get('/reports/formats/:type/:file', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const type = typeOf(request);
    const file = (request.params as { file?: string }).file;
    if (file !== 'template.csv' && file !== 'sample.csv') throw notFound('there is no such file: choose template.csv or sample.csv');
    const guide = importGuide(type, await sampleDataOf(deps.db.db, user.accountId));
    const rows = [guide.columns.map((c) => c.name), ...(file === 'sample.csv' ? guide.sample : [])];
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', contentDisposition(fileName(type, file === 'sample.csv' ? 'sample' : 'template')))
      .send(stringify(rows));
  });
}
