import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { callbackRejection, signingString, verifyCallback } from '../../packages/client/src/index.js';

// Vectors computed here with node:crypto from the text of document 5.5, not with the package's own signer.
const SECRET = 'whsec_test_0123456789abcdef';
const OLD_SECRET = 'whsec_previous_fedcba9876543210';
const TS = '1795780800'; // 2026-11-28T08:00:00Z
const NOW = new Date(Number(TS) * 1000);
const BODY = '{"storefrontId":"42","skus":["A-1","B-2"],"autoApplyIngestionPlan":false}';
const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text, 'utf8').digest('hex');

const postSig = hmac(SECRET, `${TS}\nPOST\n/partner/ingestion/initiate\n${BODY}`);
const getSig = hmac(SECRET, `${TS}\nGET\n/partner/v2/storefront/status/42?x=1\n`);

const post = (signature: string, extra: Partial<Parameters<typeof verifyCallback>[0]> = {}) =>
  verifyCallback({
    secret: SECRET,
    headers: { 'x-service-timestamp': TS, 'x-service-signature': signature },
    method: 'POST',
    pathWithQuery: '/partner/ingestion/initiate',
    rawBody: Buffer.from(BODY),
    now: NOW,
    ...extra,
  });

describe('verifyCallback (document 5.5)', () => {
  it('accepts a POST signed over timestamp, method, path with prefix and raw body', () => {
    assert.deepEqual(post(`v1=${postSig}`), { ok: true, timestamp: Number(TS) });
    assert.deepEqual(post(`v1=${postSig}`, { rawBody: BODY }), { ok: true, timestamp: Number(TS) }, 'a string body is its UTF-8 bytes');
  });

  it('accepts a GET whose string ends with the LF after the path (query included)', () => {
    const result = verifyCallback({
      secrets: [SECRET],
      headers: new Headers({ 'X-Service-Timestamp': TS, 'X-Service-Signature': `v1=${getSig}` }),
      method: 'get',
      pathWithQuery: '/partner/v2/storefront/status/42?x=1',
      now: NOW,
    });
    assert.deepEqual(result, { ok: true, timestamp: Number(TS) });
    assert.equal(signingString(TS, 'GET', '/p').toString(), `${TS}\nGET\n/p\n`);
  });

  it('rotation: two v1 values, either secret verifies', () => {
    const oldSig = hmac(OLD_SECRET, `${TS}\nPOST\n/partner/ingestion/initiate\n${BODY}`);
    const header = `v1=${oldSig}, v1=${postSig}`;
    assert.equal(post(header, { secret: undefined, secrets: [SECRET] }).ok, true, 'new secret only');
    assert.equal(post(header, { secret: undefined, secrets: [OLD_SECRET] }).ok, true, 'old secret only');
    assert.equal(post(header, { secret: undefined, secrets: [OLD_SECRET, SECRET] }).ok, true, 'both');
    assert.deepEqual(post(header, { secret: undefined, secrets: ['another'] }), { ok: false, reason: 'signature-mismatch' });
  });

  it('rejects a tampered body, method or path', () => {
    assert.deepEqual(post(`v1=${postSig}`, { rawBody: BODY.replace('false', 'true') }), { ok: false, reason: 'signature-mismatch' });
    assert.deepEqual(post(`v1=${postSig}`, { method: 'PUT' }), { ok: false, reason: 'signature-mismatch' });
    assert.deepEqual(post(`v1=${postSig}`, { pathWithQuery: '/ingestion/initiate' }), { ok: false, reason: 'signature-mismatch' });
    assert.deepEqual(post(`v1=${postSig.toUpperCase()}`), { ok: false, reason: 'signature-mismatch' }, 'lowercase hex only');
    assert.deepEqual(post(`v1=${postSig.slice(0, 10)}`), { ok: false, reason: 'signature-mismatch' }, 'another length');
    assert.deepEqual(post(`v0=${postSig}`), { ok: false, reason: 'no-v1-signature' });
  });

  it('rejects a timestamp more than 300 s off either way, accepts exactly 300 s', () => {
    const at = (offset: number) => post(`v1=${postSig}`, { now: new Date(NOW.getTime() + offset * 1000) });
    assert.equal(at(300).ok, true);
    assert.equal(at(-300).ok, true);
    assert.deepEqual(at(301), { ok: false, reason: 'timestamp-out-of-tolerance' });
    assert.deepEqual(at(-301), { ok: false, reason: 'timestamp-out-of-tolerance' });
    assert.equal(post(`v1=${postSig}`, { now: new Date(NOW.getTime() + 3600_000), toleranceSeconds: 3600 }).ok, true);
  });

  it('rejects missing headers and an unreadable timestamp', () => {
    const base = { secret: SECRET, method: 'POST', pathWithQuery: '/partner/ingestion/initiate', rawBody: BODY, now: NOW };
    assert.deepEqual(verifyCallback({ ...base, headers: { 'x-service-signature': `v1=${postSig}` } }), { ok: false, reason: 'missing-timestamp' });
    assert.deepEqual(verifyCallback({ ...base, headers: { 'x-service-timestamp': TS } }), { ok: false, reason: 'missing-signature' });
    assert.deepEqual(verifyCallback({ ...base, headers: { 'x-service-timestamp': `${TS}.5`, 'x-service-signature': `v1=${postSig}` } }), {
      ok: false,
      reason: 'invalid-timestamp',
    });
    assert.throws(() => verifyCallback({ ...base, secret: undefined, headers: {} }), /secret/);
  });

  it('gives the 401 v2 body of 7.3 rule 7', () => {
    assert.deepEqual(callbackRejection(), { status: 401, body: { code: 16, message: 'the callback signature is not valid', details: [] } });
  });
});
