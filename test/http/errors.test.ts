import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { createTestApp, withSchemaLock, type TestApp } from '../helpers/app.js';
import { logSink } from '../helpers/log-sink.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';

function assertV1Error(res: LightMyRequestResponse, status: number): { errorCode: number; errorMessages: string[]; referenceId: string; errorMessage?: string } {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json();
  assert.equal(body.errorCode, status);
  assert.ok(Array.isArray(body.errorMessages) && body.errorMessages.length > 0);
  for (const m of body.errorMessages) assert.equal(typeof m, 'string');
  assert.equal(body.referenceId, res.headers['x-request-id']);
  const keys = status >= 500 ? ['errorCode', 'errorMessage', 'errorMessages', 'referenceId'] : ['errorCode', 'errorMessages', 'referenceId'];
  assert.deepEqual(Object.keys(body).sort(), keys);
  return body;
}

function assertV2Error(res: LightMyRequestResponse, status: number, code: number): { code: number; message: string; details: unknown[] } {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json();
  assert.equal(body.code, code);
  assert.equal(typeof body.message, 'string');
  assert.ok(Array.isArray(body.details));
  assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'message']);
  return body;
}

describe('error bodies (resolutions §0)', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp({ config: { jsonBodyLimitBytes: 1024 } });
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  const post = (url: string, token: string, payload: string, contentType = 'application/json') =>
    t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, payload });
  const v1 = (payload: string, contentType?: string) => post('/v1/inventory', seed.sellerToken, payload, contentType);
  const v2 = (payload: string, contentType?: string) => post('/v2/inventory', seed.inventory.token, payload, contentType);

  async function inventoryRows(): Promise<number> {
    return (await t.deps.db.db.selectFrom('inventory').select('id').execute()).length;
  }

  it('malformed JSON → 400: v1 body on /v1, code 3 on /v2', async () => {
    for (const payload of ['{', '{"products": [}', "{'a': 1}", 'not json', '{"a":1}}']) {
      const b1 = assertV1Error(await v1(payload), 400);
      assert.match(b1.errorMessages[0]!, /JSON/);
      const b2 = assertV2Error(await v2(payload), 400, 3);
      assert.match(b2.message, /JSON/);
    }
    assert.equal(await inventoryRows(), 0);
  });

  it('an empty body with a JSON content type → 400', async () => {
    assertV1Error(await v1(''), 400);
    assertV2Error(await v2(''), 400, 3);
    assert.equal(await inventoryRows(), 0);
  });

  it('JSON that is not an object → 400', async () => {
    for (const payload of ['null', '[]', '42', '"text"']) {
      assertV1Error(await v1(payload), 400);
      assertV2Error(await v2(payload), 400, 3);
    }
    assert.equal(await inventoryRows(), 0);
  });

  it('a body over the limit → 413, nothing applied', async () => {
    const products = Array.from({ length: 40 }, (_, i) => ({ SKU: `BIG-${i}`, warehouseId: seed.warehouses.main, quantity: 1 }));
    const payload = JSON.stringify({ products });
    assert.ok(payload.length > 1024);
    const b1 = assertV1Error(await v1(payload), 413);
    assert.match(b1.errorMessages[0]!, /larger/);
    const updates = Array.from({ length: 40 }, (_, i) => ({ sku: `BIG-${i}`, warehouseUniqueId: 'WH-SECOND', quantity: '1' }));
    assertV2Error(await v2(JSON.stringify({ observedTs: '2026-01-01T00:00:00Z', updates })), 413, 3);
    assert.equal(await inventoryRows(), 0);
  });

  it('an unsupported content type → 415 in the contract body (v2 code 3), nothing applied', async () => {
    const body = JSON.stringify({ products: [{ SKU: 'CT-1', warehouseId: seed.warehouses.main, quantity: 1 }] });
    for (const type of ['application/xml', 'text/csv', 'application/octet-stream']) {
      const b1 = assertV1Error(await v1(body, type), 415);
      assert.match(b1.errorMessages[0]!, /Content-Type/);
      assertV2Error(await v2(body, type), 415, 3);
    }
    assertV1Error(await v1(body, 'text/plain'), 400); // text/plain is read as a string: not an object
    assertV1Error(await v1('products=1', 'application/x-www-form-urlencoded'), 400);
    assert.equal(await inventoryRows(), 0);
  });

  it('validation problems: one v1 message per problem; v2 BadRequest field violations', async () => {
    const b1 = assertV1Error(
      await v1(JSON.stringify({ products: [{ SKU: '', warehouseId: 'main', quantity: -1 }] })),
      400,
    );
    assert.ok(b1.errorMessages.length >= 3, JSON.stringify(b1.errorMessages));
    assert.ok(b1.errorMessages.some((m) => m.startsWith('products[0].warehouseId')), JSON.stringify(b1.errorMessages));
    assert.ok(b1.errorMessages.some((m) => m.startsWith('products[0].quantity')), JSON.stringify(b1.errorMessages));

    const b2 = assertV2Error(await v2(JSON.stringify({ observedTs: 5, updates: 'none' })), 400, 3);
    assert.equal(b2.details.length, 1);
    const detail = b2.details[0] as { '@type': string; fieldViolations: { field: string; description: string }[] };
    assert.equal(detail['@type'], 'type.googleapis.com/google.rpc.BadRequest');
    assert.ok(detail.fieldViolations.length >= 2, JSON.stringify(detail));
    for (const v of detail.fieldViolations) {
      assert.equal(typeof v.field, 'string');
      assert.equal(typeof v.description, 'string');
    }
    assert.ok(detail.fieldViolations.some((v) => v.field === 'updates'), JSON.stringify(detail));
    assert.equal(await inventoryRows(), 0);
  });

  it('unknown routes → 404: v1 body, or code 5 on /v2', async () => {
    assertV1Error(await t.app.inject({ url: '/v1/nope' }), 404);
    assertV1Error(await t.app.inject({ url: '/' }), 404);
    assertV1Error(await t.app.inject({ url: '/admin/nope' }), 404);
    assertV1Error(await t.app.inject({ method: 'DELETE', url: '/v1/inventory/extra/segments', headers: { authorization: seed.sellerToken } }), 404);
    const b2 = assertV2Error(await t.app.inject({ method: 'POST', url: '/v2/nope?x=1' }), 404, 5);
    assert.equal(b2.message, 'no route POST /v2/nope');
    assertV2Error(await t.app.inject({ method: 'DELETE', url: '/v2/shipping/nothing_here' }), 404, 5);
  });

  it('a wrong method on a known path: v1 405 with Allow; v2 501 code 12 UNIMPLEMENTED (grpc-gateway)', async () => {
    const r1 = await t.app.inject({ method: 'DELETE', url: '/v1/inventory', headers: { authorization: seed.sellerToken } });
    const b1 = assertV1Error(r1, 405);
    assert.equal(r1.headers.allow, 'GET, HEAD, POST');
    assert.match(b1.errorMessages[0]!, /^DELETE is not supported on \/v1\/inventory/);
    // A path with a parameter, and a method Fastify has no route for at all.
    assertV1Error(await t.app.inject({ method: 'PUT', url: '/v1/inventory/SOME-SKU' }), 405);
    assertV1Error(await t.app.inject({ method: 'PROPFIND' as 'GET', url: '/v1/inventory' }), 405);
    const b2 = assertV2Error(await t.app.inject({ method: 'DELETE', url: '/v2/shipping/need_to_ship' }), 501, 12);
    assert.match(b2.message, /^DELETE is not supported on \/v2\/shipping\/need_to_ship/);
    assertV2Error(await t.app.inject({ method: 'GET', url: '/v2/shipping/shipments?x=1' }), 501, 12);
    assertV2Error(await t.app.inject({ method: 'PUT', url: '/v2/inventory/' }), 501, 12);
    assertV2Error(await t.app.inject({ method: 'DELETE', url: '/v2/storefront/listing/sku/ABC' }), 501, 12);
  });

  it('a percent-escape that does not decode → 400 in the contract body', async () => {
    const b1 = assertV1Error(await t.app.inject({ url: '/v1/inventory/%E0%A4%A', headers: { authorization: seed.sellerToken } }), 400);
    assert.match(b1.errorMessages[0]!, /percent-escape/);
    assertV2Error(await t.app.inject({ url: '/v2/storefront/listing/sku/%E0%A4%A', headers: { authorization: seed.channel.token } }), 400, 3);
  });

  it('a URL over 8192 characters or a path parameter over 4096 → 414 in the contract body', async () => {
    assertV1Error(await t.app.inject({ url: `/v1/inventory?skus=${'A'.repeat(9000)}`, headers: { authorization: seed.sellerToken } }), 414);
    assertV1Error(await t.app.inject({ url: `/v1/inventory/${'A'.repeat(5000)}`, headers: { authorization: seed.sellerToken } }), 414);
    assertV2Error(await t.app.inject({ url: `/v2/storefront/listing/sku/${'A'.repeat(5000)}`, headers: { authorization: seed.channel.token } }), 414, 3);
    // A long SKU within the limits reaches the route (and is judged there).
    assert.notEqual((await t.app.inject({ url: `/v1/inventory/${'A'.repeat(200)}`, headers: { authorization: seed.sellerToken } })).statusCode, 414);
  });

  it('query timestamps: URL-encoded or not, an offset or Z; without a zone a 400 naming the parameter', async () => {
    const list = (qs: string, token = seed.sellerToken) => t.app.inject({ url: `/v1/inventory?${qs}`, headers: { authorization: token } });
    for (const qs of [
      'lastUpdatedTs=2026-01-01T00:00:00Z',
      'lastUpdatedTs=2026-01-01T00%3A00%3A00.123Z',
      'lastUpdatedTs=2026-01-01T01:00:00%2B01:00',
      'lastUpdatedTs=2026-01-01T01:00:00+01:00', // the '+' arrives as a space
      'lastUpdatedTs=2025-12-31T19:00:00-05:00',
    ]) {
      assert.equal((await list(qs)).statusCode, 200, qs);
    }
    for (const qs of ['lastUpdatedTs=2026-01-01T00:00:00', 'lastUpdatedTs=2026-02-30T00:00:00Z', 'lastUpdatedTs=yesterday']) {
      const body = assertV1Error(await list(qs), 400);
      assert.match(body.errorMessages[0]!, /^lastUpdatedTs: /, qs);
    }
    const v2 = await t.app.inject({ url: '/v2/inventory?updatedSince=2026-01-01T00:00:00', headers: { authorization: seed.inventory.token } });
    const b2 = assertV2Error(v2, 400, 3);
    assert.deepEqual((b2.details[0] as { fieldViolations: { field: string }[] }).fieldViolations.map((f) => f.field), ['updatedSince']);
  });

  it('every error carries X-Request-Id, unique per request', async () => {
    const a = await t.app.inject({ url: '/v1/nope' });
    const b = await t.app.inject({ url: '/v1/nope' });
    assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
  });
});

