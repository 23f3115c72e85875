import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { REDIRECT_URI } from '../helpers/fixtures.js';
import {
  admin,
  assertV1Error,
  countRows,
  createAccountVia,
  exchangeCode,
  registerAppVia,
  type RegisteredApp,
} from '../helpers/admin.js';

const validApp = {
  name: 'ShipFast',
  contactEmail: 'dev@shipfast.example',
  redirectUri: REDIRECT_URI,
  kind: 'SHIPPING',
  scopes: ['sales:orders:fulfillment:self'],
};

describe('operator API: apps', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  it('registers an app and shows it without its secrets', async () => {
    const res = await admin(t, 'POST', '/admin/apps', {
      ...validApp,
      logoUrl: 'https://shipfast.example/logo.png',
      callbackBaseUrl: 'https://shipfast.example/callbacks',
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const created = res.json() as RegisteredApp;
    assert.deepEqual(Object.keys(created).sort(), ['appId', 'callbackSigningSecret', 'clientId', 'clientSecret']);
    assert.match(created.clientId, /^[0-9a-f]{20}$/);
    assert.match(created.clientSecret, /^[0-9a-f]{64}$/);
    assert.match(created.callbackSigningSecret, /^[0-9a-f]{64}$/);

    const got = await admin(t, 'GET', `/admin/apps/${created.appId}`);
    assert.equal(got.statusCode, 200);
    const view = got.json() as Record<string, unknown>;
    assert.deepEqual(view, {
      appId: created.appId,
      name: 'ShipFast',
      kind: 'SHIPPING',
      scopes: ['sales:orders:fulfillment:self'],
      clientId: created.clientId,
      contactEmail: 'dev@shipfast.example',
      redirectUri: REDIRECT_URI,
      logoUrl: 'https://shipfast.example/logo.png',
      callbackBaseUrl: 'https://shipfast.example/callbacks',
      createdAt: view.createdAt,
      previousSecretsValidUntil: null,
      eventTypes: [],
    });
    assert.match(String(view.createdAt), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(!got.body.includes(created.clientSecret) && !got.body.includes(created.callbackSigningSecret));
  });

  it('answers 404 for an unknown app and 400 for a malformed id', async () => {
    assertV1Error(await admin(t, 'GET', '/admin/apps/999999'), 404, /app 999999 not found/);
    assertV1Error(await admin(t, 'GET', '/admin/apps/x1'), 400, /appId/);
  });

  it('rejects unknown kinds and scopes naming the allowed values, and other bad input, creating nothing', async () => {
    const before = await countRows(t, 'apps');
    const badKind = assertV1Error(await admin(t, 'POST', '/admin/apps', { ...validApp, kind: 'WAREHOUSE' }), 400);
    assert.deepEqual(badKind, ['kind: must be one of SALES_CHANNEL, SHIPPING, INVENTORY, THIRD_PARTY_LOGISTICS, SELLER']);
    const badScope = assertV1Error(
      await admin(t, 'POST', '/admin/apps', { ...validApp, scopes: ['inventory', 'orders:all'] }),
      400,
    );
    assert.equal(badScope.length, 1);
    assert.match(badScope[0]!, /^scopes\[1\]: must be one of legacy, inventory, inventory:self, .*listing:self$/);
    assertV1Error(await admin(t, 'POST', '/admin/apps', { ...validApp, scopes: [] }), 400, /scopes/);
    assertV1Error(await admin(t, 'POST', '/admin/apps', { ...validApp, scopes: 'inventory' }), 400, /scopes: must be array/);
    assertV1Error(await admin(t, 'POST', '/admin/apps', { ...validApp, contactEmail: 'nobody' }), 400, /contactEmail/);
    assertV1Error(await admin(t, 'POST', '/admin/apps', { ...validApp, redirectUri: 'not a url' }), 400, /redirectUri/);
    assertV1Error(await admin(t, 'POST', '/admin/apps', { ...validApp, redirectUri: 'ftp://x.example/cb' }), 400, /redirectUri/);
    assertV1Error(await admin(t, 'POST', '/admin/apps', { ...validApp, callbackBaseUrl: 'nope' }), 400, /callbackBaseUrl/);
    assertV1Error(await admin(t, 'POST', '/admin/apps', { ...validApp, name: '  ' }), 400, /name: must not be blank/);
    const { redirectUri: _omitted, ...withoutRedirect } = validApp;
    assertV1Error(await admin(t, 'POST', '/admin/apps', withoutRedirect), 400, /redirectUri: is required/);
    assertV1Error(await admin(t, 'POST', '/admin/apps', '{"name":', { 'content-type': 'application/json' }), 400, /malformed JSON/);
    assert.equal(await countRows(t, 'apps'), before);
  });

  it('lists every admin status in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { tags: string[]; responses: Record<string, unknown>; security?: unknown }>>;
    };
    const expected: [string, string, string[]][] = [
      ['/admin/accounts', 'post', ['201', '400', '401']],
      ['/admin/accounts/{accountId}/warehouses', 'post', ['201', '400', '401', '404', '409']],
      ['/admin/apps/{appId}/rotate-secrets', 'post', ['200', '400', '401', '404', '409']],
      ['/admin/accounts/{accountId}/installations', 'post', ['201', '400', '401', '404', '409']],
      ['/admin/accounts/{accountId}/installations/{installationId}/revoke', 'post', ['200', '400', '401', '404', '409']],
      ['/admin/tokens/revoke', 'post', ['200', '400', '401', '404', '409']],
    ];
    for (const [path, method, statuses] of expected) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method} ${path} documented`);
      // Grouped by area in the reference: `admin: warehouses`, `admin: apps`…
      assert.match(op.tags[0] ?? '', /^admin: [a-z ]+$/, `${method} ${path}`);
      for (const s of statuses) assert.ok(op.responses[s], `${method} ${path} documents ${s}`);
      assert.deepEqual(op.security, [{ operatorToken: [] }]);
    }
    const adminOps = Object.entries(doc.paths).filter(([p]) => p.startsWith('/admin/'));
    assert.ok(adminOps.length >= 10);
  });
});

describe('operator API: secret rotation', () => {
  const clock = manualClock(new Date('2026-03-01T10:00:00.000Z'));
  let t: TestApp;
  let accountId: number;
  before(async () => {
    t = await createTestApp({ clock });
    accountId = await createAccountVia(t, 'Rotating');
  });
  after(async () => t.close());

  async function newCode(appId: number): Promise<string> {
    const res = await admin(t, 'POST', `/admin/accounts/${accountId}/installations`, { appId });
    assert.equal(res.statusCode, 201, res.body);
    return (res.json() as { code: string }).code;
  }

  it('keeps the old client secret working at POST /v1/token during the overlap, and not after', async () => {
    const app = await registerAppVia(t, 'SALES_CHANNEL', ['listing:self']);
    // No body at all: the default overlap of one day.
    const res = await admin(t, 'POST', `/admin/apps/${app.appId}/rotate-secrets`);
    assert.equal(res.statusCode, 200, res.body);
    const rotated = res.json() as RegisteredApp & { previousSecretsValidUntil: string };
    assert.equal(rotated.appId, app.appId);
    assert.equal(rotated.clientId, app.clientId);
    assert.notEqual(rotated.clientSecret, app.clientSecret);
    assert.notEqual(rotated.callbackSigningSecret, app.callbackSigningSecret);
    assert.match(rotated.clientSecret, /^[0-9a-f]{64}$/);
    assert.equal(rotated.previousSecretsValidUntil, '2026-03-02T10:00:00.000Z');
    const view = (await admin(t, 'GET', `/admin/apps/${app.appId}`)).json() as { previousSecretsValidUntil: string };
    assert.equal(view.previousSecretsValidUntil, '2026-03-02T10:00:00.000Z');

    clock.advance(23 * 3600 * 1000);
    const old = await exchangeCode(t, app.clientId, app.clientSecret, await newCode(app.appId));
    assert.equal(old.statusCode, 200, old.body);
    const fresh = await exchangeCode(t, app.clientId, rotated.clientSecret, await newCode(app.appId));
    assert.equal(fresh.statusCode, 200, fresh.body);

    clock.advance(2 * 3600 * 1000);
    const expired = await exchangeCode(t, app.clientId, app.clientSecret, await newCode(app.appId));
    assert.equal(expired.statusCode, 401);
    assert.equal((expired.json() as { error: string }).error, 'invalid_client');
    const stillNew = await exchangeCode(t, app.clientId, rotated.clientSecret, await newCode(app.appId));
    assert.equal(stillNew.statusCode, 200);
  });

  it('takes overlapSeconds, where 0 retires the old secret at once', async () => {
    const app = await registerAppVia(t, 'SALES_CHANNEL', ['listing:self']);
    const res = await admin(t, 'POST', `/admin/apps/${app.appId}/rotate-secrets`, { overlapSeconds: 0 });
    assert.equal(res.statusCode, 200);
    assert.equal((res.json() as { previousSecretsValidUntil: string }).previousSecretsValidUntil, clock.now().toISOString());
    const old = await exchangeCode(t, app.clientId, app.clientSecret, await newCode(app.appId));
    assert.equal(old.statusCode, 401);
  });

  it('rejects bad overlaps and unknown apps, changing nothing', async () => {
    const app = await registerAppVia(t, 'SALES_CHANNEL', ['listing:self']);
    const url = `/admin/apps/${app.appId}/rotate-secrets`;
    assertV1Error(await admin(t, 'POST', url, { overlapSeconds: -1 }), 400, /overlapSeconds: must be >= 0/);
    assertV1Error(await admin(t, 'POST', url, { overlapSeconds: 'day' }), 400, /overlapSeconds: must be integer/);
    assertV1Error(await admin(t, 'POST', url, { overlapSeconds: 1.5 }), 400, /overlapSeconds/);
    assertV1Error(await admin(t, 'POST', url, { overlapSeconds: 40 * 86400 }), 400, /overlapSeconds: must be <= 2592000/);
    assertV1Error(await admin(t, 'POST', '/admin/apps/999999/rotate-secrets', {}), 404, /app 999999/);
    const view = (await admin(t, 'GET', `/admin/apps/${app.appId}`)).json() as { previousSecretsValidUntil: string | null };
    assert.equal(view.previousSecretsValidUntil, null);
    const works = await exchangeCode(t, app.clientId, app.clientSecret, await newCode(app.appId));
    assert.equal(works.statusCode, 200);
  });
});
