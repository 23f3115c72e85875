import type { Tx } from '../../db/tx.js';
import type { Signer } from '../../lib/signer.js';
import { createAccount, issueSellerToken } from '../accounts/accounts.js';
import { registerApp } from '../accounts/apps.js';
import { installApp } from '../accounts/installations.js';
import { exchangeAuthorizationCode } from '../accounts/oauth.js';
import { SCOPES, type AppKind, type Scope } from '../accounts/principal.js';
import { createWarehouse } from '../accounts/warehouses.js';
import { NO_ORDERS_YET } from '../accounts/warehouse-work-port.js';
import type { EventType } from '../callbacks/nudges.js';
import { attachPartnerSimulator } from './attach.js';

/**
 * The partner developer's starting point: one seller account with warehouses, one installed app of each
 * kind with a working access token, and a seller token. Everything goes through the same domain functions
 * the operator API and POST /v1/token use, so the sandbox behaves exactly like a production account.
 */

export const SANDBOX_REDIRECT_URI = 'http://localhost:3000/oauth/callback';

export interface SandboxWarehouse {
  key: 'main' | 'east' | 'marketplace' | 'west3pl';
  warehouseId: number;
  name: string;
  channelFulfilled: boolean;
}

export interface SandboxApp {
  kind: AppKind;
  appId: number;
  name: string;
  scopes: Scope[];
  clientId: string;
  clientSecret: string;
  callbackSigningSecret: string;
  redirectUri: string;
  /** The partner simulator's URL for the apps it plays (src/domain/sandbox-partner/), else null. */
  callbackBaseUrl: string | null;
  /** The event nudges the app is subscribed to (docs/partners/callback-nudges.md). */
  eventTypes: EventType[];
  installationId: number;
  storefrontId: number | null;
  storefrontName: string | null;
  integrationId: number | null;
  warehouses: { warehouseId: number; warehouseUniqueId: string }[];
  accessToken: string;
}

export interface SandboxSummary {
  account: { accountId: number; name: string };
  warehouses: SandboxWarehouse[];
  apps: SandboxApp[];
  sellerToken: { tokenId: number; accessToken: string; scopes: Scope[] };
}

interface AppPlan {
  kind: AppKind;
  name: string;
  scopes: Scope[];
  storefrontName?: string;
  warehouses?: { key: SandboxWarehouse['key']; warehouseUniqueId: string }[];
  /** Played by the partner simulator, subscribed to these nudges; absent: no callbacks (nothing to call back). */
  simulated?: { eventTypes: EventType[] };
}

const WAREHOUSES: { key: SandboxWarehouse['key']; name: string; channelFulfilled: boolean }[] = [
  { key: 'main', name: 'Main', channelFulfilled: false },
  { key: 'east', name: 'East', channelFulfilled: false },
  { key: 'marketplace', name: 'Marketplace network', channelFulfilled: true },
  { key: 'west3pl', name: '3PL West', channelFulfilled: false },
];

// Scopes each kind of partner typically agrees with the operator (document 5.4).
const APPS: AppPlan[] = [
  {
    kind: 'SALES_CHANNEL',
    name: 'Sandbox Channel',
    scopes: ['listing:self', 'sales:orders:self', 'inventory'],
    storefrontName: 'Sandbox Storefront',
    simulated: { eventTypes: ['ORDER_SHIPPED'] },
  },
  {
    kind: 'SHIPPING',
    name: 'Sandbox Shipping',
    scopes: ['sales:orders:fulfillment:self'],
    warehouses: [{ key: 'main', warehouseUniqueId: 'MAIN' }],
    simulated: { eventTypes: ['FULFILLMENT_ORDER_CHANGED', 'CANCELLATION_REQUESTED'] },
  },
  {
    kind: 'INVENTORY',
    name: 'Sandbox Inventory',
    scopes: ['inventory:self'],
    warehouses: [{ key: 'east', warehouseUniqueId: 'EAST' }],
  },
  {
    kind: 'THIRD_PARTY_LOGISTICS',
    name: 'Sandbox 3PL',
    scopes: ['sales:orders:fulfillment:self', 'inventory:self'],
    warehouses: [{ key: 'west3pl', warehouseUniqueId: 'WEST-3PL' }],
    simulated: { eventTypes: ['FULFILLMENT_ORDER_CHANGED', 'CANCELLATION_REQUESTED'] },
  },
];

