import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../src/domain/accounts/accounts.js';
import { SCOPES } from '../../src/domain/accounts/principal.js';
import { issueAdHocToken } from '../../src/domain/accounts/oauth.js';
import { createWarehouse } from '../../src/domain/accounts/warehouses.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, installAndExchange, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { importAndRun } from '../helpers/reports.js';
import { counters, createShipment, receiveOk } from '../http/v1-inbound-receive-helpers.js';
import { createOrder, orderBody, stock, type Order } from '../http/v1-sales-orders-helpers.js';
import { integrationStock } from '../http/v2-shipping-support.js';

/**
 * Issue 23 item 2: stock that becomes available fills the orders backordered for it, oldest order first, in
 * the transaction that adds it, whatever the path: v1 and v2 inventory updates, an inventory import, an inbound
 * receipt, a kit assembly, component stock (which builds waiting kits), a re-route or a cancellation that
 * gives stock back. Each filled order moves its lastUpdatedTs.
 */
describe('backorders fill from any stock increase', () => {
  const clock = manualClock(new Date('2026-11-24T08:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let main: number;
  let n = 0;
  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    main = seed.warehouses.main;
  });
  after(async () => t.close());

  /** A channel order of one line; `orderTs` decides its age (oldest first). */
  async function order(sku: string, quantity: number, orderTs: string, token = seed.channel.token, extra: Record<string, unknown> = {}): Promise<Order> {
    n += 1;
    clock.advance(1000);
    return createOrder(t, token, orderBody(`BF-${n}`, [{ requestedSku: sku, quantity }], { orderTs, ...extra }));
  }
  /** Reserved and backordered units of an order's first line, per warehouse. */
  async function held(o: Order) {
    const rows = await t.deps.db.db
      .selectFrom('order_line_routes')
      .select(['warehouse_id', 'reserved_quantity', 'backorder_quantity', 'assembled_quantity'])
      .where('line_id', '=', Number(o.products[0]!.lineItemId))
      .orderBy('warehouse_id')
      .execute();
    return rows.map((r) => ({ warehouseId: r.warehouse_id, reserved: r.reserved_quantity, backordered: r.backorder_quantity }));
  }
  async function readOrder(o: Order, token = seed.sellerToken): Promise<Order> {
    const res = await t.app.inject({ url: `/v1/salesOrder/${o.orderNumber}`, headers: bearer(token) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order;
  }
  const v1 = async (products: Record<string, unknown>[]) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/inventory', headers: bearer(seed.sellerToken), payload: { products } });
    assert.equal(res.statusCode, 200, res.body);
    for (const r of (res.json() as { results: { success: boolean; errorMessage: string }[] }).results) assert.ok(r.success, r.errorMessage);
  };

  it('a v1 update fills the oldest orders first and moves their lastUpdatedTs; a later delta fills the rest', async () => {
    await stock(t, seed.sellerToken, 'BF-V1', main, 0);
    const newer = await order('BF-V1', 2, '2026-11-20T10:00:00Z');
    const older = await order('BF-V1', 2, '2026-11-19T10:00:00Z');
    const other = await order('BF-V1-OTHER', 1, '2026-11-18T10:00:00Z');
    assert.deepEqual(await held(older), [{ warehouseId: main, reserved: 0, backordered: 2 }]);

    clock.advance(60_000);
    // One call of several items: the fill runs once, after them, in the call's transaction.
    await v1([
      { SKU: 'BF-V1', warehouseId: main, quantity: 3 },
      { SKU: 'BF-UNRELATED', warehouseId: main, quantity: 7 },
    ]);
    assert.deepEqual(await held(older), [{ warehouseId: main, reserved: 2, backordered: 0 }], 'the oldest order first');
    assert.deepEqual(await held(newer), [{ warehouseId: main, reserved: 1, backordered: 1 }]);
    assert.deepEqual(await counters(t, seed.accountId, 'BF-V1', main), { available: 0, onhand: 3, reserved: 3 });
    const filledAt = clock.now().toISOString();
    assert.equal((await readOrder(older)).lastUpdatedTs, filledAt);
    assert.equal((await readOrder(newer)).lastUpdatedTs, filledAt);
    assert.equal((await readOrder(other)).lastUpdatedTs, other.lastUpdatedTs, 'an order of another SKU is untouched');

    clock.advance(60_000);
    await v1([{ SKU: 'BF-V1', warehouseId: main, delta_quantity: 4 }]);
    assert.deepEqual(await held(newer), [{ warehouseId: main, reserved: 2, backordered: 0 }]);
    assert.deepEqual(await counters(t, seed.accountId, 'BF-V1', main), { available: 3, onhand: 7, reserved: 4 });
  });

  it('a v2 update by the integration that controls the default warehouse fills the orders waiting there', async () => {
    // An account whose default warehouse (its lowest-id ordinary one) is run by an inventory integration.
    const now = clock.now();
    const { accountId } = await createAccount(t.deps.db.db, { name: 'Depot shop' }, now);
    const depot = (await createWarehouse(t.deps.db.db, accountId, { name: 'Depot' }, now)).warehouseId;
    const floor = (await createWarehouse(t.deps.db.db, accountId, { name: 'Shop floor' }, now)).warehouseId;
    const { accessToken: seller } = await issueAdHocToken(t.deps.db.db, accountId, [...SCOPES], now);
    const inventory = await installAndExchange(t, accountId, 'INVENTORY', ['inventory:self'], { warehouses: [{ warehouseId: depot, warehouseUniqueId: 'DEPOT' }] });
    // The seller creates the SKU with its (empty) shop-floor stock; v2 never creates products.
    await stock(t, seller, 'BF-V2', floor, 0);
    const first = await order('BF-V2', 3, '2026-11-19T00:00:00Z', seller, { channel: 'Web' });
    const second = await order('BF-V2', 2, '2026-11-19T01:00:00Z', seller, { channel: 'Web' });
    assert.deepEqual(await held(first), [{ warehouseId: depot, reserved: 0, backordered: 3 }]);

    clock.advance(1000);
    await integrationStock(t, inventory.token, 'BF-V2', 'DEPOT', 4);
    assert.deepEqual(await held(first), [{ warehouseId: depot, reserved: 3, backordered: 0 }]);
    assert.deepEqual(await held(second), [{ warehouseId: depot, reserved: 1, backordered: 1 }]);
    assert.deepEqual(await counters(t, accountId, 'BF-V2', depot), { available: 0, onhand: 4, reserved: 4 });
    assert.equal((await readOrder(second, seller)).lastUpdatedTs, clock.now().toISOString());
  });

  it('an inventory import fills in the chunk that adds the stock', async () => {
    await stock(t, seed.sellerToken, 'BF-IMP', main, 0);
    const o = await order('BF-IMP', 2, '2026-11-19T00:00:00Z');
    clock.advance(1000);
    const report = await importAndRun(t, seed.sellerToken, 'sku,warehouse,delta_quantity\nBF-IMP,Main,5\n', { importType: 'Inventory' });
    assert.equal(report.status, 'COMPLETE', JSON.stringify(report));
    assert.equal(report.linesSuccessfullyProcessed, 1);
    assert.deepEqual(await held(o), [{ warehouseId: main, reserved: 2, backordered: 0 }]);
    assert.deepEqual(await counters(t, seed.accountId, 'BF-IMP', main), { available: 3, onhand: 5, reserved: 2 });
    assert.notEqual((await readOrder(o)).lastUpdatedTs, o.lastUpdatedTs);
  });

  it('an inbound receipt still fills, oldest first', async () => {
    await stock(t, seed.sellerToken, 'BF-IN', main, 0);
    const late = await order('BF-IN', 2, '2026-11-21T00:00:00Z');
    const early = await order('BF-IN', 2, '2026-11-20T00:00:00Z');
    const shipment = await createShipment(t, seed.sellerToken, main, [{ sku: 'BF-IN', quantity: 3, unit_item_cost: 1 }]);
    await receiveOk(t, seed.sellerToken, shipment.id, [{ sku: 'BF-IN', quantity: 3 }]);
    assert.deepEqual(await held(early), [{ warehouseId: main, reserved: 2, backordered: 0 }]);
    assert.deepEqual(await held(late), [{ warehouseId: main, reserved: 1, backordered: 1 }]);
  });

  describe('kits', () => {
    const KIT = 'BF-KIT';
    before(async () => {
      for (const sku of ['BF-A', 'BF-B', KIT]) await stock(t, seed.sellerToken, sku, main, 0);
      const res = await admin(t, 'PUT', `/admin/accounts/${seed.accountId}/products/${KIT}/kit`, {
        components: [
          { sku: 'BF-A', quantity: 2 },
          { sku: 'BF-B', quantity: 1 },
        ],
      });
      assert.equal(res.statusCode, 200, res.body);
    });
    const kitParts = async (o: Order) =>
      t.deps.db.db
        .selectFrom('order_route_kit_components as c')
        .innerJoin('order_line_routes as r', 'r.id', 'c.route_id')
        .select(['c.component_product_id', 'c.reserved_quantity'])
        .where('r.line_id', '=', Number(o.products[0]!.lineItemId))
        .orderBy('c.component_product_id')
        .execute()
        .then((rows) => rows.map((r) => r.reserved_quantity));

    it('a kit assembly fills the kits waiting in that warehouse, from the kit\'s own stock', async () => {
      const o = await order(KIT, 2, '2026-11-19T00:00:00Z');
      assert.deepEqual(await held(o), [{ warehouseId: main, reserved: 0, backordered: 2 }]);
      clock.advance(1000);
      const res = await admin(t, 'PUT', `/admin/accounts/${seed.accountId}/inventory/${KIT}/${main}/assembled`, { quantity: 1 });
      assert.equal(res.statusCode, 200, res.body);
      // The answer shows the counts after the fill.
      assert.deepEqual(res.json(), { sku: KIT, warehouseId: main, assembledQuantity: 1, onhandQuantity: 1, availableQuantity: 0, reservedQuantity: 1 });
      assert.deepEqual(await held(o), [{ warehouseId: main, reserved: 1, backordered: 1 }]);
      const route = (await readOrder(o)).products[0]!.routing_info[0]!;
      assert.equal(route.assembledQuantity, 1, 'the kit came from assembled stock');
      assert.equal((await readOrder(o)).lastUpdatedTs, clock.now().toISOString());
      // The other kit waits; cancel it so the next test starts clean.
      const cancel = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/orders/${o.orderNumber}/cancel`, { reason: 'test over' });
      assert.equal(cancel.statusCode, 200, cancel.body);
      assert.deepEqual(await counters(t, seed.accountId, KIT, main), { available: 1, onhand: 1, reserved: 0 });
      await admin(t, 'PUT', `/admin/accounts/${seed.accountId}/inventory/${KIT}/${main}/assembled`, { quantity: 0 });
    });

    it('component stock builds the kits waiting in that warehouse, the oldest demand for a component first', async () => {
      const kits = await order(KIT, 2, '2026-11-19T00:00:00Z');
      // An older plain order of a component comes first for that component.
      const plain = await order('BF-A', 1, '2026-11-18T00:00:00Z');
      clock.advance(1000);
      await v1([{ SKU: 'BF-A', warehouseId: main, quantity: 5 }]);
      // The plain order took 1 A; no B yet, so no kit can be built.
      assert.deepEqual(await held(plain), [{ warehouseId: main, reserved: 1, backordered: 0 }]);
      assert.deepEqual(await held(kits), [{ warehouseId: main, reserved: 0, backordered: 2 }]);
      assert.deepEqual(await counters(t, seed.accountId, 'BF-A', main), { available: 4, onhand: 5, reserved: 1 });

      clock.advance(1000);
      await v1([{ SKU: 'BF-B', warehouseId: main, quantity: 1 }]);
      assert.deepEqual(await held(kits), [{ warehouseId: main, reserved: 1, backordered: 1 }], 'one kit built: 2 A and 1 B');
      assert.deepEqual(await kitParts(kits), [2, 1]);
      assert.deepEqual(await counters(t, seed.accountId, 'BF-A', main), { available: 2, onhand: 5, reserved: 3 });
      assert.deepEqual(await counters(t, seed.accountId, 'BF-B', main), { available: 0, onhand: 1, reserved: 1 });
      assert.equal((await readOrder(kits)).lastUpdatedTs, clock.now().toISOString());

      await v1([{ SKU: 'BF-B', warehouseId: main, delta_quantity: 3 }]);
      assert.deepEqual(await held(kits), [{ warehouseId: main, reserved: 2, backordered: 0 }]);
      assert.deepEqual(await kitParts(kits), [4, 2]);
      const routing = (await readOrder(kits)).products[0]!.routing_info[0]!;
      assert.equal(routing.assembledQuantity, 0, 'built from components, not assembled stock');

      // Cancelling gives the components back (and nothing else waits for them).
      const cancel = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/orders/${kits.orderNumber}/cancel`, { reason: 'test over' });
      assert.equal(cancel.statusCode, 200, cancel.body);
      assert.deepEqual(await counters(t, seed.accountId, 'BF-A', main), { available: 4, onhand: 5, reserved: 1 });
      assert.deepEqual(await counters(t, seed.accountId, 'BF-B', main), { available: 4, onhand: 4, reserved: 0 });
    });
  });

  it('a re-route gives stock back where the units were, and the orders waiting there take it', async () => {
    await stock(t, seed.sellerToken, 'BF-RR', main, 2);
    const moved = await order('BF-RR', 2, '2026-11-19T00:00:00Z');
    const waiting = await order('BF-RR', 1, '2026-11-19T01:00:00Z');
    assert.deepEqual(await held(moved), [{ warehouseId: main, reserved: 2, backordered: 0 }]);
    assert.deepEqual(await held(waiting), [{ warehouseId: main, reserved: 0, backordered: 1 }]);
    // Stock elsewhere (after the orders, so routing did not use it); nothing waits there.
    await integrationStock(t, seed.inventory.token, 'BF-RR', 'WH-SECOND', 5);
    assert.deepEqual(await held(waiting), [{ warehouseId: main, reserved: 0, backordered: 1 }]);

    clock.advance(1000);
    const res = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/orders/${moved.orderNumber}/reroute`, {
      lineItemId: moved.products[0]!.lineItemId,
      fromWarehouseId: main,
      toWarehouseId: seed.warehouses.second,
      quantity: 2,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await held(waiting), [{ warehouseId: main, reserved: 1, backordered: 0 }]);
    assert.deepEqual(await counters(t, seed.accountId, 'BF-RR', main), { available: 1, onhand: 2, reserved: 1 });
    assert.equal((await readOrder(waiting)).lastUpdatedTs, clock.now().toISOString());
  });

  it('a cancellation gives stock back, and the orders waiting for it take it', async () => {
    await stock(t, seed.sellerToken, 'BF-CX', main, 3);
    const holder = await order('BF-CX', 3, '2026-11-19T00:00:00Z');
    const waiting = await order('BF-CX', 2, '2026-11-19T01:00:00Z');
    const res = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/orders/${holder.orderNumber}/cancel`, {
      reason: 'customer changed their mind',
      lineItems: [{ lineItemId: holder.products[0]!.lineItemId, quantity: 2 }],
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await held(holder), [{ warehouseId: main, reserved: 1, backordered: 0 }]);
    assert.deepEqual(await held(waiting), [{ warehouseId: main, reserved: 2, backordered: 0 }]);
    assert.deepEqual(await counters(t, seed.accountId, 'BF-CX', main), { available: 0, onhand: 3, reserved: 3 });
  });
});
