import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SCOPES } from '../../src/domain/accounts/principal.js';
import { authenticateToken } from '../../src/domain/accounts/tokens.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { admin, assertV1Error, countRows, createAccountVia, tokenAccepted } from '../helpers/admin.js';

interface IssuedToken {
  tokenId: number;
  access_token: string;
  token_type: string;
  scopes: string[];
}

describe('operator API: tokens', () => {
  let t: TestApp;
  let accountId: number;
  let otherAccount: number;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    accountId = await createAccountVia(t, 'Seller');
    otherAccount = await createAccountVia(t, 'Other');
    seed = await seedAccount(t, 'Seeded');
  });
  after(async () => t.close());

  const issue = async (scopes: unknown, account = accountId) => admin(t, 'POST', `/admin/accounts/${account}/tokens`, { scopes });

  it('issues an ad-hoc seller token with the chosen scopes', async () => {
    const res = await issue(['inventory', 'sales:orders', 'inventory']);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const body = res.json() as IssuedToken;
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'scopes', 'tokenId', 'token_type']);
    assert.equal(body.token_type, 'bearer');
    assert.match(body.access_token, /^mcs_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(body.scopes, ['inventory', 'sales:orders']);
    const principal = await authenticateToken(t.deps.db, body.access_token);
    assert.equal(principal?.accountId, accountId);
    assert.equal(principal?.kind, 'SELLER');
    assert.equal(principal?.tokenId, body.tokenId);
    assert.deepEqual([...(principal?.scopes ?? [])].sort(), ['inventory', 'sales:orders']);
    assert.ok(await tokenAccepted(t, body.access_token));
  });

  it('rejects unknown or missing scopes and unknown accounts, issuing nothing', async () => {
    const before = await countRows(t, 'access_tokens');
    const messages = assertV1Error(await issue(['inventory', 'everything']), 400);
    assert.deepEqual(messages, [`scopes[1]: must be one of ${SCOPES.join(', ')}`]);
    assertV1Error(await issue([]), 400, /scopes/);
    assertV1Error(await issue('inventory'), 400, /scopes: must be array/);
    assertV1Error(await issue([7]), 400, /scopes\[0\]/);
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${accountId}/tokens`, {}), 400, /scopes: is required/);
    assertV1Error(
      await admin(t, 'POST', `/admin/accounts/${accountId}/tokens`, '{"scopes":[', { 'content-type': 'application/json' }),
      400,
      /malformed JSON/,
    );
    assertV1Error(await issue(['inventory'], 999999), 404, /account 999999 not found/);
    assert.equal(await countRows(t, 'access_tokens'), before);
  });

  it('revokes a token by id: 401 at once, 409 the second time, 404 from another account', async () => {
    const issued = (await issue(['inventory'])).json() as IssuedToken;
    const foreign = await admin(t, 'POST', `/admin/accounts/${otherAccount}/tokens/${issued.tokenId}/revoke`);
    assertV1Error(foreign, 404, new RegExp(`token ${issued.tokenId} not found`));
    assert.ok(await tokenAccepted(t, issued.access_token), 'a 404 revokes nothing');

    const res = await admin(t, 'POST', `/admin/accounts/${accountId}/tokens/${issued.tokenId}/revoke`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { tokenId: issued.tokenId, accountId, status: 'REVOKED' });
    assert.equal(await tokenAccepted(t, issued.access_token), false);
    assert.equal(await authenticateToken(t.deps.db, issued.access_token), null);

    assertV1Error(await admin(t, 'POST', `/admin/accounts/${accountId}/tokens/${issued.tokenId}/revoke`), 409, /already revoked/);
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${accountId}/tokens/999999/revoke`), 404);
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${accountId}/tokens/abc/revoke`), 400, /tokenId/);
  });

  it('revokes a token an installation holds, leaving the installation\'s other tokens alone', async () => {
    const target = await authenticateToken(t.deps.db, seed.inventory.token);
    assert.ok(target);
    const res = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/tokens/${target.tokenId}/revoke`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await tokenAccepted(t, seed.inventory.token), false);
    assert.ok(await tokenAccepted(t, seed.shipping.token));
    assert.ok(await tokenAccepted(t, seed.sellerToken));
  });

  it('revokes a token by value, whatever its account', async () => {
    const issued = (await issue(['report'])).json() as IssuedToken;
    const res = await admin(t, 'POST', '/admin/tokens/revoke', { accessToken: issued.access_token });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { tokenId: issued.tokenId, accountId, status: 'REVOKED' });
    assert.equal(await tokenAccepted(t, issued.access_token), false);
    assertV1Error(await admin(t, 'POST', '/admin/tokens/revoke', { accessToken: issued.access_token }), 409, /already revoked/);

    const channel = await admin(t, 'POST', '/admin/tokens/revoke', { accessToken: seed.channel.token });
    assert.equal(channel.statusCode, 200);
    assert.equal((channel.json() as { accountId: number }).accountId, seed.accountId);
    assert.equal(await tokenAccepted(t, seed.channel.token), false);
  });

  it('answers 404 for an unknown token value and 400 for a bad body, revoking nothing', async () => {
    const live = (await issue(['inventory'])).json() as IssuedToken;
    assertV1Error(await admin(t, 'POST', '/admin/tokens/revoke', { accessToken: 'mcs_doesnotexist' }), 404, /no such access token/);
    assertV1Error(await admin(t, 'POST', '/admin/tokens/revoke', { accessToken: '' }), 400, /accessToken/);
    assertV1Error(await admin(t, 'POST', '/admin/tokens/revoke', { accessToken: 42 }), 400, /accessToken: must be string/);
    assertV1Error(await admin(t, 'POST', '/admin/tokens/revoke', { token: live.access_token }), 400);
    assertV1Error(
      await admin(t, 'POST', '/admin/tokens/revoke', `{"accessToken":"${live.access_token}"`, { 'content-type': 'application/json' }),
      400,
      /malformed JSON/,
    );
    assert.ok(await tokenAccepted(t, live.access_token));
  });
});
