import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { admin } from '../helpers/admin.js';
import { REDIRECT_URI } from '../helpers/fixtures.js';

/**
 * The whole onboarding and inventory flow through the front door only: the operator sets up a seller
 * and registers partner apps, the Install button hands each partner a code, the partners exchange it at
 * POST /v1/token, a 3PL reports stock through v2, the seller adjusts stock through v1, and every party
 * reads what the others wrote, each within its own view.
 */
describe('scenario: operator onboards a seller, partners connect and share inventory', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  async function created<T>(method: 'POST' | 'GET', url: string, payload?: unknown): Promise<T> {
    const res = await admin(t, method, url, payload);
    assert.ok(res.statusCode === 200 || res.statusCode === 201, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as T;
  }

  async function exchange(clientId: string, clientSecret: string, redirectUrl: string): Promise<string> {
    // The partner's redirect endpoint receives ?client_id=…&code=… and posts the code back.
    const url = new URL(redirectUrl);
    assert.equal(url.searchParams.get('client_id'), clientId);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}\n`).toString('base64')}`,
      },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        authorization_code: url.searchParams.get('code')!,
        redirect_uri: REDIRECT_URI,
      }).toString(),
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    return (res.json() as { access_token: string }).access_token;
  }

  it('follows stock from a 3PL report to the seller and back', async () => {
    const { accountId } = await created<{ accountId: number }>('POST', '/admin/accounts', { name: 'Acme Goods' });
    const dock = await created<{ warehouseId: number }>('POST', `/admin/accounts/${accountId}/warehouses`, { name: 'Dock' });
    const west = await created<{ warehouseId: number }>('POST', `/admin/accounts/${accountId}/warehouses`, { name: '3PL West' });

    const tpl = await created<{ appId: number; clientId: string; clientSecret: string }>('POST', '/admin/apps', {
      name: 'FastShip 3PL',
      contactEmail: 'dev@fastship.example',
      redirectUri: REDIRECT_URI,
      kind: 'THIRD_PARTY_LOGISTICS',
      scopes: ['inventory:self', 'sales:orders:fulfillment:self'],
    });
    const installed = await created<{ integrationId: number; redirectUrl: string }>(
      'POST',
      `/admin/accounts/${accountId}/installations`,
      { appId: tpl.appId, warehouses: [{ warehouseId: west.warehouseId, warehouseUniqueId: 'FS-WEST-1' }] },
    );
    const tplToken = await exchange(tpl.clientId, tpl.clientSecret, installed.redirectUrl);
    const seller = await created<{ access_token: string }>('POST', `/admin/accounts/${accountId}/tokens`, {
      scopes: ['legacy', 'inventory'],
    });
    const sellerAuth = { authorization: seller.access_token };
    const tplAuth = { authorization: `Bearer ${tplToken}` };

    // The seller creates the product with stock at the dock (v1 document shape, bare token header).
    const created1 = await t.app.inject({
      method: 'POST',
      url: '/v1/inventory',
      headers: sellerAuth,
      payload: {
        warehouseName: 'Dock',
        items: [{ SKU: 'MUG-01', standardProductId: '012345678905', standardProductIdType: 'UPC', quantity: 7 }],
      },
    });
    assert.equal(created1.statusCode, 200, created1.body);
    assert.equal(created1.json().results[0].success, true);

    // The 3PL sees its own warehouse only, and reports on-hand stock for the SKU there.
    const warehouses = await t.app.inject({ url: '/v2/inventory/warehouses', headers: tplAuth });
    assert.deepEqual(warehouses.json(), { warehouses: [{ warehouseUniqueId: 'FS-WEST-1', name: '3PL West' }] });
    const report = await t.app.inject({
      method: 'POST',
      url: '/v2/inventory',
      headers: tplAuth,
      payload: { observedTs: '2026-11-21T10:00:00Z', updates: [{ sku: 'MUG-01', warehouseUniqueId: 'FS-WEST-1', quantity: '30', binLocation: 'A-3' }] },
    });
    assert.equal(report.statusCode, 200, report.body);
    assert.equal(report.json().results[0].success, true);

    // The seller may not overwrite stock the 3PL controls, and gets told why.
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/v1/inventory',
      headers: sellerAuth,
      payload: { validAsOf: '2026-11-21T11:00:00Z', products: [{ SKU: 'MUG-01', warehouseId: west.warehouseId, quantity: 0 }] },
    });
    assert.equal(blocked.json().results[0].success, false);
    assert.match(blocked.json().results[0].errorMessage, /controlled/i);

    // The seller's view: both warehouses, the total across them, the 3PL's bin.
    const record = await t.app.inject({ url: '/v1/inventory/MUG-01', headers: sellerAuth });
    assert.equal(record.statusCode, 200, record.body);
    const body = record.json();
    assert.equal(body.totalAvailableQuantity, 37);
    const byName = Object.fromEntries(body.warehouses.map((w: { warehouseName: string }) => [w.warehouseName, w]));
    assert.equal(byName['Dock'].availableQuantity, 7);
    assert.equal(byName['3PL West'].availableQuantity, 30);
    assert.deepEqual(byName['3PL West'].inventoryLocations, [{ binLocation: 'A-3', quantity: 30 }]);

    // An older 3PL observation arriving late is discarded as stale and changes nothing.
    const late = await t.app.inject({
      method: 'POST',
      url: '/v2/inventory',
      headers: tplAuth,
      payload: { observedTs: '2026-11-21T09:00:00Z', updates: [{ sku: 'MUG-01', warehouseUniqueId: 'FS-WEST-1', quantity: 2 }] },
    });
    assert.equal(late.json().results[0].stale, true);

    // The 3PL's listing reads back exactly its own stock; quantity is an int32, so a JSON number.
    const listing = await t.app.inject({ url: '/v2/inventory?pageSize=10', headers: tplAuth });
    assert.deepEqual(
      listing.json().items.map((i: Record<string, unknown>) => [i.sku, i.warehouseUniqueId, i.quantity]),
      [['MUG-01', 'FS-WEST-1', 30]],
    );
    assert.equal(listing.json().nextCursor, '');

    // The seller's dock sells two units (a delta), visible in the simple total at once.
    await t.app.inject({
      method: 'POST',
      url: '/v1/inventory',
      headers: sellerAuth,
      payload: { products: [{ SKU: 'MUG-01', warehouseId: dock.warehouseId, delta_quantity: -2 }] },
    });
    const simple = await t.app.inject({ url: '/v1/simpleInventory/MUG-01', headers: sellerAuth });
    assert.equal(simple.json().totalAvailableQuantity, 35);

    // The 3PL (inventory:self) reads the same SKU narrowed to its own warehouse, in its own namespace.
    const narrowed = (await t.app.inject({ url: '/v1/inventory/MUG-01', headers: tplAuth })).json();
    assert.equal(narrowed.totalAvailableQuantity, 30);
    assert.deepEqual(
      narrowed.warehouses.map((w: { warehouseUniqueId: string }) => w.warehouseUniqueId),
      ['FS-WEST-1'],
    );

    // The integration's health as the service sees it.
    const status = await t.app.inject({ url: '/v2/inventory/status', headers: tplAuth });
    const states = status.json().checks.map((c: { state: string }) => c.state);
    assert.ok(states.every((s: string) => s === 'CHECK_STATE_PASS'), JSON.stringify(status.json()));

    // Revoking the installation cuts the 3PL off at once; the seller keeps working.
    await created('POST', `/admin/accounts/${accountId}/installations/${installed.integrationId}/revoke`);
    const cut = await t.app.inject({ url: '/v2/inventory', headers: tplAuth });
    assert.equal(cut.statusCode, 401);
    assert.equal(cut.json().code, 16);
    assert.equal((await t.app.inject({ url: '/v1/inventory/MUG-01', headers: sellerAuth })).statusCode, 200);
  });
});
