import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { getApp, type AppRecord } from '../../../../domain/accounts/apps.js';
import { installApp, type InstallInput } from '../../../../domain/accounts/installations.js';
import { isIntegrationKind, kindFulfilsOrders } from '../../../../domain/accounts/principal.js';
import { warehouseFulfillers, type WarehouseFulfiller } from '../../../../domain/accounts/warehouse-mappings.js';
import { listAccountWarehouses, type WarehouseRow } from '../../../../domain/accounts/warehouses.js';
import { isAppError } from '../../../../domain/errors.js';
import { warehouseWorkPort } from '../../../../domain/fulfillment/warehouse-handover.js';
import { InstallAppBody } from '../../../admin/install-app.js';
import { Field, field, fields } from '../../components.js';
import { checkForm, formInt, type FormWords } from '../../form-check.js';
import { CsrfField, Layout, type PageContext } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { cspWithFormTargets } from '../../security.js';
import { flash, sellerOf } from '../../session.js';
import { idParam } from '../params.js';
import { KIND_LABELS } from './apps-page.js';
import { APP_REFUSALS, inSellerWords } from './seller-words.js';

/** The mapping row's text field of one warehouse: the partner's id for it. */
const uniqueIdField = (warehouseId: number) => `uid_${warehouseId}`;

/** Shipping and 3PL apps see which warehouses already ship with another app (one at a time: installing there is refused). */
function WarehouseMappings({ warehouses, shippers }: { warehouses: WarehouseRow[]; shippers: Map<number, WarehouseFulfiller> }) {
  if (warehouses.length === 0) return <p class="flash bad">This account has no warehouse to map; ask the operator to create one first.</p>;
  return (
    <fieldset>
      <legend>Warehouses this app works with</legend>
      <p class="muted">Tick each warehouse to map and give the id the partner knows it by.</p>
      {warehouses.map((w) => (
        <div class="mapping">
          <label>
            <input type="checkbox" name="warehouse" value={String(w.id)} />
            <span safe>{`${w.name}${w.channelFulfilled ? ' (channel-fulfilled)' : ''}${w.controlledBy !== null ? ' — stock kept by another app' : ''}${shippers.has(w.id) ? ` — ships with ${shippers.get(w.id)!.appName}` : ''}`}</span>
          </label>
          <Field label={`Partner's id for ${w.name}`} name={uniqueIdField(w.id)} />
        </div>
      ))}
    </fieldset>
  );
}

function InstallPage({ ctx, app, warehouses, shippers }: { ctx: PageContext; app: AppRecord; warehouses: WarehouseRow[]; shippers: Map<number, WarehouseFulfiller> }) {
  return (
    <Layout ctx={ctx} title={`Install ${app.name}`}>
      <h1 safe>{`Install ${app.name}`}</h1>
      <dl class="facts">
        <dt>Kind</dt>
        <dd safe>{KIND_LABELS[app.kind] ?? app.kind}</dd>
        <dt>Scopes it gets</dt>
        <dd safe>{app.scopes.join(', ')}</dd>
      </dl>
      <p class="muted">Installing sends you to the partner's site with a one-time code it exchanges for access to this account.</p>
      {/* A full navigation, not htmx: the answer is a redirect to the partner's own site. */}
      <form class="stack" method="post" action={`/console/apps/${app.id}/install`} hx-boost="false">
        <CsrfField token={ctx.csrfToken} />
        {isIntegrationKind(app.kind) ? (
          <WarehouseMappings warehouses={warehouses} shippers={shippers} />
        ) : (
          <Field label="Storefront name" name="storefrontName" hint={`The channel label orders carry; empty: ${app.name}`} />
        )}
        <button type="submit">Install</button>
      </form>
      <p>
        <a href="/console/apps">Back to apps</a>
      </p>
    </Layout>
  );
}

/** POST …/installations's body as the install form names its fields. */
const INSTALL_WORDS: FormWords = {
  'warehouses.warehouseUniqueId': { blank: APP_REFUSALS['app.partner_id_missing']({}), label: "Partner's id" },
  'warehouses.warehouseId': { says: 'Choose warehouses from the list.' },
  warehouses: 'Warehouses',
  storefrontName: 'Storefront name',
};

/**
 * The form as the body POST …/installations takes, checked by its schema (then by the domain, as there).
 * A mapping row is a ticked warehouse and the partner's id typed next to it.
 */
function installInput(app: AppRecord, body: unknown): InstallInput {
  if (!isIntegrationKind(app.kind)) {
    const storefrontName = field(body, 'storefrontName').trim();
    return checkForm(InstallAppBody, { appId: app.id, ...(storefrontName !== '' ? { storefrontName } : {}) }, INSTALL_WORDS);
  }
  const warehouses = fields(body, 'warehouse')
    .filter((v) => /^[1-9][0-9]{0,15}$/.test(v))
    .map((v) => ({ warehouseId: formInt(v), warehouseUniqueId: field(body, uniqueIdField(Number(v))).trim() }));
  return checkForm(InstallAppBody, { appId: app.id, warehouses }, INSTALL_WORDS);
}

export function registerInstallApp(scope: FastifyInstance, deps: Deps): void {
  scope.get('/apps/:appId/install', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const app = await getApp(deps.db.db, idParam(request.params, 'appId'));
    const warehouses = isIntegrationKind(app.kind) ? await listAccountWarehouses(deps.db.db, user.accountId) : [];
    const shippers = kindFulfilsOrders(app.kind) ? await warehouseFulfillers(deps.db.db, user.accountId) : new Map<number, WarehouseFulfiller>();
    // The form's answer redirects to the partner's site: this page's CSP lets the form go there.
    reply.header('Content-Security-Policy', cspWithFormTargets([new URL(app.redirectUri).origin]));
    return sendHtml(reply, <InstallPage ctx={pageContext(request, reply, user, '/console/apps')} app={app} warehouses={warehouses} shippers={shippers} />);
  });

  scope.post('/apps/:appId/install', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const app = await getApp(deps.db.db, idParam(request.params, 'appId'));
    let redirectUrl: string;
    try {
      const input = installInput(app, request.body);
      const installed = await inSellerWords(() => withTx(deps.db.db, (tx) => installApp(tx, user.accountId, input, deps.clock.now(), warehouseWorkPort)));
      request.log.info({ installationId: installed.installationId, appId: app.id }, 'console: app installed');
      redirectUrl = installed.redirectUrl;
    } catch (error) {
      // A refusal (no mapping, a warehouse taken, a blank id…) goes back to the form with the domain's reason.
      if (!isAppError(error) || error.status >= 500) throw error;
      const text = error.violations.length > 0 ? error.violations.map((v) => `${v.field}: ${v.description}`).join('; ') : error.message;
      flash(deps, request, reply, 'bad', text);
      return reply.redirect(`/console/apps/${app.id}/install`, 303);
    }
    // Contract 5.2: the browser goes to the partner's redirect URI with client_id and the one-time code.
    return reply.header('Cache-Control', 'no-store').redirect(redirectUrl, 303);
  });
}
