import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertV1Error } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { counters, createShipment, landedCost } from './v1-inbound-receive-helpers.js';

/**
 * POST /v1/inbound-shipment with status RECEIVED or PARTIALLY_RECEIVED: the units already arrived go through
 * the same receipt as POST /v1/inbound-shipment/{id}/receive (stock, shipping share, landed cost, warehouse
 * rule), in the create's transaction.
 */
describe('v1 inbound shipments created already received', () => {
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
  });
  after(async () => t.close());
  const seller = () => seed.sellerToken;

  it('creates shipments already received, through the same receipt', async () => {
    const main = seed.warehouses.main;
    const received = await createShipment(t, seller(), main, [{ sku: 'RCV-C1', quantity: 4, unit_item_cost: 2 }], { status: 'RECEIVED', shipping_cost: 2 });
    assert.equal(received.status, 'RECEIVED');
    assert.equal(received.inbound_shipment_products[0]!.received_quantity, 4);
    assert.deepEqual(received.receipts.map((r) => r.products.map((p) => [p.quantity, p.shipping_cost])), [[[4, 2]]]);
    assert.deepEqual(await counters(t, seed.accountId, 'RCV-C1', main), { available: 4, onhand: 4, reserved: 0 });
    assert.equal((await landedCost(t, seed.accountId, 'RCV-C1')).landed_cost, '2.5');

    const partial = await createShipment(
      t,
      seller(),
      main,
      [
        { sku: 'RCV-C1', quantity: 4, unit_item_cost: 2, received_quantity: 1 },
        { sku: 'RCV-C2', quantity: 2 },
      ],
      { status: 'PARTIALLY_RECEIVED' },
    );
    assert.equal(partial.status, 'PARTIALLY_RECEIVED');
    assert.deepEqual(partial.inbound_shipment_products.map((l) => l.received_quantity), [1, 0]);
    assert.equal((await counters(t, seed.accountId, 'RCV-C1', main)).onhand, 5);

    const base = {
      vendor_name: 'Acme Ceramics',
      destination_warehouse_id: main,
      purchase_order_number: 'PO-BAD',
      create_new_products: true,
    };
    const create = (body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/v1/inbound-shipment', headers: bearer(seller()), payload: { ...base, ...body } });
    assertV1Error(await create({ status: 'RECEIVED', inbound_shipment_products: [{ sku: 'RCV-C3', quantity: 3, received_quantity: 2 }] }), 400, /a RECEIVED shipment has every unit received: send 3/);
    assertV1Error(await create({ status: 'PARTIALLY_RECEIVED', inbound_shipment_products: [{ sku: 'RCV-C3', quantity: 3 }] }), 400, /needs received_quantity of at least 1/);
    assertV1Error(await create({ status: 'PARTIALLY_RECEIVED', inbound_shipment_products: [{ sku: 'RCV-C3', quantity: 3, received_quantity: 3 }] }), 400, /send status RECEIVED/);
    assertV1Error(await create({ status: 'PENDING', inbound_shipment_products: [{ sku: 'RCV-C3', quantity: 3, received_quantity: 1 }] }), 400, /nothing received yet/);
    assertV1Error(await create({ status: 'PARTIALLY_RECEIVED', inbound_shipment_products: [{ sku: 'RCV-C3', quantity: 3, received_quantity: 4 }] }), 400, /more than the 3 units sent/);
    assertV1Error(
      await create({ status: 'RECEIVED', destination_warehouse_id: seed.warehouses.second, inbound_shipment_products: [{ sku: 'RCV-C3', quantity: 3 }] }),
      403,
      /controlled by an integration/,
    );
    // None of the refused creates left anything behind.
    const leftovers = await t.deps.db.db.selectFrom('products').select('id').where('account_id', '=', seed.accountId).where('sku', '=', 'RCV-C3').execute();
    assert.deepEqual(leftovers, []);
  });

  it('lets an integration create a RECEIVED shipment for its own warehouse', async () => {
    const second = seed.warehouses.second;
    const shipment = await createShipment(t, seed.inventory.token, second, [{ sku: 'RCV-C4', quantity: 2, unit_item_cost: '0.5' }], { status: 'RECEIVED' });
    assert.equal(shipment.status, 'RECEIVED');
    assert.equal(shipment.receipts[0]!.received_by, `integration ${seed.inventory.installationId}`);
    assert.deepEqual(await counters(t, seed.accountId, 'RCV-C4', second), { available: 2, onhand: 2, reserved: 0 });
  });
});
