import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withTx } from '../../src/db/tx.js';
import { getAccount } from '../../src/domain/accounts/accounts.js';
import { describeApp } from '../../src/domain/accounts/apps.js';
import { installApp, listInstallations } from '../../src/domain/accounts/installations.js';
import { SCOPES } from '../../src/domain/accounts/principal.js';
import { SANDBOX_REDIRECT_URI, buildSandbox, sandboxExamples, type SandboxSummary } from '../../src/domain/sandbox-partner/sandbox.js';
import { authenticateToken } from '../../src/domain/accounts/tokens.js';
import { listWarehousesOfAccount } from '../../src/domain/accounts/warehouses.js';
import { warehouseWorkPort } from '../../src/domain/fulfillment/warehouse-handover.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('sandbox builder', () => {
  let t: TestApp;
  let sandbox: SandboxSummary;
  before(async () => {
    t = await createTestApp();
    sandbox = await withTx(t.deps.db.db, (tx) => buildSandbox(tx, t.deps.signer, t.deps.clock.now()));
  });
  after(async () => t.close());

  const warehouseId = (name: string) => sandbox.warehouses.find((w) => w.name === name)!.warehouseId;
  const appOf = (kind: string) => sandbox.apps.find((a) => a.kind === kind)!;

  it('creates the "Sandbox seller" account with its four warehouses', async () => {
    assert.deepEqual(await getAccount(t.deps.db.db, sandbox.account.accountId), sandbox.account);
    assert.equal(sandbox.account.name, 'Sandbox seller');
    const stored = await listWarehousesOfAccount(t.deps.db.db, sandbox.account.accountId);
    assert.deepEqual(
      stored.map((w) => [w.name, w.channelFulfilled]),
      [
        ['Main', false],
        ['East', false],
        ['Marketplace network', true],
        ['3PL West', false],
      ],
    );
    assert.deepEqual(
      stored.map((w) => w.warehouseId),
      sandbox.warehouses.map((w) => w.warehouseId),
    );
    const controller = (name: string) => stored.find((w) => w.name === name)!.controlledByInstallationId;
    assert.equal(controller('Main'), null, 'a shipping integration controls no stock');
    assert.equal(controller('East'), appOf('INVENTORY').installationId);
    assert.equal(controller('3PL West'), appOf('THIRD_PARTY_LOGISTICS').installationId);
    assert.equal(controller('Marketplace network'), null);
  });

  it('installs one app of each partner kind with the promised mappings', async () => {
    assert.deepEqual(
      sandbox.apps.map((a) => a.kind),
      ['SALES_CHANNEL', 'SHIPPING', 'INVENTORY', 'THIRD_PARTY_LOGISTICS'],
    );
    const installations = await listInstallations(t.deps.db.db, sandbox.account.accountId);
    assert.equal(installations.length, 4);
    for (const app of sandbox.apps) {
      const installation = installations.find((i) => i.installationId === app.installationId);
      assert.equal(installation?.status, 'ACTIVE');
      assert.equal(installation?.appId, app.appId);
      assert.deepEqual(
        installation?.mappings.map((m) => ({ warehouseId: m.warehouseId, warehouseUniqueId: m.warehouseUniqueId })),
        app.warehouses,
      );
      const stored = await describeApp(t.deps.db.db, app.appId);
      assert.equal(stored.clientId, app.clientId);
      assert.equal(stored.kind, app.kind);
      assert.deepEqual(stored.scopes, app.scopes);
      assert.equal(stored.redirectUri, SANDBOX_REDIRECT_URI);
    }
    assert.deepEqual(appOf('SHIPPING').warehouses, [{ warehouseId: warehouseId('Main'), warehouseUniqueId: 'MAIN' }]);
    assert.deepEqual(appOf('INVENTORY').warehouses, [{ warehouseId: warehouseId('East'), warehouseUniqueId: 'EAST' }]);
    assert.deepEqual(appOf('THIRD_PARTY_LOGISTICS').warehouses, [
      { warehouseId: warehouseId('3PL West'), warehouseUniqueId: 'WEST-3PL' },
    ]);
    const channel = appOf('SALES_CHANNEL');
    assert.deepEqual(channel.warehouses, []);
    assert.equal(channel.storefrontId, channel.installationId);
    assert.equal(channel.storefrontName, 'Sandbox Storefront');
    assert.equal(installations.find((i) => i.kind === 'SALES_CHANNEL')?.storefrontName, 'Sandbox Storefront');
  });

  it('points the storefront, shipping and 3PL apps at the partner simulator, subscribed to their nudges', async () => {
    const simulated = await t.deps.db.db.selectFrom('sandbox_partner_apps').select(['app_id', 'account_id']).orderBy('app_id').execute();
    const expected = sandbox.apps.filter((a) => a.kind !== 'INVENTORY');
    assert.deepEqual(simulated, expected.map((a) => ({ app_id: a.appId, account_id: sandbox.account.accountId })));
    for (const app of sandbox.apps) {
      const stored = await describeApp(t.deps.db.db, app.appId);
      assert.equal(stored.callbackBaseUrl, app.kind === 'INVENTORY' ? null : `https://partner-simulator.invalid/apps/${app.appId}`);
      assert.equal(app.callbackBaseUrl, stored.callbackBaseUrl);
    }
    assert.deepEqual(appOf('SALES_CHANNEL').eventTypes, ['ORDER_SHIPPED']);
    assert.deepEqual(appOf('SHIPPING').eventTypes, ['FULFILLMENT_ORDER_CHANGED', 'CANCELLATION_REQUESTED']);
    assert.deepEqual(appOf('INVENTORY').eventTypes, []);
  });

  it('gives every app a token that authenticates as its installation', async () => {
    for (const app of sandbox.apps) {
      const principal = await authenticateToken(t.deps.db, app.accessToken);
      assert.ok(principal, `${app.kind} token authenticates`);
      assert.equal(principal.accountId, sandbox.account.accountId);
      assert.equal(principal.kind, app.kind);
      assert.equal(principal.appId, app.appId);
      assert.equal(principal.installationId, app.installationId);
      assert.equal(principal.storefrontId, app.storefrontId);
      assert.equal(principal.integrationId, app.integrationId);
      assert.deepEqual([...principal.scopes].sort(), [...app.scopes].sort());
      assert.deepEqual(
        principal.mappings.map((m) => ({ warehouseId: m.warehouseId, warehouseUniqueId: m.warehouseUniqueId })),
        app.warehouses,
      );
    }
  });

  it('issues a seller token with every scope', async () => {
    const principal = await authenticateToken(t.deps.db, sandbox.sellerToken.accessToken);
    assert.ok(principal);
    assert.equal(principal.kind, 'SELLER');
    assert.equal(principal.tokenId, sandbox.sellerToken.tokenId);
    assert.equal(principal.accountId, sandbox.account.accountId);
    assert.deepEqual([...principal.scopes].sort(), [...SCOPES].sort());
    assert.deepEqual([...sandbox.sellerToken.scopes].sort(), [...SCOPES].sort());
  });

  it('prints client credentials that work for the next install too', async () => {
    const app = appOf('INVENTORY');
    const res = await withTx(t.deps.db.db, (tx) =>
      installApp(tx, sandbox.account.accountId, { appId: app.appId, warehouses: [{ warehouseId: warehouseId('Main'), warehouseUniqueId: 'M' }] }, t.deps.clock.now(), warehouseWorkPort),
    );
    const exchange = await t.app.inject({
      method: 'POST',
      url: '/v1/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code: res.code,
        redirect_uri: SANDBOX_REDIRECT_URI,
        client_id: app.clientId,
        client_secret: app.clientSecret,
      }).toString(),
    });
    assert.equal(exchange.statusCode, 200, exchange.body);
  });

  it('builds curl examples with the seller token and the stocked warehouses', () => {
    const [warehouses, inventory] = sandboxExamples(sandbox, 'http://localhost:8080/');
    const auth = `-H "Authorization: Bearer ${sandbox.sellerToken.accessToken}"`;
    assert.equal(warehouses, `curl -s ${auth} "http://localhost:8080/v1/warehouses"`);
    assert.equal(
      inventory,
      `curl -s ${auth} "http://localhost:8080/v1/inventory?warehouses=${warehouseId('Main')},${warehouseId('East')}"`,
    );
  });

  it('builds an independent second sandbox when run again', async () => {
    const second = await withTx(t.deps.db.db, (tx) =>
      buildSandbox(tx, t.deps.signer, t.deps.clock.now(), { accountName: 'Second sandbox' }),
    );
    assert.notEqual(second.account.accountId, sandbox.account.accountId);
    assert.equal(second.account.name, 'Second sandbox');
    assert.ok(second.apps.every((a) => !sandbox.apps.some((b) => b.clientId === a.clientId)));
    assert.ok(await authenticateToken(t.deps.db, sandbox.sellerToken.accessToken));
  });
});
