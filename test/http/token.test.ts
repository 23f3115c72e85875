import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createAccount } from '../../src/domain/accounts/accounts.js';
import { registerApp, rotateAppSecrets, type AppCredentials } from '../../src/domain/accounts/apps.js';
import { installApp, revokeInstallation, AUTH_CODE_TTL_MS } from '../../src/domain/accounts/installations.js';
import { authenticateToken } from '../../src/domain/accounts/tokens.js';
import { createWarehouse } from '../../src/domain/accounts/warehouses.js';
import { warehouseWorkPort } from '../../src/domain/fulfillment/warehouse-handover.js';
import type { AppKind, Scope } from '../../src/domain/accounts/principal.js';
import { withTx } from '../../src/db/tx.js';
import { manualClock } from '../../src/lib/clock.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { logSink } from '../helpers/log-sink.js';
import { REDIRECT_URI } from '../helpers/fixtures.js';

const TOKEN_FORMAT = /^mcs_[A-Za-z0-9_-]{43}$/;

const basic = (id: string, secret: string, suffix = '') =>
  `Basic ${Buffer.from(`${id}:${secret}${suffix}`).toString('base64')}`;

interface Installed {
  creds: AppCredentials;
  accountId: number;
  installationId: number;
  code: string;
}

async function registerAndInstall(t: TestApp, accountId: number, kind: AppKind = 'SALES_CHANNEL', scopes: Scope[] = ['listing:self']) {
  const now = t.deps.clock.now();
  const creds = await registerApp(
    t.deps.db.db,
    t.deps.signer,
    { name: `${kind} partner`, contactEmail: 'dev@partner.example', redirectUri: REDIRECT_URI, kind, scopes },
    now,
  );
  return installAgain(t, accountId, creds);
}

async function installAgain(t: TestApp, accountId: number, creds: AppCredentials): Promise<Installed> {
  const warehouse = (await createWarehouse(t.deps.db.db, accountId, { name: `W${Math.random()}` }, t.deps.clock.now())).warehouseId;
  const app = await t.deps.db.db.selectFrom('apps').select('kind').where('id', '=', creds.appId).executeTakeFirstOrThrow();
  const warehouses = app.kind === 'SALES_CHANNEL' || app.kind === 'SELLER' ? undefined : [{ warehouseId: warehouse, warehouseUniqueId: `U${warehouse}` }];
  const installed = await withTx(t.deps.db.db, (tx) => installApp(tx, accountId, { appId: creds.appId, warehouses }, t.deps.clock.now(), warehouseWorkPort));
  return { creds, accountId, installationId: installed.installationId, code: installed.code };
}

function exchange(t: TestApp, form: Record<string, string | string[]>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
  return t.app.inject({
    method: 'POST',
    url: '/v1/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: body.toString(),
  });
}

/** The usual exchange: code field, Basic auth. */
function standardExchange(t: TestApp, i: Installed, overrides: Record<string, string> = {}) {
  return exchange(
    t,
    { grant_type: 'authorization_code', code: i.code, redirect_uri: REDIRECT_URI, ...overrides },
    { authorization: basic(i.creds.clientId, i.creds.clientSecret) },
  );
}

function assertOAuthError(res: LightMyRequestResponse, status: number, error: string) {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json();
  assert.equal(body.error, error);
  assert.equal(typeof body.error_description, 'string');
  assert.ok(body.error_description.length > 0);
  assert.deepEqual(Object.keys(body).sort(), ['error', 'error_description']);
  assert.equal(res.headers['cache-control'], 'no-store');
  if (error === 'invalid_client') assert.match(String(res.headers['www-authenticate']), /^Basic\b/);
  else assert.equal(res.headers['www-authenticate'], undefined);
}

async function tokenCount(t: TestApp): Promise<number> {
  const rows = await t.deps.db.db.selectFrom('access_tokens').select('id').execute();
  return rows.length;
}

