import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createWarehouseVia } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, installAndExchange, seedAccount, type InstalledApp, type SeededAccount } from '../helpers/fixtures.js';
import { INVENTORY_ROUTES, createProducts, reportStock } from './v2-inventory-support.js';

const VALID_BODY = JSON.stringify({ updates: [{ sku: 'X', warehouseUniqueId: 'WH-SECOND', quantity: 1 }], observedTs: '2026-01-01T00:00:00Z' });

function call(t: TestApp, route: (typeof INVENTORY_ROUTES)[number], headers: Record<string, string> = {}) {
  return t.app.inject({
    method: route.method,
    url: route.url,
    headers: route.method === 'POST' ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(route.method === 'POST' ? { payload: VALID_BODY } : {}),
  });
}

describe('v2 inventory: who may call', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let thirdParty: InstalledApp;
  let wrongScope: InstalledApp;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other seller');
    // A warehouse of its own: Main already ships with the seed's shipping integration (one shipper per warehouse).
    const dock = await createWarehouseVia(t, seed.accountId, '3PL dock');
    thirdParty = await installAndExchange(t, seed.accountId, 'THIRD_PARTY_LOGISTICS', ['inventory'], {
      warehouses: [{ warehouseId: dock, warehouseUniqueId: '3PL-DOCK' }],
    });
    wrongScope = await installAndExchange(t, seed.accountId, 'INVENTORY', ['sales:orders'], {
      warehouses: [{ warehouseId: seed.warehouses.channel, warehouseUniqueId: 'WRONG-SCOPE' }],
    });
  });
  after(async () => t.close());

  for (const route of INVENTORY_ROUTES) {
    describe(`${route.method} ${route.url}`, () => {
      it('answers 401 code 16 without a token, or with an unknown one', async () => {
        for (const headers of [{}, bearer('mcs_not-a-real-token')]) {
          const res = await call(t, route, headers);
          assert.equal(res.statusCode, 401);
          assert.equal(res.json().code, 16);
          assert.deepEqual(res.json().details, []);
          assert.match(String(res.headers['www-authenticate']), /Bearer/);
        }
      });

      it('answers 403 code 7 to a seller token, which has the scopes but no integration', async () => {
        const res = await call(t, route, bearer(seed.sellerToken));
        assert.equal(res.statusCode, 403);
        assert.equal(res.json().code, 7);
        assert.match(res.json().message, /inventory or third-party-logistics integration/);
      });

      it('answers 403 to shipping and sales-channel tokens', async () => {
        for (const token of [seed.shipping.token, seed.channel.token]) {
          const res = await call(t, route, bearer(token));
          assert.equal(res.statusCode, 403);
          assert.equal(res.json().code, 7);
        }
      });

      it('answers 403 to an inventory integration without an inventory scope', async () => {
        const res = await call(t, route, bearer(wrongScope.token));
        assert.equal(res.statusCode, 403);
        assert.equal(res.json().code, 7);
        assert.match(res.json().message, /scopes: inventory, inventory:self/);
      });

      it('lets an inventory integration (inventory:self) and a 3PL integration (inventory) in', async () => {
        for (const token of [seed.inventory.token, thirdParty.token]) {
          const res = await call(t, route, bearer(token));
          assert.equal(res.statusCode, 200, res.body);
        }
      });
    });
  }

  it('lists only the mapped warehouses, by the integration\'s own ids', async () => {
    const res = await t.app.inject({ url: '/v2/inventory/warehouses', headers: bearer(seed.inventory.token) });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { warehouses: [{ warehouseUniqueId: 'WH-SECOND', name: 'Second' }] });
    const third = await t.app.inject({ url: '/v2/inventory/warehouses', headers: bearer(thirdParty.token) });
    assert.deepEqual(third.json(), { warehouses: [{ warehouseUniqueId: '3PL-DOCK', name: '3PL dock' }] });
  });

  it('shows another account\'s integration only its own account\'s warehouse', async () => {
    await t.deps.db.db.updateTable('warehouses').set({ name: 'Other second' }).where('id', '=', other.warehouses.second).execute();
    const res = await t.app.inject({ url: '/v2/inventory/warehouses', headers: bearer(other.inventory.token) });
    assert.deepEqual(res.json(), { warehouses: [{ warehouseUniqueId: 'WH-SECOND', name: 'Other second' }] });
  });

  it('documents every route with its tag, summary, description and every status', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    for (const route of INVENTORY_ROUTES) {
      const op = doc.paths[route.url][route.method.toLowerCase()];
      assert.deepEqual(op.tags, ['v2 inventory']);
      assert.ok(op.summary && op.description, `${route.method} ${route.url} needs a summary and description`);
      for (const status of ['200', '400', '401', '403', '429', '500']) assert.ok(op.responses[status], `${route.url} ${status}`);
      const success = op.responses['200'];
      assert.notEqual(success.description, 'Default Response');
      assert.ok(success.content['application/json'].example, `${route.url} 200 has an example`);
    }
    const status = doc.paths['/v2/inventory/status'].get.description as string;
    assert.match(status, /warehouse_mappings/);
    assert.match(status, /inventory_freshness/);
  });
});

