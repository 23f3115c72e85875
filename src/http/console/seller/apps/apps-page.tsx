import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { appNames, listInstallableApps, type InstallableApp } from '../../../../domain/accounts/app-catalog.js';
import { tokenStatesByInstallation, type InstallationTokenState } from '../../../../domain/accounts/installation-tokens.js';
import { listInstallations, type InstallationView } from '../../../../domain/accounts/installations.js';
import { listAccountWarehouses } from '../../../../domain/accounts/warehouses.js';
import { Badge, Pager, Table, formatTs, type DisplaySettings } from '../../components.js';
import { Layout, type PageContext } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { decodeIdCursor, encodeIdCursor, queryText } from '../params.js';

const PAGE_SIZE = 50;

export const KIND_LABELS: Record<string, string> = {
  SALES_CHANNEL: 'Sales channel',
  SHIPPING: 'Shipping',
  INVENTORY: 'Inventory',
  THIRD_PARTY_LOGISTICS: '3PL',
};

function TokenState({ state, settings }: { state: InstallationTokenState | undefined; settings: DisplaySettings }) {
  if (!state) return <span class="muted">no token yet</span>;
  return (
    <span safe>{`${state.active} active, ${state.revoked} revoked; last issued ${formatTs(state.lastIssuedAt, settings)}`}</span>
  );
}

function InstalledRow({
  i,
  appName,
  tokens,
  warehouseNames,
  settings,
}: {
  i: InstallationView;
  appName: string;
  tokens: InstallationTokenState | undefined;
  warehouseNames: Map<number, string>;
  settings: DisplaySettings;
}) {
  const target =
    i.storefrontId !== null ? (
      <span safe>{`Storefront ${i.storefrontId}: ${i.storefrontName ?? ''}`}</span>
    ) : (
      <span safe>{`Integration ${i.integrationId ?? ''}`}</span>
    );
  return (
    <tr>
      <td safe>{String(i.installationId)}</td>
      <td safe>{appName}</td>
      <td safe>{KIND_LABELS[i.kind] ?? i.kind}</td>
      <td>
        <Badge tone={i.status === 'ACTIVE' ? 'ok' : 'none'} text={i.status === 'ACTIVE' ? 'Active' : `Revoked ${formatTs(i.revokedAt, settings)}`} />
      </td>
      <td>
        {i.storefrontId !== null ? (
          <a href={`/console/apps/storefronts/${i.storefrontId}`}>{target}</a>
        ) : i.integrationId !== null ? (
          // Its warehouses, and uninstalling it: on its own page.
          <a href={`/console/apps/integrations/${i.integrationId}`}>{target}</a>
        ) : (
          target
        )}
      </td>
      <td>
        {i.mappings.length === 0 ? (
          <span class="muted">–</span>
        ) : (
          <ul>
            {i.mappings.map((m) => (
              <li safe>{`${warehouseNames.get(m.warehouseId) ?? `Warehouse ${m.warehouseId}`} → ${m.warehouseUniqueId}${m.controlsStock ? ' (controls stock)' : ''}`}</li>
            ))}
          </ul>
        )}
      </td>
      <td>
        <TokenState state={tokens} settings={settings} />
      </td>
    </tr>
  );
}

function AppsPage(props: {
  ctx: PageContext;
  installed: InstallationView[];
  names: Map<number, string>;
  tokens: Map<number, InstallationTokenState>;
  warehouseNames: Map<number, string>;
  apps: InstallableApp[];
  next: string | null;
}) {
  return (
    <Layout ctx={props.ctx} title="Apps">
      <h1>Apps</h1>
      <section aria-labelledby="installed-title">
        <h2 id="installed-title">Installed</h2>
        {props.installed.length === 0 ? (
          <p class="muted">No app is installed yet.</p>
        ) : (
          <Table caption="Installed apps" head={['Installation', 'App', 'Kind', 'Status', 'Storefront or integration', 'Mapped warehouses', 'Tokens']}>
            {props.installed.map((i) => (
              <InstalledRow i={i} appName={props.names.get(i.appId) ?? `App ${i.appId}`} tokens={props.tokens.get(i.installationId)} warehouseNames={props.warehouseNames} settings={props.ctx.settings} />
            ))}
          </Table>
        )}
        <p>
          <a href="/console/apps/callbacks">Callbacks sent to your partners</a> (deliveries, failures, replay)
        </p>
      </section>
      <section aria-labelledby="available-title">
        <h2 id="available-title">Available apps</h2>
        {props.apps.length === 0 ? (
          <p class="muted">The platform has no registered apps.</p>
        ) : (
          <Table caption="Apps you can install" head={['App', 'Kind', 'Scopes', '']}>
            {props.apps.map((a) => (
              <tr>
                <td safe>{a.name}</td>
                <td safe>{KIND_LABELS[a.kind] ?? a.kind}</td>
                <td safe>{a.scopes.join(', ')}</td>
                <td>
                  {/* A full page load: the install page brings its own CSP (its form may go to the partner's site). */}
                  <a class="button" href={`/console/apps/${a.appId}/install`} hx-boost="false">
                    Install
                  </a>
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pager base="/console/apps" params={{}} next={props.next} />
      </section>
    </Layout>
  );
}

export function registerAppsPage(scope: FastifyInstance, deps: Deps): void {
  scope.get('/apps', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const db = deps.db.db;
    const after = decodeIdCursor(deps, 'apps', queryText(request.query, 'cursor'));
    const [installed, tokens, warehouses, page] = await Promise.all([
      listInstallations(db, user.accountId),
      tokenStatesByInstallation(db, user.accountId),
      listAccountWarehouses(db, user.accountId),
      listInstallableApps(db, after, PAGE_SIZE),
    ]);
    const names = await appNames(
      db,
      installed.map((i) => i.appId),
    );
    const ctx = pageContext(request, reply, user, '/console/apps');
    return sendHtml(
      reply,
      <AppsPage
        ctx={ctx}
        installed={installed}
        names={names}
        tokens={tokens}
        warehouseNames={new Map(warehouses.map((w) => [w.id, w.name]))}
        apps={page.apps}
        next={encodeIdCursor(deps, 'apps', page.nextAfterId)}
      />,
    );
  });
}
