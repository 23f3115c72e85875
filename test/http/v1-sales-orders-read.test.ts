import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { assertV1Error, createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';

interface Page {
  results: Order[];
  pagination: { hasNext: boolean; nextToken: string };
}

/**
 * GET /v1/salesOrder/{orderNumber} and GET /v1/salesOrder: visibility by token, filters, the one-year
 * window, warehouse narrowing and keyset paging. The clock is manual so lastUpdatedTs values are known.
 */
describe('v1 sales order reads', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  const orders: Record<string, Order> = {};

  const get = (token: string, url: string) => t.app.inject({ url, headers: bearer(token) });
  const list = async (token: string, query: string): Promise<Page> => {
    const res = await get(token, `/v1/salesOrder${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Page;
  };
  const ids = (page: Page) => page.results.map((o) => o.channelOrderId);

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other seller');
    await stock(t, seed.sellerToken, 'A', seed.warehouses.main, 100);
    await stock(t, seed.inventory.token, 'B', seed.warehouses.second, 100);
    // One order a minute: lastUpdatedTs 12:01, 12:02, …
    const make = async (key: string, token: string, body: Record<string, unknown>) => {
      clock.advance(60_000);
      orders[key] = await createOrder(t, token, body);
    };
    await make('O1', seed.channel.token, orderBody('O1', [{ requestedSku: 'A', quantity: 1 }]));
    await make('O2', seed.channel.token, orderBody('O2', [{ requestedSku: 'B', quantity: 2 }], { status: 'PENDING_PAYMENT', orderTs: '2026-11-21T00:00:00Z' }));
    await make('O3', seed.channel.token, orderBody('O3', [{ requestedSku: 'A', quantity: 1 }, { requestedSku: 'B', quantity: 3 }], { orderTs: '2026-11-21T06:00:00Z' }));
    await make('OLD', seed.channel.token, orderBody('OLD', [{ requestedSku: 'A', quantity: 1 }], { orderTs: '2025-06-01T00:00:00Z' }));
    await make('S1', seed.sellerToken, orderBody('S1', [{ requestedSku: 'A', quantity: 1 }], { channel: 'Phone' }));
    await stock(t, other.sellerToken, 'A', other.warehouses.main, 5);
    await make('X1', other.channel.token, orderBody('X1', [{ requestedSku: 'A', quantity: 1 }]));
  });
  after(async () => t.close());

  describe('GET /v1/salesOrder/{orderNumber}', () => {
    it('returns the order to the seller, the same as it was created', async () => {
      const res = await get(seed.sellerToken, `/v1/salesOrder/${orders.O3!.orderNumber}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), orders.O3);
    });

    it('answers 404 for another account\'s order, an unknown number and a non-numeric one', async () => {
      assertV1Error(await get(seed.sellerToken, `/v1/salesOrder/${orders.X1!.orderNumber}`), 404, /not found/);
      assertV1Error(await get(seed.sellerToken, '/v1/salesOrder/999999'), 404);
      assertV1Error(await get(seed.sellerToken, '/v1/salesOrder/abc'), 404);
      assertV1Error(await get(seed.channel.token, `/v1/salesOrder/${orders.X1!.orderNumber}`), 404);
    });

    it('shows a storefront only its own orders', async () => {
      assert.equal((await get(seed.channel.token, `/v1/salesOrder/${orders.O1!.orderNumber}`)).statusCode, 200);
      assertV1Error(await get(seed.channel.token, `/v1/salesOrder/${orders.S1!.orderNumber}`), 404);
    });

    it('narrows an integration to the lines routed to its warehouses, with its warehouseUniqueId', async () => {
      // The seeded inventory integration holds inventory:self only: no order scope, so no order (resolutions §7).
      assertV1Error(await get(seed.inventory.token, `/v1/salesOrder/${orders.O3!.orderNumber}`), 403, /sales:orders:inventory:self/);
      // Registered with sales:orders:inventory:self as well, it sees the lines routed to its warehouse.
      const setScopes = (scopes: string[]) =>
        t.deps.db.db
          .updateTable('access_tokens')
          .set({ scopes: JSON.stringify(scopes) })
          .where('installation_id', '=', seed.inventory.installationId)
          .execute();
      await setScopes(['inventory:self', 'sales:orders:inventory:self']);
      const res = await get(seed.inventory.token, `/v1/salesOrder/${orders.O3!.orderNumber}`);
      await setScopes(['inventory:self']);
      assert.equal(res.statusCode, 200, res.body);
      const order = res.json() as Order;
      assert.equal(order.products.length, 1);
      assert.equal(order.products[0]?.sku, 'B');
      assert.deepEqual(order.products[0]?.routing_info, [
        { warehouseId: seed.warehouses.second, warehouseUniqueId: 'WH-SECOND', quantity: 3, assembledQuantity: null, kitComponents: null },
      ]);
      // The shipping integration (main only) sees line A and not line B; nothing of O2 (all at second).
      const shipping = (await get(seed.shipping.token, `/v1/salesOrder/${orders.O3!.orderNumber}`)).json() as Order;
      assert.deepEqual(shipping.products.map((l) => l.sku), ['A']);
      assert.equal(shipping.products[0]?.routing_info[0]?.warehouseUniqueId, 'SHIP-MAIN');
      assertV1Error(await get(seed.shipping.token, `/v1/salesOrder/${orders.O2!.orderNumber}`), 404);
    });

    it('refuses a seller token without any order scope', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/admin/accounts/' + seed.accountId + '/tokens',
        headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' },
        payload: { scopes: ['inventory'] },
      });
      assert.equal(res.statusCode, 201, res.body);
      const token = (res.json() as { access_token: string }).access_token;
      assertV1Error(await get(token, `/v1/salesOrder/${orders.O1!.orderNumber}`), 403, /needs one of the scopes: legacy, sales, sales:orders/);
      assertV1Error(await get(token, '/v1/salesOrder'), 403);
    });

    it('answers 401 without a valid token', async () => {
      assertV1Error(await t.app.inject({ url: `/v1/salesOrder/${orders.O1!.orderNumber}` }), 401);
    });
  });

  describe('GET /v1/salesOrder', () => {
    it('lists the account\'s orders oldest lastUpdatedTs first, excluding those placed over a year ago', async () => {
      const page = await list(seed.sellerToken, '');
      assert.deepEqual(ids(page), ['O1', 'O2', 'O3', 'S1']);
      assert.deepEqual(page.pagination, { hasNext: false, nextToken: '' });
    });

    it('includes orders older than a year when channelOrderIds is given', async () => {
      assert.deepEqual(ids(await list(seed.sellerToken, '?channelOrderIds=OLD,O1')), ['O1', 'OLD']);
      assert.deepEqual(ids(await list(seed.sellerToken, '?channelOrderIds=OLD&channelOrderIds=O2')), ['O2', 'OLD']);
    });

    it('treats lastUpdatedTs and orderTs as inclusive lower bounds', async () => {
      assert.deepEqual(ids(await list(seed.sellerToken, `?lastUpdatedTs=${encodeURIComponent(orders.O3!.lastUpdatedTs)}`)), ['O3', 'S1']);
      // +01:00 offsets work, URL-encoded or not.
      assert.deepEqual(ids(await list(seed.sellerToken, '?lastUpdatedTs=2026-11-21T13:03:00%2B01:00')), ['O3', 'S1']);
      assert.deepEqual(ids(await list(seed.sellerToken, '?orderTs=2026-11-21T00:00:00Z')), ['O2', 'O3']);
    });

    it('filters by status lists, accepting CANCELED and PARTIALLY_CANCELLED as CANCELLED', async () => {
      assert.deepEqual(ids(await list(seed.sellerToken, '?status=PENDING_PAYMENT')), ['O2']);
      assert.deepEqual(ids(await list(seed.sellerToken, '?status=PENDING_PAYMENT,PENDING')), ['O1', 'O2', 'O3', 'S1']);
      assert.deepEqual(ids(await list(seed.sellerToken, '?status=SHIPPED&status=PENDING_PAYMENT')), ['O2']);
      assert.deepEqual(ids(await list(seed.sellerToken, '?status=CANCELED,PARTIALLY_CANCELLED')), []);
    });

    it('narrows by warehouseId to the orders and lines routed there', async () => {
      const page = await list(seed.sellerToken, `?warehouseId=${seed.warehouses.second}`);
      assert.deepEqual(ids(page), ['O2', 'O3']);
      const o3 = page.results[1]!;
      assert.deepEqual(o3.products.map((l) => [l.sku, l.quantity]), [['B', 3]]);
      // No warehouseUniqueId for a seller token.
      assert.equal('warehouseUniqueId' in o3.products[0]!.routing_info[0]!, false);
    });

    it('shows a storefront its own orders and an integration those routed to its warehouses', async () => {
      assert.deepEqual(ids(await list(seed.channel.token, '')), ['O1', 'O2', 'O3']);
      assert.deepEqual(ids(await list(other.channel.token, '')), ['X1']);
      const shipping = await list(seed.shipping.token, '');
      assert.deepEqual(ids(shipping), ['O1', 'O3', 'S1']);
      assertV1Error(await get(seed.shipping.token, `/v1/salesOrder?warehouseId=${seed.warehouses.second}`), 400, /not mapped to this token/);
    });

    it('refuses a token without any of the route\'s scopes', async () => {
      // The inventory integration holds only inventory:self.
      assertV1Error(await get(seed.inventory.token, '/v1/salesOrder'), 403, /scopes/);
    });

    it('pages with an absolute nextToken URL that carries the filters', async () => {
      const first = await list(seed.sellerToken, '?pageLength=2&status=PENDING,PENDING_PAYMENT');
      assert.deepEqual(ids(first), ['O1', 'O2']);
      assert.equal(first.pagination.hasNext, true);
      const next = new URL(first.pagination.nextToken);
      assert.match(first.pagination.nextToken, /^http:\/\/localhost(:80)?\/v1\/salesOrder\?nextToken=[^&]+$/);
      // Other parameters next to nextToken are ignored.
      const second = await list(seed.sellerToken, `${next.search}&status=SHIPPED&pageLength=1`);
      assert.deepEqual(ids(second), ['O3', 'S1']);
      assert.deepEqual(second.pagination, { hasNext: false, nextToken: '' });
    });

    it('pages through equal lastUpdatedTs values without skipping any order', async () => {
      const frozen = manualClock(new Date('2026-11-21T12:00:00.000Z'));
      const t2 = await createTestApp({ clock: frozen });
      try {
        const s = await seedAccount(t2);
        for (let i = 0; i < 7; i++) await createOrder(t2, s.sellerToken, orderBody(`SAME-${i}`, [{ requestedSku: 'Z', quantity: 1 }], { channel: 'Phone' }));
        const seen: string[] = [];
        let url = '/v1/salesOrder?pageLength=3';
        for (;;) {
          const res = await t2.app.inject({ url, headers: bearer(s.sellerToken) });
          const page = res.json() as Page;
          seen.push(...ids(page));
          if (!page.pagination.hasNext) break;
          const next = new URL(page.pagination.nextToken);
          url = `${next.pathname}${next.search}`;
        }
        assert.deepEqual(seen, Array.from({ length: 7 }, (_, i) => `SAME-${i}`));
      } finally {
        await t2.close();
      }
    });

    describe('refuses bad parameters with a 400', () => {
      const cases: [string, RegExp][] = [
        ['?pageLength=0', /pageLength/],
        ['?pageLength=101', /pageLength/],
        ['?pageLength=ten', /pageLength/],
        ['?lastUpdatedTs=2026-11-21T12:00:00', /lastUpdatedTs: .*time zone/],
        ['?orderTs=yesterday', /orderTs: .*time zone/],
        ['?status=PENDING,LOST', /status: "LOST" is not one of/],
        ['?warehouseId=999999', /warehouseId: unknown warehouse id 999999/],
        ['?warehouseId=abc', /warehouseId/],
        ['?nextToken=forged', /invalid nextToken/],
      ];
      for (const [query, pattern] of cases) {
        it(query, async () => {
          assertV1Error(await get(seed.sellerToken, `/v1/salesOrder${query}`), 400, pattern);
        });
      }

      it('another warehouse\'s account id and another account\'s nextToken', async () => {
        assertV1Error(await get(seed.sellerToken, `/v1/salesOrder?warehouseId=${other.warehouses.main}`), 400, /unknown warehouse/);
        const theirs = await list(other.sellerToken, '?pageLength=1&channelOrderIds=X1,Y');
        assert.equal(theirs.pagination.hasNext, false);
        await stock(t, other.sellerToken, 'A', other.warehouses.main, 5);
        await createOrder(t, other.sellerToken, orderBody('X2', [{ requestedSku: 'A', quantity: 1 }], { channel: 'Phone' }));
        const paged = await list(other.sellerToken, '?pageLength=1');
        const token = new URL(paged.pagination.nextToken).search;
        assertV1Error(await get(seed.sellerToken, `/v1/salesOrder${token}`), 400, /invalid nextToken/);
      });
    });
  });
});
