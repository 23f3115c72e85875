import type { Db, Tx } from '../../db/tx.js';
import { conflict, invalidField, notFound } from '../errors.js';
import { getAccount, requireName } from './accounts.js';
import { getApp } from './apps.js';
import { isIntegrationKind, type AppKind } from './principal.js';
import { hashSecret, newAuthorizationCode } from './secrets.js';
import { addWarehouseMappings, checkMappingInput } from './warehouse-mappings.js';
import type { WarehouseWorkPort } from './warehouse-work-port.js';

export const AUTH_CODE_TTL_MS = 10 * 60 * 1000;

export interface InstallInput {
  appId: number;
  warehouses?: { warehouseId: number; warehouseUniqueId: string }[];
  storefrontName?: string | null;
}

export interface InstallResult {
  installationId: number;
  storefrontId: number | null;
  integrationId: number | null;
  code: string;
  redirectUrl: string;
}

/**
 * The Install button: an installation of the app on the account (a storefront for sales channels, an
 * integration with warehouse mappings otherwise) and a one-time code the partner exchanges for a token.
 * Mapping follows addWarehouseMappings: a warehouse that already ships with another integration is a 409
 * naming it, and a shipping or 3PL installation gets the units already owed in its warehouses as new
 * fulfillment orders (`work`).
 */
