import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isUniqueViolation } from '../../src/db/tx.js';
import { admin, assertV1Error, countRows, createAccountVia, createWarehouseVia, exchangeCode, registerAppVia, tokenAccepted, type RegisteredApp } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * Resolutions §6, "One shipping/3PL integration per warehouse", through the operator API: the Install button
 * and mapping one more warehouse refuse a warehouse that already ships with another active integration (409
 * naming it), unmapping frees it, two parallel mappings give one success and one 409, and the database's
 * partial unique index holds the rule on its own.
 */

interface Installed {
  installationId: number;
  code: string;
}

interface InstallationEntry {
  installationId: number;
  status: string;
  mappings: { warehouseId: number; warehouseUniqueId: string; controlsStock: boolean }[];
}

describe('one shipping/3PL integration per warehouse (operator API)', () => {
  let t: TestApp;
  let accountId: number;
  let otherAccount: number;
  let main: number;
  let east: number;
  let west: number;
  let shipFast: RegisteredApp;
  let parcelPro: RegisteredApp;
  let tpl: RegisteredApp;
  let stockSync: RegisteredApp;
  let channelApp: RegisteredApp;
  let shipFastOnMain: number;

  const install = async (app: RegisteredApp, warehouses: [number, string][], account = accountId) =>
    admin(t, 'POST', `/admin/accounts/${account}/installations`, {
      appId: app.appId,
      warehouses: warehouses.map(([warehouseId, warehouseUniqueId]) => ({ warehouseId, warehouseUniqueId })),
    });
  const installed = async (app: RegisteredApp, warehouses: [number, string][]) => {
    const res = await install(app, warehouses);
    assert.equal(res.statusCode, 201, res.body);
    return (res.json() as Installed).installationId;
  };
  const mapUrl = (installationId: number) => `/admin/accounts/${accountId}/installations/${installationId}/warehouses`;
  const installations = async () => (await admin(t, 'GET', `/admin/accounts/${accountId}/installations`)).json<{ results: InstallationEntry[] }>().results;
  const fulfillingRows = async (warehouseId: number) =>
    Number(
      (
        await t.deps.db.db
          .selectFrom('warehouse_mappings')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('warehouse_id', '=', warehouseId)
          .where('fulfills', '=', 1)
          .executeTakeFirstOrThrow()
      ).n,
    );

  before(async () => {
    t = await createTestApp();
    accountId = await createAccountVia(t, 'One shipper');
    otherAccount = await createAccountVia(t, 'Other seller');
    main = await createWarehouseVia(t, accountId, 'Main');
    east = await createWarehouseVia(t, accountId, 'East');
    west = await createWarehouseVia(t, accountId, 'West');
    shipFast = await registerAppVia(t, 'SHIPPING', ['sales:orders:fulfillment:self'], 'ShipFast');
    parcelPro = await registerAppVia(t, 'SHIPPING', ['sales:orders:fulfillment:self'], 'ParcelPro');
    tpl = await registerAppVia(t, 'THIRD_PARTY_LOGISTICS', ['inventory:self', 'sales:orders:fulfillment:self'], 'Dock 3PL');
    stockSync = await registerAppVia(t, 'INVENTORY', ['inventory:self'], 'StockSync');
    channelApp = await registerAppVia(t, 'SALES_CHANNEL', ['sales:orders:self'], 'Marketplace');
    shipFastOnMain = await installed(shipFast, [[main, 'SF-MAIN']]);
  });
  after(async () => t.close());

  it('refuses a second shipping or 3PL integration on a warehouse with a 409 naming the installation that ships it', async () => {
    const installationsBefore = await countRows(t, 'installations');
    const codesBefore = await countRows(t, 'auth_codes');
    const naming = new RegExp(`warehouse ${main} \\(Main\\) is already fulfilled by installation ${shipFastOnMain} \\(ShipFast\\)`);
    assertV1Error(await install(parcelPro, [[east, 'PP-EAST'], [main, 'PP-MAIN']]), 409, naming);
    assertV1Error(await install(tpl, [[main, '3PL-MAIN']]), 409, naming);
    // The same app installed a second time is another integration, refused alike.
    assertV1Error(await install(shipFast, [[main, 'SF-MAIN-2']]), 409, naming);
    const [message] = assertV1Error(await install(parcelPro, [[main, 'PP-MAIN']]), 409);
    assert.match(message!, /one shipping or 3PL integration at a time: unmap the warehouse from that installation, or uninstall it, first/);
    assert.equal(await countRows(t, 'installations'), installationsBefore, 'nothing is created');
    assert.equal(await countRows(t, 'auth_codes'), codesBefore);
    assert.equal(await fulfillingRows(east), 0, 'the refused install mapped none of its warehouses');

    // An inventory integration controls stock and ships nothing: it shares the warehouse.
    await installed(stockSync, [[main, 'SS-MAIN']]);
    assert.equal(await fulfillingRows(main), 1);
  });

  it('maps one more warehouse to an installed integration under the same rule', async () => {
    const parcel = await installed(parcelPro, [[east, 'PP-EAST']]);
    assertV1Error(await admin(t, 'POST', mapUrl(parcel), { warehouseId: main, warehouseUniqueId: 'PP-MAIN' }), 409, new RegExp(`installation ${shipFastOnMain} \\(ShipFast\\)`));

    const mapped = await admin(t, 'POST', mapUrl(parcel), { warehouseId: west, warehouseUniqueId: 'PP-WEST' });
    assert.equal(mapped.statusCode, 201, mapped.body);
    assert.deepEqual(mapped.json(), { installationId: parcel, warehouseId: west, warehouseUniqueId: 'PP-WEST', controlsStock: false, fulfillmentOrdersAssigned: 0 });
    const entry = (await installations()).find((i) => i.installationId === parcel);
    assert.deepEqual(entry?.mappings.map((m) => [m.warehouseId, m.warehouseUniqueId]), [[east, 'PP-EAST'], [west, 'PP-WEST']]);

    assertV1Error(await admin(t, 'POST', mapUrl(parcel), { warehouseId: west, warehouseUniqueId: 'PP-WEST-2' }), 409, /already mapped to installation/);
    const north = await createWarehouseVia(t, accountId, 'North');
    assertV1Error(await admin(t, 'POST', mapUrl(parcel), { warehouseId: north, warehouseUniqueId: 'PP-WEST' }), 409, /already names another warehouse/);
    const foreign = await createWarehouseVia(t, otherAccount, 'Theirs');
    assertV1Error(await admin(t, 'POST', mapUrl(parcel), { warehouseId: foreign, warehouseUniqueId: 'X' }), 404, /not found in account/);
    assertV1Error(await admin(t, 'POST', mapUrl(parcel), { warehouseId: north }), 400, /warehouseUniqueId/);
    assertV1Error(await admin(t, 'POST', mapUrl(999999), { warehouseId: north, warehouseUniqueId: 'X' }), 404, /installation 999999 not found/);

    const channel = (await admin(t, 'POST', `/admin/accounts/${accountId}/installations`, { appId: channelApp.appId })).json<Installed>().installationId;
    assertV1Error(await admin(t, 'POST', mapUrl(channel), { warehouseId: north, warehouseUniqueId: 'X' }), 400, /SALES_CHANNEL installation/);

    const gone = await installed(parcelPro, [[north, 'PP-NORTH']]);
    assert.equal((await admin(t, 'POST', `/admin/accounts/${accountId}/installations/${gone}/revoke`)).statusCode, 200);
    assertV1Error(await admin(t, 'POST', mapUrl(gone), { warehouseId: north, warehouseUniqueId: 'PP-NORTH' }), 409, /uninstalled/);
    assert.equal(await fulfillingRows(north), 0, 'uninstalling freed the warehouse');
  });

  it('unmaps a warehouse: the token stops seeing it, and another integration may then ship from it', async () => {
    const res = await install(tpl, [[east, 'DOCK-EAST']]);
    assertV1Error(res, 409, /\(ParcelPro\)/);
    const parcel = (await installations()).find((i) => i.status === 'ACTIVE' && i.mappings.some((m) => m.warehouseUniqueId === 'PP-EAST'))!.installationId;
    const unmapped = await admin(t, 'DELETE', `${mapUrl(parcel)}/${east}`);
    assert.equal(unmapped.statusCode, 200, unmapped.body);
    assert.deepEqual(unmapped.json(), { installationId: parcel, warehouseId: east, withdrawn: 0, cancellationRequested: 0 });
    assertV1Error(await admin(t, 'DELETE', `${mapUrl(parcel)}/${east}`), 404, new RegExp(`warehouse ${east} is not mapped to installation ${parcel}`));
    assert.deepEqual((await installations()).find((i) => i.installationId === parcel)?.mappings.map((m) => m.warehouseId), [west]);

    const dock = await install(tpl, [[east, 'DOCK-EAST']]);
    assert.equal(dock.statusCode, 201, dock.body);
    const token = (await exchangeCode(t, tpl.clientId, tpl.clientSecret, dock.json<Installed>().code)).json<{ access_token: string }>().access_token;
    assert.ok(await tokenAccepted(t, token));

    // Unmapping an inventory integration frees the stock it controlled; the integration stays installed.
    const stockEntry = (await installations()).find((i) => i.mappings.some((m) => m.warehouseUniqueId === 'SS-MAIN'))!;
    const freed = await admin(t, 'DELETE', `${mapUrl(stockEntry.installationId)}/${main}`);
    assert.deepEqual(freed.json(), { installationId: stockEntry.installationId, warehouseId: main, withdrawn: 0, cancellationRequested: 0 });
    const warehouses = (await admin(t, 'GET', `/admin/accounts/${accountId}/warehouses`)).json<{ results: { warehouseId: number; controlledByInstallationId: number | null }[] }>();
    assert.equal(warehouses.results.find((w) => w.warehouseId === main)?.controlledByInstallationId, null);
    assert.equal((await installations()).find((i) => i.installationId === stockEntry.installationId)?.status, 'ACTIVE');
  });

  it('lets exactly one of two parallel mappings of a warehouse win; the other is a 409 naming the winner', async () => {
    for (let round = 0; round < 3; round++) {
      const race = await createWarehouseVia(t, accountId, `Race ${round}`);
      const a = await registerAppVia(t, 'SHIPPING', ['sales:orders:fulfillment:self'], `Racer A${round}`);
      const b = await registerAppVia(t, 'THIRD_PARTY_LOGISTICS', ['sales:orders:fulfillment:self'], `Racer B${round}`);
      const results = await Promise.all([install(a, [[race, 'A']]), install(b, [[race, 'B']])]);
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [201, 409], results.map((r) => r.body).join('\n'));
      const winner = results.find((r) => r.statusCode === 201)!.json<Installed>().installationId;
      const winnerName = results[0]!.statusCode === 201 ? `Racer A${round}` : `Racer B${round}`;
      assertV1Error(results.find((r) => r.statusCode === 409)!, 409, new RegExp(`already fulfilled by installation ${winner} \\(${winnerName}\\)`));
      assert.equal(await fulfillingRows(race), 1);
    }

    // The same race through "map one more warehouse", between two installed integrations.
    const one = await installed(await registerAppVia(t, 'SHIPPING', ['sales:orders:fulfillment:self'], 'Mapper one'), [[await createWarehouseVia(t, accountId, 'Home one'), 'H1']]);
    const two = await installed(await registerAppVia(t, 'SHIPPING', ['sales:orders:fulfillment:self'], 'Mapper two'), [[await createWarehouseVia(t, accountId, 'Home two'), 'H2']]);
    const contested = await createWarehouseVia(t, accountId, 'Contested');
    const mapped = await Promise.all([one, two].map((id) => admin(t, 'POST', mapUrl(id), { warehouseId: contested, warehouseUniqueId: 'C' })));
    assert.deepEqual(mapped.map((r) => r.statusCode).sort(), [201, 409], mapped.map((r) => r.body).join('\n'));
    const winner = mapped.find((r) => r.statusCode === 201)!.json<{ installationId: number }>().installationId;
    assertV1Error(mapped.find((r) => r.statusCode === 409)!, 409, new RegExp(`installation ${winner} \\(Mapper (one|two)\\)`));
    assert.equal(await fulfillingRows(contested), 1);
  });

  it('holds the rule in the database: a second fulfilling mapping row of a warehouse violates its unique index', async () => {
    const spare = (await installations()).find((i) => i.status === 'ACTIVE' && i.mappings.some((m) => m.warehouseUniqueId === 'PP-WEST'))!;
    await assert.rejects(
      t.deps.db.db
        .insertInto('warehouse_mappings')
        .values({ account_id: accountId, installation_id: spare.installationId, warehouse_id: main, warehouse_unique_id: 'SNEAKY', controls_stock: 0, fulfills: 1 })
        .execute(),
      (error) => isUniqueViolation(error),
    );
    // A mapping that ships nothing (an inventory integration's) is not counted.
    await t.deps.db.db
      .insertInto('warehouse_mappings')
      .values({ account_id: accountId, installation_id: spare.installationId, warehouse_id: main, warehouse_unique_id: 'READS-ONLY', controls_stock: 0, fulfills: 0 })
      .execute();
    assert.equal(await fulfillingRows(main), 1);
  });
});
