import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { issueAdHocToken } from '../../src/domain/accounts/oauth.js';
import { revokeToken } from '../../src/domain/accounts/tokens.js';
import { revokeInstallation } from '../../src/domain/accounts/installations.js';
import { withTx } from '../../src/db/tx.js';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';

const V1_ROUTE = '/v1/warehouses';
const V2_ROUTE = '/v2/inventory/warehouses';

const INVALID_TOKEN = 'Bearer error="invalid_token"';
/** RFC 6750 §3.1: no credentials at all → a challenge with the realm and no error code. */
const NO_CREDENTIALS = 'Bearer realm="Multichannel Commerce Service"';

function assertV1Unauthenticated(res: LightMyRequestResponse, challenge = INVALID_TOKEN) {
  assert.equal(res.statusCode, 401, res.body);
  assert.equal(res.headers['www-authenticate'], challenge);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['errorCode', 'errorMessages', 'referenceId']);
  assert.equal(body.errorCode, 401);
  assert.equal(body.errorMessages.length, 1);
  assert.equal(typeof body.errorMessages[0], 'string');
  assert.equal(body.referenceId, res.headers['x-request-id']);
  assert.match(body.referenceId, /^[0-9a-f-]{36}$/);
}

function assertV2Unauthenticated(res: LightMyRequestResponse, challenge = INVALID_TOKEN) {
  assert.equal(res.statusCode, 401, res.body);
  assert.equal(res.headers['www-authenticate'], challenge);
  const body = res.json();
  assert.equal(body.code, 16);
  assert.equal(typeof body.message, 'string');
  assert.deepEqual(body.details, []);
  assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'message']);
}

