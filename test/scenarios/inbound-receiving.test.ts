import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { adminHeaders } from '../helpers/admin.js';
import { createListingViaAdmin, listingWithVariants } from '../helpers/listings.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { counters, createShipment, inventoryRecord, landedCost, receiveOk } from '../http/v1-inbound-receive-helpers.js';
import { createOrder, orderBody, stock, type Order } from '../http/v1-sales-orders-helpers.js';
import { batch, foOf, needToShip } from '../http/v2-shipping-support.js';

/**
 * The scenario, over HTTP: a channel sells a SKU the seller has none of, so the order is backordered
 * at the default warehouse (main, where the shipping partner works). A purchase order arrives in two receipts;
 * each receipt stocks the units and gives them to the waiting orders oldest first, so the partner can ship
 * them; inventory and landed costs come out exact. Then an inventory integration receives into its own
 * warehouse, and a kit backorder is filled from the kit's own stock.
 */
describe('scenario: receiving inbound shipments fills backorders', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  const getOrder = async (orderNumber: string): Promise<Order> => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order;
  };
  const routeOf = async (orderNumber: string) =>
    t.deps.db.db
      .selectFrom('order_line_routes')
      .select(['warehouse_id', 'quantity', 'reserved_quantity', 'backorder_quantity', 'assembled_quantity'])
      .where('account_id', '=', seed.accountId)
      .where('order_id', '=', Number(orderNumber))
      .executeTakeFirstOrThrow();

  it('backorders, receives in two receipts, reserves the waiting orders oldest first, ships them', async () => {
    const main = seed.warehouses.main;
    const channel = seed.channel.token;
    await stock(t, seed.sellerToken, 'BO-MUG', main, 0);

    // Two orders, none in stock: the later-placed one has the OLDER orderTs and is served first.
    clock.advance(1000);
    const late = await createOrder(t, channel, orderBody('BO-LATE', [{ requestedSku: 'BO-MUG', quantity: 4 }], { orderTs: '2026-11-20T11:00:00Z' }));
    clock.advance(1000);
    const early = await createOrder(t, channel, orderBody('BO-EARLY', [{ requestedSku: 'BO-MUG', quantity: 3 }], { orderTs: '2026-11-20T09:00:00Z' }));
    for (const o of [late, early]) {
      assert.deepEqual(o.products[0]!.routing_info.map((r) => [r.warehouseId, r.quantity]), [[main, o === late ? 4 : 3]]);
    }
    assert.deepEqual(await routeOf(early.orderNumber), { warehouse_id: main, quantity: 3, reserved_quantity: 0, backorder_quantity: 3, assembled_quantity: null });
    assert.deepEqual(await counters(t, seed.accountId, 'BO-MUG', main), { available: 0, onhand: 0, reserved: 0 });
    // The shipping partner owes the backordered units already.
    const ship = seed.shipping.token;
    assert.deepEqual((await foOf(t, ship, early.orderNumber)).lines.map((l) => [l.sku, l.quantity]), [['BO-MUG', 3]]);
    assert.deepEqual((await foOf(t, ship, late.orderNumber)).lines.map((l) => [l.sku, l.quantity]), [['BO-MUG', 4]]);

    // The purchase order: 12 mugs at 2.50, 12.00 shipping.
    clock.advance(1000);
    const shipment = await createShipment(t, seed.sellerToken, main, [{ sku: 'BO-MUG', quantity: 12, unit_item_cost: 2.5 }], {
      status: 'PENDING',
      shipping_cost: 12,
    });
    assert.equal(shipment.status, 'PENDING');
    // The vendor ships it: carrier, tracking and the expected date come with the ship call.
    clock.advance(1000);
    const marked = await t.app.inject({
      method: 'POST',
      url: `/v1/inbound-shipment/${shipment.id}/ship`,
      headers: bearer(seed.sellerToken),
      payload: { carrier: 'DHL', tracking: 'DHL-1', expected_delivery_date: '2026-11-25' },
    });
    assert.equal(marked.statusCode, 200, marked.body);
    assert.equal((marked.json() as { status: string }).status, 'SHIPPED');
    const onTheWay = await inventoryRecord(t, seed.sellerToken, 'BO-MUG');
    assert.deepEqual(onTheWay.warehouses.find((w) => w.warehouseId === main)!.inboundShipments, [
      {
        inboundShipmentId: shipment.id,
        status: 'SHIPPED',
        quantity: 12,
        receivedQuantity: 0,
        expectedDeliveryDate: '2026-11-25',
        tracking: 'DHL-1',
        carrier: 'DHL',
      },
    ]);

    // First receipt: 5 mugs. The early order takes 3, the late one 2 (2 still backordered); nothing is left.
    clock.advance(1000);
    const firstAt = clock.now().toISOString();
    const partial = await receiveOk(t, seed.sellerToken, shipment.id, [{ sku: 'BO-MUG', quantity: 5 }]);
    assert.equal(partial.status, 'PARTIALLY_RECEIVED');
    assert.deepEqual(await counters(t, seed.accountId, 'BO-MUG', main), { available: 0, onhand: 5, reserved: 5 });
    assert.deepEqual(await routeOf(early.orderNumber), { warehouse_id: main, quantity: 3, reserved_quantity: 3, backorder_quantity: 0, assembled_quantity: null });
    assert.deepEqual(await routeOf(late.orderNumber), { warehouse_id: main, quantity: 4, reserved_quantity: 2, backorder_quantity: 2, assembled_quantity: null });
    const record = await inventoryRecord(t, seed.sellerToken, 'BO-MUG');
    assert.equal(record.totalAvailableQuantity, 0);
    assert.equal(record.lastInventoryUpdateTs, firstAt);
    // The reservations are in the ledger, one row per line.
    const ledger = await t.deps.db.db
      .selectFrom('inventory_reservations')
      .select(['order_line_id', 'quantity'])
      .where('account_id', '=', seed.accountId)
      .orderBy('quantity')
      .execute();
    assert.deepEqual(ledger.map((r) => [r.order_line_id, r.quantity]), [
      [Number(late.products[0]!.lineItemId), 2],
      [Number(early.products[0]!.lineItemId), 3],
    ]);
    // Both orders changed (their units are now held): their lastUpdatedTs moved; the routing still shows the units.
    for (const o of [early, late]) {
      const now = await getOrder(o.orderNumber);
      assert.equal(now.lastUpdatedTs, firstAt);
      assert.equal(now.status, 'PENDING');
      assert.deepEqual(now.products[0]!.routing_info.map((r) => [r.warehouseId, r.quantity]), [[main, o === late ? 4 : 3]]);
    }
    // The partner's queue is unchanged: the same lines are owed.
    const earlyFo = await foOf(t, ship, early.orderNumber);
    assert.deepEqual(earlyFo.lines.map((l) => [l.sku, l.quantity]), [['BO-MUG', 3]]);

    // The partner ships the early order from the reserved stock.
    clock.advance(1000);
    const [shipped] = await batch(t, ship, 'shipments', 'shipments', [
      {
        fulfillmentOrderId: earlyFo.fulfillmentOrderId,
        externalShipmentId: 'PKG-BO-EARLY',
        carrier: 'UPS',
        trackingNumber: '1Z-BO',
        serviceLevel: 'Ground',
        shippedTs: clock.now().toISOString(),
        lines: [{ lineItemId: early.products[0]!.lineItemId, quantity: 3 }],
      },
    ]);
    assert.ok(shipped!.success, shipped!.errorMessage);
    assert.deepEqual(await counters(t, seed.accountId, 'BO-MUG', main), { available: 0, onhand: 2, reserved: 2 });
    assert.equal((await getOrder(early.orderNumber)).status, 'SHIPPED');

    // Final receipt: 7 mugs invoiced at 2.60. The late order takes its last 2; 5 are left available.
    clock.advance(1000);
    const final = await receiveOk(t, seed.sellerToken, shipment.id, [{ sku: 'BO-MUG', quantity: 7, unit_item_cost: 2.6 }]);
    assert.equal(final.status, 'RECEIVED');
    assert.deepEqual(final.receipts.map((r) => r.products.map((p) => [p.quantity, p.unit_item_cost, p.shipping_cost])), [[[5, 2.5, 5]], [[7, 2.6, 7]]]);
    assert.deepEqual(await counters(t, seed.accountId, 'BO-MUG', main), { available: 5, onhand: 9, reserved: 4 });
    assert.deepEqual(await routeOf(late.orderNumber), { warehouse_id: main, quantity: 4, reserved_quantity: 4, backorder_quantity: 0, assembled_quantity: null });
    const done = await inventoryRecord(t, seed.sellerToken, 'BO-MUG');
    assert.equal(done.totalAvailableQuantity, 5);
    assert.deepEqual(done.warehouses.find((w) => w.warehouseId === main)!.inboundShipments, []);
    assert.ok((await needToShip(t, ship, '?pageSize=500')).orders.some((o) => o.orderNumber === late.orderNumber));

    // (5 × 2.50 + 5.00 + 7 × 2.60 + 7.00) / 12 = 42.70 / 12 = 3.558333… → 3.5583
    assert.deepEqual(await landedCost(t, seed.accountId, 'BO-MUG'), { landed_cost: '3.5583', landed_cost_units: 12, landed_cost_total: '42.7' });
  });

  it('lets an inventory integration receive into its own warehouse', async () => {
    const second = seed.warehouses.second;
    const token = seed.inventory.token;
    const shipment = await createShipment(t, token, second, [{ sku: 'INV-OWN', quantity: 6, unit_item_cost: 1.25 }], { shipping_cost: '1.5' });
    assert.equal(shipment.warehouse.warehouseUniqueId, 'WH-SECOND');
    const before = await inventoryRecord(t, token, 'INV-OWN');
    assert.deepEqual(before.warehouses.map((w) => [w.warehouseUniqueId, w.availableQuantity, w.inboundShipments.length]), [['WH-SECOND', 0, 1]]);

    clock.advance(1000);
    await receiveOk(t, token, shipment.id, [{ sku: 'INV-OWN', quantity: 2 }]);
    const received = await receiveOk(t, token, shipment.id, [{ sku: 'INV-OWN', quantity: 4 }]);
    assert.equal(received.status, 'RECEIVED');
    assert.deepEqual(received.receipts.map((r) => [r.received_by, r.products[0]!.shipping_cost]), [
      [`integration ${seed.inventory.installationId}`, 0.5],
      [`integration ${seed.inventory.installationId}`, 1],
    ]);
    const after = await inventoryRecord(t, token, 'INV-OWN');
    assert.deepEqual(after.warehouses.map((w) => [w.warehouseUniqueId, w.availableQuantity, w.inboundShipments.length]), [['WH-SECOND', 6, 0]]);
    // The integration's own v2 read agrees.
    const v2 = await t.app.inject({ url: '/v2/inventory?skus=INV-OWN', headers: bearer(token) });
    assert.equal(v2.statusCode, 200, v2.body);
    assert.match(v2.body, /"quantity":6/);
    // (6 × 1.25 + 1.5) / 6 = 1.5
    assert.equal((await landedCost(t, seed.accountId, 'INV-OWN')).landed_cost, '1.5');
  });

  it('fills a kit backorder from the kit\'s own stock, counting the kits as assembled', async () => {
    const main = seed.warehouses.main;
    for (const sku of ['KC-A', 'KC-KIT']) await stock(t, seed.sellerToken, sku, main, 0);
    const kit = await t.app.inject({
      method: 'PUT',
      url: `/admin/accounts/${seed.accountId}/products/KC-KIT/kit`,
      headers: adminHeaders,
      payload: { components: [{ sku: 'KC-A', quantity: 2 }] },
    });
    assert.equal(kit.statusCode, 200, kit.body);
    clock.advance(1000);
    const order = await createOrder(t, seed.channel.token, orderBody('BO-KIT', [{ requestedSku: 'KC-KIT', quantity: 2 }]));
    assert.deepEqual(await routeOf(order.orderNumber), { warehouse_id: main, quantity: 2, reserved_quantity: 0, backorder_quantity: 2, assembled_quantity: 0 });

    const shipment = await createShipment(t, seed.sellerToken, main, [{ sku: 'KC-KIT', quantity: 3 }]);
    clock.advance(1000);
    await receiveOk(t, seed.sellerToken, shipment.id, [{ sku: 'KC-KIT', quantity: 3 }]);
    assert.deepEqual(await routeOf(order.orderNumber), { warehouse_id: main, quantity: 2, reserved_quantity: 2, backorder_quantity: 0, assembled_quantity: 2 });
    assert.deepEqual(await counters(t, seed.accountId, 'KC-KIT', main), { available: 1, onhand: 3, reserved: 2 });
    const now = await getOrder(order.orderNumber);
    assert.deepEqual(now.products[0]!.routing_info.map((r) => [r.warehouseId, r.quantity, r.assembledQuantity]), [[main, 2, 2]]);
  });

  it('a receipt reaches the storefront inventory poll with the new quantities', async () => {
    const main = seed.warehouses.main;
    await stock(t, seed.sellerToken, 'SF-CUP', main, 0);
    await createListingViaAdmin(t, seed, listingWithVariants('SF-CUP-GROUP', [{ sku: 'SF-CUP', channelId: 'CH-CUP' }]));
    const shipment = await createShipment(t, seed.sellerToken, main, [{ sku: 'SF-CUP', quantity: 6 }]);
    clock.advance(1000);
    const before = clock.now().toISOString();
    clock.advance(1000);
    await receiveOk(t, seed.sellerToken, shipment.id, [{ sku: 'SF-CUP', quantity: 6 }]);
    const poll = await t.app.inject({
      url: `/v2/storefront/listing/variant/inventory/updated?since=${encodeURIComponent(before)}`,
      headers: bearer(seed.channel.token),
    });
    assert.equal(poll.statusCode, 200, poll.body);
    const variants = (poll.json() as { variants: { sku: string; inventory: { merchantFulfillableQuantity: string; updatedAt: string } }[] }).variants;
    const cup = variants.find((v) => v.sku === 'SF-CUP');
    assert.ok(cup, 'the received SKU is polled');
    assert.equal(cup.inventory.merchantFulfillableQuantity, '6');
    assert.equal(cup.inventory.updatedAt, clock.now().toISOString());
    const skus = await t.app.inject({
      url: `/v2/storefront/listing/variant/inventory/updated/skus?since=${encodeURIComponent(before)}`,
      headers: bearer(seed.channel.token),
    });
    assert.ok((skus.json() as { skus: string[] }).skus.includes('SF-CUP'), skus.body);
  });
});
