import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findProductBySku } from '../../src/domain/catalog/products.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { orderBody, postOrder, stock, type Order } from '../http/v1-sales-orders-helpers.js';

/**
 * Parallel orders for the last units: every reservation is one conditional UPDATE, so the units reserved
 * never exceed the stock, available never goes below zero, and what cannot be reserved is backordered.
 */
describe('sales orders under concurrency', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  async function counters(sku: string) {
    const product = await findProductBySku(t.deps.db.db, seed.accountId, sku);
    assert.ok(product);
    const rows = await t.deps.db.db
      .selectFrom('inventory')
      .select(['warehouse_id', 'available_quantity', 'onhand_quantity', 'reserved_quantity'])
      .where('account_id', '=', seed.accountId)
      .where('product_id', '=', product.id)
      .orderBy('warehouse_id')
      .execute();
    const ledger = await t.deps.db.db
      .selectFrom('inventory_reservations')
      .select(['warehouse_id', 'quantity'])
      .where('account_id', '=', seed.accountId)
      .where('product_id', '=', product.id)
      .execute();
    const routesRows = await t.deps.db.db
      .selectFrom('order_line_routes')
      .select(['warehouse_id', 'reserved_quantity', 'backorder_quantity', 'quantity'])
      .where('account_id', '=', seed.accountId)
      .where('product_id', '=', product.id)
      .execute();
    return { rows, ledger, routes: routesRows };
  }

  it('never oversells the last units: reserved ≤ stock, available ≥ 0, the rest backordered', async () => {
    await stock(t, seed.sellerToken, 'LAST', seed.warehouses.main, 5);
    await stock(t, seed.inventory.token, 'LAST', seed.warehouses.second, 3);
    const quantities = Array.from({ length: 30 }, (_, i) => 1 + (i % 3));
    const responses = await Promise.all(
      quantities.map((quantity, i) => postOrder(t, seed.channel.token, orderBody(`LAST-${i}`, [{ requestedSku: 'LAST', quantity }]))),
    );
    for (const res of responses) assert.equal(res.statusCode, 200, res.body);
    const ordered = quantities.reduce((a, b) => a + b, 0);

    const { rows, ledger, routes } = await counters('LAST');
    for (const r of rows) {
      assert.ok(r.available_quantity >= 0, `available ${r.available_quantity} in warehouse ${r.warehouse_id}`);
      assert.equal(r.available_quantity, r.onhand_quantity - r.reserved_quantity);
      assert.ok(r.reserved_quantity <= r.onhand_quantity);
      const held = ledger.filter((l) => l.warehouse_id === r.warehouse_id).reduce((a, l) => a + l.quantity, 0);
      assert.equal(held, r.reserved_quantity, 'the ledger agrees with the counter');
    }
    const reserved = rows.reduce((a, r) => a + r.reserved_quantity, 0);
    assert.equal(reserved, 8, 'every unit in stock is reserved, none twice');
    assert.equal(routes.reduce((a, r) => a + r.reserved_quantity, 0), 8);
    assert.equal(routes.reduce((a, r) => a + r.backorder_quantity, 0), ordered - 8);
    assert.equal(routes.reduce((a, r) => a + r.quantity, 0), ordered);
    // Every order's line is fully routed.
    for (const res of responses) {
      const line = (res.json() as Order).products[0]!;
      assert.equal(line.routing_info.reduce((a, r) => a + r.quantity, 0), line.quantity);
    }
  });

  it('reserves multi-line orders in one statement without overselling or deadlocking, lines in either order', async () => {
    // Lines of distinct SKUs that the stock can take whole are reserved by one UPDATE (route-new-order.ts
    // reserveWhollyPlaceableLines); parallel orders naming the same rows in opposite orders must neither
    // deadlock nor lose or double a unit, and those that lose the race go on line by line.
    const skus = ['MULTI-A', 'MULTI-B', 'MULTI-C'];
    for (const sku of skus) {
      await stock(t, seed.sellerToken, sku, seed.warehouses.main, 6);
      await stock(t, seed.inventory.token, sku, seed.warehouses.second, 4);
    }
    const bodies = Array.from({ length: 24 }, (_, i) => {
      const lines = (i % 2 === 0 ? skus : [...skus].reverse()).slice(0, 2 + (i % 2)).map((requestedSku, n) => ({ requestedSku, quantity: 1 + ((i + n) % 2) }));
      return orderBody(`MULTI-${i}`, lines);
    });
    const responses = await Promise.all(bodies.map((body) => postOrder(t, seed.channel.token, body)));
    for (const res of responses) assert.equal(res.statusCode, 200, res.body);
    for (const sku of skus) {
      const ordered = bodies.flatMap((b) => (b.products as { requestedSku: string; quantity: number }[]).filter((l) => l.requestedSku === sku)).reduce((a, l) => a + l.quantity, 0);
      const { rows, ledger, routes } = await counters(sku);
      for (const r of rows) {
        assert.ok(r.available_quantity >= 0, `${sku}: available ${r.available_quantity} in warehouse ${r.warehouse_id}`);
        assert.equal(r.available_quantity, r.onhand_quantity - r.reserved_quantity);
        const held = ledger.filter((l) => l.warehouse_id === r.warehouse_id).reduce((a, l) => a + l.quantity, 0);
        assert.equal(held, r.reserved_quantity, `${sku}: the ledger agrees with the counter`);
      }
      const reserved = rows.reduce((a, r) => a + r.reserved_quantity, 0);
      assert.equal(reserved, Math.min(10, ordered), `${sku}: every unit reserved once, as far as the stock goes`);
      assert.equal(routes.reduce((a, r) => a + r.reserved_quantity, 0), reserved);
      assert.equal(routes.reduce((a, r) => a + r.quantity, 0), ordered, `${sku}: every unit routed`);
    }
  });

  it('keeps available = on-hand − reserved while stock updates and orders interleave', async () => {
    await stock(t, seed.sellerToken, 'MIX', seed.warehouses.main, 10);
    const work = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? postOrder(t, seed.channel.token, orderBody(`MIX-${i}`, [{ requestedSku: 'MIX', quantity: 1 }]))
        : t.app.inject({
            method: 'POST',
            url: '/v1/inventory',
            headers: bearer(seed.sellerToken),
            payload: { products: [{ SKU: 'MIX', warehouseId: seed.warehouses.main, delta_quantity: 1 }] },
          }),
    );
    for (const res of await Promise.all(work)) assert.equal(res.statusCode, 200, res.body);
    const { rows, routes } = await counters('MIX');
    const row = rows.find((r) => r.warehouse_id === seed.warehouses.main)!;
    assert.equal(row.onhand_quantity, 30);
    assert.equal(row.available_quantity, row.onhand_quantity - row.reserved_quantity);
    assert.ok(row.available_quantity >= 0);
    assert.equal(row.reserved_quantity, routes.reduce((a, r) => a + r.reserved_quantity, 0));
    assert.equal(routes.reduce((a, r) => a + r.quantity, 0), 20);
  });
});