export async function installApp(tx: Tx, accountId: number, input: InstallInput, now: Date, work: WarehouseWorkPort): Promise<InstallResult> {
  await getAccount(tx, accountId);
  const app = await getApp(tx, input.appId);
  const mappings = input.warehouses ?? [];

  if (isIntegrationKind(app.kind)) {
    if (mappings.length === 0) {
      throw invalidField('warehouses', `a ${app.kind} installation needs at least one warehouse mapping`);
    }
  } else if (mappings.length > 0) {
    throw invalidField('warehouses', `a ${app.kind} installation takes no warehouse mappings`);
  }
  let storefrontName: string | null = null;
  if (input.storefrontName !== undefined && input.storefrontName !== null) {
    if (app.kind !== 'SALES_CHANNEL') {
      throw invalidField('storefrontName', `only a SALES_CHANNEL installation has a storefront; this app is ${app.kind}`);
    }
    storefrontName = requireName('storefrontName', input.storefrontName);
  }
  checkMappingInput(mappings);

  const installation = await tx
    .insertInto('installations')
    .values({
      account_id: accountId,
      app_id: app.id,
      kind: app.kind,
      status: 'ACTIVE',
      storefront_name: app.kind === 'SALES_CHANNEL' ? (storefrontName ?? app.name) : null,
      created_at: now.toISOString(),
      revoked_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await addWarehouseMappings(tx, accountId, { id: installation.id, kind: app.kind }, mappings, now, work);
  const code = newAuthorizationCode();
  await tx
    .insertInto('auth_codes')
    .values({
      account_id: accountId,
      installation_id: installation.id,
      app_id: app.id,
      code_hash: hashSecret(code),
      redirect_uri: app.redirectUri,
      expires_at: new Date(now.getTime() + AUTH_CODE_TTL_MS).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    })
    .execute();
  return {
    installationId: installation.id,
    storefrontId: app.kind === 'SALES_CHANNEL' ? installation.id : null,
    integrationId: isIntegrationKind(app.kind) ? installation.id : null,
    code,
    redirectUrl: installRedirectUrl(app.redirectUri, app.clientId, code),
  };
}

/**
 * Where the Install button sends the browser: `<redirect_uri>/?client_id=…&code=…` exactly as contract 5.2
 * writes it, so a `/` is added unless the path already ends with one. A query the redirect URI already has
 * is kept verbatim (any client_id or code in it is replaced); a fragment is dropped, since it never reaches
 * the partner's server (RFC 6749 §3.1.2 forbids one).
 */
export function installRedirectUrl(redirectUri: string, clientId: string, code: string): string {
  const url = new URL(redirectUri);
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !['client_id', 'code'].includes(pair.split('=')[0]!));
  const query = [...kept, `client_id=${encodeURIComponent(clientId)}`, `code=${encodeURIComponent(code)}`].join('&');
  return `${url.origin}${path}?${query}`;
}

export interface InstallationView {
  installationId: number;
  appId: number;
  kind: AppKind;
  status: 'ACTIVE' | 'REVOKED';
  /** The storefront's label, for SALES_CHANNEL installations. */
  storefrontName: string | null;
  storefrontId: number | null;
  integrationId: number | null;
  mappings: { warehouseId: number; warehouseUniqueId: string; controlsStock: boolean }[];
  createdAt: string;
  revokedAt: string | null;
}

/** Every installation of an account, oldest first, with its warehouse mappings (404 for an unknown account). */
export async function listInstallations(db: Db, accountId: number): Promise<InstallationView[]> {
  await getAccount(db, accountId);
  const rows = await db
    .selectFrom('installations')
    .select(['id', 'app_id', 'kind', 'status', 'storefront_name', 'created_at', 'revoked_at'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  const mappings = await db
    .selectFrom('warehouse_mappings')
    .select(['installation_id', 'warehouse_id', 'warehouse_unique_id', 'controls_stock'])
    .where('account_id', '=', accountId)
    .orderBy('installation_id')
    .orderBy('warehouse_id')
    .execute();
  const byInstallation = new Map<number, InstallationView['mappings']>();
  for (const m of mappings) {
    const list = byInstallation.get(m.installation_id) ?? [];
    list.push({ warehouseId: m.warehouse_id, warehouseUniqueId: m.warehouse_unique_id, controlsStock: m.controls_stock === 1 });
    byInstallation.set(m.installation_id, list);
  }
  return rows.map((r) => {
    const kind = r.kind as AppKind;
    return {
      installationId: r.id,
      appId: r.app_id,
      kind,
      status: r.status === 'ACTIVE' ? 'ACTIVE' : 'REVOKED',
      storefrontName: r.storefront_name,
      storefrontId: kind === 'SALES_CHANNEL' ? r.id : null,
      integrationId: isIntegrationKind(kind) ? r.id : null,
      mappings: byInstallation.get(r.id) ?? [],
      createdAt: r.created_at,
      revokedAt: r.revoked_at,
    };
  });
}

/**
 * Revokes an installation and, with it, every token issued for it; the warehouses it shipped from are free
 * for another integration. An integration's open work is NOT pulled back here: uninstallApp does both (a
 * storefront holds no work, so disconnecting one comes here directly).
 */
export async function revokeInstallation(
  tx: Tx,
  accountId: number,
  installationId: number,
  now: Date,
): Promise<{ installationId: number; status: 'REVOKED' }> {
  const revoked = await revokeInstallationReleasing(tx, accountId, installationId, now);
  return { installationId: revoked.installationId, status: revoked.status };
}

/** revokeInstallation, also answering which warehouses the installation shipped from until now. */
export async function revokeInstallationReleasing(
  tx: Tx,
  accountId: number,
  installationId: number,
  now: Date,
): Promise<{ installationId: number; status: 'REVOKED'; releasedWarehouseIds: number[] }> {
  const result = await tx
    .updateTable('installations')
    .set({ status: 'REVOKED', revoked_at: now.toISOString() })
    .where('account_id', '=', accountId)
    .where('id', '=', installationId)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    const exists = await tx
      .selectFrom('installations')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', '=', installationId)
      .executeTakeFirst();
    if (!exists) throw notFound(`installation ${installationId} not found`);
    throw conflict(`installation ${installationId} is already revoked`);
  }
  await tx
    .updateTable('access_tokens')
    .set({ revoked_at: now.toISOString() })
    .where('account_id', '=', accountId)
    .where('installation_id', '=', installationId)
    .where('revoked_at', 'is', null)
    .execute();
  // After the conditional status update: a parallel mapping of this installation (which locks its row the
  // same way) has committed by now or will find it revoked, so no fulfilling mapping is left behind.
  const released = await tx
    .updateTable('warehouse_mappings')
    .set({ fulfills: 0 })
    .where('account_id', '=', accountId)
    .where('installation_id', '=', installationId)
    .where('fulfills', '=', 1)
    .returning('warehouse_id')
    .execute();
  return { installationId, status: 'REVOKED', releasedWarehouseIds: released.map((r) => r.warehouse_id).sort((a, b) => a - b) };
}

/** Whether the account has a SALES_CHANNEL installation (a storefront) with this id, revoked or not. */
export async function isStorefrontOf(db: Db, accountId: number, storefrontId: number): Promise<boolean> {
  if (!Number.isSafeInteger(storefrontId)) return false;
  const row = await db
    .selectFrom('installations')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '=', storefrontId)
    .where('kind', '=', 'SALES_CHANNEL')
    .executeTakeFirst();
  return row !== undefined;
}
