import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { revokeToken } from '../../src/domain/accounts/tokens.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { assertV1Error, getJson, postInventory, setStock } from './v1-inventory-helpers.js';

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T10:05:00.000Z';
const T2 = '2026-03-01T10:10:00.000Z';

describe('GET /v1/inventory/{SKU} and GET /v1/simpleInventory/{SKU}', () => {
  const clock = manualClock(new Date(T0));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other seller');
    // Main: 12 on hand in bin A-01 (document shape creates the SKU with its identifiers).
    const created = await postInventory(t, seed.sellerToken, {
      pulled_ts: '2026-03-01T09:59:00Z',
      warehouseName: 'Main',
      items: [{ SKU: 'MUG-RED', standardProductId: '012345678905', standardProductIdType: 'UPC', onhand_quantity: 12 }],
    });
    assert.equal(created.statusCode, 200, created.body);
    await setStock(t, seed.sellerToken, [{ SKU: 'MUG-RED', warehouseId: seed.warehouses.main, binLocation: 'A-01', onhand_quantity: 12 }]);
    clock.set(new Date(T1));
    // Second is the inventory integration's warehouse, named in its own namespace.
    const own = await postInventory(t, seed.inventory.token, {
      warehouseName: 'WH-SECOND',
      items: [{ SKU: 'MUG-RED', standardProductId: '012345678905', standardProductIdType: 'UPC', quantity: 4 }],
    });
    assert.equal(own.json().results[0].success, true, own.body);
    clock.set(new Date(T2));
    await setStock(t, seed.sellerToken, [{ SKU: 'MUG-RED', warehouseId: seed.warehouses.channel, quantity: 3 }]);
    await setStock(t, other.sellerToken, [{ SKU: 'OTHER-ONLY', warehouseId: other.warehouses.main, quantity: 7 }]);
  });
  after(async () => t.close());

  it('returns the detailed record of document 2.3 for a seller token', async () => {
    const { status, body } = await getJson(t, seed.sellerToken, '/v1/inventory/MUG-RED');
    assert.equal(status, 200);
    assert.deepEqual(body, {
      SKU: 'MUG-RED',
      active: true,
      standardProductId: '012345678905',
      standardProductIdType: 'UPC',
      totalAvailableQuantity: 19,
      warehouses: [
        {
          warehouseId: seed.warehouses.main,
          warehouseName: 'Main',
          warehouseUniqueId: String(seed.warehouses.main),
          availableQuantity: 12,
          assembledQuantity: null,
          inventoryLocations: [{ binLocation: 'A-01', quantity: 12 }],
          updatedTs: T0,
          inboundShipments: [],
        },
        {
          warehouseId: seed.warehouses.second,
          warehouseName: 'Second',
          warehouseUniqueId: String(seed.warehouses.second),
          availableQuantity: 4,
          assembledQuantity: null,
          inventoryLocations: [],
          updatedTs: T1,
          inboundShipments: [],
        },
        {
          warehouseId: seed.warehouses.channel,
          warehouseName: 'Channel network',
          warehouseUniqueId: String(seed.warehouses.channel),
          availableQuantity: 3,
          assembledQuantity: null,
          inventoryLocations: [],
          updatedTs: T2,
          inboundShipments: [],
        },
      ],
      lastInventoryUpdateTs: T2,
    });
  });

  it('narrows an inventory:self token to its mapped warehouses, in its own namespace', async () => {
    const { status, body } = await getJson(t, seed.inventory.token, '/v1/inventory/MUG-RED');
    assert.equal(status, 200);
    assert.equal(body.totalAvailableQuantity, 4);
    assert.deepEqual(
      (body.warehouses as { warehouseId: number; warehouseUniqueId: string }[]).map((w) => [w.warehouseId, w.warehouseUniqueId]),
      [[seed.warehouses.second, 'WH-SECOND']],
    );
    // The newest change among the warehouses it may see, not the account-wide one.
    assert.equal(body.lastInventoryUpdateTs, T1);

    const simple = await getJson(t, seed.inventory.token, '/v1/simpleInventory/MUG-RED');
    assert.equal(simple.body.totalAvailableQuantity, 4);
    assert.equal(simple.body.lastInventoryUpdateTs, T1);
  });

  it('returns the simple record: the total across warehouses', async () => {
    const { status, body } = await getJson(t, seed.sellerToken, '/v1/simpleInventory/MUG-RED');
    assert.equal(status, 200);
    assert.deepEqual(body, {
      SKU: 'MUG-RED',
      standardProductId: '012345678905',
      active: true,
      standardProductIdType: 'UPC',
      totalAvailableQuantity: 19,
      lastInventoryUpdateTs: T2,
    });
  });

  it('serves the simple record to a token with legacy, inventory or inventory:self', async () => {
    const { status, body } = await getJson(t, seed.sellerToken, '/v1/simpleInventory/MUG-RED');
    assert.equal(status, 200);
    assert.equal(body.totalAvailableQuantity, 19);
  });

  it('answers 403 on both records for a token without legacy, inventory or inventory:self (resolutions §7)', async () => {
    for (const token of [seed.shipping.token, seed.channel.token]) {
      for (const url of ['/v1/inventory/MUG-RED', '/v1/simpleInventory/MUG-RED']) {
        const res = await t.app.inject({ url, headers: bearer(token) });
        assertV1Error(res, 403, /legacy, inventory, inventory:self/);
      }
    }
  });

  it("answers 404 for an unknown SKU, another account's SKU, and a SKU in another case", async () => {
    for (const url of [
      '/v1/inventory/NO-SUCH',
      '/v1/inventory/OTHER-ONLY',
      '/v1/inventory/mug-red',
      '/v1/simpleInventory/NO-SUCH',
      '/v1/simpleInventory/OTHER-ONLY',
    ]) {
      const res = await t.app.inject({ url, headers: bearer(seed.sellerToken) });
      assertV1Error(res, 404, /not found/);
    }
    // The other account does see its own SKU.
    assert.equal((await getJson(t, other.sellerToken, '/v1/simpleInventory/OTHER-ONLY')).body.totalAvailableQuantity, 7);
  });

  it('decodes URL-encoded SKUs', async () => {
    await setStock(t, seed.sellerToken, [{ SKU: 'A B/1', warehouseId: seed.warehouses.main, quantity: 2 }]);
    const { status, body } = await getJson(t, seed.sellerToken, '/v1/simpleInventory/A%20B%2F1');
    assert.equal(status, 200);
    assert.equal(body.SKU, 'A B/1');
    assert.equal(body.standardProductId, null);
  });

  it('answers 401 with the v1 body for a missing, invalid or revoked token', async () => {
    for (const url of ['/v1/inventory/MUG-RED', '/v1/simpleInventory/MUG-RED']) {
      assertV1Error(await t.app.inject({ url }), 401);
      assertV1Error(await t.app.inject({ url, headers: bearer('mcs_invalid') }), 401);
      assertV1Error(await t.app.inject({ url, headers: { authorization: 'Bearer' } }), 401);
    }
    const victim = await seedAccount(t, 'Revoked');
    const row = await t.deps.db.db
      .selectFrom('access_tokens')
      .select('id')
      .where('account_id', '=', victim.accountId)
      .where('kind', '=', 'SELLER')
      .executeTakeFirstOrThrow();
    await revokeToken(t.deps.db.db, victim.accountId, row.id, clock.now());
    for (const url of ['/v1/inventory/MUG-RED', '/v1/simpleInventory/MUG-RED']) {
      assertV1Error(await t.app.inject({ url, headers: bearer(victim.sellerToken) }), 401);
    }
  });
});
