import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findProductBySku } from '../../src/domain/catalog/products.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';

interface ItemResult {
  SKU: string;
  success: boolean;
  errorMessage: string;
}

/**
 * Stock counters under parallel POST /v1/inventory: every delta lands exactly once (conditional UPDATEs,
 * no read-modify-write), none takes the available quantity below zero, and parallel first writes of a
 * new SKU create one product.
 */
describe('v1 inventory under concurrency', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  const post = (products: Record<string, unknown>[]) =>
    t.app.inject({ method: 'POST', url: '/v1/inventory', headers: bearer(seed.sellerToken), payload: { products } });

  async function stock(sku: string) {
    const product = await findProductBySku(t.deps.db.db, seed.accountId, sku);
    assert.ok(product, `${sku} exists`);
    return t.deps.db.db
      .selectFrom('inventory')
      .select(['available_quantity', 'onhand_quantity'])
      .where('account_id', '=', seed.accountId)
      .where('product_id', '=', product.id)
      .where('warehouse_id', '=', seed.warehouses.main)
      .executeTakeFirstOrThrow();
  }

  it('applies 200 parallel deltas on one SKU exactly once each', async () => {
    const warehouseId = seed.warehouses.main;
    const start = await post([{ SKU: 'HOT', warehouseId, quantity: 1000 }]);
    assert.equal(start.statusCode, 200, start.body);
    // 120 × +3 and 80 × −2, interleaved: net +200; the floor is never reached.
    const deltas = Array.from({ length: 200 }, (_, i) => (i % 5 < 3 ? 3 : -2));
    const responses = await Promise.all(deltas.map((delta_quantity) => post([{ SKU: 'HOT', warehouseId, delta_quantity }])));
    for (const res of responses) {
      assert.equal(res.statusCode, 200, res.body);
      const [result] = (res.json() as { results: ItemResult[] }).results;
      assert.equal(result!.success, true, result!.errorMessage);
    }
    const row = await stock('HOT');
    assert.equal(row.available_quantity, 1200);
    assert.equal(row.onhand_quantity, 1200);
  });

  it('never goes below zero: the final count is the sum of the deltas that succeeded', async () => {
    const warehouseId = seed.warehouses.main;
    await post([{ SKU: 'EDGE', warehouseId, quantity: 5 }]);
    const deltas = Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? 1 : -2));
    const responses = await Promise.all(deltas.map((delta_quantity) => post([{ SKU: 'EDGE', warehouseId, delta_quantity }])));
    let expected = 5;
    let refused = 0;
    responses.forEach((res, i) => {
      const [result] = (res.json() as { results: ItemResult[] }).results;
      if (result!.success) expected += deltas[i]!;
      else {
        refused += 1;
        assert.equal(deltas[i], -2);
        assert.match(result!.errorMessage, /negative/);
      }
    });
    // 60 × +1 and 60 × −2 from 5 cannot all succeed.
    assert.ok(refused > 0);
    const row = await stock('EDGE');
    assert.equal(row.available_quantity, expected);
    assert.ok(row.available_quantity >= 0);
  });

  it('creates a new SKU once when many requests introduce it at the same time', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        post([{ SKU: 'BRAND-NEW', warehouseId: seed.warehouses.main, delta_quantity: 1, standardProductId: '1', standardProductIdType: 'UPC' }]),
      ),
    );
    for (const res of responses) assert.equal((res.json() as { results: ItemResult[] }).results[0]!.success, true, res.body);
    const products = await t.deps.db.db
      .selectFrom('products')
      .select('id')
      .where('account_id', '=', seed.accountId)
      .where('sku', '=', 'BRAND-NEW')
      .execute();
    assert.equal(products.length, 1);
    const rows = await t.deps.db.db
      .selectFrom('inventory')
      .select('id')
      .where('account_id', '=', seed.accountId)
      .where('product_id', '=', products[0]!.id)
      .execute();
    assert.equal(rows.length, 1);
    assert.equal((await stock('BRAND-NEW')).available_quantity, 50);
  });
});
