import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { countStatements } from '../helpers/statement-counter.js';
import { createOrder, orderBody, stock } from './v1-sales-orders-helpers.js';
import { foOf, post, type BatchResult } from './v2-shipping-support.js';

/**
 * What an acknowledge call costs in statements on PostgreSQL (issue 26): the token, BEGIN, the nudge subscribers,
 * the named fulfillment orders (locked, with their owed units), the externalOrderIds in use, one UPDATE for every
 * order acknowledged, COMMIT. A change that adds a statement per entry again fails here.
 */
describe('POST /v2/shipping/fulfillment_orders/acknowledge, statements', () => {
  let t: TestApp;
  let seed: SeededAccount;
  const fos: string[] = [];

  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    await stock(t, seed.sellerToken, 'ACK-S', seed.warehouses.main, 1000);
    for (let i = 0; i < 102; i++) {
      const o = await createOrder(t, seed.channel.token, orderBody(`ACK-S-${i}`, [{ requestedSku: 'ACK-S', quantity: 1 }]));
      fos.push((await foOf(t, seed.shipping.token, o.orderNumber)).fulfillmentOrderId);
    }
    // The first call compiles and names its statements; the counted ones run them.
    await acknowledge([fos[0]!]);
  });
  after(async () => t.close());

  const acknowledge = async (ids: string[]) => {
    const res = await post(t, seed.shipping.token, '/v2/shipping/fulfillment_orders/acknowledge', {
      acknowledgements: ids.map((id) => ({ fulfillmentOrderId: id, externalOrderId: `EXT-${id}` })),
    });
    assert.equal(res.statusCode, 200, res.body);
    const results = (res.json() as { results: BatchResult[] }).results;
    assert.deepEqual(results.map((r) => [r.success, r.alreadyAcknowledged]), ids.map(() => [true, false]));
  };

  it('acknowledges 1 or 100 fulfillment orders in the same statements and round trips on PostgreSQL', async () => {
    const one = await countStatements(() => acknowledge([fos[1]!]));
    const hundred = await countStatements(() => acknowledge(fos.slice(2, 102)));
    if (t.deps.db.dialect === 'postgres') {
      assert.ok(one.statements <= 7, `1 entry took ${one.statements} statements`);
      assert.equal(hundred.statements, one.statements, 'more entries, no more statements');
      // The token; BEGIN with the subscribers and the locked orders read ahead of the ids in use; the UPDATE (not
      // waited for) with COMMIT.
      assert.ok(one.roundTrips <= 3, `1 entry took ${one.roundTrips} round trips`);
      assert.equal(hundred.roundTrips, one.roundTrips, 'more entries, no more round trips');
    } else {
      // SQLite: the same statements (its savepoint-based transactions add their own), none per entry.
      assert.equal(hundred.statements, one.statements, 'more entries, no more statements');
    }
  });
});
