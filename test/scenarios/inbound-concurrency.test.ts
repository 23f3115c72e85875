import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Decimal } from 'decimal.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { counters, createShipment, getShipment, landedCost, receive } from '../http/v1-inbound-receive-helpers.js';
import { createOrder, orderBody, stock } from '../http/v1-sales-orders-helpers.js';

/**
 * Receipts under concurrency: parallel receipts of one shipment never receive more than was sent (the shipment
 * row is held, each line rises by a conditional UPDATE), the stock and the backorders they fill add up, the
 * shipping shares sum to the shipping cost exactly, and parallel receipts of the same SKU on different
 * shipments all count in its landed cost (compare-and-swap).
 */
describe('inbound receipts under concurrency', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  const routesOf = (sku: string) =>
    t.deps.db.db
      .selectFrom('order_line_routes as r')
      .innerJoin('products as p', 'p.id', 'r.product_id')
      .select(['r.reserved_quantity', 'r.backorder_quantity'])
      .where('r.account_id', '=', seed.accountId)
      .where('p.sku', '=', sku)
      .execute();

  it('receives exactly what was sent when 40 receipts of 1 unit race for a line of 25, filling backorders', async () => {
    const main = seed.warehouses.main;
    await stock(t, seed.sellerToken, 'RACE', main, 0);
    // Ten orders of 2 wait for stock.
    for (let i = 0; i < 10; i++) {
      await createOrder(t, seed.channel.token, orderBody(`RACE-${i}`, [{ requestedSku: 'RACE', quantity: 2 }], { orderTs: `2026-11-20T10:00:${String(i).padStart(2, '0')}Z` }));
    }
    const shipment = await createShipment(t, seed.sellerToken, main, [{ sku: 'RACE', quantity: 25, unit_item_cost: 1.2 }], { shipping_cost: 10 });

    const responses = await Promise.all(Array.from({ length: 40 }, () => receive(t, seed.sellerToken, shipment.id, [{ sku: 'RACE', quantity: 1 }])));
    const ok = responses.filter((r) => r.statusCode === 200);
    const refused = responses.filter((r) => r.statusCode !== 200);
    assert.equal(ok.length, 25, responses.map((r) => r.statusCode).join(','));
    assert.equal(refused.length, 15);
    for (const r of refused) {
      assert.equal(r.statusCode, 400, r.body);
      assert.match(r.body, /0 units outstanding \(25 sent, 25 received\); cannot receive 1|is RECEIVED/);
    }

    const record = await getShipment(t, seed.sellerToken, shipment.id);
    assert.equal(record.status, 'RECEIVED');
    assert.equal(record.inbound_shipment_products[0]!.received_quantity, 25);
    assert.equal(record.receipts.length, 25);
    const shares = record.receipts.map((r) => r.products[0]!.shipping_cost);
    assert.equal(shares.reduce((s, v) => s.plus(String(v)), new Decimal(0)).toFixed(), '10');

    // 25 on hand; the 20 backordered units are now held, 5 are left for sale.
    assert.deepEqual(await counters(t, seed.accountId, 'RACE', main), { available: 5, onhand: 25, reserved: 20 });
    const routes = await routesOf('RACE');
    assert.equal(routes.length, 10);
    assert.deepEqual(routes.map((r) => [r.reserved_quantity, r.backorder_quantity]), Array.from({ length: 10 }, () => [2, 0]));
    const ledger = await t.deps.db.db
      .selectFrom('inventory_reservations')
      .select((eb) => eb.fn.sum<number>('quantity').as('units'))
      .where('account_id', '=', seed.accountId)
      .where('warehouse_id', '=', main)
      .executeTakeFirstOrThrow();
    assert.equal(Number(ledger.units), 20);
    // 25 × 1.20 + 10.00 = 40.00 over 25 units.
    assert.deepEqual(await landedCost(t, seed.accountId, 'RACE'), { landed_cost: '1.6', landed_cost_units: 25, landed_cost_total: '40' });
  });

  it('counts every unit in the landed cost when the same SKU is received on two shipments at once', async () => {
    const main = seed.warehouses.main;
    const one = await createShipment(t, seed.sellerToken, main, [{ sku: 'CAS', quantity: 20, unit_item_cost: 1.1 }], { shipping_cost: 3 });
    const two = await createShipment(t, seed.sellerToken, main, [{ sku: 'CAS', quantity: 20, unit_item_cost: '2.3' }], { shipping_cost: '7' });
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => receive(t, seed.sellerToken, i % 2 === 0 ? one.id : two.id, [{ sku: 'CAS', quantity: 1 }])),
    );
    for (const r of responses) assert.equal(r.statusCode, 200, r.body);
    for (const id of [one.id, two.id]) assert.equal((await getShipment(t, seed.sellerToken, id)).status, 'RECEIVED');
    assert.deepEqual(await counters(t, seed.accountId, 'CAS', main), { available: 40, onhand: 40, reserved: 0 });
    // 20 × 1.10 + 3 + 20 × 2.30 + 7 = 78 over 40 units.
    assert.deepEqual(await landedCost(t, seed.accountId, 'CAS'), { landed_cost: '1.95', landed_cost_units: 40, landed_cost_total: '78' });
  });
});
