import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { adminHeaders, createListingViaAdmin, sampleListing } from '../helpers/listings.js';

/**
 * String limits (resolutions §7, issue 8 item 9): SKU 1–255 characters without control characters, other
 * ids 255, names and titles 1,000, free text 64 KiB; invalid UTF-8 in a body is a 400. Over a limit: a 400
 * naming the field, and nothing stored.
 */

const SKU_255 = 'S'.repeat(255);
const SKU_256 = 'S'.repeat(256);

function v1Messages(res: LightMyRequestResponse): string[] {
  assert.equal(res.statusCode, 400, res.body);
  const body = res.json() as { errorCode: number; errorMessages: string[]; referenceId: string };
  assert.equal(body.errorCode, 400);
  return body.errorMessages;
}

function v2Violations(res: LightMyRequestResponse): { message: string; fields: { field: string; description: string }[] } {
  assert.equal(res.statusCode, 400, res.body);
  const body = res.json() as { code: number; message: string; details: { fieldViolations?: { field: string; description: string }[] }[] };
  assert.equal(body.code, 3);
  return { message: body.message, fields: body.details[0]?.fieldViolations ?? [] };
}

describe('string limits and UTF-8', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  const send = (method: 'GET' | 'POST', url: string, token: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload: payload as string }),
    });

  const count = async (table: 'products' | 'sales_orders' | 'inventory') =>
    (await t.deps.db.db.selectFrom(table).select('id').where('account_id', '=', seed.accountId).execute()).length;

  it('v1 inventory update: a 256-character SKU is a 400 naming the field; 255 is accepted', async () => {
    const item = (SKU: string) => ({ validAsOf: '2026-01-01T00:00:00Z', products: [{ SKU, warehouseId: seed.warehouses.main, quantity: 1 }] });
    const before = await count('products');
    assert.deepEqual(v1Messages(await send('POST', '/v1/inventory', seed.sellerToken, item(SKU_256))), ['products[0].SKU: must be at most 255 characters']);
    assert.equal(await count('products'), before);
    const ok = await send('POST', '/v1/inventory', seed.sellerToken, item(SKU_255));
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(await count('products'), before + 1);
  });

  it('a SKU with a control character is a 400 (body and path)', async () => {
    const body = { validAsOf: '2026-01-01T00:00:00Z', products: [{ SKU: 'TAB\tSKU', warehouseId: seed.warehouses.main, quantity: 1 }] };
    assert.deepEqual(v1Messages(await send('POST', '/v1/inventory', seed.sellerToken, body)), ['products[0].SKU: must not contain control characters']);
    assert.deepEqual(v1Messages(await send('GET', '/v1/inventory/A%01B', seed.sellerToken)), ['SKU: must not contain control characters']);
  });

  it('v1 order create: a 256-character SKU, a 1,001-character title, notes over 64 KiB: 400s naming each field; nothing stored', async () => {
    const order = (line: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      channelOrderId: `LIM-${Math.random()}`,
      channel: 'Web shop',
      orderTs: '2026-01-01T00:00:00Z',
      products: [{ requestedSku: 'OK-SKU', quantity: 1, ...line }],
      ...extra,
    });
    const before = await count('sales_orders');
    assert.deepEqual(v1Messages(await send('POST', '/v1/salesOrder', seed.sellerToken, order({ requestedSku: SKU_256 }))), [
      'products[0].requestedSku: must be at most 255 characters',
    ]);
    assert.deepEqual(v1Messages(await send('POST', '/v1/salesOrder', seed.sellerToken, order({ requestedTitle: 'T'.repeat(1001) }))), [
      'products[0].requestedTitle: must be at most 1000 characters',
    ]);
    assert.deepEqual(v1Messages(await send('POST', '/v1/salesOrder', seed.sellerToken, order({}, { customer_notes: 'n'.repeat(65_537) }))), [
      'customer_notes: must be at most 65536 characters',
    ]);
    assert.deepEqual(v1Messages(await send('POST', '/v1/salesOrder', seed.sellerToken, order({}, { channelOrderId: 'C'.repeat(256) }))), [
      'channelOrderId: must be at most 255 characters',
    ]);
    assert.equal(await count('sales_orders'), before);
    const ok = await send('POST', '/v1/salesOrder', seed.sellerToken, order({ requestedTitle: 'T'.repeat(1000) }, { customer_notes: 'n'.repeat(65_536) }));
    assert.equal(ok.statusCode, 200, ok.body);
  });

  it('v2 inventory update: a 256-character SKU fails the whole request naming the field', async () => {
    const before = await count('inventory');
    const { message, fields } = v2Violations(
      await send('POST', '/v2/inventory', seed.inventory.token, {
        observedTs: '2026-01-01T00:00:00Z',
        updates: [
          { sku: 'FINE', warehouseUniqueId: 'WH-SECOND', quantity: '1' },
          { sku: SKU_256, warehouseUniqueId: 'WH-SECOND', quantity: '1' },
        ],
      }),
    );
    assert.deepEqual(fields, [{ field: 'updates[1].sku', description: 'must be at most 255 characters' }]);
    assert.equal(message, 'updates[1].sku: must be at most 255 characters');
    assert.equal(await count('inventory'), before);
  });

  it('storefront routes with a sku path parameter: 256 characters or a control character → 400 naming sku', async () => {
    for (const url of [`/v2/storefront/listing/variant/${SKU_256}`, `/v2/storefront/listing/sku/${SKU_256}`, `/v2/storefront/listing/sku/${SKU_256}/category`]) {
      assert.deepEqual(v2Violations(await send('GET', url, seed.channel.token)).fields, [{ field: 'sku', description: 'must be at most 255 characters' }], url);
    }
    assert.deepEqual(v2Violations(await send('GET', '/v2/storefront/listing/variant/A%7FB', seed.channel.token)).fields, [
      { field: 'sku', description: 'must not contain control characters' },
    ]);
    // 255 characters pass validation and reach the route (no such variant).
    assert.equal((await send('GET', `/v2/storefront/listing/variant/${SKU_255}`, seed.channel.token)).statusCode, 404);
  });

  it('a query string with escapes that are not UTF-8, or a SKU filter with a control character → 400', async () => {
    assert.deepEqual(v1Messages(await send('GET', '/v1/inventory?skus=%FF', seed.sellerToken)), ['the query string holds a percent-escape that is not valid UTF-8']);
    assert.equal(v2Violations(await send('GET', '/v2/inventory?cursor=%C3%28', seed.inventory.token)).message, 'the query string holds a percent-escape that is not valid UTF-8');
    assert.deepEqual(v1Messages(await send('GET', '/v1/inventory?skus=A%00B', seed.sellerToken)), ['skus[0]: must not contain control characters']);
    // Valid escapes, a literal "%" and several SKUs in one value are fine.
    for (const qs of ['skus=TASSE-%E2%98%95', 'skus=100%', `skus=${'A'.repeat(200)},${'B'.repeat(200)}`]) {
      assert.equal((await send('GET', `/v1/inventory?${qs}`, seed.sellerToken)).statusCode, 200, qs);
    }
  });

  it('invalid UTF-8 in a JSON body → 400 (v1 and v2), nothing stored', async () => {
    const before = await count('products');
    const bad = (json: string) => Buffer.concat([Buffer.from(json.slice(0, json.indexOf('X'))), Buffer.from([0xc3, 0x28]), Buffer.from(json.slice(json.indexOf('X') + 1))]);
    const v1 = await t.app.inject({
      method: 'POST',
      url: '/v1/inventory',
      headers: { authorization: `Bearer ${seed.sellerToken}`, 'content-type': 'application/json' },
      payload: bad(JSON.stringify({ validAsOf: '2026-01-01T00:00:00Z', products: [{ SKU: 'UTF-X', warehouseId: seed.warehouses.main, quantity: 1 }] })),
    });
    assert.deepEqual(v1Messages(v1), ['the body is not valid UTF-8']);
    const v2 = await t.app.inject({
      method: 'POST',
      url: '/v2/inventory',
      headers: { authorization: `Bearer ${seed.inventory.token}`, 'content-type': 'application/json; charset=utf-8' },
      payload: bad(JSON.stringify({ observedTs: '2026-01-01T00:00:00Z', updates: [{ sku: 'UTF-X', warehouseUniqueId: 'WH-SECOND', quantity: '1' }] })),
    });
    assert.equal(v2Violations(v2).message, 'the body is not valid UTF-8');
    assert.equal(await count('products'), before);
    // Valid multi-byte UTF-8 is fine.
    const ok = await send('POST', '/v1/inventory', seed.sellerToken, {
      validAsOf: '2026-01-01T00:00:00Z',
      products: [{ SKU: 'TASSE-☕-Ü', warehouseId: seed.warehouses.main, quantity: 1 }],
    });
    assert.equal(ok.statusCode, 200, ok.body);
  });

  it('listing attribute values: free text over 64 KiB, an id or units over 255 are a 400 naming the field; nothing changes', async () => {
    const listing = await createListingViaAdmin(t, seed, sampleListing('LIMITS-GROUP', ['LIMITS-V1']));
    const patch = (attributes: unknown[]) =>
      t.app.inject({
        method: 'PATCH',
        url: `/admin/accounts/${seed.accountId}/listings/${listing.id}`,
        headers: adminHeaders,
        payload: { productData: { attributes } },
      });
    const cases: [unknown, RegExp][] = [
      [{ id: 'description', textValue: 'd'.repeat(64 * 1024 + 1) }, /textValue: must be at most 65536 characters/],
      [{ id: 'bullets', multiTextValue: { values: ['ok', 'b'.repeat(64 * 1024 + 1)] } }, /values\[1\]: must be at most 65536 characters/],
      [{ id: 'a'.repeat(256), textValue: 'x' }, /id: must be at most 255 characters/],
      [{ id: 'weight', numericWithUnitsValue: { numeric: 1, units: 'u'.repeat(256) } }, /units: must be at most 255 characters/],
    ];
    for (const [attribute, pattern] of cases) {
      const res = await patch([attribute]);
      assert.equal(res.statusCode, 400, res.body);
      assert.match((res.json() as { errorMessages: string[] }).errorMessages.join('; '), pattern);
    }
    const read = await t.app.inject({ url: `/admin/accounts/${seed.accountId}/listings/${listing.id}`, headers: adminHeaders });
    assert.deepEqual(read.json().productData.attributes, listing.productData.attributes, 'nothing changed');
    // Exactly at the limits is accepted (characters, not bytes: "é" counts once).
    const ok = await patch([{ id: 'description', textValue: 'é'.repeat(64 * 1024) }]);
    assert.equal(ok.statusCode, 200, ok.body.slice(0, 300));
  });

  it('ingestion: an attribute text value over 64 KiB is a 400 INVALID_ARGUMENT and nothing is stored', async () => {
    const v2 = (url: string, payload: unknown) =>
      t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${seed.channel.token}` }, payload: payload as object });
    const begin = await v2('/v2/storefront/listing/ingestion/begin', { expectedNumListings: '1', autoApplyIngestionPlan: false });
    assert.equal(begin.statusCode, 200, begin.body);
    const res = await v2('/v2/storefront/listing/ingestion/request', {
      id: 'ING-LIMITS',
      productTypeId: 'pt-1',
      attributes: [{ id: 'title', textValue: 't'.repeat(64 * 1024 + 1) }],
      variants: [{ sku: 'ING-LIMITS-1', price: { currencyCode: 'USD', units: '1', nanos: 0 }, attributes: [] }],
    });
    const { message } = v2Violations(res);
    assert.match(message, /textValue: must be at most 65536 characters/);
    const stored = await t.deps.db.db.selectFrom('ingestion_listings').select('account_id').where('account_id', '=', seed.accountId).execute();
    assert.equal(stored.length, 0);
  });
});
