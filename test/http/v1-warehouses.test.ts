import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { revokeToken } from '../../src/domain/accounts/tokens.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { assertV1Error } from './v1-inventory-helpers.js';

interface WarehouseEntry {
  warehouseId: number;
  warehouseUniqueId: string | null;
  name: string;
  canUpdateInventory: boolean;
}

describe('GET /v1/warehouses', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other seller');
  });
  after(async () => t.close());

  const list = async (token: string) => {
    const res = await t.app.inject({ url: '/v1/warehouses', headers: { authorization: token } });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { results: WarehouseEntry[] }).results;
  };

  it('lists every warehouse of the account for a seller token, with no mapping of its own', async () => {
    const results = await list(seed.sellerToken);
    assert.deepEqual(results, [
      { warehouseId: seed.warehouses.main, warehouseUniqueId: null, name: 'Main', canUpdateInventory: true },
      // `second` is controlled by the INVENTORY integration: the seller may not change its stock.
      { warehouseId: seed.warehouses.second, warehouseUniqueId: null, name: 'Second', canUpdateInventory: false },
      { warehouseId: seed.warehouses.channel, warehouseUniqueId: null, name: 'Channel network', canUpdateInventory: true },
    ]);
  });

  it("shows the inventory integration its own ids and lets it update only its own warehouse", async () => {
    const results = await list(`Bearer ${seed.inventory.token}`);
    assert.deepEqual(
      results.map((w) => [w.warehouseId, w.warehouseUniqueId, w.canUpdateInventory]),
      [
        // inventory:self writes only its mapped warehouses.
        [seed.warehouses.main, null, false],
        [seed.warehouses.second, 'WH-SECOND', true],
        [seed.warehouses.channel, null, false],
      ],
    );
  });

  it('shows a shipping integration its mapping; a shipping mapping controls no stock', async () => {
    const results = await list(seed.shipping.token);
    const main = results.find((w) => w.warehouseId === seed.warehouses.main)!;
    assert.equal(main.warehouseUniqueId, 'SHIP-MAIN');
    assert.equal(main.canUpdateInventory, true);
    assert.equal(results.find((w) => w.warehouseId === seed.warehouses.second)!.canUpdateInventory, false);
  });

  it("never shows another account's warehouses", async () => {
    const ids = (await list(other.sellerToken)).map((w) => w.warehouseId);
    assert.deepEqual(ids, [other.warehouses.main, other.warehouses.second, other.warehouses.channel]);
    assert.ok(!ids.includes(seed.warehouses.main));
  });

  it('answers 401 with the v1 body for a missing, invalid or revoked token', async () => {
    assertV1Error(await t.app.inject({ url: '/v1/warehouses' }), 401);
    assertV1Error(await t.app.inject({ url: '/v1/warehouses', headers: bearer('mcs_not-a-real-token') }), 401);
    const extra = await seedAccount(t, 'Revoked');
    const principal = await t.app.inject({ url: '/v1/warehouses', headers: bearer(extra.sellerToken) });
    assert.equal(principal.statusCode, 200);
    const tokenRow = await t.deps.db.db
      .selectFrom('access_tokens')
      .select('id')
      .where('account_id', '=', extra.accountId)
      .where('kind', '=', 'SELLER')
      .executeTakeFirstOrThrow();
    await revokeToken(t.deps.db.db, extra.accountId, tokenRow.id, new Date());
    assertV1Error(await t.app.inject({ url: '/v1/warehouses', headers: bearer(extra.sellerToken) }), 401);
  });
});
