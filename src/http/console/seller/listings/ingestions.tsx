import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { applyIngestionForSeller } from '../../../../domain/inventory/listing-writes.js';
import { getIngestion, getIngestionSummary, listIngestions, type IngestionDetailView, type IngestionSummaryView } from '../../../../domain/listings/ingestion-admin.js';
import type { IngestionPlan } from '../../../../domain/listings/ingestion-plan.js';
import { Badge, Pager, PostForm, Table, formAction, formatTs, type DisplaySettings, type Tone } from '../../components.js';
import { Layout, type PageContext } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { conflictText, ingestionStatusText, planActionText } from './listing-words.js';
import { decodeIdCursor, encodeIdCursor, idParam, queryText } from '../params.js';

/** Few per page: each session waiting for review shows its plan. */
const PAGE_SIZE = 20;
/** Rows of a plan shown: a large ingestion's plan has thousands, which no seller reads on one page. */
const PLAN_ROWS_SHOWN = 100;

const STATUS_TONES: Record<string, Tone> = { PLANNED: 'warn', APPLYING: 'warn', APPLIED: 'ok', FAILED: 'bad', DISCARDED: 'none' };

function Plan({ plan }: { plan: IngestionPlan }) {
  const s = plan.summary;
  return (
    <>
      <p safe>
        {`${s.listingsToCreate} listing(s) to create, ${s.listingsToUpdate} to update, ${s.listingsSkipped} skipped; ` +
          `${s.variantsToAdd} variant(s) to add, ${s.variantsToAttach} to attach, ${s.variantsSkipped} skipped; ` +
          `${s.productsToCreate} catalog product(s) to create; ${s.conflicts} conflict(s).`}
      </p>
      <Table caption="Planned listings" head={['Channel listing', 'Action', 'Listing', 'Variants']}>
        {plan.listings.slice(0, PLAN_ROWS_SHOWN).map((l) => (
          <tr>
            <td safe>{l.externalId}</td>
            <td>
              <Badge tone={l.action === 'SKIP' ? 'warn' : 'ok'} text={planActionText(l.action)} />
            </td>
            <td>{l.listingId !== null ? <a href={`/console/listings/${l.listingId}`}>{l.listingId}</a> : <span class="muted">new</span>}</td>
            <td safe>{l.variants.map((v) => `${v.sku}: ${v.action === 'CREATE_PRODUCT' ? 'new product' : 'existing product'}${v.onListing ? ', already listed' : ''}`).join('; ')}</td>
          </tr>
        ))}
      </Table>
      <MoreRows shown={PLAN_ROWS_SHOWN} total={plan.listings.length} what="planned listings" />
      {plan.conflicts.length > 0 ? (
        <Table caption="Conflicts" head={['Conflict', 'SKU', 'Channel listing', 'What happens']}>
          {plan.conflicts.slice(0, PLAN_ROWS_SHOWN).map((c) => (
            <tr>
              <td safe>{conflictText(c.type)}</td>
              <td safe>{c.sku ?? ''}</td>
              <td safe>{c.externalId ?? ''}</td>
              <td safe>{c.message}</td>
            </tr>
          ))}
        </Table>
      ) : (
        <p class="muted">No conflicts.</p>
      )}
      <MoreRows shown={PLAN_ROWS_SHOWN} total={plan.conflicts.length} what="conflicts" />
    </>
  );
}

function MoreRows({ shown, total, what }: { shown: number; total: number; what: string }) {
  if (total <= shown) return '';
  return <p class="muted" safe>{`Showing the first ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} ${what}; the counts above cover them all.`}</p>;
}

