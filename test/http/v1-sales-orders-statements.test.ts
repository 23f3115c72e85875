import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { countStatements } from '../helpers/statement-counter.js';
import { createOrder, orderBody, stock } from './v1-sales-orders-helpers.js';

/**
 * What a new order costs in statements and round trips on PostgreSQL (issue 26): the token, BEGIN, the
 * order (drawing its lines' ids), its SKUs, warehouses and stock, its lines, one reservation statement for
 * its lines, the products' inventory timestamps, the listing copies' lock, the routes with their ledger and
 * search index (one statement on PostgreSQL: src/db/companion-writes.ts), the fulfillment order, its
 * callback subscribers, the home chart's quarter hour and COMMIT. A change that adds a statement per line,
 * splits the combined one again, or waits for an answer more often, fails here.
 */
describe('POST /v1/salesOrder, statements', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    for (const sku of ['ST-A', 'ST-B', 'ST-C', 'ST-D']) await stock(t, seed.sellerToken, sku, seed.warehouses.main, 50);
    // The first order of a shape compiles its statements; the counted ones run them.
    await createOrder(t, seed.channel.token, orderBody('ST-WARM', [{ requestedSku: 'ST-A', quantity: 1 }, { requestedSku: 'ST-B', quantity: 1 }]));
  });
  after(async () => t.close());

  const postgres = () => t.deps.db.dialect === 'postgres';

  it('creates a 2-line order in 16 statements and 4 round trips on PostgreSQL, whatever its lines', async () => {
    const two = await countStatements(() => createOrder(t, seed.channel.token, orderBody('ST-2', [{ requestedSku: 'ST-A', quantity: 2 }, { requestedSku: 'ST-B', quantity: 1 }])));
    assert.equal(two.result.products.length, 2);
    const four = await countStatements(() =>
      createOrder(
        t,
        seed.channel.token,
        orderBody(
          'ST-4',
          ['ST-A', 'ST-B', 'ST-C', 'ST-D'].map((requestedSku) => ({ requestedSku, quantity: 1 })),
        ),
      ),
    );
    assert.equal(four.result.products.length, 4);
    if (postgres()) {
      assert.ok(two.statements <= 16, `a 2-line order took ${two.statements} statements`);
      assert.equal(four.statements, two.statements, 'more lines, no more statements');
      // What waits for PostgreSQL's answer (src/db/pg-client.ts): the token; BEGIN with the SKUs, warehouses,
      // stock and nudge subscribers read ahead of the order's insert; the lines (not waited for: their ids
      // came with the order) with the reservation, the products' timestamps and the listing copies' lock;
      // and the routes, the fulfillment order and the quarter hour (not waited for) with COMMIT.
      assert.ok(two.roundTrips <= 4, `a 2-line order took ${two.roundTrips} round trips`);
      assert.equal(four.roundTrips, two.roundTrips, 'more lines, no more round trips');
    } else {
      // SQLite runs the combined writes one by one (no round trips to save): a few more, still not per line
      // beyond the search index and ledger rows' own statements. The savepoint of the one-statement
      // reservation (route-new-order.ts) is one of them: the same code on both databases.
      assert.ok(two.statements <= 21, `a 2-line order took ${two.statements} statements`);
      assert.equal(four.statements, two.statements, 'more lines, no more statements');
    }
  });
});
