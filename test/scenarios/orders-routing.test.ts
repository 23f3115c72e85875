import assert from 'node:assert/strict';
import { after, beforeEach, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { availableBySku, createOrder, orderBody, routes, stock } from '../http/v1-sales-orders-helpers.js';

/**
 * Routing and reservations seen through HTTP: where lines go (most available, ties, splits, backorders,
 * channel-fulfilled warehouses) and what GET/POST /v1/inventory then show.
 */
describe('order routing and reservations', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let main: number;
  let second: number;
  let channel: number;
  let sku = 0;
  let n = 0;
  const apps: TestApp[] = [];

  beforeEach(async () => {
    t = await createTestApp({ clock });
    apps.push(t);
    seed = await seedAccount(t);
    ({ main, second, channel } = seed.warehouses);
  });
  after(async () => {
    for (const app of apps) await app.close();
  });

  /** Stocks a new SKU: main and channel through the seller, second through its inventory integration. */
  async function newSku(levels: { main?: number; second?: number; channel?: number }): Promise<string> {
    sku += 1;
    const name = `SKU-${sku}`;
    if (levels.main !== undefined) await stock(t, seed.sellerToken, name, main, levels.main);
    if (levels.second !== undefined) await stock(t, seed.inventory.token, name, second, levels.second);
    if (levels.channel !== undefined) await stock(t, seed.sellerToken, name, channel, levels.channel);
    return name;
  }
  async function order(requestedSku: string, quantity: number, extra: Record<string, unknown> = {}) {
    n += 1;
    clock.advance(1000);
    return createOrder(t, seed.channel.token, orderBody(`R-${n}`, [{ requestedSku, quantity }], extra));
  }
  const available = async (name: string) => Object.fromEntries(await availableBySku(t, seed.sellerToken, name));

  it('routes a line to the warehouse with the most available units', async () => {
    const s = await newSku({ main: 5, second: 8 });
    const o = await order(s, 3);
    assert.deepEqual(routes(o.products[0]), { [second]: 3 });
    assert.deepEqual(await available(s), { [main]: 5, [second]: 5 });
  });

  it('breaks ties by the lowest warehouse id', async () => {
    const s = await newSku({ main: 4, second: 4 });
    assert.deepEqual(routes((await order(s, 2)).products[0]), { [main]: 2 });
    // Now second has more.
    assert.deepEqual(routes((await order(s, 2)).products[0]), { [second]: 2 });
  });

  it('splits across warehouses by descending availability when none holds enough', async () => {
    const s = await newSku({ main: 3, second: 5 });
    const o = await order(s, 7);
    assert.deepEqual(routes(o.products[0]), { [second]: 5, [main]: 2 });
    assert.deepEqual(await available(s), { [main]: 1, [second]: 0 });
  });

  it('backorders the remainder at the default warehouse without making available negative', async () => {
    const s = await newSku({ main: 1, second: 2 });
    const o = await order(s, 6);
    // second 2 (most), main 1, then 3 backordered at main (the lowest-id ordinary warehouse).
    assert.deepEqual(routes(o.products[0]), { [second]: 2, [main]: 4 });
    assert.deepEqual(await available(s), { [main]: 0, [second]: 0 });
    const rows = await t.deps.db.db
      .selectFrom('inventory')
      .select(['warehouse_id', 'available_quantity', 'onhand_quantity', 'reserved_quantity'])
      .where('account_id', '=', seed.accountId)
      .orderBy('warehouse_id')
      .execute();
    for (const r of rows) assert.equal(r.available_quantity, r.onhand_quantity - r.reserved_quantity);
    // A SKU with no stock in any ordinary warehouse goes entirely to the default warehouse.
    const none = await newSku({ channel: 5 });
    assert.deepEqual(routes((await order(none, 2)).products[0]), { [main]: 2 });
  });

  it('uses channel-fulfilled warehouses only when the channel fulfils the order', async () => {
    const s = await newSku({ main: 1, channel: 10 });
    assert.deepEqual(routes((await order(s, 3)).products[0]), { [main]: 3 });
    assert.deepEqual(routes((await order(s, 3, { fba: true })).products[0]), { [channel]: 3 });
    assert.deepEqual(routes((await order(s, 2, { channelWillFulfill: true })).products[0]), { [channel]: 2 });
    assert.deepEqual(await available(s), { [main]: 0, [channel]: 5 });
  });

  it('routes every line of an order on its own', async () => {
    const a = await newSku({ main: 2 });
    const b = await newSku({ second: 2 });
    n += 1;
    const o = await createOrder(t, seed.channel.token, orderBody(`R-${n}`, [{ requestedSku: a, quantity: 2 }, { requestedSku: b, quantity: 1 }, { requestedSku: a, quantity: 1 }]));
    assert.deepEqual(o.products.map((l) => routes(l)), [{ [main]: 2 }, { [second]: 1 }, { [main]: 1 }]);
  });

  it('keeps available = on-hand − reserved when the seller sets on-hand later', async () => {
    const s = await newSku({ main: 10 });
    await order(s, 3);
    assert.deepEqual(await available(s), { [main]: 7 });
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/inventory',
      headers: bearer(seed.sellerToken),
      payload: { products: [{ SKU: s, warehouseId: main, onhand_quantity: 20 }] },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await available(s), { [main]: 17 });
    // A count lower than what orders hold floors at zero.
    await t.app.inject({ method: 'POST', url: '/v1/inventory', headers: bearer(seed.sellerToken), payload: { products: [{ SKU: s, warehouseId: main, onhand_quantity: 2 }] } });
    assert.deepEqual(await available(s), { [main]: 0 });
  });

  it('subtracts units routed after pulled_ts from an absolute quantity (the reservation ledger)', async () => {
    const s = await newSku({ main: 10 });
    const countedAt = clock.now().toISOString();
    await order(s, 4);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/inventory',
      headers: bearer(seed.sellerToken),
      payload: { validAsOf: countedAt, products: [{ SKU: s, warehouseId: main, quantity: 10 }] },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await available(s), { [main]: 6 });
  });

  it('moves the SKU\'s inventory timestamp when a line is routed', async () => {
    const s = await newSku({ main: 10 });
    const o = await order(s, 1);
    const res = await t.app.inject({ url: `/v1/inventory/${s}`, headers: bearer(seed.sellerToken) });
    const record = res.json() as { lastInventoryUpdateTs: string; warehouses: { updatedTs: string }[] };
    assert.equal(record.lastInventoryUpdateTs, o.lastUpdatedTs);
    assert.equal(record.warehouses[0]?.updatedTs, o.lastUpdatedTs);
  });
});