function Session({ s, detail, csrfToken, settings }: { s: IngestionSummaryView; detail: IngestionDetailView | undefined; csrfToken: string; settings: DisplaySettings }) {
  return (
    <section class="card" aria-labelledby={`ingestion-${s.ingestionId}`}>
      <h2 id={`ingestion-${s.ingestionId}`} safe>{`Ingestion ${s.ingestionId} · storefront ${s.storefrontId}`}</h2>
      <p>
        <Badge tone={STATUS_TONES[s.status] ?? 'none'} text={ingestionStatusText(s.status)} />{' '}
        <span safe>{`begun ${formatTs(s.begunAt, settings)}, ${s.receivedCount} listing(s) received${s.appliedAt ? `, applied ${formatTs(s.appliedAt, settings)}` : ''}`}</span>
      </p>
      {s.error ? (
        <p class="flash bad" safe>
          {s.error}
        </p>
      ) : (
        ''
      )}
      {s.status === 'APPLYING' && s.progress ? (
        <p safe>{`Being applied in the background: ${s.progress.applied.toLocaleString('en-US')} of ${s.progress.total.toLocaleString('en-US')} channel listings done. Reload this page to see how far it got.`}</p>
      ) : (
        ''
      )}
      {detail?.plan ? <Plan plan={detail.plan} /> : ''}
      {s.status === 'PLANNED' ? (
        <PostForm action={`/console/listings/ingestions/${s.ingestionId}/apply`} csrfToken={csrfToken} confirm="Apply this plan to your listings and catalog?">
          <button type="submit">Apply</button>
        </PostForm>
      ) : (
        ''
      )}
    </section>
  );
}

function IngestionsPage(props: { ctx: PageContext; sessions: IngestionSummaryView[]; details: Map<number, IngestionDetailView>; next: string | null }) {
  return (
    <Layout ctx={props.ctx} title="Ingestions">
      <p>
        <a href="/console/listings">← Listings</a>
      </p>
      <h1>Ingestions</h1>
      <p class="muted">Listings a channel pushed, planned against your catalog. A plan waiting for review changes nothing until you apply it.</p>
      {props.sessions.length === 0 ? <p class="muted">No ingestions yet.</p> : props.sessions.map((s) => <Session s={s} detail={props.details.get(s.ingestionId)} csrfToken={props.ctx.csrfToken} settings={props.ctx.settings} />)}
      <Pager base="/console/listings/ingestions" params={{}} next={props.next} />
    </Layout>
  );
}

export function registerIngestionPages(scope: FastifyInstance, deps: Deps): void {
  scope.get('/listings/ingestions', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const db = deps.db.db;
    const before = decodeIdCursor(deps, 'ingestions', queryText(request.query, 'cursor'));
    const page = await listIngestions(db, user.accountId, {}, before, PAGE_SIZE);
    const details = new Map<number, IngestionDetailView>();
    for (const s of page.ingestions) if (s.status === 'PLANNED') details.set(s.ingestionId, await getIngestion(db, user.accountId, s.ingestionId));
    return sendHtml(
      reply,
      <IngestionsPage
        ctx={pageContext(request, reply, user, '/console/listings')}
        sessions={page.ingestions}
        details={details}
        next={encodeIdCursor(deps, 'ingestions', page.nextBeforeId)}
      />,
    );
  });

  scope.post('/listings/ingestions/:ingestionId/apply', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const ingestionId = idParam(request.params, 'ingestionId');
    await getIngestionSummary(deps.db.db, user.accountId, ingestionId); // another account's: the 404 page
    return formAction(deps, request, reply, '/console/listings/ingestions', '', async () => {
      // The same steps as POST /admin/accounts/{id}/ingestions/{ingestionId}/apply.
      const applied = await applyIngestionForSeller(deps.db.db, user.accountId, ingestionId, () => deps.clock.now(), deps.config.ingestionApplyWaitMs);
      const after = await getIngestionSummary(deps.db.db, user.accountId, ingestionId);
      if (!applied) {
        const { applied: done, total } = after.progress ?? { applied: 0, total: 0 };
        return `Ingestion ${ingestionId} is being applied in the background (${done} of ${total} channel listings so far); this page shows its progress.`;
      }
      const summary = after.summary;
      return `Ingestion ${ingestionId} applied: ${summary?.listingsToCreate ?? 0} listing(s) created, ${summary?.listingsToUpdate ?? 0} updated.`;
    });
  });
}
