import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recomputeStoredStatuses } from '../../src/db/migrations/025_order_status_recompute.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock, type Order } from '../http/v1-sales-orders-helpers.js';

const STALE_TS = '2026-01-01T00:00:00.000Z';

/**
 * Migration 025 recomputes the stored statuses of orders written under the earlier rule (a refund or a
 * return made an order REFUNDED / RETURN_REQUESTED although it still owed units). Orders are created
 * through the API, then given the stale statuses and facts the old rule left, directly in the database.
 */
describe('migration 025: stored order statuses recomputed', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let first: SeededAccount;
  let second: SeededAccount;
  let n = 0;

  const db = () => t.deps.db.db;
  const fresh = async (seed: SeededAccount, lines: { sku: string; quantity: number }[]) => {
    n += 1;
    const products = lines.map((l) => ({ requestedSku: l.sku, quantity: l.quantity, unitPrice: 10 }));
    return createOrder(t, seed.channel.token, orderBody(`MIG-${n}`, products));
  };
  const lineIds = (order: Order) => order.products.map((l) => Number(l.lineItemId));
  /** Writes what the old rule stored: statuses, and the facts given, with an old lastUpdatedTs. */
  const stale = async (order: Order, status: string, lineStatuses: string[], lines: Record<string, unknown>[] = [], accounting?: string) => {
    await db()
      .updateTable('sales_orders')
      .set({ status, last_updated_ts: STALE_TS, ...(accounting === undefined ? {} : { accounting }) })
      .where('id', '=', Number(order.orderNumber))
      .execute();
    for (const [i, id] of lineIds(order).entries()) {
      await db()
        .updateTable('sales_order_lines')
        .set({ status: lineStatuses[i]!, ...(lines[i] ?? {}) })
        .where('id', '=', id)
        .execute();
    }
  };
  const stored = async (order: Order) => {
    const row = await db().selectFrom('sales_orders').select(['status', 'last_updated_ts']).where('id', '=', Number(order.orderNumber)).executeTakeFirstOrThrow();
    const lines = await db().selectFrom('sales_order_lines').select('status').where('order_id', '=', Number(order.orderNumber)).orderBy('position').execute();
    return { status: row.status, lines: lines.map((l) => l.status), moved: row.last_updated_ts !== STALE_TS };
  };

  before(async () => {
    t = await createTestApp({ clock });
    first = await seedAccount(t, 'Migrated One');
    second = await seedAccount(t, 'Migrated Two');
    for (const seed of [first, second]) for (const sku of ['MA', 'MB']) await stock(t, seed.sellerToken, sku, seed.warehouses.main, 50);
  });
  after(() => t.close());

  it('recomputes stale statuses of lines and orders across accounts and batches; unchanged orders keep lastUpdatedTs', async () => {
    // Unshipped, one line refunded 5: the old rule made order and line REFUNDED.
    const lineRefund = await fresh(first, [{ sku: 'MA', quantity: 1 }, { sku: 'MB', quantity: 3 }]);
    await stale(lineRefund, 'REFUNDED', ['REFUNDED', 'PENDING'], [{ refund: '5', refund_reason: 'damaged' }]);
    // One unit of MA shipped and on an open return, MB unshipped: the old rule said RETURN_REQUESTED.
    const openReturn = await fresh(first, [{ sku: 'MA', quantity: 1 }, { sku: 'MB', quantity: 1 }]);
    await stale(openReturn, 'RETURN_REQUESTED', ['RETURN_REQUESTED', 'PENDING'], [{ shipped_quantity: 1 }]);
    const [returned] = lineIds(openReturn);
    const ret = await db()
      .insertInto('sales_order_returns')
      .values({ account_id: first.accountId, order_id: Number(openReturn.orderNumber), channel_return_id: null, request_ts: STALE_TS, cancelled: 0, received_ts: null, created_at: STALE_TS })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('sales_order_return_items')
      .values({ account_id: first.accountId, return_id: ret.id, line_id: returned!, quantity: 1, original_quantity: 1, refund_amount: null })
      .execute();
    // Everything shipped and refunded in full (order-level 20 of 20): REFUNDED under both rules.
    const fullyRefunded = await fresh(second, [{ sku: 'MA', quantity: 2 }]);
    await stale(fullyRefunded, 'REFUNDED', ['SHIPPED'], [{ shipped_quantity: 2 }], JSON.stringify({ refund: '20' }));
    // Shipped, refunded 5 of 20 at the order level: the old rule said REFUNDED, now SHIPPED.
    const partlyRefunded = await fresh(second, [{ sku: 'MB', quantity: 2 }]);
    await stale(partlyRefunded, 'REFUNDED', ['SHIPPED'], [{ shipped_quantity: 2 }], JSON.stringify({ refund: '5' }));
    // Untouched pending order.
    const pending = await fresh(second, [{ sku: 'MA', quantity: 1 }]);
    await stale(pending, 'PENDING', ['PENDING']);

    // Batches of 3 over 5 orders of two accounts: the first batch spans both accounts.
    const at = new Date('2026-11-22T08:00:00.000Z');
    await recomputeStoredStatuses(db(), 3, at);

    assert.deepEqual(await stored(lineRefund), { status: 'PENDING', lines: ['PENDING', 'PENDING'], moved: true });
    assert.deepEqual(await stored(openReturn), { status: 'PARTIALLY_SHIPPED', lines: ['RETURN_REQUESTED', 'PENDING'], moved: true });
    assert.deepEqual(await stored(fullyRefunded), { status: 'REFUNDED', lines: ['SHIPPED'], moved: false });
    assert.deepEqual(await stored(partlyRefunded), { status: 'SHIPPED', lines: ['SHIPPED'], moved: true });
    assert.deepEqual(await stored(pending), { status: 'PENDING', lines: ['PENDING'], moved: false });
    const moved = await db().selectFrom('sales_orders').select('last_updated_ts').where('id', '=', Number(lineRefund.orderNumber)).executeTakeFirstOrThrow();
    assert.equal(moved.last_updated_ts, at.toISOString());

    // Running it again changes nothing, lastUpdatedTs included.
    const rows = async () => ({
      orders: await db().selectFrom('sales_orders').select(['id', 'status', 'last_updated_ts']).orderBy('id').execute(),
      lines: await db().selectFrom('sales_order_lines').select(['id', 'status', 'updated_at']).orderBy('id').execute(),
    });
    const before = await rows();
    await recomputeStoredStatuses(db(), 1, new Date('2026-11-23T08:00:00.000Z'));
    assert.deepEqual(await rows(), before);
  });
});
