import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { admin, adminHeaders, assertV1Error } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { counters } from '../http/v1-inbound-receive-helpers.js';
import { createOrder, orderBody, stock, type Order } from '../http/v1-sales-orders-helpers.js';

interface ReturnOrder {
  returnOrderId: number;
  cancelled: boolean;
  returnItems: { SKU: string; quantity: number }[];
}

/**
 * Issue 23 item 3: a return is received with a restock choice (back in stock in a warehouse the seller manages,
 * or not) and closed, through the operator API and the console. Restocking moves on-hand, available and the
 * inventory timestamps and fills backorders waiting there; receiving twice (even in parallel) restocks once.
 */
describe('returns: receive with a restock choice, and close', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  const PASSWORD = 'correct horse battery';
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let n = 0;

  const orderUrl = (order: Order, action: string, accountId = seed.accountId) => `/admin/accounts/${accountId}/orders/${order.orderNumber}/${action}`;
  const post = (url: string, payload?: unknown) => admin(t, 'POST', url, payload);
  const ok = async (url: string, payload?: unknown) => {
    const res = await post(url, payload);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order;
  };
  const read = async (orderNumber: string) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order;
  };
  const returnsOf = (order: Order) => order.returnOrders as ReturnOrder[];
  const inventoryTs = async (sku: string) =>
    (await t.deps.db.db.selectFrom('products').select('inventory_updated_at').where('account_id', '=', seed.accountId).where('sku', '=', sku).executeTakeFirstOrThrow())
      .inventory_updated_at;
  const warehouseTs = async (sku: string, warehouseId: number) => {
    const res = await t.app.inject({ url: `/v1/inventory/${sku}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { warehouses: { warehouseId: number; updatedTs: string }[] }).warehouses.find((w) => w.warehouseId === warehouseId)?.updatedTs;
  };

  /** An order of `quantity` units of `sku`, all shipped from main; then a return of `returned` of them. */
  async function shippedWithReturn(sku: string, quantity: number, returned: number): Promise<{ order: Order; returnId: number }> {
    n += 1;
    clock.advance(1000);
    const order = await createOrder(t, seed.channel.token, orderBody(`RET-${n}`, [{ requestedSku: sku, quantity }]));
    clock.advance(1000);
    const shipped = await t.app.inject({
      method: 'POST',
      url: '/v1/salesOrder/shipments',
      headers: bearer(seed.sellerToken),
      payload: {
        packages: [
          {
            orderNumber: order.orderNumber,
            fulfillmentPackageId: `P-${n}`,
            warehouseId: seed.warehouses.main,
            carrier: 'UPS',
            tracking: `1Z${n}`,
            service_level: 'Ground',
            products: [{ lineItemId: order.products[0]!.lineItemId, quantity }],
          },
        ],
      },
    });
    assert.equal(shipped.statusCode, 200, shipped.body);
    clock.advance(1000);
    const requested = await ok(orderUrl(order, 'returns'), { items: [{ lineItemId: order.products[0]!.lineItemId, quantity: returned }] });
    const ret = returnsOf(requested).at(-1)!;
    return { order: requested, returnId: ret.returnOrderId };
  }

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Returns Shop');
    other = await seedAccount(t, 'Other Shop');
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@returns.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
  });
  after(async () => t.close());

  it('restocks into the chosen warehouse: on-hand and available rise, timestamps move, a waiting backorder fills', async () => {
    const main = seed.warehouses.main;
    await stock(t, seed.sellerToken, 'RS', main, 2);
    const { order, returnId } = await shippedWithReturn('RS', 2, 2);
    assert.deepEqual(await counters(t, seed.accountId, 'RS', main), { available: 0, onhand: 0, reserved: 0 });
    // A later order finds nothing: it waits as a backorder in main, the default warehouse.
    clock.advance(1000);
    const waiting = await createOrder(t, seed.channel.token, orderBody('RS-WAITING', [{ requestedSku: 'RS', quantity: 1 }]));
    const route = () =>
      t.deps.db.db
        .selectFrom('order_line_routes')
        .select(['warehouse_id', 'reserved_quantity', 'backorder_quantity'])
        .where('line_id', '=', Number(waiting.products[0]!.lineItemId))
        .executeTakeFirstOrThrow();
    assert.deepEqual(await route(), { warehouse_id: main, reserved_quantity: 0, backorder_quantity: 1 });

    clock.advance(60_000);
    const received = await ok(orderUrl(order, `returns/${returnId}/receive`), { restockWarehouseId: main });
    assert.equal(received.status, 'RETURNED');
    assert.equal(received.lastUpdatedTs, clock.now().toISOString());
    // 2 back on hand; 1 of them went straight to the waiting order.
    assert.deepEqual(await counters(t, seed.accountId, 'RS', main), { available: 1, onhand: 2, reserved: 1 });
    assert.deepEqual(await route(), { warehouse_id: main, reserved_quantity: 1, backorder_quantity: 0 });
    assert.equal((await read(waiting.orderNumber)).lastUpdatedTs, clock.now().toISOString(), 'the filled order moved too');
    assert.equal(await inventoryTs('RS'), clock.now().toISOString(), 'inventory polls see the change');
    assert.equal(await warehouseTs('RS', main), clock.now().toISOString());
    const row = await t.deps.db.db.selectFrom('sales_order_returns').selectAll().where('id', '=', returnId).executeTakeFirstOrThrow();
    assert.equal(row.restock_warehouse_id, main);
    assert.equal(row.restocked_quantity, 2);
    assert.equal(row.received_ts, clock.now().toISOString());
  });

  it('receives without restocking (no body, {} or null): stock and its timestamps stay', async () => {
    const main = seed.warehouses.main;
    await stock(t, seed.sellerToken, 'RN', main, 10);
    for (const payload of [undefined, {}, { restockWarehouseId: null }]) {
      const { order, returnId } = await shippedWithReturn('RN', 1, 1);
      const before = { counters: await counters(t, seed.accountId, 'RN', main), ts: await inventoryTs('RN') };
      clock.advance(60_000);
      const received = await ok(orderUrl(order, `returns/${returnId}/receive`), payload);
      assert.equal(received.status, 'RETURNED');
      assert.deepEqual({ counters: await counters(t, seed.accountId, 'RN', main), ts: await inventoryTs('RN') }, before);
    }
  });

  it('closes a requested return as cancelled (not returned, stock unchanged) and a received one as it is', async () => {
    const main = seed.warehouses.main;
    await stock(t, seed.sellerToken, 'RC', main, 10);
    const { order, returnId } = await shippedWithReturn('RC', 2, 1);
    assert.equal(order.status, 'RETURN_REQUESTED');
    const stockBefore = await counters(t, seed.accountId, 'RC', main);
    clock.advance(1000);
    const closed = await ok(orderUrl(order, `returns/${returnId}/close`));
    assert.equal(closed.status, 'SHIPPED', 'no open return is left');
    assert.equal(closed.products[0]!.status, 'SHIPPED');
    assert.equal(closed.lastUpdatedTs, clock.now().toISOString());
    assert.equal(returnsOf(closed)[0]!.cancelled, true);
    assert.deepEqual(await counters(t, seed.accountId, 'RC', main), stockBefore);
    // Closed: it cannot be received; closing again changes nothing.
    assertV1Error(await post(orderUrl(order, `returns/${returnId}/receive`), { restockWarehouseId: main }), 400, /closed without being received/);
    clock.advance(1000);
    const again = await ok(orderUrl(order, `returns/${returnId}/close`));
    assert.equal(again.lastUpdatedTs, closed.lastUpdatedTs);
    assert.deepEqual(await counters(t, seed.accountId, 'RC', main), stockBefore);

    // Its units may be requested again; that return is received, restocked, then closed as it is.
    const line = order.products[0]!.lineItemId;
    const requested = await ok(orderUrl(order, 'returns'), { items: [{ lineItemId: line, quantity: 2 }] });
    const second = returnsOf(requested).at(-1)!.returnOrderId;
    const received = await ok(orderUrl(order, `returns/${second}/receive`), { restockWarehouseId: main });
    assert.equal(received.status, 'RETURNED');
    clock.advance(1000);
    const done = await ok(orderUrl(order, `returns/${second}/close`));
    assert.equal(done.status, 'RETURNED');
    assert.equal(returnsOf(done).at(-1)!.cancelled, false);
    assert.deepEqual(await counters(t, seed.accountId, 'RC', main), { ...stockBefore, available: stockBefore.available + 2, onhand: stockBefore.onhand + 2 });
    // Receiving a closed, received return with the same choice is a replay; with another a 409.
    await ok(orderUrl(order, `returns/${second}/receive`), { restockWarehouseId: main });
    assertV1Error(await post(orderUrl(order, `returns/${second}/receive`)), 409, /already received .* put back in stock in warehouse/);
    assert.deepEqual(await counters(t, seed.accountId, 'RC', main), { ...stockBefore, available: stockBefore.available + 2, onhand: stockBefore.onhand + 2 });
  });

  it('restocks once however many receipts arrive, in parallel or after; another choice afterwards is a 409', async () => {
    const main = seed.warehouses.main;
    await stock(t, seed.sellerToken, 'RP', main, 5);
    const { order, returnId } = await shippedWithReturn('RP', 3, 3);
    const before = await counters(t, seed.accountId, 'RP', main);
    clock.advance(1000);
    const url = orderUrl(order, `returns/${returnId}/receive`);
    const results = await Promise.all(Array.from({ length: 6 }, () => post(url, { restockWarehouseId: main })));
    for (const res of results) assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await counters(t, seed.accountId, 'RP', main), { available: before.available + 3, onhand: before.onhand + 3, reserved: before.reserved });
    const line = await t.deps.db.db.selectFrom('sales_order_lines').select('returned_quantity').where('id', '=', Number(order.products[0]!.lineItemId)).executeTakeFirstOrThrow();
    assert.equal(line.returned_quantity, 3, 'returned once');
    assertV1Error(await post(url, { restockWarehouseId: null }), 409, /already received/);
    assertV1Error(await post(url), 409, /already received/);
    assert.deepEqual(await counters(t, seed.accountId, 'RP', main), { available: before.available + 3, onhand: before.onhand + 3, reserved: before.reserved });
  });

  it('refuses unknown, foreign and integration-controlled warehouses and bad input, changing nothing', async () => {
    const main = seed.warehouses.main;
    await stock(t, seed.sellerToken, 'RB', main, 5);
    const { order, returnId } = await shippedWithReturn('RB', 1, 1);
    const url = orderUrl(order, `returns/${returnId}/receive`);
    const snapshot = async () => ({
      order: await read(order.orderNumber),
      inventory: await t.deps.db.db.selectFrom('inventory').selectAll().where('account_id', '=', seed.accountId).orderBy('id').execute(),
      returns: await t.deps.db.db.selectFrom('sales_order_returns').selectAll().where('id', '=', returnId).execute(),
    });
    const before = await snapshot();
    assertV1Error(await post(url, { restockWarehouseId: 999999 }), 400, /restockWarehouseId: unknown warehouse id 999999/);
    assertV1Error(await post(url, { restockWarehouseId: other.warehouses.main }), 400, /unknown warehouse id/);
    assertV1Error(await post(url, { restockWarehouseId: seed.warehouses.second }), 409, /controlled by an integration \(installation \d+\)/);
    for (const payload of [{ restockWarehouseId: 'main' }, { restockWarehouseId: 0 }, { restockWarehouseId: -1 }, { restockWarehouseId: 1.5 }, { restock: main }]) {
      assertV1Error(await post(url, payload), 400);
    }
    assertV1Error(await post(orderUrl(order, 'returns/999999/receive'), { restockWarehouseId: main }), 404);
    assertV1Error(await post(orderUrl(order, 'returns/999999/close')), 404);
    assertV1Error(await post(orderUrl(order, `returns/${returnId}/receive`, other.accountId), { restockWarehouseId: main }), 404);
    assertV1Error(await post(orderUrl(order, `returns/${returnId}/close`, other.accountId)), 404);
    assertV1Error(await t.app.inject({ method: 'POST', url: orderUrl(order, `returns/${returnId}/close`), headers: bearer(seed.sellerToken) }), 401);
    assert.deepEqual(await snapshot(), before);
  });

  it('puts a returned kit back as the kit SKU itself: an assembled kit, components untouched', async () => {
    const main = seed.warehouses.main;
    for (const sku of ['KA', 'KB', 'KT']) await stock(t, seed.sellerToken, sku, main, 0);
    const kit = await t.app.inject({
      method: 'PUT',
      url: `/admin/accounts/${seed.accountId}/products/KT/kit`,
      headers: adminHeaders,
      payload: { components: [{ sku: 'KA', quantity: 2 }, { sku: 'KB', quantity: 1 }] },
    });
    assert.equal(kit.statusCode, 200, kit.body);
    const counted = await t.app.inject({ method: 'PUT', url: `/admin/accounts/${seed.accountId}/inventory/KT/${main}/assembled`, headers: adminHeaders, payload: { quantity: 1 } });
    assert.equal(counted.statusCode, 200, counted.body);
    const { order, returnId } = await shippedWithReturn('KT', 1, 1);
    const assembled = async () =>
      (await t.deps.db.db
        .selectFrom('inventory as i')
        .innerJoin('products as p', 'p.id', 'i.product_id')
        .select('i.assembled_quantity')
        .where('p.account_id', '=', seed.accountId)
        .where('p.sku', '=', 'KT')
        .where('i.warehouse_id', '=', main)
        .executeTakeFirstOrThrow()).assembled_quantity;
    assert.equal(await assembled(), 0, 'the assembled kit left');
    const components = { KA: await counters(t, seed.accountId, 'KA', main), KB: await counters(t, seed.accountId, 'KB', main) };
    await ok(orderUrl(order, `returns/${returnId}/receive`), { restockWarehouseId: main });
    assert.deepEqual(await counters(t, seed.accountId, 'KT', main), { available: 1, onhand: 1, reserved: 0 });
    assert.equal(await assembled(), 1);
    assert.deepEqual({ KA: await counters(t, seed.accountId, 'KA', main), KB: await counters(t, seed.accountId, 'KB', main) }, components);
  });

  it('console: receives a return into a warehouse chosen from the list, or not, and closes returns', async () => {
    const main = seed.warehouses.main;
    await stock(t, seed.sellerToken, 'RW', main, 10);
    const owner: ConsoleBrowser = consoleBrowser(t);
    assert.equal((await owner.signIn('owner@returns.example', PASSWORD)).statusCode, 303);

    const first = await shippedWithReturn('RW', 2, 2);
    const page = await owner.get(`/console/orders/${first.order.orderNumber}`);
    assert.equal(page.statusCode, 200, page.body);
    const form = new RegExp(`action="/console/orders/${first.order.orderNumber}/returns/${first.returnId}/receive"`);
    assert.match(page.body, form);
    assert.match(page.body, /<select name="restockWarehouseId">/);
    assert.match(page.body, new RegExp(`<option value="${main}">Yes, in Main</option>`));
    assert.doesNotMatch(page.body, new RegExp(`<option value="${seed.warehouses.second}">`), 'an integration-controlled warehouse is not offered');
    assert.match(page.body, /hx-confirm="Receive this return\?/);

    const before = await counters(t, seed.accountId, 'RW', main);
    clock.advance(1000);
    const base = `/console/orders/${first.order.orderNumber}/returns/${first.returnId}`;
    assert.deepEqual(await owner.flashOf(`${base}/receive`, { restockWarehouseId: String(main) }), {
      kind: 'ok',
      text: `Return ${first.returnId} received: 2 units back in stock at Main.`,
    });
    assert.deepEqual(await counters(t, seed.accountId, 'RW', main), { ...before, available: before.available + 2, onhand: before.onhand + 2 });
    assert.equal((await read(first.order.orderNumber)).status, 'RETURNED');
    assert.deepEqual(await owner.flashOf(`${base}/receive`, { restockWarehouseId: String(main) }), { kind: 'ok', text: `Return ${first.returnId} was already received; nothing changed.` });
    const shown = await owner.get(`/console/orders/${first.order.orderNumber}`);
    assert.match(shown.body, /2 back in stock at Main/);
    assert.match(shown.body, new RegExp(`Return ${first.returnId} received \\(2 unit\\(s\\) back in stock at Main\\)`), 'on the timeline');
    assert.match(shown.body, new RegExp(`action="${base}/close"`));
    assert.deepEqual(await owner.flashOf(`${base}/close`, {}), { kind: 'ok', text: `Return ${first.returnId} closed.` });

    // A refusal is a flash and changes nothing: the integration's warehouse.
    const second = await shippedWithReturn('RW', 1, 1);
    const secondBase = `/console/orders/${second.order.orderNumber}/returns/${second.returnId}`;
    await owner.get(`/console/orders/${second.order.orderNumber}`);
    const refused = await owner.flashOf(`${secondBase}/receive`, { restockWarehouseId: String(seed.warehouses.second) });
    assert.equal(refused.kind, 'bad');
    assert.match(refused.text, /^The stock of Second is kept by the inventory or 3PL app connected to it. Put the units back in another warehouse/);
    assert.equal((await read(second.order.orderNumber)).status, 'RETURN_REQUESTED');
    const atMain = await counters(t, seed.accountId, 'RW', main);
    assert.deepEqual(await owner.flashOf(`${secondBase}/receive`, { restockWarehouseId: '' }), {
      kind: 'ok',
      text: `Return ${second.returnId} received. Its units were not put back in stock.`,
    });
    assert.deepEqual(await counters(t, seed.accountId, 'RW', main), atMain);

    // Closing a return never received cancels it.
    const third = await shippedWithReturn('RW', 1, 1);
    await owner.get(`/console/orders/${third.order.orderNumber}`);
    assert.deepEqual(await owner.flashOf(`/console/orders/${third.order.orderNumber}/returns/${third.returnId}/close`, {}), {
      kind: 'ok',
      text: `Return ${third.returnId} closed without being received: it is cancelled.`,
    });
    const closedPage = await owner.get(`/console/orders/${third.order.orderNumber}`);
    assert.match(closedPage.body, /closed without being received \(cancelled\)/);
    assert.equal((await read(third.order.orderNumber)).status, 'SHIPPED');
  });
});