describe('access tokens on partner routes', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  const get = (url: string, authorization?: string) =>
    t.app.inject({ url, headers: authorization === undefined ? {} : { authorization } });

  it('accepts the bare token and Bearer in any case and spacing, on v1 and v2', async () => {
    const token = seed.inventory.token;
    for (const header of [token, `Bearer ${token}`, `bearer ${token}`, `BEARER  ${token}`, `BeArEr\t${token}`, `  Bearer ${token}  `]) {
      for (const url of [V1_ROUTE, V2_ROUTE]) {
        const res = await get(url, header);
        assert.equal(res.statusCode, 200, `${url} with ${JSON.stringify(header.replace(token, '<token>'))}: ${res.body}`);
      }
    }
    const warehouses = (await get(V2_ROUTE, `Bearer ${token}`)).json().warehouses;
    assert.deepEqual(warehouses.map((w: { warehouseUniqueId: string }) => w.warehouseUniqueId), ['WH-SECOND']);
  });

  it('answers 401 for missing, malformed and unknown tokens: v1 body on v1, code 16 on v2', async () => {
    const wellFormedUnknown = `mcs_${'A'.repeat(43)}`;
    const headers: (string | undefined)[] = [
      undefined,
      '',
      ' ',
      'Bearer',
      'Bearer ',
      `Basic ${Buffer.from('id:secret').toString('base64')}`,
      'garbage',
      'Bearer garbage',
      `Bearer ${seed.inventory.token} extra`,
      `Token ${seed.inventory.token}`,
      `${seed.inventory.token}x`,
      seed.inventory.token.slice(0, -1),
      seed.inventory.token.toUpperCase(),
      wellFormedUnknown,
      `Bearer ${wellFormedUnknown}`,
      `mcs_${'x'.repeat(500)}`,
    ];
    for (const header of headers) {
      const challenge = (header ?? '').trim() === '' ? NO_CREDENTIALS : INVALID_TOKEN;
      assertV1Unauthenticated(await get(V1_ROUTE, header), challenge);
      assertV2Unauthenticated(await get(V2_ROUTE, header), challenge);
    }
  });

  it('the operator API challenges the same way: realm only without credentials, invalid_token with wrong ones', async () => {
    const none = await t.app.inject({ url: '/admin/accounts' });
    assert.equal(none.statusCode, 401);
    assert.equal(none.headers['www-authenticate'], NO_CREDENTIALS);
    const wrong = await t.app.inject({ url: '/admin/accounts', headers: { authorization: 'Bearer not-the-admin-token' } });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.headers['www-authenticate'], INVALID_TOKEN);
  });

  it('a 403 for a missing scope carries Bearer error="insufficient_scope" and the scopes that would do, v1 and v2', async () => {
    const scopesOf = (header: unknown) => {
      const match = /^Bearer error="insufficient_scope", scope="([^"]+)"$/.exec(String(header));
      assert.ok(match, `WWW-Authenticate: ${String(header)}`);
      return match[1]!.split(' ').sort();
    };
    // v1 inventory by SKU: a storefront token holds listing:self and sales:orders:self only.
    const v1 = await get('/v1/inventory/ANY-SKU', seed.channel.token);
    assert.equal(v1.statusCode, 403, v1.body);
    assert.equal(v1.json().errorCode, 403);
    assert.deepEqual(scopesOf(v1.headers['www-authenticate']), ['inventory', 'inventory:self', 'legacy']);
    // v2 inventory: a shipping integration holds sales:orders:fulfillment:self only.
    const v2 = await get(V2_ROUTE, `Bearer ${seed.shipping.token}`);
    assert.equal(v2.statusCode, 403, v2.body);
    assert.equal(v2.json().code, 7);
    assert.deepEqual(scopesOf(v2.headers['www-authenticate']), ['inventory', 'inventory:self']);
    // v2 shipping: an inventory integration lacks sales:orders:fulfillment:self.
    const shipping = await get('/v2/shipping/need_to_ship', `Bearer ${seed.inventory.token}`);
    assert.equal(shipping.statusCode, 403, shipping.body);
    assert.deepEqual(scopesOf(shipping.headers['www-authenticate']), ['sales:orders:fulfillment:self']);
  });

  it('does not accept the operator token or a client secret as an access token', async () => {
    assertV1Unauthenticated(await get(V1_ROUTE, `Bearer ${ADMIN_TOKEN}`));
    assertV2Unauthenticated(await get(V2_ROUTE, seed.inventory.clientSecret));
  });

  it('does not accept a partner token on the operator API', async () => {
    const res = await t.app.inject({ url: `/admin/accounts/${seed.accountId}`, headers: { authorization: `Bearer ${seed.sellerToken}` } });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().errorCode, 401);
  });

  it('a revoked token gets 401 at once, on v1 and v2', async () => {
    const { tokenId, accessToken } = await issueAdHocToken(t.deps.db.db, seed.accountId, ['legacy'], t.deps.clock.now());
    assert.equal((await get(V1_ROUTE, accessToken)).statusCode, 200);
    await revokeToken(t.deps.db.db, seed.accountId, tokenId, t.deps.clock.now());
    assertV1Unauthenticated(await get(V1_ROUTE, accessToken));
    assert.match((await get(V1_ROUTE, accessToken)).json().errorMessages[0], /invalid or revoked/);
  });

  it("revoking an installation revokes its tokens at once", async () => {
    const other = await createTestApp();
    try {
      const s = await seedAccount(other);
      assert.equal((await other.app.inject({ url: V2_ROUTE, headers: { authorization: s.inventory.token } })).statusCode, 200);
      await withTx(other.deps.db.db, (tx) => revokeInstallation(tx, s.accountId, s.inventory.installationId, other.deps.clock.now()));
      assertV2Unauthenticated(await other.app.inject({ url: V2_ROUTE, headers: { authorization: s.inventory.token } }));
      assertV1Unauthenticated(await other.app.inject({ url: V1_ROUTE, headers: { authorization: s.inventory.token } }));
      // Other installations of the account are unaffected.
      assert.equal((await other.app.inject({ url: V1_ROUTE, headers: { authorization: s.shipping.token } })).statusCode, 200);
    } finally {
      await other.close();
    }
  });

  it('a valid token without the scope or binding → 403, v1 body on v1, code 7 on v2', async () => {
    for (const token of [seed.sellerToken, seed.shipping.token, seed.channel.token]) {
      const res = await get(V2_ROUTE, `Bearer ${token}`);
      assert.equal(res.statusCode, 403, res.body);
      // A challenge names missing scopes only; the seller token has them all but is no inventory integration.
      if (token === seed.sellerToken) assert.equal(res.headers['www-authenticate'], undefined);
      else assert.match(String(res.headers['www-authenticate']), /^Bearer error="insufficient_scope"/);
      const body = res.json();
      assert.equal(body.code, 7);
      assert.deepEqual(body.details, []);
    }
  });

  it('needs no token on /healthz, /readyz, /openapi.json, /docs and /v1/token', async () => {
    for (const url of ['/healthz', '/readyz', '/openapi.json', '/docs/']) {
      assert.equal((await get(url)).statusCode, 200, url);
    }
    // /v1/token answers with its own OAuth errors, never the access-token 401.
    const res = await t.app.inject({ method: 'POST', url: '/v1/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().error, 'invalid_client');
  });

  it('every partner route in the OpenAPI document declares 401', async () => {
    const doc = (await get('/openapi.json')).json() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const path of [V1_ROUTE, V2_ROUTE]) {
      assert.ok(doc.paths[path]?.get?.responses['401'], `${path} lists 401`);
    }
  });
});
