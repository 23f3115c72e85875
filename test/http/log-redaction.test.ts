import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { redactUrl } from '../../src/lib/log-redaction.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { logSink } from '../helpers/log-sink.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';

/** Credentials sent in a query string (where the service never reads them) must not reach the log. */
describe('credentials in query strings are redacted from the log', () => {
  const { lines, sink } = logSink();
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp({ logDestination: sink });
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  it('request and error logs keep the URL but not access_token, token, code or client_secret', async () => {
    lines.length = 0;
    const secrets = ['secret123', 'tok-456-secret', 'code-789-secret', 'client-secret-0ab', 'alias-code-1cd', 'encoded-name-2ef'];
    // Without a header (401), with a valid token (200), and on a route that does not exist (404).
    await t.app.inject({ url: '/v1/warehouses?access_token=secret123' });
    await t.app.inject({ url: '/v1/warehouses?pageLength=2&token=tok-456-secret', headers: { authorization: seed.sellerToken } });
    await t.app.inject({ url: '/v2/no-such-route?code=code-789-secret' });
    await t.app.inject({
      method: 'POST',
      url: '/v1/token?client_secret=client-secret-0ab&authorization_code=alias-code-1cd&access%5Ftoken=encoded-name-2ef',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=authorization_code&code=x&redirect_uri=https%3A%2F%2Fpartner.example%2Fcb',
    });
    // An error whose message quotes a URL.
    t.deps.log.error({ err: new Error('upstream failed for https://partner.example/cb/?client_id=a&code=code-789-secret') }, 'callback failed');

    const log = lines.join('');
    assert.match(log, /\/v1\/warehouses\?access_token=\[redacted\]/);
    assert.match(log, /\/v1\/warehouses\?pageLength=2&token=\[redacted\]/, 'other parameters are kept');
    assert.match(log, /\/v1\/token\?client_secret=\[redacted\]&authorization_code=\[redacted\]&access%5Ftoken=\[redacted\]/);
    assert.match(log, /client_id=a&code=\[redacted\]/);
    for (const secret of secrets) assert.ok(!log.includes(secret), `${secret} is in the log`);
  });

  it('redactUrl leaves other parameters, parameters that only end like a credential, and fragments alone', () => {
    assert.equal(redactUrl('/v1/inventory?nextToken=abc&pageLength=1'), '/v1/inventory?nextToken=abc&pageLength=1');
    assert.equal(redactUrl('/x?CODE=1&code&zipcode=2#f'), '/x?CODE=[redacted]&code&zipcode=2#f');
    assert.equal(redactUrl('/x'), '/x');
  });

  it('keeps the token out of the log in every URL form (encoded names, `;`, repeated keys, case, fragments)', async () => {
    lines.length = 0;
    // Each form carries its own secret, so a failure names the form that leaked. The table-driven unit test
    // (test/unit/log-redaction.test.ts) has the exact outputs; this checks what really reaches the log.
    const forms: [string, string][] = [
      ['/v1/warehouses?access_token%3D=', 'leak-encoded-eq-0a1'],
      ['/v1/warehouses?access_token%3D', 'leak-encoded-eq-only-0a2'],
      ['/v1/warehouses?access_token%253D=', 'leak-double-encoded-0a3'],
      ['/v1/warehouses?pageLength=2;access_token=', 'leak-semicolon-0a4'],
      ['/v1/warehouses?;token=', 'leak-semicolon-first-0a5'],
      ['/v1/warehouses?access_token=x&access_token=', 'leak-repeated-0a6'],
      ['/v1/warehouses?ACCESS_TOKEN=', 'leak-upper-0a7'],
      ['/v1/warehouses?Access_Token=', 'leak-mixed-0a8'],
      ['/v1/warehouses?%61ccess_token=', 'leak-encoded-letter-0a9'],
      ['/v1/warehouses?access%5Ftoken=', 'leak-encoded-underscore-0b1'],
      ['/v1/warehouses?a=1%26access_token%3D', 'leak-encoded-amp-0b2'],
      ['/v1/warehouses?a=1%3Bcode%3D', 'leak-encoded-semicolon-0b3'],
      ['/v1/warehouses?+access_token+=', 'leak-plus-0b4'],
      ['/v1/warehouses?access_token&', 'leak-next-segment-0b5'],
      ['/v1/warehouses?access_token[]=', 'leak-array-0b6'],
      ['/v1/warehouses?next=%2Fcb%3Fcode%3D', 'leak-nested-url-0b7'],
      ['/v1/warehouses?access_token=abc%20', 'leak-encoded-space-0b8'],
      ['/v1/warehouses?client_secret=', 'leak-client-secret-0b9'],
      ['/v1/warehouses?authorization_code=', 'leak-authorization-code-0c1'],
      ['/console/login?email=a%40b.example&password=', 'leak-password-0c2'],
      ['/console/reports/import?_csrf=', 'leak-csrf-0c3'],
      ['/console/%69nvite/', 'leak-invite-encoded-0c4'],
      ['/v2/no-such-route?x=1#access_token=', 'leak-fragment-0c5'],
      ['/v2/no-such-route?a=%zz&code=', 'leak-malformed-0c6'],
    ];
    for (const [prefix, secret] of forms) {
      await t.app.inject({ url: `${prefix}${secret}` });
      await t.app.inject({ url: `${prefix}${secret}`, headers: { authorization: seed.sellerToken } });
    }
    // The same URLs quoted in messages, as JSON and inside a JSON body quoted in a message.
    for (const [prefix, secret] of forms) {
      const url = `https://partner.example${prefix}${secret}`;
      t.deps.log.error({ err: new Error(`upstream failed for ${url}`) }, 'callback failed');
      t.deps.log.warn({ body: JSON.stringify({ url }).replace(/&/g, '\\u0026') }, `partner answered for ${url}`);
    }
    const log = lines.join('');
    assert.ok(log.includes('/v1/warehouses?'), 'the requests were logged');
    for (const [prefix, secret] of forms) assert.ok(!log.includes(secret), `${prefix}<token> leaked ${secret}`);
  });

  it("keeps a console invitation link's token and a form's CSRF token out of the log", async () => {
    lines.length = 0;
    await t.app.inject({ url: '/console/invite/invite-token-secret-123' });
    await t.app.inject({ method: 'POST', url: '/console/reports/import?_csrf=csrf-token-secret-456' });
    t.deps.log.warn({ link: 'https://shop.example/console/invite/invite-token-secret-789' }, 'an owner shared a link');
    const log = lines.join('');
    assert.match(log, /\/console\/invite\/\[redacted\]/);
    assert.match(log, /_csrf=\[redacted\]/);
    for (const secret of ['invite-token-secret-123', 'csrf-token-secret-456', 'invite-token-secret-789']) assert.ok(!log.includes(secret), `${secret} is in the log`);
    assert.equal(redactUrl('/console/invite/abc?x=1'), '/console/invite/[redacted]?x=1');
  });
});
