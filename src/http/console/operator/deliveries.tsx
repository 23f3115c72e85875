import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { listApps } from '../../../domain/accounts/apps.js';
import { CALLBACK_KINDS, DELIVERY_STATES, getDelivery, listDeliveries, replayDelivery, type DeliveryState } from '../../../domain/callbacks/deliveries.js';
import { Badge, Pager, PostForm, Select, Table, firstLine, formAction, formatTs, stateTone } from '../components.js';
import { Layout } from '../layout.js';
import { queryEnum, queryId, textParam } from '../params.js';
import { pageContext, sendHtml } from '../render.js';
import { operatorOf } from '../session.js';
import { ATTEMPT_OUTCOME_WORDS, CALLBACK_KIND_WORDS, DELIVERY_STATE_WORDS } from './words.js';

const ACTIVE = '/console/operator/deliveries';
const PAGE_SIZE = 50;

const STATE_CHOICES: [string, string][] = [['', 'Any state'], ...DELIVERY_STATES.map((s): [string, string] => [s, DELIVERY_STATE_WORDS[s]])];
const KIND_CHOICES: [string, string][] = [['', 'Any kind'], ...CALLBACK_KINDS.map((k): [string, string] => [k, CALLBACK_KIND_WORDS[k]])];

function StateBadge({ state }: { state: DeliveryState }) {
  return <Badge tone={stateTone(state)} text={DELIVERY_STATE_WORDS[state]} />;
}

/** Why the log is empty, in the filter's words. */
function emptyText(filtered: boolean, state: DeliveryState | undefined, paged: boolean): string {
  if (paged) return 'No more callback deliveries.';
  if (!filtered) {
    return 'No callbacks sent yet. The service calls partner apps here when a seller requests an ingestion, checks or disconnects a storefront, and for the events an app subscribes to.';
  }
  if (state === 'DEAD') return 'No callback has given up for this filter: every delivery was delivered or is still being retried.';
  return 'No callback deliveries match these filters.';
}

function ReplayButton({ deliveryId, csrfToken }: { deliveryId: string; csrfToken: string }) {
  return (
    <PostForm action={`${ACTIVE}/${encodeURIComponent(deliveryId)}/replay`} csrfToken={csrfToken}>
      <button type="submit" class="secondary">
        Replay
      </button>
    </PostForm>
  );
}

/**
 * The callback delivery log (GET /admin/deliveries, GET /admin/deliveries/{id}, POST …/replay): newest
 * first, filtered by app, state and kind, keyset paged; a DEAD or SUCCEEDED delivery can be sent again.
 */
