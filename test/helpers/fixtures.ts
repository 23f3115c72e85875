import { createAccount } from '../../src/domain/accounts/accounts.js';
import { registerApp } from '../../src/domain/accounts/apps.js';
import { installApp } from '../../src/domain/accounts/installations.js';
import { warehouseWorkPort } from '../../src/domain/fulfillment/warehouse-handover.js';
import { issueAdHocToken } from '../../src/domain/accounts/oauth.js';
import { SCOPES, type AppKind, type Scope } from '../../src/domain/accounts/principal.js';
import { createWarehouse } from '../../src/domain/accounts/warehouses.js';
import { withTx } from '../../src/db/tx.js';
import type { TestApp } from './app.js';

export const REDIRECT_URI = 'https://partner.example/oauth/callback';

export interface InstalledApp {
  appId: number;
  clientId: string;
  clientSecret: string;
  installationId: number;
  token: string;
}

/** Registers an app, installs it on the account and exchanges the code through POST /v1/token. */
export async function installAndExchange(
  t: TestApp,
  accountId: number,
  kind: AppKind,
  scopes: Scope[],
  options: { warehouses?: { warehouseId: number; warehouseUniqueId: string }[]; storefrontName?: string; name?: string } = {},
): Promise<InstalledApp> {
  const now = t.deps.clock.now();
  const creds = await registerApp(
    t.deps.db.db,
    t.deps.signer,
    { name: options.name ?? `${kind} app`, contactEmail: 'dev@partner.example', redirectUri: REDIRECT_URI, kind, scopes },
    now,
  );
  const installed = await withTx(t.deps.db.db, (tx) =>
    installApp(tx, accountId, { appId: creds.appId, warehouses: options.warehouses, storefrontName: options.storefrontName }, now, warehouseWorkPort),
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`,
    },
    payload: new URLSearchParams({ grant_type: 'authorization_code', code: installed.code, redirect_uri: REDIRECT_URI }).toString(),
  });
  if (res.statusCode !== 200) throw new Error(`token exchange failed: ${res.statusCode} ${res.body}`);
  return {
    appId: creds.appId,
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    installationId: installed.installationId,
    token: (res.json() as { access_token: string }).access_token,
  };
}

export interface SeededAccount {
  accountId: number;
  /** Two ordinary warehouses and one channel-fulfilled one. */
  warehouses: { main: number; second: number; channel: number };
  /** Ad-hoc seller token with every scope. */
  sellerToken: string;
  /** INVENTORY integration controlling `second` (mapped as WH-SECOND) with scope inventory:self. */
  inventory: InstalledApp;
  /** SHIPPING integration on `main` (mapped as SHIP-MAIN). */
  shipping: InstalledApp;
  /** SALES_CHANNEL storefront. */
  channel: InstalledApp;
}

export async function seedAccount(t: TestApp, name = 'Seller'): Promise<SeededAccount> {
  const db = t.deps.db.db;
  const now = t.deps.clock.now();
  const { accountId } = await createAccount(db, { name }, now);
  const main = (await createWarehouse(db, accountId, { name: 'Main' }, now)).warehouseId;
  const second = (await createWarehouse(db, accountId, { name: 'Second' }, now)).warehouseId;
  const channel = (await createWarehouse(db, accountId, { name: 'Channel network', channelFulfilled: true }, now)).warehouseId;
  const { accessToken: sellerToken } = await issueAdHocToken(db, accountId, [...SCOPES], now);
  const inventory = await installAndExchange(t, accountId, 'INVENTORY', ['inventory:self'], {
    warehouses: [{ warehouseId: second, warehouseUniqueId: 'WH-SECOND' }],
  });
  const shipping = await installAndExchange(t, accountId, 'SHIPPING', ['sales:orders:fulfillment:self'], {
    warehouses: [{ warehouseId: main, warehouseUniqueId: 'SHIP-MAIN' }],
  });
  const channelApp = await installAndExchange(t, accountId, 'SALES_CHANNEL', ['listing:self', 'sales:orders:self'], {
    storefrontName: 'Shop One',
    name: 'Amazon',
  });
  return { accountId, warehouses: { main, second, channel }, sellerToken, inventory, shipping, channel: channelApp };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
