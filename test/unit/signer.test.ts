import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSigner } from '../../src/lib/signer.js';
import { decodeV1Token, encodeV1Token, decodeV2Cursor, encodeCursor } from '../../src/http/pagination.js';
import { AppError } from '../../src/domain/errors.js';

const signer = createSigner('unit-test-secret-0123456789abcdef0123456789');
const other = createSigner('another-secret-0123456789abcdef0123456789abc');

const isPosition = (v: unknown): v is { ts: string; id: number } =>
  typeof v === 'object' && v !== null && typeof (v as { ts?: unknown }).ts === 'string' && typeof (v as { id?: unknown }).id === 'number';

function flipChar(s: string, index: number): string {
  const c = s[index]!;
  return s.slice(0, index) + (c === 'A' ? 'B' : 'A') + s.slice(index + 1);
}

describe('signer', () => {
  it('round-trips a payload for its purpose, as opaque base64url', () => {
    const token = signer.sign('cursor:/v2/inventory', { ts: '2026-01-01T00:00:00.000Z', id: 7 });
    assert.match(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    assert.deepEqual(signer.verify('cursor:/v2/inventory', token), { ts: '2026-01-01T00:00:00.000Z', id: 7 });
  });

  it('refuses a tampered body or signature', () => {
    const token = signer.sign('p', { id: 1 });
    const [body, mac] = token.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ id: 2 })).toString('base64url');
    assert.equal(signer.verify('p', `${forged}.${mac}`), null);
    assert.equal(signer.verify('p', flipChar(token, 0)), null);
    assert.equal(signer.verify('p', `${body}.${flipChar(mac, mac.length - 2)}`), null);
    assert.equal(signer.verify('p', `${body}.`), null);
    assert.equal(signer.verify('p', `${token}.extra`), null);
  });

  it('refuses a token signed for another purpose or with another secret', () => {
    const token = signer.sign('cursor:/v2/inventory', { id: 1 });
    assert.equal(signer.verify('cursor:/v1/inventory', token), null);
    assert.equal(other.verify('cursor:/v2/inventory', token), null);
  });

  it('refuses garbage without throwing', () => {
    for (const garbage of ['', '.', 'abc', '..', 'a.b', '%%%.%%%', 'eyJpZCI6MX0', '\u0000.\u0000', 'x'.repeat(5000)]) {
      assert.equal(signer.verify('p', garbage), null, garbage);
    }
  });

  it('seals and unseals secrets; a tampered seal throws', () => {
    const sealed = signer.seal('callback-signing-secret');
    assert.notEqual(sealed, signer.seal('callback-signing-secret'), 'a fresh IV each time');
    assert.equal(signer.unseal(sealed), 'callback-signing-secret');
    assert.ok(!sealed.includes('callback-signing-secret'));
    const [iv, tag, data] = sealed.split('.') as [string, string, string];
    assert.throws(() => signer.unseal(`${iv}.${tag}.${flipChar(data, 0)}`));
    assert.throws(() => other.unseal(sealed));
    assert.throws(() => signer.unseal('garbage'));
  });
});

describe('cursors', () => {
  it('decodeV2Cursor: absent or empty is the first page; a valid one returns its position', () => {
    assert.equal(decodeV2Cursor(signer, '/v2/inventory', undefined, isPosition), null);
    assert.equal(decodeV2Cursor(signer, '/v2/inventory', '', isPosition), null);
    const cursor = encodeCursor(signer, '/v2/inventory', { ts: 'x', id: 3 });
    assert.deepEqual(decodeV2Cursor(signer, '/v2/inventory', cursor, isPosition), { ts: 'x', id: 3 });
  });

  it('decodeV2Cursor: tampered, foreign, garbage or wrongly shaped → 400 "invalid cursor"', () => {
    const cursor = encodeCursor(signer, '/v2/inventory', { ts: 'x', id: 3 });
    const bad = [
      flipChar(cursor, 2),
      encodeCursor(signer, '/v2/storefront/orders', { ts: 'x', id: 3 }),
      encodeCursor(other, '/v2/inventory', { ts: 'x', id: 3 }),
      encodeCursor(signer, '/v2/inventory', { id: 'not a position' }),
      'not-a-cursor',
    ];
    for (const c of bad) {
      assert.throws(
        () => decodeV2Cursor(signer, '/v2/inventory', c, isPosition),
        (e: unknown) => e instanceof AppError && e.status === 400 && e.code === 'INVALID_ARGUMENT' && /invalid cursor/.test(e.message),
      );
    }
  });

  it('decodeV1Token: a bad one, another route\'s or another access token\'s → 400 "invalid nextToken"', () => {
    const caller = { tokenId: 7 };
    const token = encodeV1Token(signer, '/v1/inventory', caller, { ts: 'x', id: 1 });
    assert.deepEqual(decodeV1Token(signer, '/v1/inventory', caller, token, isPosition), { ts: 'x', id: 1 });
    const invalid = (e: unknown) => e instanceof AppError && e.status === 400 && /invalid nextToken/.test(e.message);
    assert.throws(() => decodeV1Token(signer, '/v1/listing', caller, token, isPosition), invalid);
    assert.throws(() => decodeV1Token(signer, '/v1/inventory', { tokenId: 8 }, token, isPosition), invalid);
    assert.throws(() => decodeV1Token(signer, '/v1/inventory', caller, encodeCursor(signer, '/v1/inventory', { ts: 'x', id: 1 }), isPosition), invalid);
    assert.throws(() => decodeV1Token(signer, '/v1/inventory', caller, '', isPosition), /invalid nextToken/);
  });
});