export function registerOperatorDeliveries(scope: FastifyInstance, deps: Deps): void {
  scope.get('/operator/deliveries', { schema: { hide: true } }, async (request, reply) => {
    const user = operatorOf(request, reply);
    if (!user) return reply;
    const appId = queryId(request, 'appId');
    const state = queryEnum(request, 'state', DELIVERY_STATES);
    const kind = queryEnum(request, 'kind', CALLBACK_KINDS);
    const after = queryId(request, 'after') ?? null;
    const filters = { ...(appId !== undefined ? { appId } : {}), ...(state ? { state } : {}), ...(kind ? { kind } : {}) };
    const page = await listDeliveries(deps.db.db, filters, after, PAGE_SIZE);
    const apps = await listApps(deps.db.db);
    const appName = new Map(apps.map((a) => [a.appId, a.name]));
    const ctx = pageContext(request, reply, user, ACTIVE);
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Callbacks">
        <h1>Callback deliveries</h1>
        <form method="get" action={ACTIVE} class="inline">
          <Select label="App" name="appId" options={[['', 'Any app'], ...apps.map((a): [string, string] => [String(a.appId), a.name])]} value={appId === undefined ? '' : String(appId)} />
          <Select label="State" name="state" options={STATE_CHOICES} value={state ?? ''} />
          <Select label="Kind" name="kind" options={KIND_CHOICES} value={kind ?? ''} />
          <button type="submit" class="secondary">
            Filter
          </button>
        </form>
        {page.deliveries.length === 0 ? (
          <p class="empty" safe>
            {emptyText(Object.keys(filters).length > 0, state, after !== null)}
          </p>
        ) : (
          <div class="rows-stack">
            <Table caption="Callback deliveries" head={['Delivery', 'App', 'Account', 'Kind', 'State', 'Attempts', 'Last status', 'Created', '']}>
              {page.deliveries.map((d) => (
                <tr>
                  <td>
                    <a href={`${ACTIVE}/${encodeURIComponent(d.deliveryId)}`}>
                      <code safe>{d.deliveryId.slice(0, 8)}</code>
                    </a>
                  </td>
                  <td data-label="App" safe>
                    {appName.get(d.appId) ?? String(d.appId)}
                  </td>
                  <td data-label="Account" safe>
                    {String(d.accountId)}
                  </td>
                  <td safe>{CALLBACK_KIND_WORDS[d.kind]}</td>
                  <td>
                    <StateBadge state={d.state} />
                  </td>
                  <td class="num" data-label="Attempts" safe>
                    {String(d.attempts)}
                  </td>
                  <td data-label="Last status" safe>
                    {d.lastStatus === null ? firstLine(d.lastError) || '–' : String(d.lastStatus)}
                  </td>
                  <td data-label="Created" safe>
                    {formatTs(d.createdAt)}
                  </td>
                  <td>{d.state === 'PENDING' ? '' : <ReplayButton deliveryId={d.deliveryId} csrfToken={ctx.csrfToken} />}</td>
                </tr>
              ))}
            </Table>
          </div>
        )}
        {page.deliveries.length === 0 ? (
          ''
        ) : (
          <Pager
            base={ACTIVE}
            params={{ appId: appId === undefined ? undefined : String(appId), state, kind }}
            cursorName="after"
            next={page.nextAfterRowId === null ? null : String(page.nextAfterRowId)}
          />
        )}
      </Layout>,
    );
  });

  scope.get('/operator/deliveries/:deliveryId', { schema: { hide: true } }, async (request, reply) => {
    const user = operatorOf(request, reply);
    if (!user) return reply;
    const d = await getDelivery(deps.db.db, textParam(request, 'deliveryId'));
    const ctx = pageContext(request, reply, user, ACTIVE);
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Callback delivery">
        <p>
          <a href={ACTIVE}>← Callback deliveries</a>
        </p>
        <h1 safe>{`${CALLBACK_KIND_WORDS[d.kind]}: ${d.method} ${d.path}`}</h1>
        <p>
          <StateBadge state={d.state} />
        </p>
        {d.state === 'PENDING' ? '' : <ReplayButton deliveryId={d.deliveryId} csrfToken={ctx.csrfToken} />}
        <dl class="facts">
          <dt>Delivery id</dt>
          <dd>
            <code safe>{d.deliveryId}</code>
          </dd>
          <dt>App</dt>
          <dd>
            <a href={`/console/operator/apps/${d.appId}`} safe>
              {String(d.appId)}
            </a>
          </dd>
          <dt>Account</dt>
          <dd safe>{String(d.accountId)}</dd>
          <dt>Storefront</dt>
          <dd safe>{d.storefrontId === null ? '–' : String(d.storefrontId)}</dd>
          <dt>Attempts</dt>
          <dd safe>{String(d.attempts)}</dd>
          <dt>Next attempt</dt>
          <dd safe>{formatTs(d.nextAttemptAt)}</dd>
          <dt>Delivered</dt>
          <dd safe>{formatTs(d.deliveredAt)}</dd>
          <dt>Last error</dt>
          <dd safe>{d.lastError ?? '–'}</dd>
        </dl>
        <h2>Body</h2>
        <pre safe>{d.body === null ? '(none)' : JSON.stringify(d.body, null, 2)}</pre>
        <h2>Attempts</h2>
        {d.attemptLog.length === 0 ? (
          <p class="empty">No attempt logged yet.</p>
        ) : (
          <Table caption="Attempt log" head={['Attempt', 'Outcome', 'URL', 'HTTP status', 'Latency', 'Started', 'Error', 'Response']}>
            {d.attemptLog.map((a) => (
              <tr>
                <td class="num" safe>{String(a.attempt)}</td>
                <td>
                  <Badge tone={a.outcome === 'SUCCEEDED' ? 'ok' : 'bad'} text={ATTEMPT_OUTCOME_WORDS[a.outcome] ?? a.outcome} />
                </td>
                <td safe>{a.url || '–'}</td>
                <td safe>{a.httpStatus === null ? '–' : String(a.httpStatus)}</td>
                <td class="num" safe>{`${a.latencyMs} ms`}</td>
                <td safe>{formatTs(a.startedAt)}</td>
                <td safe>{a.error ?? ''}</td>
                <td>
                  <pre safe>{a.responseBody.slice(0, 2000)}</pre>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Layout>,
    );
  });

  scope.post('/operator/deliveries/:deliveryId/replay', { schema: { hide: true } }, async (request, reply) => {
    if (!operatorOf(request, reply)) return reply;
    const deliveryId = textParam(request, 'deliveryId');
    return formAction(deps, request, reply, `${ACTIVE}/${encodeURIComponent(deliveryId)}`, 'The delivery is queued again and is sent now.', async () => {
      await withTx(deps.db.db, (tx) => replayDelivery(tx, deliveryId, deps.clock.now()));
    });
  });
}
