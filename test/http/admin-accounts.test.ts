import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { admin, assertV1Error, countRows, createAccountVia, createWarehouseVia, registerAppVia } from '../helpers/admin.js';

describe('operator API authentication', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  it('answers 401 with the v1 body without a token, with a wrong one, and with a partner token', async () => {
    const seed: SeededAccount = await seedAccount(t);
    for (const headers of [{}, { authorization: 'Bearer wrong-admin-token-0123456789' }, bearer(seed.sellerToken)]) {
      const res = await t.app.inject({ method: 'GET', url: '/admin/accounts', headers });
      assertV1Error(res, 401, /operator token/);
      assert.match(String(res.headers['www-authenticate']), /^Bearer/);
    }
    const post = await t.app.inject({ method: 'POST', url: '/admin/accounts', payload: { name: 'Intruder' } });
    assertV1Error(post, 401);
    const names = ((await admin(t, 'GET', '/admin/accounts')).json() as { results: { name: string }[] }).results.map((a) => a.name);
    assert.ok(!names.includes('Intruder'), 'a rejected call creates nothing');
  });

  it('accepts the admin token with or without the Bearer word', async () => {
    const res = await admin(t, 'GET', '/admin/accounts', undefined, { authorization: `bearer ${'test-admin-token-0123456789abcdef'}` });
    assert.equal(res.statusCode, 200);
    const bare = await admin(t, 'GET', '/admin/accounts', undefined, { authorization: 'test-admin-token-0123456789abcdef' });
    assert.equal(bare.statusCode, 200);
  });

  it('without ADMIN_TOKEN in development answers loopback callers only', async () => {
    const dev = await createTestApp({ config: { adminToken: null } });
    try {
      const local = await dev.app.inject({ method: 'POST', url: '/admin/accounts', payload: { name: 'Local' } });
      assert.equal(local.statusCode, 201, local.body);
      const remote = await dev.app.inject({
        method: 'POST',
        url: '/admin/accounts',
        payload: { name: 'Remote' },
        remoteAddress: '10.0.0.5',
      });
      assertV1Error(remote, 401, /ADMIN_TOKEN/);
      // A reverse proxy on the same host connects from loopback but relays someone else.
      for (const header of ['x-forwarded-for', 'x-real-ip', 'forwarded']) {
        const proxied = await dev.app.inject({
          method: 'POST',
          url: '/admin/accounts',
          payload: { name: 'Proxied' },
          headers: { [header]: header === 'forwarded' ? 'for=203.0.113.9' : '203.0.113.9' },
        });
        assertV1Error(proxied, 401, /ADMIN_TOKEN/);
      }
      const list = await dev.app.inject({ url: '/admin/accounts' });
      assert.deepEqual(
        (list.json() as { results: { name: string }[] }).results.map((a) => a.name),
        ['Local'],
      );
    } finally {
      await dev.close();
    }
  });

  it('without ADMIN_TOKEN in production refuses even loopback callers', async () => {
    const prod = await createTestApp({ config: { adminToken: null, production: true } });
    try {
      assertV1Error(await prod.app.inject({ url: '/admin/accounts' }), 401);
    } finally {
      await prod.close();
    }
  });
});

describe('operator API: accounts', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  it('creates, lists and gets accounts', async () => {
    const res = await admin(t, 'POST', '/admin/accounts', { name: 'Acme Outdoor' });
    assert.equal(res.statusCode, 201);
    const created = res.json() as { accountId: number; name: string };
    assert.deepEqual(Object.keys(created).sort(), ['accountId', 'name']);
    assert.equal(created.name, 'Acme Outdoor');
    assert.ok(Number.isInteger(created.accountId));

    const other = await createAccountVia(t, 'Second Seller');
    const list = await admin(t, 'GET', '/admin/accounts');
    assert.equal(list.statusCode, 200);
    assert.deepEqual(list.json(), {
      results: [
        { accountId: created.accountId, name: 'Acme Outdoor' },
        { accountId: other, name: 'Second Seller' },
      ],
    });
    const one = await admin(t, 'GET', `/admin/accounts/${created.accountId}`);
    assert.equal(one.statusCode, 200);
    // GET shows the account with its settings (resolutions §10), the defaults until the operator changes them.
    assert.deepEqual(one.json(), { ...created, currencyCode: 'USD', timeZone: 'UTC', personalDataRetentionDays: 30 });
  });

  it('answers 404 for an unknown account and 400 for an id that is not one', async () => {
    assertV1Error(await admin(t, 'GET', '/admin/accounts/999999'), 404, /account 999999 not found/);
    assertV1Error(await admin(t, 'GET', '/admin/accounts/abc'), 400, /accountId/);
    assertV1Error(await admin(t, 'GET', '/admin/accounts/0'), 400, /accountId/);
    assertV1Error(await admin(t, 'GET', '/admin/accounts/99999999999'), 400, /accountId/);
  });

  it('rejects bad account bodies with 400 and creates nothing', async () => {
    const before = await countRows(t, 'accounts');
    assertV1Error(await admin(t, 'POST', '/admin/accounts', {}), 400, /name: is required/);
    assertV1Error(await admin(t, 'POST', '/admin/accounts', { name: 5 }), 400, /name: must be string/);
    assertV1Error(await admin(t, 'POST', '/admin/accounts', { name: '   ' }), 400, /name: must not be blank/);
    assertV1Error(await admin(t, 'POST', '/admin/accounts', { name: '' }), 400, /name/);
    assertV1Error(await admin(t, 'POST', '/admin/accounts', { name: 'X', plan: 'gold' }), 400, /unknown field "plan"/);
    assertV1Error(
      await admin(t, 'POST', '/admin/accounts', '{"name": "X"', { 'content-type': 'application/json' }),
      400,
      /malformed JSON/,
    );
    assertV1Error(await admin(t, 'POST', '/admin/accounts', '["X"]', { 'content-type': 'application/json' }), 400);
    assert.equal(await countRows(t, 'accounts'), before);
  });
});

