import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { booleanParam, integerListParam, listParam, v2Query } from '../../src/http/params.js';
import { clampPageSize, publicBaseUrl, v1NextUrl } from '../../src/http/pagination.js';
import { AppError } from '../../src/domain/errors.js';

const is400 = (field: string) => (e: unknown) => e instanceof AppError && e.status === 400 && e.violations[0]?.field === field;

describe('listParam (v1 arrays: comma-separated and repeated keys)', () => {
  it('splits, flattens, trims and drops empties', () => {
    assert.deepEqual(listParam(undefined), []);
    assert.deepEqual(listParam(''), []);
    assert.deepEqual(listParam('A'), ['A']);
    assert.deepEqual(listParam('A,B'), ['A', 'B']);
    assert.deepEqual(listParam(['A', 'B,C']), ['A', 'B', 'C']);
    assert.deepEqual(listParam(' A , ,B '), ['A', 'B']);
  });
});

describe('integerListParam', () => {
  it('reads ids', () => {
    assert.deepEqual(integerListParam('warehouses', '1,2'), [1, 2]);
    assert.deepEqual(integerListParam('warehouses', ['3', '4']), [3, 4]);
    assert.deepEqual(integerListParam('warehouses', undefined), []);
  });
  it('refuses non-integers with a 400 naming the field', () => {
    for (const bad of ['x', '1.5', '-1', '1e3', '99999999999999999999']) {
      assert.throws(() => integerListParam('warehouses', bad), is400('warehouses'), bad);
    }
  });
});

describe('booleanParam', () => {
  it('reads true/false/1/0 in any case, else the fallback when absent', () => {
    assert.equal(booleanParam('activeOnly', 'true', false), true);
    assert.equal(booleanParam('activeOnly', 'TRUE', false), true);
    assert.equal(booleanParam('activeOnly', '1', false), true);
    assert.equal(booleanParam('activeOnly', 'False', true), false);
    assert.equal(booleanParam('activeOnly', '0', true), false);
    assert.equal(booleanParam('activeOnly', true, false), true);
    assert.equal(booleanParam('activeOnly', undefined, true), true);
    assert.equal(booleanParam('activeOnly', '', false), false);
  });
  it('refuses anything else', () => {
    assert.throws(() => booleanParam('activeOnly', 'yes', false), is400('activeOnly'));
  });
});

describe('v2Query (camelCase or snake_case names)', () => {
  it('prefers camelCase and falls back to snake_case', () => {
    assert.equal(v2Query({ pageSize: '5' }, 'pageSize'), '5');
    assert.equal(v2Query({ page_size: '6' }, 'pageSize'), '6');
    assert.equal(v2Query({ pageSize: '5', page_size: '6' }, 'pageSize'), '5');
    assert.equal(v2Query({ updated_since: 'x' }, 'updatedSince'), 'x');
    assert.equal(v2Query({}, 'cursor'), undefined);
  });
});

describe('clampPageSize (v2: ≤0 → default, >500 → 500)', () => {
  it('applies the rule', () => {
    assert.equal(clampPageSize(undefined), 50);
    assert.equal(clampPageSize(0), 50);
    assert.equal(clampPageSize(-10), 50);
    assert.equal(clampPageSize(Number.NaN), 50);
    assert.equal(clampPageSize(1), 1);
    assert.equal(clampPageSize(500), 500);
    assert.equal(clampPageSize(501), 500);
    assert.equal(clampPageSize(1e9), 500);
    assert.equal(clampPageSize(Number.POSITIVE_INFINITY), 50);
    assert.equal(clampPageSize(12.7), 12);
    assert.equal(clampPageSize(0, 25, 100), 25);
    assert.equal(clampPageSize(1000, 25, 100), 100);
  });
});

describe('v1 next-page URL', () => {
  // request.host and .protocol are Fastify's: they follow X-Forwarded-* only for a peer TRUST_PROXY trusts
  // (test/http/trust-proxy.test.ts covers that); publicBaseUrl never reads the headers itself.
  const request = (host: string, headers: Record<string, string> = {}, protocol = 'http') =>
    ({ headers: { host, ...headers }, host, protocol }) as unknown as FastifyRequest;

  it('uses PUBLIC_BASE_URL when configured', () => {
    assert.equal(
      v1NextUrl(request('internal:8080'), 'https://api.example.com', '/v1/inventory', 'a.b+/='),
      'https://api.example.com/v1/inventory?nextToken=a.b%2B%2F%3D',
    );
  });

  it("otherwise the request's host and protocol, never raw forwarded headers", () => {
    assert.equal(publicBaseUrl(request('localhost:8080'), null), 'http://localhost:8080');
    assert.equal(
      publicBaseUrl(request('internal', { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' }), null),
      'http://internal',
    );
    assert.equal(publicBaseUrl(request('shop.example', {}, 'https'), null), 'https://shop.example');
  });
});
