import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { appNames } from '../../../../domain/accounts/app-catalog.js';
import { listInstallations, type InstallationView } from '../../../../domain/accounts/installations.js';
import { lastStatusChecks, type CheckState, type StatusCheck } from '../../../../domain/callbacks/status-checks.js';
import { checkStorefrontStatus, disconnectStorefront, requestIngestion } from '../../../../domain/callbacks/triggers.js';
import { deliveryPortsOf } from '../../../../domain/sandbox-partner/delivery-ports.js';
import { isAppError, notFound } from '../../../../domain/errors.js';
import { IngestionRequestBody } from '../../../admin/callbacks/ingestion-request.js';
import { Badge, PostForm, Table, field, formAction, formatTs, type DisplaySettings, type Tone } from '../../components.js';
import { checkForm, formBool, requireConfirmed } from '../../form-check.js';
import { Layout, type PageContext } from '../../layout.js';
import { refusalText } from '../../refusal-words.js';
import { pageContext, sendHtml } from '../../render.js';
import { flash, sellerOf } from '../../session.js';
import { idParam } from '../params.js';

const CHECK_TONES: Record<CheckState, Tone> = {
  CHECK_STATE_PASS: 'ok',
  CHECK_STATE_WARNING: 'warn',
  CHECK_STATE_FAIL: 'bad',
  CHECK_STATE_UNSPECIFIED: 'none',
};

/** The account's storefront (a SALES_CHANNEL installation, active or not), else a 404 page. */
export async function storefrontOfSeller(deps: Deps, accountId: number, storefrontId: number): Promise<InstallationView> {
  const found = (await listInstallations(deps.db.db, accountId)).find((i) => i.storefrontId === storefrontId);
  if (!found) throw notFound(`storefront ${storefrontId} not found`);
  return found;
}

