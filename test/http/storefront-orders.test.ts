import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, installAndExchange, seedAccount, type InstalledApp, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';

interface ShippedOrder {
  channelOrderId: string;
  status: string;
  salesChannelStatus: string;
  lastUpdatedTs: string;
  orderNumber: string;
  marketplaceId: string;
  standardServiceLevel: string;
  lineItems: { lineItemId: string; channelLineItemId: string; sku: string; quantity: string; channelSku: string }[];
  packages: { packageId: string; carrier: string; serviceLevel: string; tracking: string; shippedTs: string; items: { lineItemId: string; sku: string; quantity: string; channelSku: string }[] }[];
}
interface ShippedPage {
  orders: ShippedOrder[];
  nextPageCursor: string;
}

function assertV2Error(res: LightMyRequestResponse, status: number, code: number, pattern?: RegExp) {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json() as { code: number; message: string; details: unknown[] };
  assert.equal(body.code, code);
  assert.ok(Array.isArray(body.details));
  if (pattern) assert.match(body.message, pattern);
}

/** GET /v2/storefront/orders/shipped and GET /v2/storefront/order (document 4.7, resolutions §4). */
describe('storefront order reads', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let shopTwo: InstalledApp;
  const o: Record<string, Order> = {};
  const updated: Record<string, string> = {};

  const get = (token: string, url: string) => t.app.inject({ url, headers: bearer(token) });
  const shipped = async (query = '', token = seed.channel.token) => {
    const res = await get(token, `/v2/storefront/orders/shipped${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as ShippedPage;
  };
  const ship = async (order: Order, id: string, quantity: number, warehouseId = seed.warehouses.main) => {
    clock.advance(1000);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/salesOrder/shipments',
      headers: bearer(seed.sellerToken),
      payload: {
        packages: [
          {
            orderNumber: order.orderNumber,
            fulfillmentPackageId: id,
            warehouseId,
            carrier: 'UPS',
            tracking: `1Z-${id}`,
            service_level: 'Ground',
            products: [{ lineItemId: order.products[0]!.lineItemId, quantity }],
          },
        ],
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { orderDetails: Order[] }).orderDetails[0]!;
  };
  const numbers = (page: ShippedPage) => page.orders.map((x) => x.orderNumber);

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    shopTwo = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['sales:orders:self'], { storefrontName: 'Shop Two', name: 'eBay' });
    await stock(t, seed.sellerToken, 'A', seed.warehouses.main, 100);
    const make = async (key: string, token: string, quantity: number, extra: Record<string, unknown> = {}) => {
      clock.advance(1000);
      o[key] = await createOrder(t, token, orderBody(key, [{ requestedSku: 'A', quantity, channelLineItemId: `${key}-L1` }], extra));
    };
    await make('FULL', seed.channel.token, 2, { marketplaceId: 'ATVPDKIKX0DER' });
    await make('PART', seed.channel.token, 3);
    await make('OPEN', seed.channel.token, 1);
    await make('CWF', seed.channel.token, 1, { channelWillFulfill: true });
    await make('TWO', shopTwo.token, 1);
    updated.FULL = (await ship(o.FULL!, 'F1', 2)).lastUpdatedTs;
    updated.PART = (await ship(o.PART!, 'P1', 1)).lastUpdatedTs;
    const cwf = o.CWF!;
    updated.CWF = (await ship(cwf, 'C1', 1, cwf.products[0]!.routing_info[0]!.warehouseId)).lastUpdatedTs;
    updated.TWO = (await ship(o.TWO!, 'T1', 1)).lastUpdatedTs;
  });
  after(async () => t.close());

  describe('GET /v2/storefront/orders/shipped', () => {
    it("lists the storefront's shipped and part-shipped orders, oldest update first, in the 2.16 shape", async () => {
      const page = await shipped();
      assert.deepEqual(numbers(page), [o.FULL!.orderNumber, o.PART!.orderNumber]);
      assert.equal(page.nextPageCursor, '');
      const full = page.orders[0]!;
      const line = o.FULL!.products[0]!;
      assert.equal(full.packages.length, 1);
      assert.match(full.packages[0]!.packageId, /^\d+$/);
      assert.deepEqual(full, {
        channelOrderId: 'FULL',
        status: 'SHIPPED',
        salesChannelStatus: '',
        lastUpdatedTs: updated.FULL,
        orderNumber: o.FULL!.orderNumber,
        marketplaceId: 'ATVPDKIKX0DER',
        standardServiceLevel: o.FULL!.standardServiceLevel,
        lineItems: [{ lineItemId: line.lineItemId, channelLineItemId: 'FULL-L1', sku: 'A', quantity: '2', channelSku: 'A' }],
        packages: [
          {
            packageId: full.packages[0]!.packageId,
            carrier: 'UPS',
            serviceLevel: 'Ground',
            tracking: '1Z-F1',
            shippedTs: full.packages[0]!.shippedTs,
            items: [{ lineItemId: line.lineItemId, sku: 'A', quantity: '2', channelSku: 'A' }],
          },
        ],
      });
      assert.equal(page.orders[1]!.status, 'PARTIALLY_SHIPPED');
    });

    it('includes channel-fulfilled orders only when asked', async () => {
      const both = [o.FULL!.orderNumber, o.PART!.orderNumber, o.CWF!.orderNumber];
      assert.deepEqual(numbers(await shipped('?include_channel_fulfilled_orders=true')), both);
      assert.deepEqual(numbers(await shipped('?includeChannelFulfilledOrders=true')), both);
      assert.deepEqual(numbers(await shipped('?include_channel_fulfilled_orders=false')), both.slice(0, 2));
      assertV2Error(await get(seed.channel.token, '/v2/storefront/orders/shipped?include_channel_fulfilled_orders=maybe'), 400, 3);
    });

    it('takes lastUpdatedTs as an inclusive lower bound', async () => {
      assert.deepEqual(numbers(await shipped(`?lastUpdatedTs=${encodeURIComponent(updated.PART!)}`)), [o.PART!.orderNumber]);
      assert.deepEqual(numbers(await shipped(`?last_updated_ts=${encodeURIComponent(updated.FULL!)}`)), [o.FULL!.orderNumber, o.PART!.orderNumber]);
      assertV2Error(await get(seed.channel.token, '/v2/storefront/orders/shipped?lastUpdatedTs=2026-11-21T10:00:00'), 400, 3, /lastUpdatedTs/);
    });

    it('filters on the last status the channel confirmed', async () => {
      const confirm = async (order: Order, status: string) => {
        const res = await t.app.inject({
          method: 'POST',
          url: `/v1/salesOrder/${order.orderNumber}/confirmStatus`,
          headers: bearer(seed.channel.token),
          payload: { status, lineItems: [order.products[0]!.lineItemId] },
        });
        assert.equal(res.statusCode, 200, res.body);
      };
      await confirm(o.FULL!, 'PARTIALLY_SHIPPED');
      await confirm(o.FULL!, 'SHIPPED');
      await confirm(o.PART!, 'PARTIALLY_SHIPPED');
      assert.deepEqual(numbers(await shipped('?salesChannelStatus=SHIPPED')), [o.FULL!.orderNumber]);
      assert.deepEqual(numbers(await shipped('?sales_channel_status=PARTIALLY_SHIPPED')), [o.PART!.orderNumber]);
      assert.deepEqual(numbers(await shipped('?salesChannelStatus=SHIPPED,PARTIALLY_SHIPPED')), [o.FULL!.orderNumber, o.PART!.orderNumber]);
      assert.deepEqual(numbers(await shipped('?salesChannelStatus=CANCELLED')), []);
      const page = await shipped();
      assert.deepEqual(
        page.orders.map((x) => x.salesChannelStatus),
        ['SHIPPED', 'PARTIALLY_SHIPPED'],
      );
      // Confirming changes no order state, so the feed's lastUpdatedTs stays.
      assert.equal(page.orders[0]!.lastUpdatedTs, updated.FULL);
    });

    it('pages with a cursor; pageSize ≤ 0 uses the default; a bad or foreign cursor is a 400', async () => {
      const first = await shipped('?pageSize=1');
      assert.deepEqual(numbers(first), [o.FULL!.orderNumber]);
      assert.notEqual(first.nextPageCursor, '');
      const second = await shipped(`?pageSize=1&cursor=${encodeURIComponent(first.nextPageCursor)}`);
      assert.deepEqual(numbers(second), [o.PART!.orderNumber]);
      assert.equal(second.nextPageCursor, '');
      assert.equal((await shipped('?page_size=0')).orders.length, 2);
      assert.equal((await shipped('?pageSize=-5')).orders.length, 2);
      assert.equal((await shipped('?pageSize=100000')).orders.length, 2);
      assertV2Error(await get(seed.channel.token, '/v2/storefront/orders/shipped?cursor=garbage'), 400, 3, /invalid cursor/);
      assertV2Error(await get(shopTwo.token, `/v2/storefront/orders/shipped?cursor=${encodeURIComponent(first.nextPageCursor)}`), 400, 3, /invalid cursor/);
    });

    it("shows each storefront only its own orders; non-storefront tokens are refused", async () => {
      assert.deepEqual(numbers(await shipped('', shopTwo.token)), [o.TWO!.orderNumber]);
      assert.deepEqual(numbers(await shipped('', other.channel.token)), []);
      assertV2Error(await get(seed.sellerToken, '/v2/storefront/orders/shipped'), 403, 7);
      assertV2Error(await get(seed.shipping.token, '/v2/storefront/orders/shipped'), 403, 7);
      assertV2Error(await t.app.inject({ url: '/v2/storefront/orders/shipped' }), 401, 16);
    });
  });

  describe('GET /v2/storefront/order', () => {
    const one = async (query: string, token = seed.channel.token) => {
      const res = await get(token, `/v2/storefront/order?${query}`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as { order: ShippedOrder };
      assert.deepEqual(Object.keys(body), ['order']);
      return body.order;
    };

    it('answers the ShippedOrder view of the shipped feed, by channelOrderId, orderNumber or purchaseOrderId', async () => {
      const [feedFull, feedPart] = (await shipped()).orders;
      for (const [key, feed] of [
        ['FULL', feedFull],
        ['PART', feedPart],
      ] as const) {
        const number = o[key]!.orderNumber;
        assert.deepEqual(await one(`channelOrderId=${key}`), feed);
        assert.deepEqual(await one(`channel_order_id=${key}`), feed);
        assert.deepEqual(await one(`orderNumber=${number}`), feed);
        assert.deepEqual(await one(`order_number=${number}`), feed);
        assert.deepEqual(await one(`purchaseOrderId=${number}`), feed);
        assert.deepEqual(await one(`purchase_order_id=${number}`), feed);
      }
    });

    it('answers an order in any status, also one the feed leaves out', async () => {
      const open = await one('channelOrderId=OPEN');
      const line = o.OPEN!.products[0]!;
      assert.deepEqual(open, {
        channelOrderId: 'OPEN',
        status: o.OPEN!.status,
        salesChannelStatus: '',
        lastUpdatedTs: o.OPEN!.lastUpdatedTs,
        orderNumber: o.OPEN!.orderNumber,
        marketplaceId: '',
        standardServiceLevel: o.OPEN!.standardServiceLevel,
        lineItems: [{ lineItemId: line.lineItemId, channelLineItemId: 'OPEN-L1', sku: 'A', quantity: '1', channelSku: 'A' }],
        packages: [],
      });
      assert.notEqual(open.status, 'SHIPPED');
      const cwf = await one(`purchaseOrderId=${o.CWF!.orderNumber}`);
      assert.equal(cwf.channelOrderId, 'CWF');
      assert.equal(cwf.packages.length, 1);
    });

    it('needs exactly one of channelOrderId, orderNumber and purchaseOrderId', async () => {
      const number = o.PART!.orderNumber;
      for (const query of [
        '',
        'channelOrderId=',
        `channelOrderId=PART&orderNumber=${number}`,
        `orderNumber=${number}&purchaseOrderId=${number}`,
        `channel_order_id=PART&purchase_order_id=${number}`,
        `channelOrderId=PART&orderNumber=${number}&purchaseOrderId=${number}`,
      ]) {
        assertV2Error(await get(seed.channel.token, `/v2/storefront/order?${query}`), 400, 3, /exactly one of channelOrderId, orderNumber and purchaseOrderId/);
      }
    });

    it('refuses an orderNumber or purchaseOrderId that is not a whole number, or is repeated, naming it', async () => {
      assertV2Error(await get(seed.channel.token, '/v2/storefront/order?orderNumber=abc'), 400, 3, /orderNumber/);
      assertV2Error(await get(seed.channel.token, '/v2/storefront/order?purchaseOrderId=1.5'), 400, 3, /purchaseOrderId/);
      assertV2Error(await get(seed.channel.token, '/v2/storefront/order?orderNumber=1&orderNumber=2'), 400, 3, /orderNumber/);
    });

    it("answers 404 for another storefront's or account's order and for unknown ones", async () => {
      const number = o.PART!.orderNumber;
      assertV2Error(await get(shopTwo.token, '/v2/storefront/order?channelOrderId=PART'), 404, 5);
      assertV2Error(await get(shopTwo.token, `/v2/storefront/order?orderNumber=${number}`), 404, 5);
      assertV2Error(await get(shopTwo.token, `/v2/storefront/order?purchaseOrderId=${number}`), 404, 5);
      assertV2Error(await get(other.channel.token, `/v2/storefront/order?orderNumber=${number}`), 404, 5);
      assertV2Error(await get(other.channel.token, `/v2/storefront/order?purchaseOrderId=${number}`), 404, 5);
      assertV2Error(await get(seed.channel.token, `/v2/storefront/order?orderNumber=${o.TWO!.orderNumber}`), 404, 5);
      assertV2Error(await get(seed.channel.token, '/v2/storefront/order?channelOrderId=TWO'), 404, 5);
      assertV2Error(await get(seed.channel.token, '/v2/storefront/order?channelOrderId=NOPE'), 404, 5);
      assertV2Error(await get(seed.channel.token, '/v2/storefront/order?orderNumber=0'), 404, 5);
      assertV2Error(await get(seed.channel.token, '/v2/storefront/order?purchaseOrderId=99999999999999999999'), 404, 5);
      assertV2Error(await get(seed.sellerToken, '/v2/storefront/order?channelOrderId=PART'), 403, 7);
      assertV2Error(await t.app.inject({ url: '/v2/storefront/order?channelOrderId=PART' }), 401, 16);
      // The other storefront reads its own.
      assert.equal((await one('channelOrderId=TWO', shopTwo.token)).orderNumber, o.TWO!.orderNumber);
    });
  });
});

describe('storefront shipped orders: packages per tracking number', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    await stock(t, seed.sellerToken, 'A', seed.warehouses.main, 100);
  });
  after(async () => t.close());

    it('shows one package per tracking number: packages recorded under one tracking number are merged', async () => {
      clock.advance(1000);
      const order = await createOrder(t, seed.channel.token, orderBody('BOX', [{ requestedSku: 'A', quantity: 3, channelLineItemId: 'BOX-L1' }]));
      const lineItemId = order.products[0]!.lineItemId;
      const shipPart = async (id: string, tracking: string, quantity: number) => {
        clock.advance(1000);
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/salesOrder/shipments',
          headers: bearer(seed.sellerToken),
          payload: { packages: [{ orderNumber: order.orderNumber, fulfillmentPackageId: id, warehouseId: seed.warehouses.main, carrier: 'UPS', tracking, service_level: 'Ground', products: [{ lineItemId, quantity }] }] },
        });
        assert.equal(res.statusCode, 200, res.body);
      };
      await shipPart('BOX-1', '1Z-SAME', 1);
      await shipPart('BOX-2', '1Z-SAME', 1);
      await shipPart('BOX-3', '1Z-OTHER', 1);
      const entry = ((await t.app.inject({ url: '/v2/storefront/orders/shipped', headers: bearer(seed.channel.token) })).json() as ShippedPage).orders.find((x) => x.orderNumber === order.orderNumber)!;
      assert.deepEqual(
        entry.packages.map((p) => [p.tracking, p.items.map((i) => [i.lineItemId, i.quantity])]),
        [
          ['1Z-SAME', [[lineItemId, '2']]],
          ['1Z-OTHER', [[lineItemId, '1']]],
        ],
      );
      const [first, second] = entry.packages;
      assert.ok(Number(first!.packageId) < Number(second!.packageId));
    });
});
