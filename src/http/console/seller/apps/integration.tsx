import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { appNames } from '../../../../domain/accounts/app-catalog.js';
import { mapWarehouse, uninstallApp, unmapWarehouse } from '../../../../domain/accounts/integration-changes.js';
import { listInstallations, type InstallationView } from '../../../../domain/accounts/installations.js';
import { kindControlsStock, kindFulfilsOrders } from '../../../../domain/accounts/principal.js';
import { warehouseFulfillers, type WarehouseFulfiller } from '../../../../domain/accounts/warehouse-mappings.js';
import { listAccountWarehouses, type WarehouseRow } from '../../../../domain/accounts/warehouses.js';
import { notFound } from '../../../../domain/errors.js';
import { openWorkOfIntegration, warehouseWorkPort, type OpenWorkCount } from '../../../../domain/fulfillment/warehouse-handover.js';
import { MapWarehouseBody } from '../../../admin/map-warehouse.js';
import { Badge, Field, PostForm, Table, formAction, formatTs } from '../../components.js';
import { readForm, requireConfirmed, type FormWords } from '../../form-check.js';
import { Layout, type PageContext } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { idParam } from '../params.js';
import { KIND_LABELS } from './apps-page.js';
import { APP_REFUSALS, inSellerWords, pulledBackText } from './seller-words.js';

/** POST …/installations/{id}/warehouses's body as the mapping form names its fields. */
const MAP_WORDS: FormWords = {
  warehouseId: { says: 'Choose a warehouse from the list.' },
  warehouseUniqueId: { blank: APP_REFUSALS['app.partner_id_missing']({}), label: "Partner's id" },
};

/**
 * An installed shipping, inventory or 3PL app (an integration): the warehouses it works with, mapping one
 * more, stopping its use for one, and uninstalling it (resolutions §6: one shipping app per warehouse; what
 * it had not shipped goes back to waiting in the warehouse for the next one). Both removals ask the seller to
 * confirm, saying what happens to the open orders first.
 */

interface IntegrationPageData {
  ctx: PageContext;
  integration: InstallationView;
  appName: string;
  warehouses: WarehouseRow[];
  fulfillers: Map<number, WarehouseFulfiller>;
  openWork: OpenWorkCount[];
}

const orders = (n: number) => `${n} order${n === 1 ? '' : 's'}`;

/** The open orders of one warehouse, as the seller reads them. */
function openWorkText(work: OpenWorkCount | undefined): string {
  if (!work) return 'none';
  const parts = [];
  if (work.waiting > 0) parts.push(`${orders(work.waiting)} not accepted yet`);
  if (work.acknowledged > 0) parts.push(`${orders(work.acknowledged)} accepted`);
  return parts.join(', ');
}

/** What uninstalling, or stopping its use for a warehouse, does to its open orders. */
function effectText(appName: string, work: { waiting: number; acknowledged: number }): string {
  if (work.waiting === 0 && work.acknowledged === 0) return `${appName} has no open orders there.`;
  return (
    `${work.waiting > 0 ? `${orders(work.waiting)} it has not accepted yet leave its list at once. ` : ''}` +
    `${work.acknowledged > 0 ? `${orders(work.acknowledged)} it has accepted get a cancellation request it should confirm. ` : ''}` +
    'The units stay reserved in the warehouse, and the next shipping app you connect there gets these orders.'
  );
}