describe('operator API: warehouses', () => {
  let t: TestApp;
  let accountId: number;
  let otherAccount: number;
  before(async () => {
    t = await createTestApp();
    accountId = await createAccountVia(t, 'Seller');
    otherAccount = await createAccountVia(t, 'Other');
  });
  after(async () => t.close());

  it('creates warehouses, channel-fulfilled or not', async () => {
    const plain = await admin(t, 'POST', `/admin/accounts/${accountId}/warehouses`, { name: 'Main' });
    assert.equal(plain.statusCode, 201);
    const main = plain.json() as { warehouseId: number };
    assert.deepEqual(plain.json(), { warehouseId: main.warehouseId, name: 'Main', channelFulfilled: false });
    const channel = await admin(t, 'POST', `/admin/accounts/${accountId}/warehouses`, {
      name: 'Marketplace network',
      channelFulfilled: true,
    });
    assert.equal(channel.statusCode, 201);
    assert.equal((channel.json() as { channelFulfilled: boolean }).channelFulfilled, true);
  });

  it('answers 409 for a duplicate name in the same account, and allows it in another', async () => {
    await createWarehouseVia(t, accountId, 'Dup');
    const before = await countRows(t, 'warehouses');
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${accountId}/warehouses`, { name: 'Dup' }), 409, /"Dup" already exists/);
    assert.equal(await countRows(t, 'warehouses'), before);
    await createWarehouseVia(t, otherAccount, 'Dup');
  });

  it('answers 404 for an unknown account and 400 for bad bodies, creating nothing', async () => {
    const before = await countRows(t, 'warehouses');
    assertV1Error(await admin(t, 'POST', '/admin/accounts/999999/warehouses', { name: 'Nowhere' }), 404, /account 999999/);
    assertV1Error(await admin(t, 'GET', '/admin/accounts/999999/warehouses'), 404);
    const url = `/admin/accounts/${accountId}/warehouses`;
    assertV1Error(await admin(t, 'POST', url, { name: 'X', channelFulfilled: 'yes' }), 400, /channelFulfilled: must be boolean/);
    assertV1Error(await admin(t, 'POST', url, { channelFulfilled: true }), 400, /name: is required/);
    assertV1Error(await admin(t, 'POST', url, { name: ' ' }), 400, /must not be blank/);
    assertV1Error(await admin(t, 'POST', url, '{oops', { 'content-type': 'application/json' }), 400, /malformed JSON/);
    assert.equal(await countRows(t, 'warehouses'), before);
  });

  it('lists warehouses with the installation that controls their stock', async () => {
    const account = await createAccountVia(t, 'Lister');
    const main = await createWarehouseVia(t, account, 'Main');
    const east = await createWarehouseVia(t, account, 'East');
    const inventoryApp = await registerAppVia(t, 'INVENTORY', ['inventory:self']);
    const shippingApp = await registerAppVia(t, 'SHIPPING', ['sales:orders:fulfillment:self']);
    const inv = await admin(t, 'POST', `/admin/accounts/${account}/installations`, {
      appId: inventoryApp.appId,
      warehouses: [{ warehouseId: east, warehouseUniqueId: 'E1' }],
    });
    assert.equal(inv.statusCode, 201, inv.body);
    const ship = await admin(t, 'POST', `/admin/accounts/${account}/installations`, {
      appId: shippingApp.appId,
      warehouses: [{ warehouseId: main, warehouseUniqueId: 'M1' }],
    });
    assert.equal(ship.statusCode, 201, ship.body);
    const list = await admin(t, 'GET', `/admin/accounts/${account}/warehouses`);
    assert.equal(list.statusCode, 200);
    assert.deepEqual(list.json(), {
      results: [
        { warehouseId: main, name: 'Main', channelFulfilled: false, controlledByInstallationId: null },
        {
          warehouseId: east,
          name: 'East',
          channelFulfilled: false,
          controlledByInstallationId: (inv.json() as { installationId: number }).installationId,
        },
      ],
    });
    // Another account's list shows none of these.
    const others = (await admin(t, 'GET', `/admin/accounts/${otherAccount}/warehouses`)).json() as { results: { warehouseId: number }[] };
    assert.ok(others.results.every((w) => w.warehouseId !== main && w.warehouseId !== east));
  });
});
