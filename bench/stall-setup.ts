/**
 * The account bench/stall.ts measures, set up through the HTTP API only (the service runs in another process):
 * an account with the warehouse "Main", a seller token for reports, a sales channel (app registered, installed,
 * its code exchanged at POST /v1/token) for the ingestion, and a second sales channel whose callbacks go to the
 * receiver (partner-sim) for the deliveries.
 */
import type { PartnerSim } from '../src/cli/partner-sim-server.js';
import { ADMIN_TOKEN, type StallContext } from './stall-workloads.js';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
const redirectUri = 'https://partner.example/oauth/callback';

async function post<T>(base: string, url: string, body: unknown, headers: Record<string, string> = admin): Promise<T> {
  const res = await fetch(`${base}${url}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 200 && res.status !== 201) throw new Error(`POST ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

interface Registered {
  appId: number;
  clientId: string;
  clientSecret: string;
  callbackSigningSecret: string;
}

async function salesChannel(base: string, accountId: number, name: string, callbackBaseUrl?: string) {
  const app = await post<Registered>(base, '/admin/apps', {
    name,
    contactEmail: 'dev@partner.example',
    redirectUri,
    kind: 'SALES_CHANNEL',
    scopes: ['listing:self'],
    ...(callbackBaseUrl ? { callbackBaseUrl } : {}),
  });
  const installed = await post<{ storefrontId: number; code: string }>(base, `/admin/accounts/${accountId}/installations`, { appId: app.appId, storefrontName: name });
  return { app, installed };
}

export async function setupAccount(base: string, sim: PartnerSim, arrivals: Map<string, number>): Promise<StallContext> {
  const { accountId } = await post<{ accountId: number }>(base, '/admin/accounts', { name: 'Bench stall' });
  await post(base, `/admin/accounts/${accountId}/warehouses`, { name: 'Main' });
  const seller = await post<{ access_token: string }>(base, `/admin/accounts/${accountId}/tokens`, { scopes: ['legacy', 'report'] });

  const channel = await salesChannel(base, accountId, 'Bench channel');
  const token = await post<{ access_token: string }>(
    base,
    '/v1/token',
    new URLSearchParams({ grant_type: 'authorization_code', code: channel.installed.code, redirect_uri: redirectUri }).toString(),
    {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${channel.app.clientId}:${channel.app.clientSecret}`).toString('base64')}`,
    },
  );

  const receiving = await salesChannel(base, accountId, 'Bench callbacks', sim.callbackBaseUrl);
  // The receiver verifies each call with the app's signing secret (one app per database of the run).
  secrets.push(receiving.app.callbackSigningSecret);
  sim.setSecrets(secrets);

  return {
    base,
    accountId,
    sellerToken: seller.access_token,
    channelToken: token.access_token,
    callbackStorefrontId: receiving.installed.storefrontId,
    sim,
    arrivals,
    catalogLoaded: false,
    ingestedProducts: 0,
  };
}

const secrets: string[] = [];
