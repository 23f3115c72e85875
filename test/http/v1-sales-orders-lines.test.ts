import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';

/** Line fields that fall back to the order's or the catalog's (document 2.10, resolutions §7). */
describe('v1 sales order lines: fallbacks', () => {
  let t: TestApp;
  let seed: SeededAccount;

  /** The order as created and as read back: both must show the same lines. */
  const createAndGet = async (payload: unknown): Promise<Order[]> => {
    const created = await createOrder(t, seed.channel.token, payload);
    const res = await t.app.inject({ url: `/v1/salesOrder/${created.orderNumber}`, headers: bearer(seed.channel.token) });
    assert.equal(res.statusCode, 200, res.body);
    return [created, res.json() as Order];
  };

  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    await stock(t, seed.sellerToken, 'TL-A', seed.warehouses.main, 10);
    await stock(t, seed.sellerToken, 'TL-B', seed.warehouses.main, 10);
    // No partner route edits catalog titles; the seller's catalog holds them.
    await t.deps.db.db.updateTable('products').set({ title: 'Red mug (catalog)' }).where('sku', '=', 'TL-A').execute();
  });
  after(async () => t.close());

  it("requestedServiceLevel: the line's own, else the order's", async () => {
    const payload = orderBody(
      'SL-1',
      [
        { requestedSku: 'TL-A', quantity: 1, requestedServiceLevel: 'Ground' },
        { requestedSku: 'TL-B', quantity: 1 },
      ],
      { requestedServiceLevel: 'Next Day Air' },
    );
    for (const order of await createAndGet(payload)) {
      assert.equal(order.requestedServiceLevel, 'Next Day Air');
      assert.deepEqual(
        order.products.map((l) => l.requestedServiceLevel),
        ['Ground', 'Next Day Air'],
      );
    }
  });

  it('requestedServiceLevel stays null when neither the line nor the order has one', async () => {
    for (const order of await createAndGet(orderBody('SL-2', [{ requestedSku: 'TL-A', quantity: 1 }]))) {
      assert.equal(order.products[0]?.requestedServiceLevel, null);
    }
  });

  it("title: the one sent on create, else the catalog product's, else null", async () => {
    const payload = orderBody('TI-1', [
      { requestedSku: 'TL-A', quantity: 1 },
      { requestedSku: 'TL-A', quantity: 1, title: 'Red mug (channel)', requestedTitle: 'RED MUG 12oz' },
      { requestedSku: 'TL-B', quantity: 1 },
      { requestedSku: 'NOT-IN-CATALOG', quantity: 1, title: 'Blue cup' },
      { requestedSku: 'NOT-IN-CATALOG', quantity: 1 },
    ]);
    for (const order of await createAndGet(payload)) {
      assert.deepEqual(
        order.products.map((l) => l.title),
        ['Red mug (catalog)', 'Red mug (channel)', null, 'Blue cup', null],
      );
      assert.equal(order.products[1]?.requestedTitle, 'RED MUG 12oz');
    }
  });
});
