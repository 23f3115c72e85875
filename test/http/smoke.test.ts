import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';

describe('service basics', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  it('answers /healthz and /readyz', async () => {
    assert.equal((await t.app.inject({ url: '/healthz' })).json().status, 'ok');
    const ready = await t.app.inject({ url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.equal(ready.json().status, 'ready');
  });

  it('serves the OpenAPI document and the docs page', async () => {
    const doc = await t.app.inject({ url: '/openapi.json' });
    assert.equal(doc.statusCode, 200);
    assert.equal(doc.json().openapi, '3.1.0');
    const docs = await t.app.inject({ url: '/docs/' });
    assert.equal(docs.statusCode, 200);
    assert.match(docs.body, /swagger/i);
  });

  it('sends a large GET answer with the Content-Length of its UTF-8 bytes and its JSON content type', async () => {
    // Answers over 16 K characters are encoded into a Buffer before sending (src/app.ts): the length must
    // count bytes, not characters (the document has multi-byte characters such as "—").
    const doc = await t.app.inject({ url: '/openapi.json' });
    assert.equal(doc.statusCode, 200);
    assert.ok(doc.body.length > 16_384);
    assert.equal(Number(doc.headers['content-length']), doc.rawPayload.length);
    assert.ok(doc.rawPayload.length > doc.body.length, 'the answer has multi-byte characters');
    assert.match(String(doc.headers['content-type']), /^application\/json/);
    assert.equal(doc.json().openapi, '3.1.0');
  });

  it('renders unknown v1 routes as the v1 error body with the request id', async () => {
    const res = await t.app.inject({ url: '/v1/nothing-here', headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 404);
    const body = res.json();
    assert.equal(body.errorCode, 404);
    assert.equal(body.referenceId, res.headers['x-request-id']);
    assert.ok(Array.isArray(body.errorMessages));
  });

  it('renders unknown v2 routes as google.rpc.Status', async () => {
    const res = await t.app.inject({ url: '/v2/nothing-here' });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), { code: 5, message: 'no route GET /v2/nothing-here', details: [] });
  });
});
