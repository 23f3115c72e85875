import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { adminHeaders, assertV1Error } from '../helpers/admin.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { availableBySku, createOrder, orderBody, stock } from './v1-sales-orders-helpers.js';

/** The seller's kit catalog (PUT/GET …/products/{sku}/kit) and assembled-kit counts (PUT …/assembled). */
describe('admin kits', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    for (const sku of ['BOX', 'MUG', 'TEA', 'OTHER-KIT', 'PLAIN']) await stock(t, seed.sellerToken, sku, seed.warehouses.main, 0);
    await stock(t, seed.sellerToken, 'MUG', seed.warehouses.main, 10);
  });
  after(async () => t.close());

  const kitUrl = (sku: string, accountId = seed.accountId) => `/admin/accounts/${accountId}/products/${encodeURIComponent(sku)}/kit`;
  const putKit = (sku: string, payload: unknown, accountId?: number): Promise<LightMyRequestResponse> =>
    t.app.inject({ method: 'PUT', url: kitUrl(sku, accountId), headers: adminHeaders, payload: payload as object });
  const getKit = async (sku: string) => {
    const res = await t.app.inject({ url: kitUrl(sku), headers: adminHeaders });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { sku: string; components: { sku: string; quantity: number }[] };
  };
  const putAssembled = (sku: string, warehouseId: number, payload: unknown, accountId = seed.accountId) =>
    t.app.inject({
      method: 'PUT',
      url: `/admin/accounts/${accountId}/inventory/${encodeURIComponent(sku)}/${warehouseId}/assembled`,
      headers: adminHeaders,
      payload: payload as object,
    });

  it('sets, reads and replaces the components of a kit', async () => {
    assert.deepEqual(await getKit('BOX'), { sku: 'BOX', components: [] });
    const res = await putKit('BOX', { components: [{ sku: 'TEA', quantity: 1 }, { sku: 'MUG', quantity: 2 }] });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual((res.json() as { components: unknown[] }).components.length, 2);
    const read = await getKit('BOX');
    assert.deepEqual(
      [...read.components].sort((a, b) => a.sku.localeCompare(b.sku)),
      [
        { sku: 'MUG', quantity: 2 },
        { sku: 'TEA', quantity: 1 },
      ],
    );
    const replaced = await putKit('BOX', { components: [{ sku: 'MUG', quantity: 3 }] });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.deepEqual(await getKit('BOX'), { sku: 'BOX', components: [{ sku: 'MUG', quantity: 3 }] });
  });

  it('refuses unknown SKUs (404), self-reference, nesting, duplicates and bad quantities (400), changing nothing', async () => {
    const before = await getKit('BOX');
    assertV1Error(await putKit('BOX', { components: [{ sku: 'NOPE', quantity: 1 }] }), 404, /NOPE/);
    assertV1Error(await putKit('NOPE', { components: [{ sku: 'MUG', quantity: 1 }] }), 404, /NOPE/);
    assertV1Error(await putKit('BOX', { components: [{ sku: 'BOX', quantity: 1 }] }), 400, /itself/);
    assertV1Error(await putKit('BOX', { components: [{ sku: 'MUG', quantity: 1 }, { sku: 'MUG', quantity: 2 }] }), 400, /twice/);
    assertV1Error(await putKit('BOX', { components: [{ sku: 'MUG', quantity: 0 }] }), 400);
    assertV1Error(await putKit('BOX', { components: [{ sku: 'MUG' }] }), 400);
    // BOX is a kit: it cannot be a component, and a component of BOX cannot become a kit.
    assertV1Error(await putKit('OTHER-KIT', { components: [{ sku: 'BOX', quantity: 1 }] }), 400, /nested/);
    assertV1Error(await putKit('MUG', { components: [{ sku: 'TEA', quantity: 1 }] }), 400, /nested/);
    assert.deepEqual(await getKit('BOX'), before);
    assert.deepEqual(await getKit('OTHER-KIT'), { sku: 'OTHER-KIT', components: [] });
    assert.deepEqual(await getKit('MUG'), { sku: 'MUG', components: [] });
  });

  it("answers 404 for another account's id and 401 without the operator token", async () => {
    assertV1Error(await putKit('BOX', { components: [] }, 999999), 404);
    const res = await t.app.inject({ url: kitUrl('BOX') });
    assertV1Error(res, 401);
    assertV1Error(await putAssembled('BOX', seed.warehouses.main, { quantity: 1 }, 999999), 404);
  });

  it('sets the assembled kits of a warehouse: on-hand and available follow, GET /v1/inventory shows them', async () => {
    const res = await putAssembled('BOX', seed.warehouses.second, { quantity: 4 });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      sku: 'BOX',
      warehouseId: seed.warehouses.second,
      assembledQuantity: 4,
      onhandQuantity: 4,
      availableQuantity: 4,
      reservedQuantity: 0,
    });
    assert.equal((await availableBySku(t, seed.sellerToken, 'BOX')).get(seed.warehouses.second), 4);
    const inv = await t.app.inject({ url: '/v1/inventory/BOX', headers: { authorization: `Bearer ${seed.sellerToken}` } });
    const wh = (inv.json() as { warehouses: { warehouseId: number; assembledQuantity: number | null }[] }).warehouses.find(
      (w) => w.warehouseId === seed.warehouses.second,
    );
    assert.equal(wh?.assembledQuantity, 4);
  });

  it('refuses a count below the assembled kits open orders hold (409), a single SKU (400), unknown SKU or warehouse (404)', async () => {
    await putAssembled('BOX', seed.warehouses.main, { quantity: 5 });
    await createOrder(t, seed.channel.token, orderBody('ASM-1', [{ requestedSku: 'BOX', quantity: 2 }]));
    assertV1Error(await putAssembled('BOX', seed.warehouses.main, { quantity: 1 }), 409, /hold/);
    assertV1Error(await putAssembled('PLAIN', seed.warehouses.main, { quantity: 1 }), 400, /not a kit/);
    assertV1Error(await putAssembled('NOPE', seed.warehouses.main, { quantity: 1 }), 404);
    assertV1Error(await putAssembled('BOX', 999999, { quantity: 1 }), 404);
    assertV1Error(await putAssembled('BOX', seed.warehouses.main, { quantity: -1 }), 400);
    // Nothing changed: 5 assembled, 2 reserved (main has the most assembled kits, so the order took them there).
    assert.equal((await availableBySku(t, seed.sellerToken, 'BOX')).get(seed.warehouses.main), 3);
    const ok = await putAssembled('BOX', seed.warehouses.main, { quantity: 2 });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal((ok.json() as { availableQuantity: number }).availableQuantity, 0);
  });
});
