import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { admin } from '../helpers/admin.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { orderBody, postOrder, stock } from '../http/v1-sales-orders-helpers.js';

/**
 * Issue 23 item 2, under load: many inventory updates and order creations at once (over HTTP, in parallel,
 * plain SKUs and a kit built from two of them) never reserve more than exists, leave no backorder waiting
 * beside stock that could fill it, and account for every unit ordered exactly once.
 */
describe('backorder fills under parallel stock increases and orders', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let main: number;
  const SKUS = ['PX-A', 'PX-B', 'PX-C'];
  const KIT = 'PX-KIT';
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t, 'Parallel Shop');
    main = seed.warehouses.main;
    for (const sku of [...SKUS, KIT]) await stock(t, seed.sellerToken, sku, main, 0);
    const res = await admin(t, 'PUT', `/admin/accounts/${seed.accountId}/products/${KIT}/kit`, {
      components: [
        { sku: 'PX-A', quantity: 1 },
        { sku: 'PX-B', quantity: 2 },
      ],
    });
    assert.equal(res.statusCode, 200, res.body);
  });
  after(async () => t.close());

  it('never oversells, fills what it can, and counts every unit once', async () => {
    const ORDERS = 60;
    const UPDATES = 30;
    const added = new Map<string, number>(SKUS.map((s) => [s, 0]));
    const ordered = new Map<string, number>([...SKUS, KIT].map((s) => [s, 0]));
    const work: Promise<void>[] = [];
    for (let i = 0; i < Math.max(ORDERS, UPDATES); i++) {
      if (i < ORDERS) {
        const sku = i % 4 === 3 ? KIT : SKUS[i % 3]!;
        const quantity = 1 + (i % 3);
        ordered.set(sku, ordered.get(sku)! + quantity);
        // Orders of different ages, so "oldest first" has something to order.
        const orderTs = new Date(Date.parse('2026-11-01T00:00:00Z') + ((i * 7919) % ORDERS) * 60_000).toISOString();
        work.push(
          postOrder(t, seed.channel.token, orderBody(`PX-${i}`, [{ requestedSku: sku, quantity }], { orderTs })).then((res) => {
            assert.equal(res.statusCode, 200, res.body);
          }),
        );
      }
      if (i < UPDATES) {
        // Two items per call, in SKU order: calls naming the same SKUs in opposite orders lock their stock rows
        // in opposite orders and can deadlock on PostgreSQL whatever fills what (that is retried, a few times).
        const items = [SKUS[i % 3]!, SKUS[(i + 1) % 3]!].sort();
        for (const sku of items) added.set(sku, added.get(sku)! + 2);
        work.push(
          t.app
            .inject({
              method: 'POST',
              url: '/v1/inventory',
              headers: bearer(seed.sellerToken),
              payload: { products: items.map((SKU) => ({ SKU, warehouseId: main, delta_quantity: 2 })) },
            })
            .then((res) => {
              assert.equal(res.statusCode, 200, res.body);
              for (const r of (res.json() as { results: { success: boolean; errorMessage: string }[] }).results) assert.ok(r.success, r.errorMessage);
            }),
        );
      }
    }
    await Promise.all(work);

    const db = t.deps.db.db;
    const accountId = seed.accountId;
    const products = new Map((await db.selectFrom('products').select(['id', 'sku']).where('account_id', '=', accountId).execute()).map((p) => [p.sku, p.id]));
    const inventory = await db.selectFrom('inventory').select(['product_id', 'warehouse_id', 'available_quantity', 'onhand_quantity', 'reserved_quantity']).where('account_id', '=', accountId).execute();
    const routes = await db
      .selectFrom('order_line_routes')
      .select(['id', 'line_id', 'product_id', 'warehouse_id', 'quantity', 'reserved_quantity', 'backorder_quantity', 'assembled_quantity'])
      .where('account_id', '=', accountId)
      .execute();
    const parts = await db.selectFrom('order_route_kit_components').select(['route_id', 'component_product_id', 'component_quantity', 'reserved_quantity']).where('account_id', '=', accountId).execute();
    const lines = await db.selectFrom('sales_order_lines').select(['id', 'product_id', 'quantity', 'cancel_quantity', 'shipped_quantity', 'unrouted_quantity']).where('account_id', '=', accountId).execute();
    const ledger = await db.selectFrom('inventory_reservations').select(['product_id', 'warehouse_id', 'quantity']).where('account_id', '=', accountId).execute();

    // Every routed unit of every line once: routes (reserved + backordered) add up to what was ordered.
    for (const line of lines) {
      const owed = routes.filter((r) => r.line_id === line.id).reduce((n, r) => n + r.reserved_quantity + r.backorder_quantity, 0);
      assert.equal(owed + line.unrouted_quantity, line.quantity - line.cancel_quantity - line.shipped_quantity, `line ${line.id}: every unit accounted for once`);
      assert.equal(line.unrouted_quantity, 0, 'every SKU is known and has a default warehouse');
    }
    for (const [sku, units] of ordered) {
      const id = products.get(sku)!;
      const total = routes.filter((r) => r.product_id === id).reduce((n, r) => n + r.reserved_quantity + r.backorder_quantity, 0);
      assert.equal(total, units, `${sku}: ordered units`);
    }

    const kitId = products.get(KIT)!;
    for (const sku of SKUS) {
      const id = products.get(sku)!;
      const row = inventory.find((r) => r.product_id === id && r.warehouse_id === main)!;
      assert.equal(row.onhand_quantity, added.get(sku), `${sku}: on-hand is what the updates added`);
      // What the stock row says is reserved is exactly what routes hold: the SKU's own routes and kit components.
      const own = routes.filter((r) => r.product_id === id).reduce((n, r) => n + r.reserved_quantity, 0);
      const asComponent = parts.filter((p) => p.component_product_id === id).reduce((n, p) => n + p.reserved_quantity, 0);
      assert.equal(row.reserved_quantity, own + asComponent, `${sku}: reserved = what orders hold`);
      assert.ok(row.reserved_quantity <= row.onhand_quantity, `${sku}: never more reserved than exists`);
      assert.equal(row.available_quantity, row.onhand_quantity - row.reserved_quantity, `${sku}: available = on-hand − reserved`);
      const ledgered = ledger.filter((l) => l.product_id === id && l.warehouse_id === main).reduce((n, l) => n + l.quantity, 0);
      assert.equal(ledgered, own, `${sku}: the reservation ledger holds the SKU's own reservations`);
      // Nothing waits for stock that is there.
      const waiting = routes.filter((r) => r.product_id === id && r.backorder_quantity > 0);
      assert.ok(row.available_quantity === 0 || waiting.length === 0, `${sku}: ${row.available_quantity} available while ${waiting.length} routes wait`);
    }
    // Kits: every reserved kit is built from components the route holds (no assembled stock exists).
    for (const r of routes.filter((x) => x.product_id === kitId)) {
      const mine = parts.filter((p) => p.route_id === r.id);
      assert.equal(mine.length, 2);
      for (const p of mine) assert.equal(p.reserved_quantity, p.component_quantity * r.reserved_quantity, `kit route ${r.id}: components for its kits`);
      assert.equal(r.assembled_quantity, 0);
    }
    const a = inventory.find((r) => r.product_id === products.get('PX-A') && r.warehouse_id === main)!;
    const b = inventory.find((r) => r.product_id === products.get('PX-B') && r.warehouse_id === main)!;
    const kitsWaiting = routes.some((r) => r.product_id === kitId && r.backorder_quantity > 0);
    assert.ok(!kitsWaiting || a.available_quantity < 1 || b.available_quantity < 2, 'no kit waits while its components are there');
  });
});