/** Creates the sandbox in the caller's transaction: all of it or nothing. */
export async function buildSandbox(
  tx: Tx,
  signer: Signer,
  now: Date,
  options: { accountName?: string } = {},
): Promise<SandboxSummary> {
  const account = await createAccount(tx, { name: options.accountName ?? 'Sandbox seller' }, now);
  const warehouses: SandboxWarehouse[] = [];
  for (const w of WAREHOUSES) {
    const created = await createWarehouse(tx, account.accountId, { name: w.name, channelFulfilled: w.channelFulfilled }, now);
    warehouses.push({ key: w.key, ...created });
  }
  const idOf = (key: SandboxWarehouse['key']) => warehouses.find((w) => w.key === key)!.warehouseId;

  const apps: SandboxApp[] = [];
  for (const plan of APPS) {
    const credentials = await registerApp(
      tx,
      signer,
      {
        name: plan.name,
        contactEmail: 'developer@sandbox.example',
        redirectUri: SANDBOX_REDIRECT_URI,
        kind: plan.kind,
        scopes: plan.scopes,
      },
      now,
    );
    // The storefront, shipping and 3PL partners are played by the simulator, so every callback the seller
    // triggers is delivered and logged from the start (the inventory app receives none in the contract).
    const callbackBaseUrl = plan.simulated
      ? await attachPartnerSimulator(tx, account.accountId, credentials.appId, plan.simulated.eventTypes, now)
      : null;
    const mappings = (plan.warehouses ?? []).map((m) => ({ warehouseId: idOf(m.key), warehouseUniqueId: m.warehouseUniqueId }));
    const installed = await installApp(
      tx,
      account.accountId,
      { appId: credentials.appId, warehouses: mappings, storefrontName: plan.storefrontName ?? null },
      now,
      NO_ORDERS_YET,
    );
    // The partner's side of the Install button: the same exchange POST /v1/token performs.
    const { accessToken } = await exchangeAuthorizationCode(
      tx,
      {
        grantType: 'authorization_code',
        code: installed.code,
        redirectUri: SANDBOX_REDIRECT_URI,
        client: { clientId: credentials.clientId, clientSecret: credentials.clientSecret },
      },
      now,
    );
    apps.push({
      kind: plan.kind,
      appId: credentials.appId,
      name: plan.name,
      scopes: plan.scopes,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      callbackSigningSecret: credentials.callbackSigningSecret,
      redirectUri: SANDBOX_REDIRECT_URI,
      callbackBaseUrl,
      eventTypes: plan.simulated?.eventTypes ?? [],
      installationId: installed.installationId,
      storefrontId: installed.storefrontId,
      storefrontName: plan.storefrontName ?? null,
      integrationId: installed.integrationId,
      warehouses: mappings,
      accessToken,
    });
  }

  const seller = await issueSellerToken(tx, account.accountId, SCOPES, now);
  return {
    account,
    warehouses,
    apps,
    sellerToken: { tokenId: seller.tokenId, accessToken: seller.accessToken, scopes: seller.scopes },
  };
}

/** Two first requests a partner developer can paste into a shell. */
export function sandboxExamples(summary: SandboxSummary, baseUrl: string): string[] {
  const base = baseUrl.replace(/\/+$/, '');
  const auth = `-H "Authorization: Bearer ${summary.sellerToken.accessToken}"`;
  const stocked = summary.warehouses.filter((w) => w.key === 'main' || w.key === 'east').map((w) => w.warehouseId);
  return [
    `curl -s ${auth} "${base}/v1/warehouses"`,
    `curl -s ${auth} "${base}/v1/inventory?warehouses=${stocked.join(',')}"`,
  ];
}
