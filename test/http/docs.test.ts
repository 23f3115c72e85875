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
});
