import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { routeSchemas } from '../../src/app.js';
import { buildSerializerNow } from '../../src/http/response-serializers.js';
import { compileRouteSchemaNow } from '../../src/http/validation.js';
import { SHARED_SCHEMAS } from '../../src/http/schemas/shared.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * Route schemas compile on each route's first request, not when the app starts (src/http/validation.ts):
 * this compiles every route's validators and response serializers, so a schema that cannot compile fails
 * here rather than on a partner's first call.
 */
describe('every route schema compiles', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  it('compiles the validators and serializers of every route', () => {
    const routes = routeSchemas.get(t.app) ?? [];
    assert.ok(routes.length > 150, `routes with schemas: ${routes.length}`);
    let validators = 0;
    let serializers = 0;
    for (const { method, url, schema } of routes) {
      for (const part of ['body', 'querystring', 'params', 'headers'] as const) {
        if (schema[part] === undefined) continue;
        assert.doesNotThrow(() => compileRouteSchemaNow(schema[part], part), `${method} ${url} ${part}`);
        validators += 1;
      }
      const response = (schema.response ?? {}) as Record<string, unknown>;
      for (const [status, s] of Object.entries(response)) {
        assert.doesNotThrow(() => buildSerializerNow(s, Object.fromEntries(SHARED_SCHEMAS.map((shared) => [shared.$id!, shared]))), `${method} ${url} response ${status}`);
        serializers += 1;
      }
    }
    assert.ok(validators > 100 && serializers > 150, `${validators} validators, ${serializers} serializers`);
  });
});
