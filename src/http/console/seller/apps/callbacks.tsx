import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { appNames } from '../../../../domain/accounts/app-catalog.js';
import { CALLBACK_KINDS, DELIVERY_STATES, getDelivery, listDeliveries, replayDelivery } from '../../../../domain/callbacks/deliveries.js';
import { notFound } from '../../../../domain/errors.js';
import { Badge, Pager, PostForm, Select, Table, firstLine, formAction, formatTs, stateTone } from '../../components.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { decodeIdCursor, encodeIdCursor, queryText } from '../params.js';
import { CALLBACK_KIND_WORDS, DELIVERY_STATE_WORDS } from '../../operator/words.js';

const BASE = '/console/apps/callbacks';
const PAGE_SIZE = 50;

const oneOf = <T extends string>(allowed: readonly T[], raw: string): T | undefined => ((allowed as readonly string[]).includes(raw) ? (raw as T) : undefined);

/**
 * The account's callbacks to its partners (the operator's delivery log, narrowed to this account): what was
 * sent, whether the partner took it, and Replay for one that gave up or must be sent again (same delivery
 * id, so the partner can tell a replay from a new event). Home's "callbacks that gave up" links here.
 */
export function registerSellerCallbacks(scope: FastifyInstance, deps: Deps): void {
  scope.get('/apps/callbacks', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const state = oneOf(DELIVERY_STATES, queryText(request.query, 'state'));
    const kind = oneOf(CALLBACK_KINDS, queryText(request.query, 'kind'));
    const after = decodeIdCursor(deps, 'callbacks', queryText(request.query, 'cursor'));
    const page = await listDeliveries(deps.db.db, { accountId: user.accountId, ...(state ? { state } : {}), ...(kind ? { kind } : {}) }, after, PAGE_SIZE);
    const names = await appNames(deps.db.db, [...new Set(page.deliveries.map((d) => d.appId))]);
    const ctx = pageContext(request, reply, user, '/console/apps');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Callbacks">
        <p>
          <a href="/console/apps">← Apps</a>
        </p>
        <h1>Callbacks to your partners</h1>
        <form method="get" action={BASE} class="inline">
          <Select label="State" name="state" options={[['', 'Any'], ...DELIVERY_STATES.map((s): [string, string] => [s, DELIVERY_STATE_WORDS[s]])]} value={state ?? ''} />
          <Select label="Kind" name="kind" options={[['', 'Any'], ...CALLBACK_KINDS.map((k): [string, string] => [k, CALLBACK_KIND_WORDS[k]])]} value={kind ?? ''} />
          <button type="submit" class="secondary">
            Filter
          </button>
        </form>
        {page.deliveries.length === 0 ? (
          <p class="muted">No callbacks match.</p>
        ) : (
          <Table caption="Callbacks" head={['Sent to', 'Kind', 'State', 'Attempts', 'Last status', 'Last error', 'Created', '']}>
            {page.deliveries.map((d) => (
              <tr>
                <td safe>{names.get(d.appId) ?? `app ${d.appId}`}</td>
                <td safe>{CALLBACK_KIND_WORDS[d.kind] ?? d.kind}</td>
                <td>
                  <Badge tone={stateTone(d.state)} text={DELIVERY_STATE_WORDS[d.state] ?? d.state} />
                </td>
                <td class="num" safe>{String(d.attempts)}</td>
                <td safe>{d.lastStatus === null ? '–' : String(d.lastStatus)}</td>
                <td safe>{firstLine(d.lastError)}</td>
                <td safe>{formatTs(d.createdAt, user.settings)}</td>
                <td>
                  {d.state === 'PENDING' ? (
                    ''
                  ) : (
                    <PostForm action={`${BASE}/${encodeURIComponent(d.deliveryId)}/replay`} csrfToken={ctx.csrfToken}>
                      <button type="submit" class="secondary">
                        Replay
                      </button>
                    </PostForm>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pager base={BASE} params={{ state, kind }} next={encodeIdCursor(deps, 'callbacks', page.nextAfterRowId)} />
      </Layout>,
    );
  });

  scope.post<{ Params: { deliveryId: string } }>('/apps/callbacks/:deliveryId/replay', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const { deliveryId } = request.params;
    // Another account's delivery is not found, like a missing one.
    const delivery = await getDelivery(deps.db.db, deliveryId).catch(() => null);
    if (!delivery || delivery.accountId !== user.accountId) throw notFound('That callback is not one of yours. Open Callbacks again to see them.');
    return formAction(deps, request, reply, `${BASE}?state=PENDING`, 'Callback queued again: it is sent once more, with the same delivery id, so the partner can tell it is the same one.', async () => {
      await withTx(deps.db.db, (tx) => replayDelivery(tx, deliveryId, deps.clock.now()));
    });
  });
}
