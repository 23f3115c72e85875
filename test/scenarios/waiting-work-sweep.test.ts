import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findProductBySku } from '../../src/domain/catalog/products.js';
import { createProductsBySku } from '../../src/domain/catalog/create-products.js';
import { sweepWaitingWork } from '../../src/jobs/handlers/waiting-work-sweep.js';
import { RECURRING_JOBS } from '../../src/jobs/schedules.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, type Order } from '../http/v1-sales-orders-helpers.js';
import { foOf } from '../http/v2-shipping-support.js';

/**
 * The waiting-work sweep (src/jobs/handlers/waiting-work-sweep.ts) repairs what a PostgreSQL race can leave:
 * stock that became available while the order waiting for it was not yet visible, and an order routed to a
 * warehouse whose first shipper mapping was being made at the same moment. The races themselves cannot be
 * timed in a test, so each test writes the state they leave straight into the database, then runs the sweep.
 */
describe('waiting-work sweep', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let n = 0;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t, 'Sweep Shop');
  });
  after(async () => t.close());

  const order = (lines: Record<string, unknown>[]): Promise<Order> => createOrder(t, seed.channel.token, orderBody(`WS-${++n}`, lines));
  const db = () => t.deps.db.db;

  async function routeOf(o: Order, line = 0) {
    return db()
      .selectFrom('order_line_routes')
      .select(['warehouse_id', 'reserved_quantity', 'backorder_quantity'])
      .where('line_id', '=', Number(o.products[line]!.lineItemId))
      .execute();
  }

  /** Stock that arrives without its change handing it to the waiting orders (what the race amounts to). */
  async function stockBehindTheirBack(sku: string, warehouseId: number, units: number) {
    const product = await findProductBySku(db(), seed.accountId, sku);
    assert.ok(product);
    const changed = await db()
      .updateTable('inventory')
      .set({ available_quantity: units, onhand_quantity: units })
      .where('account_id', '=', seed.accountId)
      .where('product_id', '=', product.id)
      .where('warehouse_id', '=', warehouseId)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) {
      await db()
        .insertInto('inventory')
        .values({ account_id: seed.accountId, product_id: product.id, warehouse_id: warehouseId, available_quantity: units, onhand_quantity: units, reserved_quantity: 0, assembled_quantity: null, bin_location: null, observed_at: null, updated_at: new Date().toISOString() })
        .execute();
    }
  }

  it('is one of the service\'s hourly jobs', () => {
    assert.ok(RECURRING_JOBS.some((j) => j.type === 'orders.waiting-work-sweep' && j.everyMs === 60 * 60_000));
  });

  it('fills a backorder beside stock that became available unseen, oldest order first, once', async () => {
    const main = seed.warehouses.main;
    await createProductsBySku(db(), seed.accountId, ['WS-SKU'], new Date());
    const first = await order([{ requestedSku: 'WS-SKU', quantity: 3 }]);
    const second = await order([{ requestedSku: 'WS-SKU', quantity: 3 }]);
    assert.deepEqual(await routeOf(first), [{ warehouse_id: main, reserved_quantity: 0, backorder_quantity: 3 }]);
    await stockBehindTheirBack('WS-SKU', main, 4);

    const swept = await sweepWaitingWork(t.deps);
    assert.ok(swept.stockRows >= 1);
    assert.deepEqual(await routeOf(first), [{ warehouse_id: main, reserved_quantity: 3, backorder_quantity: 0 }]);
    assert.deepEqual(await routeOf(second), [{ warehouse_id: main, reserved_quantity: 1, backorder_quantity: 2 }]);
    // Nothing is left to serve: a second sweep changes nothing.
    assert.deepEqual(await sweepWaitingWork(t.deps), { stockRows: 0, orders: 0 });
    assert.deepEqual(await routeOf(second), [{ warehouse_id: main, reserved_quantity: 1, backorder_quantity: 2 }]);
  });

  it('routes a line whose unknown SKU was created and stocked unseen', async () => {
    const main = seed.warehouses.main;
    const o = await order([{ requestedSku: 'WS-GHOST', quantity: 2 }]);
    assert.deepEqual(await routeOf(o), []);
    await createProductsBySku(db(), seed.accountId, ['WS-GHOST'], new Date());
    await stockBehindTheirBack('WS-GHOST', main, 5);

    await sweepWaitingWork(t.deps);
    assert.deepEqual(await routeOf(o), [{ warehouse_id: main, reserved_quantity: 2, backorder_quantity: 0 }]);
    const line = await db().selectFrom('sales_order_lines').select(['unrouted_quantity', 'sku']).where('id', '=', Number(o.products[0]!.lineItemId)).executeTakeFirstOrThrow();
    assert.deepEqual(line, { unrouted_quantity: 0, sku: 'WS-GHOST' });
  });

  it('gives an order routed while its warehouse\'s first shipper mapping was made the fulfillment order it is owed', async () => {
    const main = seed.warehouses.main;
    await createProductsBySku(db(), seed.accountId, ['WS-SHIP'], new Date());
    await stockBehindTheirBack('WS-SHIP', main, 10);
    // The order commits before it can see the mapping, and the mapping's own backfill before it can see the order.
    const mapping = await db().selectFrom('warehouse_mappings').selectAll().where('account_id', '=', seed.accountId).where('warehouse_id', '=', main).executeTakeFirstOrThrow();
    await db().deleteFrom('warehouse_mappings').where('account_id', '=', seed.accountId).where('warehouse_id', '=', main).execute();
    const o = await order([{ requestedSku: 'WS-SHIP', quantity: 1 }]);
    await db().insertInto('warehouse_mappings').values(mapping).execute();
    const none = await db().selectFrom('fulfillment_orders').select('id').where('order_id', '=', Number(o.orderNumber)).execute();
    assert.deepEqual(none, []);

    const swept = await sweepWaitingWork(t.deps);
    assert.equal(swept.orders, 1);
    const fo = await foOf(t, seed.shipping.token, o.orderNumber);
    assert.equal(fo.status, 'FULFILLMENT_ORDER_STATUS_NEW');
    assert.equal((await sweepWaitingWork(t.deps)).orders, 0);
  });
});