describe('GET /v2/inventory/status', () => {
  const clock = manualClock(new Date('2026-03-01T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    await createProducts(t, seed.accountId, ['S-1']);
  });
  after(async () => t.close());

  const status = async (token: string) => {
    const res = await t.app.inject({ url: '/v2/inventory/status', headers: bearer(token) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().checks as { name: string; state: string; message: string; source: string; warehouseUniqueId: string }[];
  };

  it('warns that nothing was reported yet, while the mapping check passes', async () => {
    const checks = await status(seed.inventory.token);
    assert.equal(checks.length, 2);
    assert.deepEqual(checks[0], {
      name: 'warehouse_mappings',
      state: 'CHECK_STATE_PASS',
      message: '1 warehouse(s) mapped: WH-SECOND',
      source: 'CHECK_SOURCE_SERVICE',
      warehouseUniqueId: '',
    });
    assert.equal(checks[1]!.name, 'inventory_freshness');
    assert.equal(checks[1]!.state, 'CHECK_STATE_WARN');
    assert.equal(checks[1]!.source, 'CHECK_SOURCE_SERVICE');
    assert.equal(checks[1]!.warehouseUniqueId, 'WH-SECOND');
    assert.match(checks[1]!.message, /no inventory reported yet/);
  });

  it('passes within 24 hours of a report and warns after', async () => {
    await reportStock(t, seed.inventory.token, 'WH-SECOND', [['S-1', 5]]);
    clock.advance(23 * 3_600_000);
    let fresh = (await status(seed.inventory.token))[1]!;
    assert.equal(fresh.state, 'CHECK_STATE_PASS');
    assert.match(fresh.message, /2026-03-01T12:00:00.000Z \(23 h ago\)/);
    clock.advance(2 * 3_600_000);
    fresh = (await status(seed.inventory.token))[1]!;
    assert.equal(fresh.state, 'CHECK_STATE_WARN');
    assert.match(fresh.message, /more than 24 h ago/);
  });

  it('fails the mapping check when the integration has no warehouse mapped', async () => {
    await t.deps.db.db.deleteFrom('warehouse_mappings').where('installation_id', '=', seed.inventory.installationId).execute();
    const checks = await status(seed.inventory.token);
    assert.equal(checks.length, 1);
    assert.equal(checks[0]!.name, 'warehouse_mappings');
    assert.equal(checks[0]!.state, 'CHECK_STATE_FAIL');
    const warehouses = await t.app.inject({ url: '/v2/inventory/warehouses', headers: bearer(seed.inventory.token) });
    assert.deepEqual(warehouses.json(), { warehouses: [] });
    const list = await t.app.inject({ url: '/v2/inventory', headers: bearer(seed.inventory.token) });
    assert.deepEqual(list.json(), { items: [], nextCursor: '' });
  });
});
