import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, installAndExchange, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { availableBySku, assertV1Error, createOrder, orderBody, postOrder, stock, type Order } from './v1-sales-orders-helpers.js';

const ADDRESS = { name: 'Ada Buyer', addressLine1: '1 Main St', city: 'Springfield', postalCode: '12345' };

describe('POST /v1/salesOrder', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    await stock(t, seed.sellerToken, 'MUG', seed.warehouses.main, 10);
  });
  after(async () => t.close());

  async function orderCount(): Promise<number> {
    const rows = await t.deps.db.db.selectFrom('sales_orders').select('id').where('account_id', '=', seed.accountId).execute();
    return rows.length;
  }

  it('creates a storefront order with every field of the document shape', async () => {
    const order = await createOrder(
      t,
      seed.channel.token,
      orderBody(
        'FULL-1',
        [
          {
            requestedSku: 'MUG',
            quantity: 2,
            unitPrice: 12.5,
            cost: '4.10',
            totalWeight: 1.25,
            channelLineItemId: 'CL-1',
            requestedTitle: 'Red mug',
            packageDimensions: { length: { numeric: 4, unit: 'in' } },
            hazmat: { flagged: false },
            giftWrapMessage: 'Happy birthday',
            giftWrapLevel: 'basic',
            earliestShipBy: '2026-11-21T00:00:00Z',
            latestShipBy: '2026-11-23T00:00:00+02:00',
            earliestDeliverBy: '2026-11-24T00:00:00Z',
            latestDeliverBy: '2026-11-26T00:00:00Z',
            requestedServiceLevel: 'UPS Ground',
          },
          { requestedSku: 'MUG', quantity: 1, latestShipBy: '2026-11-25T00:00:00Z' },
        ],
        {
          channelOrderReferenceNumber: 'REF-9',
          customer_notes: 'leave at door',
          marketplaceId: 'ATVPDKIKX0DER',
          customerName: 'Ada Buyer',
          customerEmail: 'ada@example.com',
          requestedServiceLevel: 'next day',
          accounting: { payment: 37.5, channelTax: '3.00', shippingPrice: 0 },
          shippingAddress: { ...ADDRESS, countryCode: 'CA', company: 'Acme', type: 'commercial' },
          billingAddress: ADDRESS,
          prime: true,
          businessOrder: true,
          unknownExtraField: 'ignored',
        },
      ),
    );
    assert.match(order.orderNumber, /^\d+$/);
    assert.equal(order.status, 'PENDING');
    assert.equal(order.channel, 'Amazon');
    assert.equal(order.channelLabel, 'Shop One');
    assert.equal(order.channelOrderId, 'FULL-1');
    assert.equal(order.channelOrderReferenceNumber, 'REF-9');
    assert.equal(order.customer_notes, 'leave at door');
    assert.equal(order.marketplaceId, 'ATVPDKIKX0DER');
    assert.equal(order.customerEmail, 'ada@example.com');
    assert.equal(order.orderTs, '2026-11-20T10:00:00.000Z');
    assert.match(order.lastUpdatedTs, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(order.standardServiceLevel, 'Next Day');
    assert.equal(order.requestedServiceLevel, 'next day');
    // shipBy: the earliest of the lines' latestShipBy (22:00Z on the 22nd is earlier than the 25th).
    assert.equal(order.shipBy, '2026-11-22T22:00:00.000Z');
    const accounting = order.accounting as Record<string, number | null>;
    assert.equal(accounting.payment, 37.5);
    assert.equal(accounting.channelTax, 3);
    assert.equal(accounting.shippingPrice, 0);
    assert.equal(accounting.refund, null);
    assert.equal(Object.keys(accounting).length, 13);
    assert.deepEqual(order.shippingAddress, {
      ...ADDRESS,
      company: 'Acme',
      addressLine2: null,
      state: null,
      phone: null,
      email: null,
      countryCode: 'CA',
      type: 'commercial',
    });
    assert.equal((order.billingAddress as { countryCode: string }).countryCode, 'US');
    assert.deepEqual(order.packages, []);
    assert.deepEqual(order.returnOrders, []);
    assert.equal(order.fba, false);
    assert.equal(order.channelWillFulfill, false);
    assert.equal(order.prime, true);
    assert.equal(order.businessOrder, true);
    assert.equal('unknownExtraField' in order, false);

    const [line, second] = order.products;
    assert.ok(line && second);
    assert.match(line.lineItemId, /^\d+$/);
    assert.notEqual(line.lineItemId, second.lineItemId);
    assert.equal(line.channelLineItemId, 'CL-1');
    assert.equal(line.status, 'PENDING');
    assert.equal(line.requestedSku, 'MUG');
    assert.equal(line.sku, 'MUG');
    assert.equal(line.SKU, 'MUG');
    assert.equal(line.requestedTitle, 'Red mug');
    assert.equal(line.quantity, 2);
    assert.equal(line.cancelQuantity, 0);
    assert.equal(line.shippedQuantity, 0);
    assert.equal(line.unitPrice, 12.5);
    assert.equal(line.cost, 4.1);
    assert.equal(line.totalWeight, 1.25);
    assert.deepEqual(line.packageDimensions, { length: { numeric: 4, unit: 'in' } });
    assert.deepEqual(line.hazmat, { flagged: false });
    assert.equal(second.hazmat, null);
    assert.equal(line.giftWrapMessage, 'Happy birthday');
    assert.equal(line.giftWrapLevel, 'basic');
    assert.equal(line.earliestShipBy, '2026-11-21T00:00:00.000Z');
    assert.equal(line.latestShipBy, '2026-11-22T22:00:00.000Z');
    assert.equal(line.latestDeliverBy, '2026-11-26T00:00:00.000Z');
    assert.equal(line.requestedServiceLevel, 'UPS Ground');
    assert.equal(line.refund, null);
    assert.equal(line.primary_image, null);
    assert.equal(line.mpn, null);
    // A storefront token is not an integration: routing_info carries no warehouseUniqueId.
    assert.deepEqual(line.routing_info, [
      { warehouseId: seed.warehouses.main, quantity: 2, assembledQuantity: null, kitComponents: null },
    ]);
  });

  it('is idempotent on channelOrderId per channel: a repeat returns the stored order unchanged', async () => {
    await stock(t, seed.sellerToken, 'IDEM', seed.warehouses.main, 10);
    const first = await createOrder(t, seed.channel.token, orderBody('IDEM-1', [{ requestedSku: 'IDEM', quantity: 3 }]));
    const again = await postOrder(t, seed.channel.token, orderBody('IDEM-1', [{ requestedSku: 'IDEM', quantity: 9 }], { customerName: 'Other' }));
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(again.json(), first);
    // Reserved once.
    assert.equal((await availableBySku(t, seed.sellerToken, 'IDEM')).get(seed.warehouses.main), 7);

    // The same channelOrderId from another storefront is another order.
    const other = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['sales:orders:self'], { name: 'eBay', storefrontName: 'Shop Two' });
    const theirs = await createOrder(t, other.token, orderBody('IDEM-1', [{ requestedSku: 'IDEM', quantity: 1 }]));
    assert.notEqual(theirs.orderNumber, first.orderNumber);
    assert.equal(theirs.channel, 'eBay');
    assert.equal(theirs.channelLabel, 'Shop Two');
  });

  it('records parallel repeats of one channel order once', async () => {
    await stock(t, seed.sellerToken, 'PAR', seed.warehouses.main, 100);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => postOrder(t, seed.channel.token, orderBody('PAR-1', [{ requestedSku: 'PAR', quantity: 4 }]))),
    );
    const numbers = new Set(responses.map((r) => {
      assert.equal(r.statusCode, 200, r.body);
      return (r.json() as Order).orderNumber;
    }));
    assert.equal(numbers.size, 1);
    assert.equal((await availableBySku(t, seed.sellerToken, 'PAR')).get(seed.warehouses.main), 96);
  });

  it('takes the channel from the body for a seller token; one channel order per seller channel', async () => {
    const res = await postOrder(t, seed.sellerToken, orderBody('S-1', [{ sku: 'MUG', quantity: 1 }], { channel: 'Phone', channelLabel: 'Call centre' }));
    assert.equal(res.statusCode, 200, res.body);
    const order = res.json() as Order;
    assert.equal(order.channel, 'Phone');
    assert.equal(order.channelLabel, 'Call centre');
    assert.equal(order.products[0]?.requestedSku, 'MUG');
    const repeat = await postOrder(t, seed.sellerToken, orderBody('S-1', [{ sku: 'MUG', quantity: 1 }], { channel: 'Phone' }));
    assert.equal((repeat.json() as Order).orderNumber, order.orderNumber);
    const otherChannel = await postOrder(t, seed.sellerToken, orderBody('S-1', [{ sku: 'MUG', quantity: 1 }], { channel: 'Email' }));
    assert.notEqual((otherChannel.json() as Order).orderNumber, order.orderNumber);
  });

  it('creates PENDING_PAYMENT orders, which reserve stock too', async () => {
    await stock(t, seed.sellerToken, 'UNPAID', seed.warehouses.main, 5);
    const order = await createOrder(t, seed.channel.token, orderBody('PP-1', [{ requestedSku: 'UNPAID', quantity: 2 }], { status: 'PENDING_PAYMENT' }));
    assert.equal(order.status, 'PENDING_PAYMENT');
    assert.equal(order.products[0]?.status, 'PENDING_PAYMENT');
    assert.equal((await availableBySku(t, seed.sellerToken, 'UNPAID')).get(seed.warehouses.main), 3);
  });

  it('keeps a line whose SKU is unknown: requestedSku kept, sku null, not routed', async () => {
    const order = await createOrder(t, seed.channel.token, orderBody('UNK-1', [{ requestedSku: 'NO-SUCH', quantity: 2 }]));
    const [line] = order.products;
    assert.equal(line?.requestedSku, 'NO-SUCH');
    assert.equal(line?.sku, null);
    assert.equal(line?.SKU, null);
    assert.equal(line?.title, null);
    assert.equal(line?.standard_product_id, null);
    assert.deepEqual(line?.routing_info, []);
    const product = await t.deps.db.db.selectFrom('products').select('id').where('account_id', '=', seed.accountId).where('sku', '=', 'NO-SUCH').executeTakeFirst();
    assert.equal(product, undefined);
  });

  it('resolves a requested SKU case-insensitively when there is no exact match, and reserves its stock like an exact one', async () => {
    // Routing's stock is read by exact SKU ahead of the order (create-order.ts); a case-insensitive match is read by id.
    const reservedOfMug = async () =>
      Number(
        (
          await t.deps.db.db
            .selectFrom('inventory as i')
            .innerJoin('products as p', 'p.id', 'i.product_id')
            .select('i.reserved_quantity')
            .where('p.account_id', '=', seed.accountId)
            .where('p.sku', '=', 'MUG')
            .where('i.warehouse_id', '=', seed.warehouses.main)
            .executeTakeFirstOrThrow()
        ).reserved_quantity,
      );
    const before = await reservedOfMug();
    const order = await createOrder(t, seed.channel.token, orderBody('CASE-1', [{ requestedSku: 'mug', quantity: 1 }]));
    assert.equal(order.products[0]?.requestedSku, 'mug');
    assert.equal(order.products[0]?.sku, 'MUG');
    await stock(t, seed.sellerToken, 'CASE-EXACT', seed.warehouses.main, 5);
    const two = await createOrder(t, seed.channel.token, orderBody('CASE-2', [{ requestedSku: 'mug', quantity: 2 }, { requestedSku: 'CASE-EXACT', quantity: 1 }]));
    assert.deepEqual(two.products.map((l) => l.sku), ['MUG', 'CASE-EXACT']);
    assert.equal(await reservedOfMug(), before + 3, 'the case-insensitive lines reserved their units, none backordered');
  });

  describe('refuses bad requests with a v1 error and changes nothing', () => {
    const bad: [string, unknown, RegExp][] = [
      ['missing channelOrderId', { orderTs: '2026-11-20T10:00:00Z', products: [{ requestedSku: 'MUG', quantity: 1 }] }, /channelOrderId: is required/],
      ['missing orderTs', { channelOrderId: 'B', products: [{ requestedSku: 'MUG', quantity: 1 }] }, /orderTs: is required/],
      ['orderTs without a zone', orderBody('B', [{ requestedSku: 'MUG', quantity: 1 }], { orderTs: '2026-11-20T10:00:00' }), /orderTs: .*time zone/],
      ['line time without a zone', orderBody('B', [{ requestedSku: 'MUG', quantity: 1, latestShipBy: '2026-11-20 10:00' }]), /products\[0\]\.latestShipBy/],
      ['no products', orderBody('B', []), /products: must NOT have fewer than 1 items/],
      ['products missing', { channelOrderId: 'B', orderTs: '2026-11-20T10:00:00Z' }, /products: is required/],
      ['a line without a SKU', orderBody('B', [{ quantity: 1 }]), /products\[0\]\.requestedSku: is required/],
      ['quantity 0', orderBody('B', [{ requestedSku: 'MUG', quantity: 0 }]), /products\[0\]\.quantity: must be >= 1/],
      ['quantity as a string', orderBody('B', [{ requestedSku: 'MUG', quantity: '2' }]), /products\[0\]\.quantity: must be integer/],
      ['fractional quantity', orderBody('B', [{ requestedSku: 'MUG', quantity: 1.5 }]), /products\[0\]\.quantity: must be integer/],
      ['unknown status', orderBody('B', [{ requestedSku: 'MUG', quantity: 1 }], { status: 'SHIPPED' }), /status: must be one of PENDING, PENDING_PAYMENT/],
      ['unknown standardServiceLevel', orderBody('B', [{ requestedSku: 'MUG', quantity: 1 }], { standardServiceLevel: 'Warp' }), /standardServiceLevel/],
      ['fba as a string', orderBody('B', [{ requestedSku: 'MUG', quantity: 1 }], { fba: 'yes' }), /fba: must be boolean/],
      ['unitPrice not a number', orderBody('B', [{ requestedSku: 'MUG', quantity: 1, unitPrice: 'cheap' }]), /products\[0\]\.unitPrice/],
      ['countryCode of 3 characters', orderBody('B', [{ requestedSku: 'MUG', quantity: 1 }], { shippingAddress: { ...ADDRESS, countryCode: 'USA' } }), /shippingAddress\.countryCode: must be exactly 2 characters/],
      ['countryCode of 1 character', orderBody('B', [{ requestedSku: 'MUG', quantity: 1 }], { billingAddress: { ...ADDRESS, countryCode: 'U' } }), /billingAddress\.countryCode: must be exactly 2 characters/],
      ['address without postalCode', orderBody('B', [{ requestedSku: 'MUG', quantity: 1 }], { shippingAddress: { name: 'x', addressLine1: 'y', city: 'z' } }), /shippingAddress\.postalCode: is required/],
      ['empty channelOrderId', orderBody('', [{ requestedSku: 'MUG', quantity: 1 }]), /channelOrderId/],
    ];
    for (const [name, body, pattern] of bad) {
      it(name, async () => {
        const before = await orderCount();
        const stockBefore = await availableBySku(t, seed.sellerToken, 'MUG');
        assertV1Error(await postOrder(t, seed.channel.token, body), 400, pattern);
        assert.equal(await orderCount(), before);
        assert.deepEqual(await availableBySku(t, seed.sellerToken, 'MUG'), stockBefore);
      });
    }

    it('malformed JSON', async () => {
      const before = await orderCount();
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/salesOrder',
        headers: { ...bearer(seed.channel.token), 'content-type': 'application/json' },
        payload: '{"channelOrderId": "X",',
      });
      assertV1Error(res, 400, /malformed JSON/);
      assert.equal(await orderCount(), before);
    });

    it('a seller token without a channel', async () => {
      const before = await orderCount();
      assertV1Error(await postOrder(t, seed.sellerToken, orderBody('NOCH', [{ requestedSku: 'MUG', quantity: 1 }])), 400, /channel: is required/);
      assert.equal(await orderCount(), before);
    });
  });

  it('answers 401 without a valid token and 403 for integration tokens', async () => {
    const body = orderBody('AUTH-1', [{ requestedSku: 'MUG', quantity: 1 }]);
    const before = await orderCount();
    assertV1Error(await t.app.inject({ method: 'POST', url: '/v1/salesOrder', payload: body }), 401);
    assertV1Error(await postOrder(t, 'mcs_not-a-real-token-000000000000000000000000', body), 401);
    assertV1Error(await postOrder(t, seed.shipping.token, body), 403, /storefront\) token or a seller token/);
    assertV1Error(await postOrder(t, seed.inventory.token, body), 403);
    assert.equal(await orderCount(), before);
  });
});
