import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { up as oneShipperPerWarehouse } from '../../src/db/migrations/027_one_shipper_per_warehouse.js';
import { isUniqueViolation } from '../../src/db/tx.js';
import { createAccount } from '../../src/domain/accounts/accounts.js';
import { registerApp } from '../../src/domain/accounts/apps.js';
import type { AppKind } from '../../src/domain/accounts/principal.js';
import { createWarehouse } from '../../src/domain/accounts/warehouses.js';
import { createTestApp, withSchemaLock, type TestApp } from '../helpers/app.js';

const underSchemaLock = async (fn: () => Promise<void>): Promise<void> => {
  const url = process.env.TEST_DATABASE_URL;
  if (url) await withSchemaLock(url, 'exclusive', fn);
  else await fn();
};

/**
 * Migration 027 on a database that let several shipping/3PL integrations map one warehouse: the oldest active
 * mapping stays, the others are removed and reported in the operator log, and the unique index then holds.
 * The test puts the schema back as it was before 027 (its column and indexes), writes the doubled mappings,
 * and runs the migration's up() again with a log that records what it reports.
 */
describe('migration 027: one shipping/3PL integration per warehouse', () => {
  let t: TestApp;
  let db: Kysely<unknown>;
  const reports: { details: Record<string, unknown>; message: string }[] = [];
  const ids = { account: 0, w1: 0, w2: 0, shipOld: 0, shipNew: 0, tpl: 0, revoked: 0, inventory: 0 };

  const install = async (kind: AppKind, name: string, status: 'ACTIVE' | 'REVOKED', mappings: [number, string][]) => {
    const app = await registerApp(t.deps.db.db, t.deps.signer, { name, contactEmail: 'dev@partner.example', redirectUri: 'https://partner.example/cb', kind, scopes: ['inventory:self'] }, t.deps.clock.now());
    const row = await t.deps.db.db
      .insertInto('installations')
      .values({ account_id: ids.account, app_id: app.appId, kind, status, storefront_name: null, created_at: t.deps.clock.now().toISOString(), revoked_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [warehouseId, uniqueId] of mappings) {
      await sql`insert into warehouse_mappings (account_id, installation_id, warehouse_id, warehouse_unique_id, controls_stock)
        values (${ids.account}, ${row.id}, ${warehouseId}, ${uniqueId}, ${kind === 'SHIPPING' ? 0 : 1})`.execute(db);
    }
    return row.id;
  };

  before(async () => {
    t = await createTestApp();
    db = t.deps.db.db as unknown as Kysely<unknown>;
    // The schema as 026 left it: no fulfills column, no one-shipper index, one fulfillment order per (order, warehouse).
    // On PostgreSQL under the exclusive schema lock: a parallel test file's migrator introspects every schema's
    // columns by name, and a column dropped under it fails that file with "column … does not exist".
    await underSchemaLock(async () => {
      await sql`drop index warehouse_mappings_one_fulfiller`.execute(db);
      await sql`alter table warehouse_mappings drop column fulfills`.execute(db);
      await sql`drop index fulfillment_orders_live_order_warehouse`.execute(db);
      await sql`drop index fulfillment_orders_order_warehouse`.execute(db);
      await sql`create unique index fulfillment_orders_order_warehouse on fulfillment_orders (account_id, order_id, warehouse_id)`.execute(db);
    });

    const now = t.deps.clock.now();
    ids.account = (await createAccount(t.deps.db.db, { name: 'Doubled' }, now)).accountId;
    ids.w1 = (await createWarehouse(t.deps.db.db, ids.account, { name: 'Doubled dock' }, now)).warehouseId;
    ids.w2 = (await createWarehouse(t.deps.db.db, ids.account, { name: 'Single dock' }, now)).warehouseId;
    ids.revoked = await install('SHIPPING', 'Gone shipper', 'REVOKED', [[ids.w1, 'GONE-1']]);
    ids.shipOld = await install('SHIPPING', 'First shipper', 'ACTIVE', [[ids.w1, 'FIRST-1']]);
    ids.inventory = await install('INVENTORY', 'Stock reader', 'ACTIVE', [[ids.w1, 'STOCK-1']]);
    ids.shipNew = await install('SHIPPING', 'Second shipper', 'ACTIVE', [[ids.w1, 'SECOND-1'], [ids.w2, 'SECOND-2']]);
    ids.tpl = await install('THIRD_PARTY_LOGISTICS', 'Late 3PL', 'ACTIVE', [[ids.w1, '3PL-1']]);

    await oneShipperPerWarehouse(db, {
      dialect: t.deps.db.dialect,
      idType: t.deps.db.dialect === 'postgres' ? 'serial' : 'integer',
      idColumn: (c) => c,
      log: { warn: (details, message) => reports.push({ details: details as Record<string, unknown>, message }) },
    });
  });
  after(async () => t.close());

  const mappings = async () =>
    (
      await t.deps.db.db
        .selectFrom('warehouse_mappings')
        .select(['installation_id', 'warehouse_id', 'fulfills'])
        .where('account_id', '=', ids.account)
        .orderBy('warehouse_id')
        .orderBy('installation_id')
        .execute()
    ).map((m) => [m.warehouse_id, m.installation_id, m.fulfills]);

  it('keeps the oldest active shipping mapping of a doubled warehouse and removes the others', async () => {
    assert.deepEqual(await mappings(), [
      // The revoked one and the inventory one ship nothing: kept, not fulfilling; the oldest active shipper stays.
      [ids.w1, ids.revoked, 0],
      [ids.w1, ids.shipOld, 1],
      [ids.w1, ids.inventory, 0],
      // The other shipper keeps the warehouse it alone ships from.
      [ids.w2, ids.shipNew, 1],
    ]);
  });

  it('reports each doubled warehouse in the operator log, naming what it kept and what it unmapped', () => {
    const mine = reports.filter((r) => r.details.accountId === ids.account);
    assert.equal(mine.length, 1);
    assert.deepEqual(mine[0]!.details, {
      migration: '027_one_shipper_per_warehouse',
      accountId: ids.account,
      warehouseId: ids.w1,
      kept: { installationId: ids.shipOld, appName: 'First shipper', kind: 'SHIPPING', warehouseUniqueId: 'FIRST-1' },
      unmapped: [
        { installationId: ids.shipNew, appName: 'Second shipper', kind: 'SHIPPING', warehouseUniqueId: 'SECOND-1' },
        { installationId: ids.tpl, appName: 'Late 3PL', kind: 'THIRD_PARTY_LOGISTICS', warehouseUniqueId: '3PL-1' },
      ],
    });
    assert.match(
      mine[0]!.message,
      new RegExp(`warehouse ${ids.w1} of account ${ids.account} had 3 shipping/3PL integrations; kept installation ${ids.shipOld} \\(First shipper\\), the oldest, and unmapped installation ${ids.shipNew} \\(Second shipper\\), installation ${ids.tpl} \\(Late 3PL\\)`),
    );
  });

  it('then holds the rule with its unique index, and lets a withdrawn fulfillment order sit beside the live one', async () => {
    await assert.rejects(
      t.deps.db.db
        .insertInto('warehouse_mappings')
        .values({ account_id: ids.account, installation_id: ids.tpl, warehouse_id: ids.w1, warehouse_unique_id: '3PL-1', controls_stock: 1, fulfills: 1 })
        .execute(),
      (error) => isUniqueViolation(error),
    );
    const indexes =
      t.deps.db.dialect === 'postgres'
        ? (await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = 'fulfillment_orders'`.execute(db)).rows
        : (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'fulfillment_orders'`.execute(db)).rows;
    const names = indexes.map((i) => i.name);
    assert.ok(names.includes('fulfillment_orders_live_order_warehouse') && names.includes('fulfillment_orders_order_warehouse'), names.join(', '));
  });
});
