import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { orderBody } from './v1-sales-orders-helpers.js';

/**
 * The database's fast paths (docs/architecture.md, "The database's fast paths": group commit, the statement
 * cache, the read connection, raw rows and prepared reads on SQLite; pipelining, named statements and rows as
 * arrays on PostgreSQL) change how a query runs, never what it answers. The hot routes are driven through the
 * same script against an app with them and one without (DB_SPEEDUPS=off), on the same clock: every answer must
 * be the same (a refusal's referenceId, the request's own id, aside).
 */

interface Step {
  name: string;
  status: number;
  body: unknown;
}

async function script(t: TestApp, seed: SeededAccount, advance: (ms: number) => void): Promise<Step[]> {
  const steps: Step[] = [];
  const call = async (name: string, method: 'GET' | 'POST', url: string, token: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
    const body = res.json() as Record<string, unknown>;
    // A refusal's referenceId is the request's own id: new on every request, by design.
    if (typeof body.referenceId === 'string') body.referenceId = '(the request id)';
    const step = { name, status: res.statusCode, body: body as unknown };
    steps.push(step);
    advance(1000);
    return step.body as Record<string, unknown>;
  };
  const { main, second } = seed.warehouses;
  await call('v1 inventory batch', 'POST', '/v1/inventory', seed.sellerToken, {
    products: [
      { SKU: 'FAST-A', warehouseId: main, quantity: 5 },
      { SKU: 'FAST-A', warehouseId: second, quantity: 2 },
      { SKU: 'FAST-B', warehouseId: main, quantity: 3 },
      { SKU: 'FAST-C', warehouseId: second, quantity: 1 },
      { SKU: 'FAST-D', warehouseId: 999_999, quantity: 1 },
    ],
  });
  const channel = seed.channel.token;
  // Two lines placed whole (one reservation statement), one line split over warehouses, a backorder, a
  // case-insensitive SKU, an unknown SKU, and a repeat of the first order.
  await call('order, two lines', 'POST', '/v1/salesOrder', channel, orderBody('F-1', [{ requestedSku: 'FAST-A', quantity: 2 }, { requestedSku: 'FAST-B', quantity: 1 }]));
  await call('order, split', 'POST', '/v1/salesOrder', channel, orderBody('F-2', [{ requestedSku: 'FAST-A', quantity: 4 }]));
  await call('order, backorder', 'POST', '/v1/salesOrder', channel, orderBody('F-3', [{ requestedSku: 'FAST-C', quantity: 3 }]));
  await call('order, case and unknown', 'POST', '/v1/salesOrder', channel, orderBody('F-4', [{ requestedSku: 'fast-b', quantity: 1 }, { requestedSku: 'NO-SUCH', quantity: 1 }]));
  await call('order, repeat', 'POST', '/v1/salesOrder', channel, orderBody('F-1', [{ requestedSku: 'FAST-A', quantity: 9 }]));
  await call('order, refused', 'POST', '/v1/salesOrder', channel, orderBody('F-5', [{ requestedSku: 'FAST-A', quantity: 0 }]));
  await call('v1 order page', 'GET', '/v1/salesOrder?pageLength=2', seed.sellerToken);
  await call('v1 inventory list', 'GET', '/v1/inventory?lastUpdatedTs=2026-01-01T00:00:00Z', seed.sellerToken);
  const page = await call('need_to_ship', 'GET', '/v2/shipping/need_to_ship', seed.shipping.token);
  const orders = (page.orders ?? []) as { fulfillmentOrderId: string; lines: { lineItemId: string; quantity: number }[] }[];
  assert.ok(orders.length >= 2, 'the script ships what need_to_ship lists');
  await call('acknowledge', 'POST', '/v2/shipping/fulfillment_orders/acknowledge', seed.shipping.token, {
    acknowledgements: [...orders.map((o, i) => ({ fulfillmentOrderId: o.fulfillmentOrderId, externalOrderId: `EXT-${i}` })), { fulfillmentOrderId: '999999', externalOrderId: 'X' }],
  });
  await call('shipments', 'POST', '/v2/shipping/shipments', seed.shipping.token, {
    shipments: orders.map((o, i) => ({
      fulfillmentOrderId: o.fulfillmentOrderId,
      externalShipmentId: `S-${i}`,
      carrier: 'UPS',
      trackingNumber: `1Z${i}`,
      lines: o.lines.slice(0, 1).map((l) => ({ lineItemId: l.lineItemId, quantity: 1 })),
    })),
  });
  await call('need_to_ship after', 'GET', '/v2/shipping/need_to_ship', seed.shipping.token);
  await call('v2 inventory', 'POST', '/v2/inventory', seed.inventory.token, {
    observedTs: '2026-11-20T12:00:30Z',
    updates: [
      { sku: 'FAST-C', warehouseUniqueId: 'WH-SECOND', quantity: 4 },
      { sku: 'FAST-NEW', warehouseUniqueId: 'WH-SECOND', quantity: 2 },
    ],
  });
  await call('order after backorder filled', 'GET', '/v1/salesOrder?pageLength=5', seed.sellerToken);
  return steps;
}

describe('the database fast paths switched off answer the same', () => {
  const start = new Date('2026-11-20T12:00:00.000Z');
  const fastClock = manualClock(start);
  const plainClock = manualClock(start);
  let fast: TestApp;
  let plain: TestApp;
  before(async () => {
    fast = await createTestApp({ clock: fastClock });
    plain = await createTestApp({ clock: plainClock, speedUps: false });
  });
  after(async () => {
    await fast.close();
    await plain.close();
  });

  it('drives the hot routes through one script on both and gets the same answers', async () => {
    assert.equal(fast.deps.db.speedUps, true);
    assert.equal(plain.deps.db.speedUps, false);
    if (fast.deps.db.dialect === 'sqlite') {
      assert.ok(fast.deps.db.groupCommit, 'group commit on by default');
      assert.equal(plain.deps.db.groupCommit, null, 'and off without the fast paths');
    }
    const fastSteps = await script(fast, await seedAccount(fast), (ms) => fastClock.advance(ms));
    const plainSteps = await script(plain, await seedAccount(plain), (ms) => plainClock.advance(ms));
    assert.equal(plainSteps.length, fastSteps.length);
    for (let i = 0; i < fastSteps.length; i++) {
      assert.deepEqual(plainSteps[i], fastSteps[i], `step "${fastSteps[i]!.name}" answered differently without the fast paths`);
    }
    // The script did reach the interesting paths, not only refusals.
    assert.deepEqual(
      fastSteps.map((s) => s.status),
      fastSteps.map((s) => (s.name === 'order, refused' ? 400 : 200)),
    );
  });
});
