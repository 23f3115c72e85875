import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { manualClock } from '../../src/lib/clock.js';
import { admin, assertV1Error } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { postExport, runJobs } from '../helpers/reports.js';
import {
  counters,
  createShipment,
  getShipment,
  inventoryRecord,
  landedCost,
  receive,
  receiveOk,
  type InventoryRecord,
  type Shipment,
} from './v1-inbound-receive-helpers.js';

/**
 * POST /v1/inbound-shipment/{id}/receive (resolutions §8) and its operator twin, through HTTP: status
 * transitions, refusals that change nothing, the warehouse rule, stock, shipping allocation and landed cost,
 * and what the inventory record shows on the way.
 */
describe('v1 inbound shipment receipts', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other seller');
  });
  after(async () => t.close());

  const seller = () => seed.sellerToken;
  const tick = () => clock.advance(1000);
  const receipts = async (id: number) => (await getShipment(t, seller(), id)).receipts.length;

  it('receives partially then finally: status, received quantities, receipts with shipping shares, stock', async () => {
    const main = seed.warehouses.main;
    const shipment = await createShipment(
      t,
      seller(),
      main,
      [
        { sku: 'RCV-A', quantity: 10, unit_item_cost: 2.5 },
        { sku: 'RCV-B', quantity: 5, unit_item_cost: '4' },
      ],
      { shipping_cost: 10 },
    );
    assert.equal(shipment.status, 'SHIPPED');

    tick();
    const partial = await receiveOk(t, seller(), shipment.id, [{ sku: 'RCV-A', quantity: 4 }]);
    assert.equal(partial.status, 'PARTIALLY_RECEIVED');
    assert.equal(partial.received_at, null);
    assert.equal(partial.updated_at, clock.now().toISOString());
    assert.deepEqual(partial.inbound_shipment_products.map((l) => [l.sku, l.quantity, l.received_quantity]), [
      ['RCV-A', 10, 4],
      ['RCV-B', 5, 0],
    ]);
    assert.equal(partial.receipts.length, 1);
    const [first] = partial.receipts;
    assert.equal(first!.received_by, 'seller');
    assert.equal(first!.received_at, clock.now().toISOString());
    // 10.00 × 4 / 15 rounded down to 4 decimals.
    assert.deepEqual(first!.products.map((p) => [p.sku, p.quantity, p.unit_item_cost, p.shipping_cost]), [['RCV-A', 4, 2.5, 2.6666]]);
    assert.deepEqual(await counters(t, seed.accountId, 'RCV-A', main), { available: 4, onhand: 4, reserved: 0 });

    tick();
    const final = await receiveOk(t, seller(), shipment.id, [
      { sku: 'RCV-B', quantity: 5, unit_item_cost: 4.1 },
      { product_id: partial.inbound_shipment_products[0]!.product_id, quantity: 6 },
    ]);
    assert.equal(final.status, 'RECEIVED');
    assert.equal(final.received_at, clock.now().toISOString());
    assert.deepEqual(final.inbound_shipment_products.map((l) => l.received_quantity), [10, 5]);
    const second = final.receipts[1]!;
    // The rest (10 − 2.6666 = 7.3334) over the 11 units of this receipt, in body order; the last line takes the remainder.
    assert.deepEqual(second.products.map((p) => [p.sku, p.quantity, p.unit_item_cost, p.shipping_cost]), [
      ['RCV-B', 5, 4.1, 3.3333],
      ['RCV-A', 6, 2.5, 4.0001],
    ]);
    const allocated = final.receipts.flatMap((r) => r.products.map((p) => Math.round(p.shipping_cost * 10000))).reduce((a, b) => a + b, 0);
    assert.equal(allocated, 100000, 'the shares sum to the shipping cost exactly');
    assert.deepEqual(await counters(t, seed.accountId, 'RCV-A', main), { available: 10, onhand: 10, reserved: 0 });
    assert.deepEqual(await counters(t, seed.accountId, 'RCV-B', main), { available: 5, onhand: 5, reserved: 0 });

    // A: (4 × 2.5 + 2.6666 + 6 × 2.5 + 4.0001) / 10 = 31.6667 / 10; B: (5 × 4.1 + 3.3333) / 5 = 23.8333 / 5.
    assert.deepEqual(await landedCost(t, seed.accountId, 'RCV-A'), { landed_cost: '3.1667', landed_cost_units: 10, landed_cost_total: '31.6667' });
    assert.deepEqual(await landedCost(t, seed.accountId, 'RCV-B'), { landed_cost: '4.7667', landed_cost_units: 5, landed_cost_total: '23.8333' });
    const view = await admin(t, 'GET', `/admin/accounts/${seed.accountId}/products/RCV-A/landed-cost`);
    assert.equal(view.statusCode, 200, view.body);
    assert.deepEqual(view.json(), { sku: 'RCV-A', landedCost: '3.1667', unitsReceived: 10, totalCost: '31.6667' });
    const product = await admin(t, 'GET', `/admin/accounts/${seed.accountId}/products/RCV-B`);
    assert.equal((product.json() as { landed_cost: string }).landed_cost, '4.7667');
    assertV1Error(await admin(t, 'GET', `/admin/accounts/${seed.accountId}/products/NOPE/landed-cost`), 404);

    // A RECEIVED shipment takes no more receipts, and says why.
    const again = await receive(t, seller(), shipment.id, [{ sku: 'RCV-A', quantity: 1 }]);
    assertV1Error(again, 400, /is RECEIVED; only a PENDING, SHIPPED, PARTIALLY_RECEIVED shipment can be received/);
  });

  it('receives straight from PENDING, refuses a CANCELLED shipment', async () => {
    const pending = await createShipment(t, seller(), seed.warehouses.main, [{ sku: 'RCV-P', quantity: 3 }], { status: 'PENDING' });
    const received = await receiveOk(t, seller(), pending.id, [{ sku: 'RCV-P', quantity: 3 }]);
    assert.equal(received.status, 'RECEIVED');
    assert.equal(received.shipped_at, null);
    // No unit cost anywhere: the units are stocked but left out of the landed cost.
    assert.deepEqual(received.receipts[0]!.products.map((p) => [p.unit_item_cost, p.shipping_cost]), [[null, 0]]);
    assert.deepEqual(await landedCost(t, seed.accountId, 'RCV-P'), { landed_cost: null, landed_cost_units: 0, landed_cost_total: '0' });

    const cancelled = await createShipment(t, seller(), seed.warehouses.main, [{ sku: 'RCV-P', quantity: 3 }], { status: 'CANCELLED' });
    assertV1Error(await receive(t, seller(), cancelled.id, [{ sku: 'RCV-P', quantity: 1 }]), 400, /is CANCELLED/);
    assert.equal(await receipts(cancelled.id), 0);
  });

  it('refuses over-receipts, unknown SKUs and repeated lines, and changes nothing', async () => {
    const main = seed.warehouses.main;
    const shipment = await createShipment(t, seller(), main, [
      { sku: 'RCV-O1', quantity: 5, unit_item_cost: 1 },
      { sku: 'RCV-O2', quantity: 2, unit_item_cost: 1 },
    ]);
    await receiveOk(t, seller(), shipment.id, [{ sku: 'RCV-O1', quantity: 3 }]);
    const before = await getShipment(t, seller(), shipment.id);
    const stockBefore = await counters(t, seed.accountId, 'RCV-O1', main);
    const costBefore = await landedCost(t, seed.accountId, 'RCV-O1');

    // The first line is fine, the second asks too much: nothing of either is received.
    const over = await receive(t, seller(), shipment.id, [
      { sku: 'RCV-O2', quantity: 2 },
      { sku: 'RCV-O1', quantity: 4 },
    ]);
    assertV1Error(over, 400, /products\[1\]\.quantity: line "RCV-O1" has 2 units outstanding \(5 sent, 3 received\); cannot receive 4/);
    assertV1Error(await receive(t, seller(), shipment.id, [{ sku: 'RCV-NOT-ON-IT', quantity: 1 }]), 400, /"RCV-NOT-ON-IT" is not on inbound shipment/);
    assertV1Error(await receive(t, seller(), shipment.id, [{ product_id: 2147483000, quantity: 1 }]), 400, /product 2147483000 is not on inbound shipment/);
    const twice = await receive(t, seller(), shipment.id, [
      { sku: 'RCV-O2', quantity: 1 },
      { product_id: before.inbound_shipment_products[1]!.product_id, quantity: 1 },
    ]);
    assertV1Error(twice, 400, /products\[1\]: names the same line \("RCV-O2"\) as entry 0/);
    assertV1Error(await receive(t, seller(), shipment.id, [{ sku: 'RCV-O1', product_id: before.inbound_shipment_products[1]!.product_id, quantity: 1 }]), 400, /is not the SKU of product/);

    const afterRefusals = await getShipment(t, seller(), shipment.id);
    assert.deepEqual(afterRefusals, before);
    assert.deepEqual(await counters(t, seed.accountId, 'RCV-O1', main), stockBefore);
    assert.deepEqual(await counters(t, seed.accountId, 'RCV-O2', main), { available: 0, onhand: 0, reserved: 0 });
    assert.deepEqual(await landedCost(t, seed.accountId, 'RCV-O1'), costBefore);
  });

  it('refuses malformed bodies', async () => {
    const shipment = await createShipment(t, seller(), seed.warehouses.main, [{ sku: 'RCV-M', quantity: 5 }]);
    const post = (payload: unknown) =>
      t.app.inject({ method: 'POST', url: `/v1/inbound-shipment/${shipment.id}/receive`, headers: bearer(seller()), payload: payload as object });
    assertV1Error(await post({}), 400);
    assertV1Error(await post({ products: [] }), 400);
    assertV1Error(await post({ products: [{ sku: 'RCV-M', quantity: 0 }] }), 400);
    assertV1Error(await post({ products: [{ sku: 'RCV-M', quantity: 1.5 }] }), 400);
    assertV1Error(await post({ products: [{ sku: 'RCV-M' }] }), 400);
    assertV1Error(await post({ products: [{ sku: 'RCV-M', quantity: 1, extra: true }] }), 400);
    assertV1Error(await post({ products: [{ quantity: 1 }] }), 400, /needs sku or product_id/);
    assertV1Error(await post({ products: [{ sku: 'RCV-M', quantity: 1, unit_item_cost: -1 }] }), 400);
    assertV1Error(await post({ products: [{ sku: 'RCV-M', quantity: 1, unit_item_cost: '1.00001' }] }), 400, /more than 4 decimals/);
    // Ten times the cap, every entry also bad: one message naming the cap, no per-entry work.
    const capOnly = assertV1Error(await post({ products: Array.from({ length: 5000 }, () => ({ sku: '', quantity: 0 })) }), 400, /500/);
    assert.equal(capOnly.length, 1, capOnly.join('\n'));
    assertV1Error(await receive(t, seller(), 0, [{ sku: 'RCV-M', quantity: 1 }]), 400);
    assertV1Error(await receive(t, seller(), 2147483647, [{ sku: 'RCV-M', quantity: 1 }]), 404);
    assert.equal(await receipts(shipment.id), 0);
  });

  it('follows the warehouse rule: a controlled warehouse is received by its integration only', async () => {
    const second = seed.warehouses.second;
    const shipment = await createShipment(t, seller(), second, [{ sku: 'RCV-W', quantity: 4, unit_item_cost: 3 }]);
    const refused = await receive(t, seller(), shipment.id, [{ sku: 'RCV-W', quantity: 1 }]);
    assertV1Error(refused, 403, /controlled by an integration; only that integration's token \(scope inventory:self\) may receive/);
    assertV1Error(await receive(t, seller(), shipment.id, [{ sku: 'RCV-W', quantity: 1 }], `/admin/accounts/${seed.accountId}/inbound-shipments/${shipment.id}/receive`), 401);
    const viaAdmin = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/inbound-shipments/${shipment.id}/receive`, { products: [{ sku: 'RCV-W', quantity: 1 }] });
    assertV1Error(viaAdmin, 403, /controlled by an integration/);
    assert.equal(await receipts(shipment.id), 0);

    const byIntegration = await receiveOk(t, seed.inventory.token, shipment.id, [{ sku: 'RCV-W', quantity: 4 }]);
    assert.equal(byIntegration.status, 'RECEIVED');
    assert.equal(byIntegration.receipts[0]!.received_by, `integration ${seed.inventory.installationId}`);
    assert.equal(byIntegration.warehouse.warehouseUniqueId, 'WH-SECOND');
    assert.deepEqual(await counters(t, seed.accountId, 'RCV-W', second), { available: 4, onhand: 4, reserved: 0 });

    // inventory:self sees only its own warehouses' shipments; other accounts see none.
    const onMain = await createShipment(t, seller(), seed.warehouses.main, [{ sku: 'RCV-W', quantity: 1 }]);
    assertV1Error(await receive(t, seed.inventory.token, onMain.id, [{ sku: 'RCV-W', quantity: 1 }]), 404);
    assertV1Error(await receive(t, other.sellerToken, onMain.id, [{ sku: 'RCV-W', quantity: 1 }]), 404);
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${other.accountId}/inbound-shipments/${onMain.id}/receive`, { products: [{ sku: 'RCV-W', quantity: 1 }] }), 404);
    assertV1Error(await admin(t, 'POST', `/admin/accounts/999999/inbound-shipments/${onMain.id}/receive`, { products: [{ sku: 'RCV-W', quantity: 1 }] }), 404);
    // A token without an inventory scope is refused by the route.
    assertV1Error(await receive(t, seed.shipping.token, onMain.id, [{ sku: 'RCV-W', quantity: 1 }]), 403);

    // The operator receives as the seller elsewhere.
    const operator = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/inbound-shipments/${onMain.id}/receive`, { products: [{ sku: 'RCV-W', quantity: 1 }] });
    assert.equal(operator.statusCode, 200, operator.body);
    assert.equal((operator.json() as Shipment).receipts[0]!.received_by, 'operator');
  });

  it('shows what is on the way in the inventory record, before and after receipts', async () => {
    const main = seed.warehouses.main;
    const shipment = await createShipment(t, seller(), main, [{ sku: 'RCV-I', quantity: 8, unit_item_cost: 1 }], {
      expected_delivery_date: '2026-12-01',
      tracking: '1Z-RCV-I',
      carrier: 'UPS',
    });
    const entry = (record: InventoryRecord, warehouseId: number) => record.warehouses.find((w) => w.warehouseId === warehouseId);

    // No stock row yet: the warehouse is shown with nothing available and the shipment on the way.
    const before = await inventoryRecord(t, seller(), 'RCV-I');
    assert.equal(before.totalAvailableQuantity, 0);
    assert.deepEqual(entry(before, main), {
      warehouseId: main,
      warehouseName: 'Main',
      warehouseUniqueId: String(main),
      availableQuantity: 0,
      assembledQuantity: null,
      inventoryLocations: [],
      updatedTs: before.lastInventoryUpdateTs,
      inboundShipments: [
        { inboundShipmentId: shipment.id, status: 'SHIPPED', quantity: 8, receivedQuantity: 0, expectedDeliveryDate: '2026-12-01', tracking: '1Z-RCV-I', carrier: 'UPS' },
      ],
    });
    // An inventory:self token sees only its own warehouse: nothing of this SKU.
    assert.deepEqual((await inventoryRecord(t, seed.inventory.token, 'RCV-I')).warehouses, []);

    tick();
    const since = clock.now().toISOString();
    tick();
    await receiveOk(t, seller(), shipment.id, [{ sku: 'RCV-I', quantity: 3 }]);
    const during = await inventoryRecord(t, seller(), 'RCV-I');
    assert.equal(during.totalAvailableQuantity, 3);
    assert.equal(during.lastInventoryUpdateTs, clock.now().toISOString());
    assert.equal(entry(during, main)!.availableQuantity, 3);
    assert.deepEqual(entry(during, main)!.inboundShipments.map((s) => [s.status, s.quantity, s.receivedQuantity]), [['PARTIALLY_RECEIVED', 8, 3]]);

    // GET /v1/inventory by last update sees the receipt, with the same record.
    const listed = await t.app.inject({ url: `/v1/inventory?lastUpdatedTs=${encodeURIComponent(since)}`, headers: bearer(seller()) });
    assert.equal(listed.statusCode, 200, listed.body);
    const results = (listed.json() as { results: InventoryRecord[] }).results;
    assert.deepEqual(results.find((r) => r.SKU === 'RCV-I'), during);
    // By SKU and by warehouse: the same record.
    const bySku = await t.app.inject({ url: `/v1/inventory?skus=RCV-I`, headers: bearer(seller()) });
    assert.deepEqual((bySku.json() as { results: InventoryRecord[] }).results, [during]);
    const byWarehouse = await t.app.inject({ url: `/v1/inventory?warehouses=${main}&pageLength=100`, headers: bearer(seller()) });
    assert.deepEqual((byWarehouse.json() as { results: InventoryRecord[] }).results.find((r) => r.SKU === 'RCV-I'), during);
    const elsewhere = await t.app.inject({ url: `/v1/inventory?warehouses=${seed.warehouses.second}&pageLength=100`, headers: bearer(seller()) });
    assert.equal((elsewhere.json() as { results: InventoryRecord[] }).results.find((r) => r.SKU === 'RCV-I'), undefined);

    await receiveOk(t, seller(), shipment.id, [{ sku: 'RCV-I', quantity: 5 }]);
    const done = await inventoryRecord(t, seller(), 'RCV-I');
    assert.deepEqual(entry(done, main)!.inboundShipments, []);
    assert.equal(entry(done, main)!.availableQuantity, 8);
  });

  it('shows landed_cost in Products exports', async () => {
    const created = await postExport(t, seller(), { exportType: 'Products' });
    assert.equal(created.statusCode, 200, created.body);
    await runJobs(t);
    const reportId = (created.json() as { reportId: number }).reportId;
    const file = await t.app.inject({ url: `/v1/report/${reportId}/file`, headers: bearer(seller()) });
    assert.equal(file.statusCode, 200, file.body);
    const [header, ...rows] = parse(file.body) as string[][];
    const sku = header!.indexOf('sku');
    const landed = header!.indexOf('landed_cost');
    assert.ok(landed >= 0, 'landed_cost is a column');
    const bySku = new Map(rows.map((r) => [r[sku], r[landed]]));
    assert.equal(bySku.get('RCV-A'), '3.1667');
    assert.equal(bySku.get('RCV-P'), '');
  });
});