function Checks({ last, settings }: { last: { checks: StatusCheck[]; checkedAt: string } | null; settings: DisplaySettings }) {
  if (!last) return <p class="muted">Never checked successfully.</p>;
  return (
    <>
      <p safe>{`Checked ${formatTs(last.checkedAt, settings)}`}</p>
      {last.checks.length === 0 ? (
        <p class="muted">The partner reported no checks.</p>
      ) : (
        <Table caption="Storefront checks" head={['Check', 'State', 'Summary', 'Details']}>
          {last.checks.map((c) => (
            <tr>
              <td safe>{c.name}</td>
              <td>
                <Badge tone={CHECK_TONES[c.state]} text={c.state.replace('CHECK_STATE_', '')} />
              </td>
              <td safe>{c.stateShortDescription}</td>
              <td safe>{c.details}</td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}

function StorefrontPage({ ctx, sf, appName, last }: { ctx: PageContext; sf: InstallationView; appName: string; last: { checks: StatusCheck[]; checkedAt: string } | null }) {
  const base = `/console/apps/storefronts/${sf.installationId}`;
  const active = sf.status === 'ACTIVE';
  return (
    <Layout ctx={ctx} title={`Storefront ${sf.storefrontName ?? ''}`}>
      <h1 safe>{`Storefront ${sf.storefrontName ?? ''}`}</h1>
      <dl class="facts">
        <dt>Storefront id</dt>
        <dd safe>{String(sf.installationId)}</dd>
        <dt>App</dt>
        <dd safe>{appName}</dd>
        <dt>Status</dt>
        <dd>
          <Badge tone={active ? 'ok' : 'none'} text={active ? 'Connected' : `Disconnected ${formatTs(sf.revokedAt, ctx.settings)}`} />
        </dd>
      </dl>
      <p class="actions">
        <a href={`/console/listings?storefrontId=${sf.installationId}`}>Listings of this storefront</a>
        <a href={`${base}/inventory-rules`}>Inventory rules: how much stock it is shown</a>
      </p>
      <section aria-labelledby="status-title">
        <h2 id="status-title">Status</h2>
        <Checks last={last} settings={ctx.settings} />
        {active ? (
          <PostForm action={`${base}/status-check`} csrfToken={ctx.csrfToken}>
            <button type="submit">Check status now</button>
          </PostForm>
        ) : (
          ''
        )}
      </section>
      {active ? (
        <>
          <section aria-labelledby="ingest-title">
            <h2 id="ingest-title">Import listings from the channel</h2>
            <PostForm action={`${base}/ingestion-request`} csrfToken={ctx.csrfToken} class="stack">
              <label>
                <span>SKUs</span>
                <span class="hint">One per line or comma-separated; empty asks for every listing.</span>
                <textarea name="skus" rows="3"></textarea>
              </label>
              <label>
                <input type="checkbox" name="autoApply" value="true" />
                <span>Apply the plan without review when the partner is done</span>
              </label>
              <button type="submit">Request ingestion</button>
            </PostForm>
          </section>
          <section aria-labelledby="disconnect-title">
            <h2 id="disconnect-title">Disconnect</h2>
            <p class="muted">Revokes the partner's access at once and tells it to delete this storefront's configuration.</p>
            <PostForm action={`${base}/disconnect`} csrfToken={ctx.csrfToken} confirm="Disconnect this storefront? The partner loses access at once.">
              <label>
                <input type="checkbox" name="confirm" value="yes" required />
                <span>Yes, disconnect</span>
              </label>
              <button type="submit" class="danger">
                Disconnect
              </button>
            </PostForm>
          </section>
        </>
      ) : (
        ''
      )}
    </Layout>
  );
}

/** The SKUs field: lines or commas, blanks dropped (empty = every listing, as the API's skus). */
function skuList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function registerStorefrontPages(scope: FastifyInstance, deps: Deps): void {
  const target = async (request: FastifyRequest, reply: FastifyReply) => {
    const user = sellerOf(request, reply);
    if (!user) return null;
    const sf = await storefrontOfSeller(deps, user.accountId, idParam(request.params, 'storefrontId'));
    return { user, sf, back: `/console/apps/storefronts/${sf.installationId}` };
  };

  scope.get('/apps/storefronts/:storefrontId', { schema: { hide: true } }, async (request, reply) => {
    const t = await target(request, reply);
    if (!t) return reply;
    const [names, last] = await Promise.all([appNames(deps.db.db, [t.sf.appId]), lastStatusChecks(deps.db.db, t.user.accountId, t.sf.installationId)]);
    const ctx = pageContext(request, reply, t.user, '/console/apps');
    return sendHtml(reply, <StorefrontPage ctx={ctx} sf={t.sf} appName={names.get(t.sf.appId) ?? `App ${t.sf.appId}`} last={last} />);
  });

  scope.post('/apps/storefronts/:storefrontId/status-check', { schema: { hide: true } }, async (request, reply) => {
    const t = await target(request, reply);
    if (!t) return reply;
    try {
      const result = await checkStorefrontStatus(deliveryPortsOf(deps), t.user.accountId, t.sf.installationId);
      flash(deps, request, reply, 'ok', `Status checked: ${result.checks.length} check(s) reported.`);
    } catch (error) {
      // The partner's failure (502) is news for the seller, not an error page: the stored checks stay shown.
      if (!isAppError(error) || (error.status >= 500 && error.code !== 'BAD_GATEWAY')) throw error;
      flash(deps, request, reply, 'bad', refusalText(error));
    }
    return reply.redirect(t.back, 303);
  });

  scope.post('/apps/storefronts/:storefrontId/ingestion-request', { schema: { hide: true } }, async (request, reply) => {
    const t = await target(request, reply);
    if (!t) return reply;
    return formAction(deps, request, reply, t.back, '', async () => {
      // POST …/ingestion-request's body: the SKUs box is one text of lines or commas, not a field per SKU.
      const typed = { skus: skuList(field(request.body, 'skus')), autoApplyIngestionPlan: formBool(field(request.body, 'autoApply')) };
      const input = checkForm(IngestionRequestBody, typed, { skus: 'SKUs' });
      const { deliveryId } = await withTx(deps.db.db, (tx) => requestIngestion(tx, t.user.accountId, t.sf.installationId, input, deps.clock.now()));
      return `Ingestion requested (delivery ${deliveryId}). Review the plan under Listings, Ingestions once the partner is done.`;
    });
  });

  scope.post('/apps/storefronts/:storefrontId/disconnect', { schema: { hide: true } }, async (request, reply) => {
    const t = await target(request, reply);
    if (!t) return reply;
    return formAction(deps, request, reply, t.back, 'Storefront disconnected. Its tokens no longer work.', async () => {
      requireConfirmed(request.body, 'tick “Yes, disconnect” to confirm');
      await withTx(deps.db.db, (tx) => disconnectStorefront(tx, t.user.accountId, t.sf.installationId, deps.clock.now()));
    });
  });
}
