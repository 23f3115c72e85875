import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { verifyCallback } from '@mcs/partner-client';
import { signCallback, signingString } from '../../src/domain/callbacks/signing.js';

/** The published vectors (docs/partners/callbacks.md "Test vectors"): change both together or neither. */
const SECRET = 'mcs-test-vector-secret-0001';
const SECOND = 'mcs-test-vector-secret-0002';
const AT = new Date('2026-01-01T00:00:00Z'); // 1767225600
const BODY = '{"storefrontId":"7","skus":[],"autoApplyIngestionPlan":false}';
const VECTORS = [
  { method: 'POST', path: '/callbacks/ingestion/initiate', body: BODY, secret: SECRET, hex: 'b2247219600ceff4bb83d0c5013e1119e418c9dc2e547941ef89c0e5b0b6c96e' },
  { method: 'GET', path: '/callbacks/v2/storefront/status/7', body: '', secret: SECRET, hex: '9eeeb1c4c8467539586c9d10cb6858cff80fcd20194e063570072f48557022bb' },
  { method: 'DELETE', path: '/callbacks/v2/storefront/configuration/7', body: '', secret: SECRET, hex: '0e02319f1571084252aed8ec5a25a431638d7a0b8e2fab7112909b3d26308589' },
  { method: 'GET', path: '/callbacks/v2/storefront/status/7', body: '', secret: SECOND, hex: '464c8193562d7edfc4c8d86fc726bbdbff1b6f45c967fee58fe4d061f859dc15' },
] as const;

/** 5.5 written out again with nothing but node:crypto, so the implementation is checked against the text. */
function independent(secret: string, ts: string, method: string, path: string, body: string): string {
  return createHmac('sha256', secret).update(`${ts}\n${method}\n${path}\n${body}`, 'utf8').digest('hex');
}

describe('callback signing (document 5.5)', () => {
  it('matches the published test vectors, and an independent computation of them', () => {
    for (const v of VECTORS) {
      assert.equal(independent(v.secret, '1767225600', v.method, v.path, v.body), v.hex, `${v.method} ${v.path}`);
      const headers = signCallback([v.secret], AT, v.method, v.path, v.body ? Buffer.from(v.body) : null);
      assert.equal(headers['X-Service-Timestamp'], '1767225600');
      assert.equal(headers['X-Service-Signature'], `v1=${v.hex}`);
    }
  });

  it('ends the GET and DELETE signing string with the LF after the path', () => {
    assert.equal(signingString('1', 'get', '/a?b=1', null).toString(), '1\nGET\n/a?b=1\n');
  });

  it('sends one v1= per active secret, current first, and either one verifies', () => {
    const headers = signCallback([SECOND, SECRET], AT, 'GET', '/callbacks/v2/storefront/status/7', null);
    assert.equal(headers['X-Service-Signature'], `v1=${VECTORS[3].hex},v1=${VECTORS[1].hex}`);
    for (const secrets of [[SECRET], [SECOND], [SECRET, SECOND]]) {
      assert.deepEqual(verifyCallback({ headers: { ...headers }, method: 'GET', pathWithQuery: '/callbacks/v2/storefront/status/7', secrets, now: AT }), { ok: true, timestamp: 1767225600 });
    }
  });

  it('verifies in the order of 5.5: headers, timestamp window, then the signature over the raw body', () => {
    const headers = { 'x-service-timestamp': '1767225600', 'x-service-signature': `v1=${VECTORS[0].hex}` };
    const base = { method: 'POST', pathWithQuery: '/callbacks/ingestion/initiate', rawBody: Buffer.from(BODY), secrets: [SECRET], now: AT };
    assert.deepEqual(verifyCallback({ ...base, headers }), { ok: true, timestamp: 1767225600 });
    assert.deepEqual(verifyCallback({ ...base, headers: { 'x-service-timestamp': '1767225600' } }), { ok: false, reason: 'missing-signature' });
    assert.deepEqual(verifyCallback({ ...base, headers, now: new Date(AT.getTime() + 301_000) }), { ok: false, reason: 'timestamp-out-of-tolerance' });
    assert.equal(verifyCallback({ ...base, headers, now: new Date(AT.getTime() - 300_000) }).ok, true);
    assert.equal(verifyCallback({ ...base, headers, rawBody: Buffer.from(BODY.replace('7', '8')) }).ok, false);
    assert.equal(verifyCallback({ ...base, headers, pathWithQuery: '/ingestion/initiate' }).ok, false, 'the base path prefix is signed');
    assert.equal(verifyCallback({ ...base, headers, secrets: ['another'] }).ok, false);
  });
});