describe('POST /v1/token', () => {
  const clock = manualClock(new Date('2026-03-01T10:00:00.000Z'));
  let t: TestApp;
  let accountId: number;
  before(async () => {
    t = await createTestApp({ clock });
    accountId = (await createAccount(t.deps.db.db, { name: 'Token seller' }, clock.now())).accountId;
  });
  after(async () => t.close());

  it('accepts the published example: authorization_code field and Basic credentials with a trailing newline', async () => {
    const i = await registerAndInstall(t, accountId);
    const res = await exchange(
      t,
      { grant_type: 'authorization_code', authorization_code: i.code, redirect_uri: REDIRECT_URI },
      { authorization: basic(i.creds.clientId, i.creds.clientSecret, '\n') },
    );
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'token_type']);
    assert.equal(body.token_type, 'bearer');
    assert.match(body.access_token, TOKEN_FORMAT);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.headers.pragma, 'no-cache');
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const principal = await authenticateToken(t.deps.db, body.access_token);
    assert.equal(principal?.accountId, accountId);
    assert.equal(principal?.installationId, i.installationId);
    assert.equal(principal?.kind, 'SALES_CHANNEL');
    assert.deepEqual([...(principal?.scopes ?? [])], ['listing:self']);
  });

  it('accepts the code field, and the scheme word and a CRLF in any form', async () => {
    const i = await registerAndInstall(t, accountId);
    const res = await exchange(
      t,
      { grant_type: 'authorization_code', code: i.code, redirect_uri: REDIRECT_URI },
      { authorization: basic(i.creds.clientId, i.creds.clientSecret, '\r\n').replace('Basic', 'basic') },
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.json().access_token, TOKEN_FORMAT);
  });

  it('accepts client_id and client_secret as form fields', async () => {
    const i = await registerAndInstall(t, accountId, 'SHIPPING', ['sales:orders:fulfillment:self']);
    const res = await exchange(t, {
      grant_type: 'authorization_code',
      code: i.code,
      redirect_uri: REDIRECT_URI,
      client_id: i.creds.clientId,
      client_secret: i.creds.clientSecret,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await authenticateToken(t.deps.db, res.json().access_token))?.kind, 'SHIPPING');
  });

  it('issues a different token for every installation', async () => {
    const a = await registerAndInstall(t, accountId);
    const b = await installAgain(t, accountId, a.creds);
    const ta = (await standardExchange(t, a)).json().access_token;
    const tb = (await standardExchange(t, b)).json().access_token;
    assert.notEqual(ta, tb);
    assert.notEqual((await authenticateToken(t.deps.db, ta))?.installationId, (await authenticateToken(t.deps.db, tb))?.installationId);
  });

  describe('client authentication failures (401 invalid_client) leave the code usable', () => {
    it('both methods at once → 400 invalid_request', async () => {
      const i = await registerAndInstall(t, accountId);
      const res = await exchange(
        t,
        { grant_type: 'authorization_code', code: i.code, redirect_uri: REDIRECT_URI, client_id: i.creds.clientId, client_secret: i.creds.clientSecret },
        { authorization: basic(i.creds.clientId, i.creds.clientSecret) },
      );
      assertOAuthError(res, 400, 'invalid_request');
      assert.equal((await standardExchange(t, i)).statusCode, 200);
    });

    it('wrong secret (Basic or form), unknown client, missing or malformed credentials', async () => {
      const i = await registerAndInstall(t, accountId);
      const before = await tokenCount(t);
      const form = { grant_type: 'authorization_code', code: i.code, redirect_uri: REDIRECT_URI };
      const attempts: [Record<string, string>, Record<string, string>][] = [
        [form, { authorization: basic(i.creds.clientId, 'f'.repeat(64)) }],
        [form, { authorization: basic(i.creds.clientId, '') }],
        [form, { authorization: basic('00000000000000000000', i.creds.clientSecret) }],
        [{ ...form, client_id: i.creds.clientId, client_secret: 'wrong' }, {}],
        [{ ...form, client_id: 'nobody', client_secret: i.creds.clientSecret }, {}],
        [form, {}],
        [{ ...form, client_id: i.creds.clientId }, {}],
        [form, { authorization: `Basic ${Buffer.from('no-colon-here').toString('base64')}` }],
        [form, { authorization: `Basic ${Buffer.from(`:${i.creds.clientSecret}`).toString('base64')}` }],
      ];
      for (const [fields, headers] of attempts) {
        assertOAuthError(await exchange(t, fields, headers), 401, 'invalid_client');
      }
      assert.equal(await tokenCount(t), before, 'no token issued');
      assert.equal((await standardExchange(t, i)).statusCode, 200, 'the code was not burnt');
    });

    it('a rotated secret keeps working during the overlap, then only the new one does', async () => {
      const i = await registerAndInstall(t, accountId);
      const rotated = await rotateAppSecrets(t.deps.db.db, t.deps.signer, i.creds.appId, 60, clock.now());
      const second = await installAgain(t, accountId, i.creds);
      assert.equal((await standardExchange(t, i)).statusCode, 200, 'old secret inside the overlap');
      clock.advance(61_000);
      assertOAuthError(await standardExchange(t, second), 401, 'invalid_client');
      const res = await exchange(
        t,
        { grant_type: 'authorization_code', code: second.code, redirect_uri: REDIRECT_URI },
        { authorization: basic(i.creds.clientId, rotated.clientSecret) },
      );
      assert.equal(res.statusCode, 200, res.body);
    });
  });

  describe('request errors (400)', () => {
    it('missing grant_type, code or redirect_uri → invalid_request', async () => {
      const i = await registerAndInstall(t, accountId);
      const auth = { authorization: basic(i.creds.clientId, i.creds.clientSecret) };
      assertOAuthError(await exchange(t, { code: i.code, redirect_uri: REDIRECT_URI }, auth), 400, 'invalid_request');
      assertOAuthError(await exchange(t, { grant_type: 'authorization_code', redirect_uri: REDIRECT_URI }, auth), 400, 'invalid_request');
      assertOAuthError(await exchange(t, { grant_type: 'authorization_code', code: i.code }, auth), 400, 'invalid_request');
      assertOAuthError(await exchange(t, { grant_type: '', code: i.code, redirect_uri: REDIRECT_URI }, auth), 400, 'invalid_request');
      assertOAuthError(await exchange(t, {}, auth), 400, 'invalid_request');
      assert.equal((await standardExchange(t, i)).statusCode, 200, 'the code was not burnt');
    });

    it('a field given twice, a JSON-less content type or an empty body → invalid_request', async () => {
      const i = await registerAndInstall(t, accountId);
      const auth = { authorization: basic(i.creds.clientId, i.creds.clientSecret) };
      assertOAuthError(
        await exchange(t, { grant_type: 'authorization_code', code: [i.code, i.code], redirect_uri: REDIRECT_URI }, auth),
        400,
        'invalid_request',
      );
      const plain = await t.app.inject({
        method: 'POST',
        url: '/v1/token',
        headers: { 'content-type': 'text/plain', ...auth },
        payload: `grant_type=authorization_code&code=${i.code}&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`,
      });
      assertOAuthError(plain, 400, 'invalid_request');
      const empty = await t.app.inject({ method: 'POST', url: '/v1/token', headers: auth });
      assertOAuthError(empty, 400, 'invalid_request');
      // JSON with exactly the right fields is still not a token request (RFC 6749 §4.1.3).
      for (const contentType of ['application/json', 'application/json; charset=utf-8']) {
        const json = await t.app.inject({
          method: 'POST',
          url: '/v1/token',
          headers: { 'content-type': contentType, ...auth },
          payload: JSON.stringify({ grant_type: 'authorization_code', code: i.code, redirect_uri: REDIRECT_URI }),
        });
        assertOAuthError(json, 400, 'invalid_request');
        assert.match(json.json().error_description, /application\/x-www-form-urlencoded/);
      }
      const charset = await exchange(t, { grant_type: 'authorization_code', code: 'unknown', redirect_uri: REDIRECT_URI }, {
        ...auth,
        'content-type': 'Application/X-WWW-Form-Urlencoded; charset=UTF-8',
      });
      assertOAuthError(charset, 400, 'invalid_grant');
      assert.equal((await standardExchange(t, i)).statusCode, 200, 'the code was not burnt');
    });

    it('grant_type=password or client_credentials → unsupported_grant_type', async () => {
      const i = await registerAndInstall(t, accountId);
      assertOAuthError(await standardExchange(t, i, { grant_type: 'password' }), 400, 'unsupported_grant_type');
      assertOAuthError(await standardExchange(t, i, { grant_type: 'client_credentials' }), 400, 'unsupported_grant_type');
      assert.equal((await standardExchange(t, i)).statusCode, 200);
    });

    it('a redirect_uri other than the registered one → invalid_grant', async () => {
      const i = await registerAndInstall(t, accountId);
      for (const uri of [`${REDIRECT_URI}/`, REDIRECT_URI.toUpperCase(), 'https://evil.example/oauth/callback', `${REDIRECT_URI}?x=1`]) {
        assertOAuthError(await standardExchange(t, i, { redirect_uri: uri }), 400, 'invalid_grant');
      }
      assert.equal((await standardExchange(t, i)).statusCode, 200);
    });

    it('an unknown code → invalid_grant', async () => {
      const i = await registerAndInstall(t, accountId);
      assertOAuthError(await standardExchange(t, i, { code: 'not-a-code' }), 400, 'invalid_grant');
    });

    it('an expired code (older than 10 minutes) → invalid_grant', async () => {
      const fresh = await registerAndInstall(t, accountId);
      const stale = await installAgain(t, accountId, fresh.creds);
      clock.advance(AUTH_CODE_TTL_MS - 1000);
      assert.equal((await standardExchange(t, fresh)).statusCode, 200, 'still valid just before 10 minutes');
      clock.advance(2000);
      const res = await standardExchange(t, stale);
      assertOAuthError(res, 400, 'invalid_grant');
      assert.match(res.json().error_description, /expired/);
    });

    it('the code of another app → invalid_grant, and the code stays usable by its app', async () => {
      const mine = await registerAndInstall(t, accountId);
      const other = await registerAndInstall(t, accountId);
      const res = await exchange(
        t,
        { grant_type: 'authorization_code', code: mine.code, redirect_uri: REDIRECT_URI },
        { authorization: basic(other.creds.clientId, other.creds.clientSecret) },
      );
      assertOAuthError(res, 400, 'invalid_grant');
      assert.equal((await standardExchange(t, mine)).statusCode, 200);
    });

    it("a revoked installation's code → invalid_grant", async () => {
      const i = await registerAndInstall(t, accountId);
      await withTx(t.deps.db.db, (tx) => revokeInstallation(tx, accountId, i.installationId, clock.now()));
      assertOAuthError(await standardExchange(t, i), 400, 'invalid_grant');
      assert.equal(await t.deps.db.db.selectFrom('access_tokens').select('id').where('installation_id', '=', i.installationId).executeTakeFirst(), undefined);
    });
  });

  it('a code used twice → invalid_grant, and the token from the first use is revoked (committed)', async () => {
    const i = await registerAndInstall(t, accountId);
    const first = await standardExchange(t, i);
    assert.equal(first.statusCode, 200);
    const token = first.json().access_token as string;
    assert.ok(await authenticateToken(t.deps.db, token));
    assert.equal((await t.app.inject({ url: '/v1/warehouses', headers: { authorization: token } })).statusCode, 200);

    const second = await standardExchange(t, i);
    assertOAuthError(second, 400, 'invalid_grant');
    assert.equal(await authenticateToken(t.deps.db, token), null, 'the first token no longer authenticates');
    const refused = await t.app.inject({ url: '/v1/warehouses', headers: { authorization: token } });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().errorCode, 401);
    const row = await t.deps.db.db
      .selectFrom('access_tokens')
      .select(['revoked_at'])
      .where('token_hash', '=', sha256Hex(token))
      .executeTakeFirstOrThrow();
    assert.equal(row.revoked_at, clock.now().toISOString());
    assert.equal(
      (await t.deps.db.db.selectFrom('access_tokens').select('id').where('installation_id', '=', i.installationId).execute()).length,
      1,
      'the replay issued nothing',
    );
    // A third try is still refused and changes nothing more.
    assertOAuthError(await standardExchange(t, i), 400, 'invalid_grant');
  });

  it('two concurrent exchanges of one code: exactly one token is issued', async () => {
    const i = await registerAndInstall(t, accountId);
    const results = await Promise.all([standardExchange(t, i), standardExchange(t, i)]);
    const ok = results.filter((r) => r.statusCode === 200);
    assert.ok(ok.length <= 1, results.map((r) => r.body).join(' | '));
    for (const r of results.filter((x) => x.statusCode !== 200)) assertOAuthError(r, 400, 'invalid_grant');
    const live = await t.deps.db.db
      .selectFrom('access_tokens')
      .select('id')
      .where('installation_id', '=', i.installationId)
      .where('revoked_at', 'is', null)
      .execute();
    assert.ok(live.length <= 1);
  });

  it('stores the token, the code and the client secret only as SHA-256', async () => {
    const i = await registerAndInstall(t, accountId);
    const token = (await standardExchange(t, i)).json().access_token as string;
    const stored = await t.deps.db.db
      .selectFrom('access_tokens')
      .selectAll()
      .where('token_hash', '=', sha256Hex(token))
      .executeTakeFirstOrThrow();
    assert.equal(stored.token_hash, sha256Hex(token));
    // Dump every table: the raw values appear nowhere.
    const tables = await t.deps.db.db.introspection.getTables();
    assert.ok(tables.some((tb) => tb.name === 'access_tokens'));
    let dump = '';
    for (const table of tables) {
      const rows = await t.deps.db.db
        .selectFrom(table.name as 'access_tokens')
        .selectAll()
        .execute();
      dump += JSON.stringify(rows);
    }
    assert.ok(dump.includes(sha256Hex(token)));
    assert.ok(!dump.includes(token), 'raw access token stored');
    assert.ok(!dump.includes(token.slice(4)), 'raw access token body stored');
    assert.ok(!dump.includes(i.code), 'raw authorization code stored');
    assert.ok(!dump.includes(i.creds.clientSecret), 'raw client secret stored');
  });

  it('is listed in the OpenAPI document with its error statuses', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    const op = doc.paths['/v1/token'].post;
    for (const status of ['200', '400', '401', '500']) assert.ok(op.responses[status], status);
  });
});