describe('a 500 never leaks internals', () => {
  const { lines, sink } = logSink();
  let t: TestApp;
  let seed: SeededAccount;
  // On PostgreSQL, under the lock that keeps parallel migrations from introspecting a table mid-rename.
  async function renameTables(pairs: [string, string][]) {
    const run = async () => {
      for (const [from, to] of pairs) await sql.raw(`alter table ${from} rename to ${to}`).execute(t.deps.db.db);
    };
    const url = process.env.TEST_DATABASE_URL;
    await (url ? withSchemaLock(url, 'exclusive', run) : run());
  }
  before(async () => {
    t = await createTestApp({ logDestination: sink });
    seed = await seedAccount(t);
    // Break the database under the routes: every query on warehouses now fails inside the driver.
    await renameTables([['warehouses', 'warehouses_gone'], ['auth_codes', 'auth_codes_gone']]);
  });
  after(async () => {
    await renameTables([['warehouses_gone', 'warehouses'], ['auth_codes_gone', 'auth_codes']]);
    await t.close();
  });

  const internals = /warehouses|auth_codes|no such table|relation|select |sqlite|postgres|stack|\bat \w|\.ts:|\.js:/i;

  it('v1: 500 with the fixed message and errorMessage; the detail goes to the log with the request id', async () => {
    const res = await t.app.inject({ url: '/v1/warehouses', headers: { authorization: seed.sellerToken } });
    const body = assertV1Error(res, 500);
    assert.equal(body.errorMessage, body.errorMessages[0]);
    assert.match(body.errorMessage!, /internal error/);
    assert.doesNotMatch(res.body.replace(body.referenceId, ''), internals);
    const logged = lines.map((l) => JSON.parse(l) as { reqId?: string; level: number; err?: { message?: string } });
    const entry = logged.find((l) => l.reqId === body.referenceId && l.level >= 50);
    assert.ok(entry, 'an error log line carries the request id');
    assert.match(String(entry.err?.message), /warehouses/);
  });

  it('v2: 500 with code 13 and no detail', async () => {
    const res = await t.app.inject({ url: '/v2/inventory/warehouses', headers: { authorization: `Bearer ${seed.inventory.token}` } });
    const body = assertV2Error(res, 500, 13);
    assert.deepEqual(body.details, []);
    assert.doesNotMatch(res.body, internals);
  });

  it('POST /v1/token: a database failure is a 500 (not an OAuth 400), uncached, without detail', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${seed.inventory.clientId}:${seed.inventory.clientSecret}`).toString('base64')}`,
      },
      payload: 'grant_type=authorization_code&code=some-code&redirect_uri=https%3A%2F%2Fpartner.example%2Foauth%2Fcallback',
    });
    const body = assertV1Error(res, 500);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.doesNotMatch(res.body.replace(body.referenceId, ''), internals);
  });
});