function WarehouseRows({ d }: { d: IntegrationPageData }) {
  const ships = kindFulfilsOrders(d.integration.kind);
  const base = `/console/apps/integrations/${d.integration.installationId}`;
  const nameOf = (id: number) => d.warehouses.find((w) => w.id === id)?.name ?? `Warehouse ${id}`;
  return (
    <Table caption="Warehouses this app works with" head={['Warehouse', "Partner's id", 'What it does', ...(ships ? ['Open orders'] : []), '']}>
      {d.integration.mappings.map((m) => {
        const work = d.openWork.find((w) => w.warehouseId === m.warehouseId);
        const name = nameOf(m.warehouseId);
        const roles = [ships ? 'Ships orders' : '', m.controlsStock ? 'Controls stock' : ''].filter((r) => r !== '').join(', ');
        return (
          <tr>
            <td safe>{name}</td>
            <td safe>{m.warehouseUniqueId}</td>
            <td safe>{roles || 'Reads stock'}</td>
            {ships ? <td safe>{openWorkText(work)}</td> : ''}
            <td>
              {d.integration.status === 'ACTIVE' ? (
                <PostForm action={`${base}/warehouses/${m.warehouseId}/unmap`} csrfToken={d.ctx.csrfToken} confirm={`Stop using ${d.appName} for ${name}?`}>
                  {ships ? <p class="hint" safe>{effectText(d.appName, work ?? { waiting: 0, acknowledged: 0 })}</p> : ''}
                  <label>
                    <input type="checkbox" name="confirm" value="yes" required />
                    <span safe>{`Yes, stop using it for ${name}`}</span>
                  </label>
                  <button type="submit" class="danger">
                    Stop using
                  </button>
                </PostForm>
              ) : (
                ''
              )}
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

function MapWarehouseForm({ d }: { d: IntegrationPageData }) {
  const mapped = new Set(d.integration.mappings.map((m) => m.warehouseId));
  const candidates = d.warehouses.filter((w) => !mapped.has(w.id));
  if (candidates.length === 0) return <p class="muted">Every warehouse of this account already works with this app.</p>;
  const ships = kindFulfilsOrders(d.integration.kind);
  const note = (w: WarehouseRow) => {
    const shipper = ships ? d.fulfillers.get(w.id) : undefined;
    if (shipper) return ` (ships with ${shipper.appName})`;
    return kindControlsStock(d.integration.kind) && w.controlledBy !== null ? ' (stock controlled by another app)' : '';
  };
  return (
    <PostForm action={`/console/apps/integrations/${d.integration.installationId}/warehouses`} csrfToken={d.ctx.csrfToken} class="stack">
      <label>
        <span>Warehouse</span>
        <select name="warehouseId">
          {candidates.map((w) => (
            <option value={String(w.id)} safe>
              {`${w.name}${note(w)}`}
            </option>
          ))}
        </select>
      </label>
      <Field label="Partner's id for it" name="warehouseUniqueId" required hint="The id the partner knows this warehouse by." />
      {ships ? <p class="hint">Orders already waiting in that warehouse become this app's to ship.</p> : ''}
      <button type="submit">Use for this warehouse</button>
    </PostForm>
  );
}

function IntegrationPage({ d }: { d: IntegrationPageData }) {
  const i = d.integration;
  const active = i.status === 'ACTIVE';
  const total = d.openWork.reduce((t, w) => ({ waiting: t.waiting + w.waiting, acknowledged: t.acknowledged + w.acknowledged }), { waiting: 0, acknowledged: 0 });
  return (
    <Layout ctx={d.ctx} title={d.appName}>
      <h1 safe>{d.appName}</h1>
      <dl class="facts">
        <dt>Kind</dt>
        <dd safe>{KIND_LABELS[i.kind] ?? i.kind}</dd>
        <dt>Integration id</dt>
        <dd safe>{String(i.installationId)}</dd>
        <dt>Status</dt>
        <dd>
          <Badge tone={active ? 'ok' : 'none'} text={active ? 'Installed' : `Uninstalled ${formatTs(i.revokedAt, d.ctx.settings)}`} />
        </dd>
      </dl>
      <section aria-labelledby="warehouses-title">
        <h2 id="warehouses-title">Warehouses</h2>
        {i.mappings.length === 0 ? <p class="muted">This app works with no warehouse.</p> : <WarehouseRows d={d} />}
        {kindFulfilsOrders(i.kind) ? <p class="muted">A warehouse works with one shipping app at a time.</p> : ''}
      </section>
      {active ? (
        <>
          <section aria-labelledby="map-title">
            <h2 id="map-title">Use it for another warehouse</h2>
            <MapWarehouseForm d={d} />
          </section>
          <section aria-labelledby="uninstall-title">
            <h2 id="uninstall-title">Uninstall</h2>
            <p class="muted" safe>{`${d.appName} loses its access to your account at once.`}</p>
            {kindFulfilsOrders(i.kind) ? <p safe>{effectText(d.appName, total)}</p> : ''}
            <PostForm action={`/console/apps/integrations/${i.installationId}/uninstall`} csrfToken={d.ctx.csrfToken} confirm={`Uninstall ${d.appName}? It loses access at once.`}>
              <label>
                <input type="checkbox" name="confirm" value="yes" required />
                <span safe>{`Yes, uninstall ${d.appName}`}</span>
              </label>
              <button type="submit" class="danger">
                Uninstall
              </button>
            </PostForm>
          </section>
        </>
      ) : (
        ''
      )}
      <p>
        <a href="/console/apps">Back to apps</a>
      </p>
    </Layout>
  );
}

/** The account's integration (a shipping, inventory or 3PL installation, active or not), else a 404 page. */
async function integrationOfSeller(deps: Deps, accountId: number, integrationId: number): Promise<InstallationView> {
  const found = (await listInstallations(deps.db.db, accountId)).find((i) => i.integrationId === integrationId);
  if (!found) throw notFound(`integration ${integrationId} not found`);
  return found;
}

export function registerIntegrationPages(scope: FastifyInstance, deps: Deps): void {
  const target = async (request: FastifyRequest, reply: FastifyReply) => {
    const user = sellerOf(request, reply);
    if (!user) return null;
    const integration = await integrationOfSeller(deps, user.accountId, idParam(request.params, 'integrationId'));
    const names = await appNames(deps.db.db, [integration.appId]);
    return { user, integration, appName: names.get(integration.appId) ?? `App ${integration.appId}`, back: `/console/apps/integrations/${integration.installationId}` };
  };

  scope.get('/apps/integrations/:integrationId', { schema: { hide: true } }, async (request, reply) => {
    const t = await target(request, reply);
    if (!t) return reply;
    const db = deps.db.db;
    const [warehouses, fulfillers, openWork] = await Promise.all([
      listAccountWarehouses(db, t.user.accountId),
      warehouseFulfillers(db, t.user.accountId),
      openWorkOfIntegration(db, t.user.accountId, t.integration.installationId),
    ]);
    const ctx = pageContext(request, reply, t.user, '/console/apps');
    return sendHtml(reply, <IntegrationPage d={{ ctx, integration: t.integration, appName: t.appName, warehouses, fulfillers, openWork }} />);
  });

  scope.post('/apps/integrations/:integrationId/warehouses', { schema: { hide: true } }, async (request, reply) => {
    const t = await target(request, reply);
    if (!t) return reply;
    return formAction(deps, request, reply, t.back, '', async () => {
      const input = readForm(MapWarehouseBody, request.body, { trim: ['warehouseUniqueId'], words: MAP_WORDS });
      const mapped = await inSellerWords(() =>
        withTx(deps.db.db, (tx) => mapWarehouse(tx, t.user.accountId, t.integration.installationId, input, deps.clock.now(), warehouseWorkPort)),
      );
      const assigned = mapped.fulfillmentOrdersAssigned > 0 ? ` ${orders(mapped.fulfillmentOrdersAssigned)} already waiting there are now its to ship.` : '';
      return `${t.appName} now works with this warehouse.${assigned}`;
    });
  });

  scope.post('/apps/integrations/:integrationId/warehouses/:warehouseId/unmap', { schema: { hide: true } }, async (request, reply) => {
    const t = await target(request, reply);
    if (!t) return reply;
    const warehouseId = idParam(request.params, 'warehouseId');
    return formAction(deps, request, reply, t.back, '', async () => {
      requireConfirmed(request.body, 'Tick the box to confirm, then press the button again.');
      const result = await withTx(deps.db.db, (tx) => unmapWarehouse(tx, t.user.accountId, t.integration.installationId, warehouseId, deps.clock.now(), warehouseWorkPort));
      const warehouse = (await listAccountWarehouses(deps.db.db, t.user.accountId)).find((w) => w.id === warehouseId)?.name ?? `warehouse ${warehouseId}`;
      const ships = kindFulfilsOrders(t.integration.kind);
      return `${t.appName} no longer works with ${warehouse}.${ships ? ` ${pulledBackText(result, warehouse)}` : ''}`;
    });
  });

  scope.post('/apps/integrations/:integrationId/uninstall', { schema: { hide: true } }, async (request, reply) => {
    const t = await target(request, reply);
    if (!t) return reply;
    return formAction(deps, request, reply, t.back, '', async () => {
      requireConfirmed(request.body, `Tick “Yes, uninstall ${t.appName}” to confirm.`);
      const result = await withTx(deps.db.db, (tx) => uninstallApp(tx, t.user.accountId, t.integration.installationId, deps.clock.now(), warehouseWorkPort));
      request.log.info({ installationId: t.integration.installationId }, 'console: app uninstalled');
      const ships = kindFulfilsOrders(t.integration.kind);
      return `${t.appName} is uninstalled; its access stopped at once.${ships ? ` ${pulledBackText(result, 'their warehouses')}` : ''}`;
    });
  });
}