describe('POST /v1/token never logs credentials', () => {
  const { lines, sink } = logSink();
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ logDestination: sink });
  });
  after(async () => t.close());

  it('keeps the access token, the client secret and the code out of the log', async () => {
    const accountId = (await createAccount(t.deps.db.db, { name: 'Logged seller' }, t.deps.clock.now())).accountId;
    const viaBasic = await registerAndInstall(t, accountId);
    const viaForm = await installAgain(t, accountId, viaBasic.creds);
    const replayed = await installAgain(t, accountId, viaBasic.creds);

    const tokens: string[] = [];
    const res1 = await standardExchange(t, viaBasic);
    assert.equal(res1.statusCode, 200);
    tokens.push(res1.json().access_token);
    const res2 = await exchange(t, {
      grant_type: 'authorization_code',
      code: viaForm.code,
      redirect_uri: REDIRECT_URI,
      client_id: viaBasic.creds.clientId,
      client_secret: viaBasic.creds.clientSecret,
    });
    assert.equal(res2.statusCode, 200);
    tokens.push(res2.json().access_token);
    // Failures log too: a wrong secret, a replayed code, a malformed request.
    await exchange(t, { grant_type: 'authorization_code', code: replayed.code, redirect_uri: REDIRECT_URI, client_id: viaBasic.creds.clientId, client_secret: `${viaBasic.creds.clientSecret}x` });
    assert.equal((await standardExchange(t, replayed)).statusCode, 200);
    assert.equal((await standardExchange(t, replayed)).statusCode, 400);
    await exchange(t, { grant_type: 'authorization_code', code: [viaForm.code, viaForm.code] }, { authorization: basic(viaBasic.creds.clientId, viaBasic.creds.clientSecret) });
    // Requests carrying the token, on a route that needs it and on one that does not exist.
    for (const token of tokens) {
      await t.app.inject({ url: '/v2/inventory/warehouses', headers: { authorization: `Bearer ${token}` } });
      await t.app.inject({ url: '/v1/warehouses', headers: { authorization: token } });
      await t.app.inject({ url: '/v1/no-such-route', headers: { authorization: `Bearer ${token}` } });
      await t.app.inject({ url: '/v1/warehouses', headers: { authorization: `Bearer ${token}x` } });
    }

    const log = lines.join('');
    assert.ok(lines.length > 10, 'the log was captured');
    assert.match(log, /\/v1\/token/);
    for (const token of tokens) {
      assert.ok(!log.includes(token), 'access token in the log');
      assert.ok(!log.includes(token.slice(4, 30)), 'part of an access token in the log');
    }
    assert.ok(!log.includes(viaBasic.creds.clientSecret), 'client secret in the log');
    assert.ok(!log.includes(Buffer.from(`${viaBasic.creds.clientId}:${viaBasic.creds.clientSecret}`).toString('base64').slice(0, 40)), 'Basic credentials in the log');
    for (const code of [viaBasic.code, viaForm.code, replayed.code]) assert.ok(!log.includes(code), 'authorization code in the log');
  });
});
