import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { REDIRECT_URI } from '../helpers/fixtures.js';
import {
  admin,
  assertV1Error,
  countRows,
  createAccountVia,
  createWarehouseVia,
  exchangeCode,
  registerAppVia,
  tokenAccepted,
  type RegisteredApp,
} from '../helpers/admin.js';

interface Installed {
  installationId: number;
  storefrontId?: number;
  integrationId?: number;
  code: string;
  redirectUrl: string;
}

describe('operator API: installations', () => {
  let t: TestApp;
  let accountId: number;
  let otherAccount: number;
  let main: number;
  let east: number;
  let west: number;
  let foreignWarehouse: number;
  let channelApp: RegisteredApp;
  let inventoryApp: RegisteredApp;
  let shippingApp: RegisteredApp;

  before(async () => {
    t = await createTestApp();
    accountId = await createAccountVia(t, 'Seller');
    otherAccount = await createAccountVia(t, 'Other seller');
    main = await createWarehouseVia(t, accountId, 'Main');
    east = await createWarehouseVia(t, accountId, 'East');
    west = await createWarehouseVia(t, accountId, 'West');
    foreignWarehouse = await createWarehouseVia(t, otherAccount, 'Theirs');
    channelApp = await registerAppVia(t, 'SALES_CHANNEL', ['listing:self', 'sales:orders:self'], 'Amazon');
    inventoryApp = await registerAppVia(t, 'INVENTORY', ['inventory:self']);
    shippingApp = await registerAppVia(t, 'SHIPPING', ['sales:orders:fulfillment:self']);
  });
  after(async () => t.close());

  const install = (body: unknown, account = accountId) => admin(t, 'POST', `/admin/accounts/${account}/installations`, body);

  it('installs a sales channel as a storefront whose code exchanges for a token', async () => {
    const res = await install({ appId: channelApp.appId, storefrontName: 'Shop One' });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json() as Installed;
    assert.deepEqual(Object.keys(body).sort(), ['code', 'installationId', 'redirectUrl', 'storefrontId']);
    assert.equal(body.storefrontId, body.installationId);
    const redirect = new URL(body.redirectUrl);
    // Contract 5.2: GET <redirect_url>/?client_id=<client_id>&code=<authorization_code>
    assert.equal(body.redirectUrl, `${REDIRECT_URI}/?client_id=${channelApp.clientId}&code=${body.code}`);
    assert.equal(`${redirect.origin}${redirect.pathname}`, `${REDIRECT_URI}/`);
    assert.equal(redirect.searchParams.get('client_id'), channelApp.clientId);
    assert.equal(redirect.searchParams.get('code'), body.code);

    const token = await exchangeCode(t, channelApp.clientId, channelApp.clientSecret, body.code);
    assert.equal(token.statusCode, 200, token.body);
    assert.ok(await tokenAccepted(t, (token.json() as { access_token: string }).access_token));
  });

  it('installs an integration with warehouse mappings and lists installations', async () => {
    const res = await install({ appId: shippingApp.appId, warehouses: [{ warehouseId: main, warehouseUniqueId: 'SHIP-MAIN' }] });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json() as Installed;
    assert.equal(body.integrationId, body.installationId);
    assert.equal(body.storefrontId, undefined);

    const list = await admin(t, 'GET', `/admin/accounts/${accountId}/installations`);
    assert.equal(list.statusCode, 200);
    const entry = (list.json() as { results: Record<string, unknown>[] }).results.find((i) => i.installationId === body.installationId);
    assert.deepEqual(entry, {
      installationId: body.installationId,
      appId: shippingApp.appId,
      kind: 'SHIPPING',
      status: 'ACTIVE',
      storefrontName: null,
      storefrontId: null,
      integrationId: body.installationId,
      mappings: [{ warehouseId: main, warehouseUniqueId: 'SHIP-MAIN', controlsStock: false }],
      createdAt: entry?.createdAt,
      revokedAt: null,
    });
    const storefront = (list.json() as { results: Record<string, unknown>[] }).results.find((i) => i.kind === 'SALES_CHANNEL');
    assert.equal(storefront?.storefrontName, 'Shop One');
    assert.deepEqual(storefront?.mappings, []);
    // The other account sees none of them.
    const others = await admin(t, 'GET', `/admin/accounts/${otherAccount}/installations`);
    assert.deepEqual(others.json(), { results: [] });
  });

  it('enforces the kind rules: storefronts take no warehouses, integrations need one', async () => {
    const before = await countRows(t, 'installations');
    assertV1Error(
      await install({ appId: channelApp.appId, warehouses: [{ warehouseId: main, warehouseUniqueId: 'M' }] }),
      400,
      /SALES_CHANNEL installation takes no warehouse mappings/,
    );
    assertV1Error(await install({ appId: inventoryApp.appId }), 400, /needs at least one warehouse mapping/);
    assertV1Error(await install({ appId: inventoryApp.appId, warehouses: [] }), 400, /needs at least one warehouse mapping/);
    assertV1Error(
      await install({ appId: shippingApp.appId, warehouses: [{ warehouseId: west, warehouseUniqueId: 'W' }], storefrontName: 'X' }),
      400,
      /storefrontName/,
    );
    assertV1Error(
      await install({
        appId: shippingApp.appId,
        warehouses: [
          { warehouseId: west, warehouseUniqueId: 'W1' },
          { warehouseId: west, warehouseUniqueId: 'W2' },
        ],
      }),
      400,
      /mapped twice/,
    );
    assertV1Error(
      await install({ appId: shippingApp.appId, warehouses: [{ warehouseId: west, warehouseUniqueId: '' }] }),
      400,
      /warehouseUniqueId/,
    );
    assertV1Error(await install({ appId: 'one' }), 400, /appId: must be integer/);
    assertV1Error(await install({ appId: shippingApp.appId, warehouses: [{ warehouseId: west }] }), 400, /warehouseUniqueId: is required/);
    assertV1Error(await install({}), 400, /appId: is required/);
    assert.equal(await countRows(t, 'installations'), before);
    assert.equal(await countRows(t, 'auth_codes'), before);
  });

  it('answers 404 for a warehouse of another account, an unknown app or account, creating nothing', async () => {
    const before = await countRows(t, 'installations');
    assertV1Error(
      await install({ appId: inventoryApp.appId, warehouses: [{ warehouseId: foreignWarehouse, warehouseUniqueId: 'X' }] }),
      404,
      new RegExp(`warehouse\\(s\\) ${foreignWarehouse} not found`),
    );
    assertV1Error(
      await install({ appId: inventoryApp.appId, warehouses: [{ warehouseId: 999999, warehouseUniqueId: 'X' }] }),
      404,
    );
    assertV1Error(await install({ appId: 999999 }), 404, /app 999999 not found/);
    assertV1Error(await install({ appId: channelApp.appId }, 999999), 404, /account 999999 not found/);
    assertV1Error(await admin(t, 'GET', '/admin/accounts/999999/installations'), 404);
    assert.equal(await countRows(t, 'installations'), before);
  });

  it('answers 409 when another active integration controls the warehouse, until it is revoked', async () => {
    const first = await install({ appId: inventoryApp.appId, warehouses: [{ warehouseId: east, warehouseUniqueId: 'EAST' }] });
    assert.equal(first.statusCode, 201, first.body);
    const firstId = (first.json() as Installed).installationId;
    const tpl = await registerAppVia(t, 'THIRD_PARTY_LOGISTICS', ['inventory:self', 'sales:orders:fulfillment:self']);
    const before = await countRows(t, 'installations');
    assertV1Error(
      await install({ appId: tpl.appId, warehouses: [{ warehouseId: east, warehouseUniqueId: 'E' }] }),
      409,
      /already have their stock controlled/,
    );
    assert.equal(await countRows(t, 'installations'), before);
    // A shipping integration controls no stock, so it may share the warehouse.
    const ship = await install({ appId: shippingApp.appId, warehouses: [{ warehouseId: east, warehouseUniqueId: 'E' }] });
    assert.equal(ship.statusCode, 201, ship.body);

    const revoke = await admin(t, 'POST', `/admin/accounts/${accountId}/installations/${firstId}/revoke`);
    assert.equal(revoke.statusCode, 200);
    // The stock is free now, but a 3PL also ships, and east ships with the shipping integration: one at a time.
    const shipId = (ship.json() as Installed).installationId;
    assertV1Error(
      await install({ appId: tpl.appId, warehouses: [{ warehouseId: east, warehouseUniqueId: 'E' }] }),
      409,
      new RegExp(`already fulfilled by installation ${shipId} \\(SHIPPING app\\)`),
    );
    assert.equal((await admin(t, 'POST', `/admin/accounts/${accountId}/installations/${shipId}/revoke`)).statusCode, 200);
    const second = await install({ appId: tpl.appId, warehouses: [{ warehouseId: east, warehouseUniqueId: 'E' }] });
    assert.equal(second.statusCode, 201, second.body);
  });

  it('revokes an installation: its token gets 401 at once and its unused code stops working', async () => {
    const app = await registerAppVia(t, 'INVENTORY', ['inventory:self']);
    const res = await install({ appId: app.appId, warehouses: [{ warehouseId: west, warehouseUniqueId: 'WEST' }] });
    assert.equal(res.statusCode, 201, res.body);
    const installed = res.json() as Installed;
    const exchanged = await exchangeCode(t, app.clientId, app.clientSecret, installed.code);
    const token = (exchanged.json() as { access_token: string }).access_token;
    assert.ok(await tokenAccepted(t, token));
    const unused = (await install({ appId: channelApp.appId })).json() as Installed;

    const revoked = await admin(t, 'POST', `/admin/accounts/${accountId}/installations/${installed.installationId}/revoke`);
    assert.equal(revoked.statusCode, 200);
    assert.deepEqual(revoked.json(), { installationId: installed.installationId, status: 'REVOKED' });
    assert.equal(await tokenAccepted(t, token), false);

    const list = (await admin(t, 'GET', `/admin/accounts/${accountId}/installations`)).json() as {
      results: { installationId: number; status: string; revokedAt: string | null }[];
    };
    const entry = list.results.find((i) => i.installationId === installed.installationId);
    assert.equal(entry?.status, 'REVOKED');
    assert.match(String(entry?.revokedAt), /Z$/);

    const again = await admin(t, 'POST', `/admin/accounts/${accountId}/installations/${installed.installationId}/revoke`);
    assertV1Error(again, 409, /already revoked/);

    const unusedRevoke = await admin(t, 'POST', `/admin/accounts/${accountId}/installations/${unused.installationId}/revoke`);
    assert.equal(unusedRevoke.statusCode, 200);
    const late = await exchangeCode(t, channelApp.clientId, channelApp.clientSecret, unused.code);
    assert.equal(late.statusCode, 400);
    assert.equal((late.json() as { error: string }).error, 'invalid_grant');
  });

  it('answers 404 when revoking an unknown installation or one of another account', async () => {
    const res = await install({ appId: channelApp.appId });
    const id = (res.json() as Installed).installationId;
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${otherAccount}/installations/${id}/revoke`), 404, /not found/);
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${accountId}/installations/999999/revoke`), 404);
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${accountId}/installations/x/revoke`), 400, /installationId/);
    const list = (await admin(t, 'GET', `/admin/accounts/${accountId}/installations`)).json() as {
      results: { installationId: number; status: string }[];
    };
    assert.equal(list.results.find((i) => i.installationId === id)?.status, 'ACTIVE');
  });
});
