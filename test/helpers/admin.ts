import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { authenticateToken } from '../../src/domain/accounts/tokens.js';
import { ADMIN_TOKEN, type TestApp } from './app.js';
import { REDIRECT_URI } from './fixtures.js';

/** Helpers for the operator API tests: calls with the admin token and checks of the v1 error body. */

export const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };

export async function admin(
  t: TestApp,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    headers: { ...adminHeaders, ...headers },
    ...(payload === undefined ? {} : typeof payload === 'string' ? { payload } : { payload: payload as object }),
  });
}

/** Asserts a v1 error body with this status; returns its messages for further checks. */
export function assertV1Error(res: LightMyRequestResponse, status: number, pattern?: RegExp): string[] {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json() as { errorCode: number; errorMessages: string[]; referenceId: string };
  assert.equal(body.errorCode, status);
  assert.ok(Array.isArray(body.errorMessages) && body.errorMessages.length > 0);
  assert.equal(body.referenceId, res.headers['x-request-id']);
  if (pattern) assert.match(body.errorMessages.join('\n'), pattern);
  return body.errorMessages;
}

export async function createAccountVia(t: TestApp, name = 'Seller'): Promise<number> {
  const res = await admin(t, 'POST', '/admin/accounts', { name });
  assert.equal(res.statusCode, 201, res.body);
  return (res.json() as { accountId: number }).accountId;
}

export async function createWarehouseVia(t: TestApp, accountId: number, name: string): Promise<number> {
  const res = await admin(t, 'POST', `/admin/accounts/${accountId}/warehouses`, { name });
  assert.equal(res.statusCode, 201, res.body);
  return (res.json() as { warehouseId: number }).warehouseId;
}

export interface RegisteredApp {
  appId: number;
  clientId: string;
  clientSecret: string;
  callbackSigningSecret: string;
}

export async function registerAppVia(t: TestApp, kind: string, scopes: string[], name = `${kind} app`): Promise<RegisteredApp> {
  const res = await admin(t, 'POST', '/admin/apps', {
    name,
    contactEmail: 'dev@partner.example',
    redirectUri: REDIRECT_URI,
    kind,
    scopes,
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as RegisteredApp;
}

/** POST /v1/token with HTTP Basic client credentials. */
export async function exchangeCode(t: TestApp, clientId: string, clientSecret: string, code: string) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
    },
    payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }).toString(),
  });
}

/**
 * Whether a partner request with this token gets past authentication: GET /v1/warehouses once that route
 * exists (any status but 401 means the token was accepted), the auth hook's own lookup until then.
 */
export async function tokenAccepted(t: TestApp, token: string): Promise<boolean> {
  const res = await t.app.inject({ url: '/v1/warehouses', headers: { authorization: `Bearer ${token}` } });
  if (res.statusCode === 404 && /no route/.test(res.body)) return (await authenticateToken(t.deps.db, token)) !== null;
  return res.statusCode !== 401;
}

export async function countRows(t: TestApp, table: 'accounts' | 'warehouses' | 'apps' | 'installations' | 'access_tokens' | 'auth_codes') {
  const row = await t.deps.db.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
