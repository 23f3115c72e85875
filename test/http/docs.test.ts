import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('/docs and /openapi.json', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  it('states each operation\'s scopes exactly once (GET routes have a hidden HEAD twin)', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { description?: string; security?: unknown }>>;
    };
    let described = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const count = (op.description ?? '').split('Scopes:').length - 1;
        assert.ok(count <= 1, `${method.toUpperCase()} ${path}: "Scopes:" ${count} times`);
        if (path.startsWith('/v1/') && path !== '/v1/token') {
          assert.equal(count, 1, `${method.toUpperCase()} ${path} states its scopes`);
          assert.deepEqual(op.security, [{ accessToken: [] }], `${method.toUpperCase()} ${path}`);
        }
        described += count;
      }
    }
    assert.ok(described > 20, 'partner operations are described');
    assert.equal(doc.paths['/v1/warehouses']?.head, undefined, 'HEAD twins stay out of the document');
  });

  it('serves the reference over plain http without upgrade-insecure-requests in its CSP', async () => {
    for (const url of ['/docs', '/docs/static/index.html', '/docs/static/swagger-initializer.js']) {
      const res = await t.app.inject({ url });
      assert.ok(res.statusCode < 400, `${url}: ${res.statusCode}`);
      const csp = String(res.headers['content-security-policy'] ?? '');
      assert.match(csp, /default-src 'self'/, `${url} still has a policy`);
      assert.doesNotMatch(csp, /upgrade-insecure-requests/i, url);
    }
  });

  it('lists 503 on every partner operation, and 415 on those that read a body, in the version\'s error body', async () => {
    type Op = { requestBody?: unknown; responses: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }> };
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, Op>> };
    let checked = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!/^\/v[12]\//.test(path) || path === '/v1/token') continue;
      for (const [method, op] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${path}`;
        assert.ok(op.responses['503'], `${where} lists 503`);
        assert.match(op.responses['503'].description ?? '', /Retry-After/, where);
        if (op.requestBody) {
          assert.ok(op.responses['415'], `${where} lists 415`);
          assert.deepEqual(op.responses['415'].content, op.responses['400']?.content, `${where}: 415 has the 400's error body`);
        }
        checked++;
      }
    }
    assert.ok(checked > 50, `${checked} partner operations checked`);
  });
});
