import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { findProductBySku } from '../../src/domain/catalog/products.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { countStatements } from '../helpers/statement-counter.js';
import { postInventory, setStock, type ItemResult } from './v1-inventory-helpers.js';

/**
 * POST /v1/inventory applies its items set-based (src/domain/inventory/stock-rounds.ts): these check that the
 * outcomes are still those of items run one after another, that a refused item leaves nothing behind, that a
 * call costs a few statements rather than a few per item, and that parallel calls over the same rows in
 * different orders neither deadlock nor lose units.
 */
describe('POST /v1/inventory, set-based', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  const post = async (products: Record<string, unknown>[]) => {
    const res = await postInventory(t, seed.sellerToken, { products });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { results: ItemResult[] }).results;
  };

  async function stockRow(sku: string, warehouseId = seed.warehouses.main) {
    const product = await findProductBySku(t.deps.db.db, seed.accountId, sku);
    if (!product) return null;
    return (
      (await t.deps.db.db
        .selectFrom('inventory')
        .select(['available_quantity', 'onhand_quantity', 'bin_location'])
        .where('account_id', '=', seed.accountId)
        .where('product_id', '=', product.id)
        .where('warehouse_id', '=', warehouseId)
        .executeTakeFirst()) ?? null
    );
  }

  it('applies items naming the same SKU and warehouse in the order given, each with its own outcome', async () => {
    const main = seed.warehouses.main;
    const results = await post([
      { SKU: 'SEQ-1', warehouseId: main, quantity: 5 },
      { SKU: 'SEQ-1', warehouseId: main, delta_quantity: -7 },
      { SKU: 'SEQ-1', warehouseId: main, delta_quantity: -3, binLocation: 'B-2' },
      { SKU: 'SEQ-1', warehouseId: main, delta_quantity: -3 },
      { SKU: 'SEQ-1', warehouseId: main, delta_quantity: 10 },
    ]);
    assert.deepEqual(
      results.map((r) => r.success),
      [true, false, true, false, true],
    );
    assert.match(results[1]!.errorMessage, /delta_quantity -7 would make the available quantity negative/);
    assert.match(results[3]!.errorMessage, /delta_quantity -3 would make the available quantity negative/);
    assert.deepEqual(await stockRow('SEQ-1'), { available_quantity: 12, onhand_quantity: 12, bin_location: 'B-2' });
  });

  it('creates no product or stock row for a new SKU whose items all fail, and one for a SKU whose later item succeeds', async () => {
    const main = seed.warehouses.main;
    const results = await post([
      { SKU: 'GONE-1', warehouseId: main, delta_quantity: -1 },
      { SKU: 'LATE-1', warehouseId: main, delta_quantity: -2 },
      { SKU: 'LATE-1', warehouseId: main, delta_quantity: 4, standardProductId: '012345678905', standardProductIdType: 'UPC' },
      { SKU: 'GONE-1', warehouseId: main, delta_quantity: -5 },
    ]);
    assert.deepEqual(
      results.map((r) => r.success),
      [false, false, true, false],
    );
    assert.equal(await findProductBySku(t.deps.db.db, seed.accountId, 'GONE-1'), null);
    const late = await findProductBySku(t.deps.db.db, seed.accountId, 'LATE-1');
    assert.equal(late?.standardProductId, '012345678905');
    assert.deepEqual(await stockRow('LATE-1'), { available_quantity: 4, onhand_quantity: 4, bin_location: null });
    // A new stock row of an existing product, refused: no row is left at zero.
    await setStock(t, seed.sellerToken, [{ SKU: 'ROW-1', warehouseId: main, quantity: 1 }]);
    const [refused] = await post([{ SKU: 'ROW-1', warehouseId: seed.warehouses.second, delta_quantity: -1 }]);
    assert.equal(refused!.success, false);
    assert.equal(await stockRow('ROW-1', seed.warehouses.second), null);
  });

  it('refuses a change past 2147483647 units as that item only, on both databases', async () => {
    const main = seed.warehouses.main;
    await setStock(t, seed.sellerToken, [{ SKU: 'BIG-1', warehouseId: main, quantity: 2147483000 }]);
    const results = await post([
      { SKU: 'BIG-1', warehouseId: main, delta_quantity: 1000 },
      { SKU: 'BIG-2', warehouseId: main, quantity: 3 },
      { SKU: 'BIG-1', warehouseId: main, delta_quantity: 647 },
    ]);
    assert.deepEqual(
      results.map((r) => r.success),
      [false, true, true],
    );
    assert.match(results[0]!.errorMessage, /past 2147483647 units/);
    assert.equal((await stockRow('BIG-1'))?.available_quantity, 2147483647);
    assert.equal((await stockRow('BIG-2'))?.available_quantity, 3);
  });

  it('answers an internal error for the item the database refuses, and applies the others', async () => {
    const db = t.deps.db.db;
    const main = seed.warehouses.main;
    await setStock(t, seed.sellerToken, [{ SKU: 'BOOM-2', warehouseId: main, quantity: 1 }]);
    // A constraint the service knows nothing about stands in for an unexpected database failure.
    const boom =
      t.deps.db.dialect === 'postgres'
        ? sql`alter table inventory add constraint boom check (onhand_quantity <> 666) not valid`
        : sql`create trigger boom before update on inventory when new.onhand_quantity = 666 begin select raise(abort, 'boom'); end`;
    await boom.execute(db);
    try {
      const results = await post([
        { SKU: 'BOOM-1', warehouseId: main, onhand_quantity: 666 },
        { SKU: 'BOOM-2', warehouseId: main, delta_quantity: 4 },
      ]);
      assert.equal(results[0]!.success, false);
      assert.match(results[0]!.errorMessage, /^internal error; this item was not applied \(referenceId /);
      assert.doesNotMatch(results[0]!.errorMessage, /boom|constraint|trigger/);
      assert.equal(results[1]!.success, true, results[1]!.errorMessage);
      // The product and stock row the failed item created on its way were rolled back with it.
      assert.equal(await findProductBySku(db, seed.accountId, 'BOOM-1'), null);
      assert.equal((await stockRow('BOOM-2'))?.available_quantity, 5);
    } finally {
      await (t.deps.db.dialect === 'postgres' ? sql`alter table inventory drop constraint boom` : sql`drop trigger boom`).execute(db);
    }
  });

  it('costs a few statements for 50 items, not a few per item', async () => {
    const main = seed.warehouses.main;
    const skus = Array.from({ length: 50 }, (_, i) => `CNT-${String(i).padStart(2, '0')}`);
    await setStock(t, seed.sellerToken, skus.map((SKU) => ({ SKU, warehouseId: main, quantity: 10 })));
    const { result, statements } = await countStatements(() => post(skus.map((SKU) => ({ SKU, warehouseId: main, delta_quantity: 1 }))));
    assert.ok(result.every((r) => r.success));
    // Token, warehouses, locks, products, rows, the update, the product touch and listing copy, the backorder
    // check, BEGIN and COMMIT: about a dozen whatever the item count (one item at a time took ~5 an item).
    assert.ok(statements <= 15, `50 items took ${statements} statements`);
    // New SKUs too: their products and rows are created in multi-row inserts.
    const fresh = Array.from({ length: 50 }, (_, i) => `NEW-${String(i).padStart(2, '0')}`);
    const created = await countStatements(() => post(fresh.map((SKU) => ({ SKU, warehouseId: main, quantity: 2 }))));
    assert.ok(created.result.every((r) => r.success));
    assert.ok(created.statements <= 18, `50 new SKUs took ${created.statements} statements`);
  });

  it('v2: sets 100 counts in a few statements, entries on the same row in order, a stale one refused', async () => {
    const second = seed.warehouses.second;
    const skus = Array.from({ length: 99 }, (_, i) => `V2-${String(i).padStart(2, '0')}`);
    // The products exist (v2 never creates them); WH-SECOND's stock is the integration's to set.
    for (let i = 0; i < skus.length; i += 50) await setStock(t, seed.sellerToken, skus.slice(i, i + 50).map((SKU) => ({ SKU, warehouseId: seed.warehouses.main, quantity: 1 })));
    const postV2 = (updates: Record<string, unknown>[], observedTs: string) =>
      t.app.inject({ method: 'POST', url: '/v2/inventory', headers: { authorization: `Bearer ${seed.inventory.token}` }, payload: { updates, observedTs } });
    const { result: res, statements } = await countStatements(() =>
      postV2([...skus.map((sku) => ({ sku, warehouseUniqueId: 'WH-SECOND', quantity: 7 })), { sku: 'V2-00', warehouseUniqueId: 'WH-SECOND', quantity: 9 }], '2026-06-01T00:00:00Z'),
    );
    assert.equal(res.statusCode, 200, res.body);
    const results = (res.json() as { results: { success: boolean; stale: boolean }[] }).results;
    assert.equal(results.length, 100);
    assert.ok(results.every((r) => r.success));
    assert.ok(statements <= 15, `100 entries took ${statements} statements`);
    // The later entry on the same row wins; every other row holds its count.
    assert.equal((await stockRow('V2-00', second))?.onhand_quantity, 9);
    assert.equal((await stockRow('V2-98', second))?.onhand_quantity, 7);
    const stale = await postV2([{ sku: 'V2-01', warehouseUniqueId: 'WH-SECOND', quantity: 50 }, { sku: 'V2-02', warehouseUniqueId: 'WH-SECOND', quantity: 60 }], '2026-05-01T00:00:00Z');
    const staleResults = (stale.json() as { results: { success: boolean; stale: boolean; failureReason: string }[] }).results;
    assert.deepEqual(
      staleResults.map((r) => [r.success, r.stale, r.failureReason]),
      [
        [false, true, 'UPDATE_FAILURE_REASON_UNSPECIFIED'],
        [false, true, 'UPDATE_FAILURE_REASON_UNSPECIFIED'],
      ],
    );
    assert.equal((await stockRow('V2-01', second))?.onhand_quantity, 7);
  });

  it('runs parallel calls over the same SKUs in opposite orders without a deadlock or a lost unit', async () => {
    const main = seed.warehouses.main;
    const skus = Array.from({ length: 50 }, (_, i) => `PAR-${String(i).padStart(2, '0')}`);
    await setStock(t, seed.sellerToken, skus.map((SKU) => ({ SKU, warehouseId: main, quantity: 100 })));
    const calls = Array.from({ length: 12 }, (_, c) => {
      const ordered = c % 2 === 0 ? skus : [...skus].reverse();
      // Each call adds 2 to every SKU and takes 1 back from every other one: +2 or +1 a SKU a call.
      return post(ordered.map((SKU, i) => ({ SKU, warehouseId: main, delta_quantity: i % 2 === 0 ? 2 : 1 })));
    });
    const all = await Promise.all(calls);
    for (const results of all) assert.ok(results.every((r) => r.success), JSON.stringify(results.find((r) => !r.success)));
    let total = 0;
    for (const sku of skus) total += (await stockRow(sku))!.available_quantity;
    // Every call adds 25 × 2 + 25 × 1 = 75 units over the 50 SKUs.
    assert.equal(total, 50 * 100 + 12 * 75);
  });
});
