import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import { withTx } from '../../src/db/tx.js';
import { applyStockChange } from '../../src/domain/inventory/stock.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { allStock, createProducts, postUpdates, stockRow } from './v2-inventory-support.js';

const T0 = '2026-05-01T10:00:00.000Z';
const OK = { success: true, errorMessage: '', stale: false, failureReason: 'UPDATE_FAILURE_REASON_UNSPECIFIED' };

describe('POST /v2/inventory', () => {
  const clock = manualClock(new Date('2026-05-01T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let ids: Map<string, number>;
  let otherIds: Map<string, number>;
  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other seller');
    ids = await createProducts(t, seed.accountId, ['A-1', 'A-2', 'A-3', 'STALE-1', 'SNAKE-1', 'BATCH-1']);
    otherIds = await createProducts(t, other.accountId, ['ONLY-OTHER']);
  });
  beforeEach(() => clock.advance(1000));
  after(async () => t.close());

  const row = (sku: string) => stockRow(t, seed.accountId, ids.get(sku)!, seed.warehouses.second);

  it('sets on-hand from a string or a number and answers one result per entry', async () => {
    const res = await postUpdates(t, seed.inventory.token, {
      updates: [
        { sku: 'A-1', warehouseUniqueId: 'WH-SECOND', quantity: '12', binLocation: 'B-07' },
        { sku: 'A-2', warehouseUniqueId: 'WH-SECOND', quantity: 3 },
      ],
      observedTs: T0,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      results: [
        { sku: 'A-1', warehouseUniqueId: 'WH-SECOND', ...OK },
        { sku: 'A-2', warehouseUniqueId: 'WH-SECOND', ...OK },
      ],
    });
    const a1 = await row('A-1');
    assert.equal(Number(a1!.onhand_quantity), 12);
    assert.equal(Number(a1!.available_quantity), 12);
    assert.equal(a1!.bin_location, 'B-07');
    assert.equal(a1!.observed_at, T0);
    assert.equal(a1!.updated_at, clock.now().toISOString());
    assert.equal(Number((await row('A-2'))!.onhand_quantity), 3);
  });

  it('keeps available = on-hand − reserved and an empty binLocation keeps the bin', async () => {
    await t.deps.db.db
      .updateTable('inventory')
      .set({ reserved_quantity: 4 })
      .where('account_id', '=', seed.accountId)
      .where('product_id', '=', ids.get('A-1')!)
      .execute();
    const res = await postUpdates(t, seed.inventory.token, {
      updates: [{ sku: 'A-1', warehouseUniqueId: 'WH-SECOND', quantity: 10, binLocation: '' }],
      observedTs: '2026-05-01T10:05:00Z',
    });
    assert.deepEqual(res.json().results[0], { sku: 'A-1', warehouseUniqueId: 'WH-SECOND', ...OK });
    const a1 = await row('A-1');
    assert.equal(Number(a1!.onhand_quantity), 10);
    assert.equal(Number(a1!.available_quantity), 6);
    assert.equal(a1!.bin_location, 'B-07');
  });

  it('discards an update observed before the count already held as stale, changing nothing', async () => {
    const newer = await postUpdates(t, seed.inventory.token, {
      updates: [{ sku: 'STALE-1', warehouseUniqueId: 'WH-SECOND', quantity: 50 }],
      observedTs: '2026-05-01T11:00:00+02:00',
    });
    assert.equal(newer.json().results[0].success, true);
    const before = await row('STALE-1');
    clock.advance(1000);
    const older = await postUpdates(t, seed.inventory.token, {
      updates: [{ sku: 'STALE-1', warehouseUniqueId: 'WH-SECOND', quantity: 7 }],
      observedTs: '2026-05-01T08:59:59.999Z',
    });
    assert.equal(older.statusCode, 200);
    const result = older.json().results[0];
    assert.equal(result.success, false);
    assert.equal(result.stale, true);
    assert.equal(result.failureReason, 'UPDATE_FAILURE_REASON_UNSPECIFIED');
    assert.match(result.errorMessage, /newer observation/);
    assert.deepEqual(await row('STALE-1'), before);
    // The same observation time again is not older than what is held: it applies.
    const same = await postUpdates(t, seed.inventory.token, {
      updates: [{ sku: 'STALE-1', warehouseUniqueId: 'WH-SECOND', quantity: 8 }],
      observedTs: '2026-05-01T09:00:00Z',
    });
    assert.equal(same.json().results[0].success, true);
    assert.equal(Number((await row('STALE-1'))!.onhand_quantity), 8);
  });

  it('accepts snake_case field names and ignores unknown fields', async () => {
    const res = await postUpdates(t, seed.inventory.token, {
      updates: [{ sku: 'SNAKE-1', warehouse_unique_id: 'WH-SECOND', quantity: '9', bin_location: 'S-1', colour: 'blue' }],
      observed_ts: '2026-05-01T10:00:00Z',
      requestId: 'ignored',
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().results, [{ sku: 'SNAKE-1', warehouseUniqueId: 'WH-SECOND', ...OK }]);
    const snake = await row('SNAKE-1');
    assert.equal(Number(snake!.onhand_quantity), 9);
    assert.equal(snake!.bin_location, 'S-1');
  });

  it('fails single entries with the failure reason and applies the rest', async () => {
    const before = await allStock(t, seed.accountId);
    const entries = [
      { entry: { sku: 'NO-SUCH', warehouseUniqueId: 'WH-SECOND', quantity: 1 }, reason: 'UNKNOWN_SKU', message: /does not exist/ },
      { entry: { sku: 'ONLY-OTHER', warehouseUniqueId: 'WH-SECOND', quantity: 1 }, reason: 'UNKNOWN_SKU', message: /does not exist/ },
      { entry: { sku: '', warehouseUniqueId: 'WH-SECOND', quantity: 1 }, reason: 'MISSING_SKU', message: /sku is required/ },
      { entry: { warehouseUniqueId: 'WH-SECOND', quantity: 1 }, reason: 'MISSING_SKU', message: /sku is required/ },
      { entry: { sku: 'A-3', warehouseUniqueId: 'SHIP-MAIN', quantity: 1 }, reason: 'WAREHOUSE_NOT_YOURS', message: /GET \/v2\/inventory\/warehouses/ },
      { entry: { sku: 'A-3', warehouseUniqueId: String(seed.warehouses.main), quantity: 1 }, reason: 'WAREHOUSE_NOT_YOURS', message: /not a warehouse/ },
      { entry: { sku: 'A-3', warehouseUniqueId: 'NOPE', quantity: 1 }, reason: 'WAREHOUSE_NOT_YOURS', message: /not a warehouse/ },
      { entry: { sku: 'A-3', quantity: 1 }, reason: 'INVALID', message: /warehouseUniqueId is required/ },
      { entry: { sku: 'A-3', warehouseUniqueId: 'WH-SECOND', quantity: -1 }, reason: 'INVALID', message: /not be negative/ },
      { entry: { sku: 'A-3', warehouseUniqueId: 'WH-SECOND', quantity: '-5' }, reason: 'INVALID', message: /not be negative/ },
      { entry: { sku: 'A-3', warehouseUniqueId: 'WH-SECOND', quantity: 1.5 }, reason: 'INVALID', message: /whole number/ },
      { entry: { sku: 'A-3', warehouseUniqueId: 'WH-SECOND', quantity: '2.5' }, reason: 'INVALID', message: /whole number/ },
      { entry: { sku: 'A-3', warehouseUniqueId: 'WH-SECOND', quantity: 'lots' }, reason: 'INVALID', message: /whole number/ },
      { entry: { sku: 'A-3', warehouseUniqueId: 'WH-SECOND' }, reason: 'INVALID', message: /quantity is required/ },
      { entry: { sku: 'A-3', warehouseUniqueId: 'WH-SECOND', quantity: null }, reason: 'INVALID', message: /quantity is required/ },
      { entry: { sku: 'A-3', warehouseUniqueId: 'WH-SECOND', quantity: '2147483648' }, reason: 'INVALID', message: /at most/ },
    ];
    const res = await postUpdates(t, seed.inventory.token, {
      updates: [...entries.map((e) => e.entry), { sku: 'BATCH-1', warehouseUniqueId: 'WH-SECOND', quantity: 2 }],
      observedTs: T0,
    });
    assert.equal(res.statusCode, 200, res.body);
    const results = res.json().results as Record<string, unknown>[];
    assert.equal(results.length, entries.length + 1);
    entries.forEach((e, i) => {
      const r = results[i]!;
      assert.equal(r.success, false, `entry ${i}`);
      assert.equal(r.stale, false, `entry ${i}`);
      assert.equal(r.failureReason, `UPDATE_FAILURE_REASON_${e.reason}`, `entry ${i}: ${JSON.stringify(r)}`);
      assert.match(String(r.errorMessage), e.message, `entry ${i}`);
      assert.equal(r.sku, e.entry.sku ?? '');
      assert.equal(r.warehouseUniqueId, e.entry.warehouseUniqueId ?? '');
    });
    assert.deepEqual(results[entries.length], { sku: 'BATCH-1', warehouseUniqueId: 'WH-SECOND', ...OK });
    const after = await allStock(t, seed.accountId);
    assert.deepEqual(after.slice(0, before.length), before, 'failed entries changed no stock row');
    assert.equal(after.length, before.length + 1);
    assert.equal(after[after.length - 1]!.product_id, ids.get('BATCH-1'));
    // v2 never creates products.
    const created = await t.deps.db.db.selectFrom('products').select('sku').where('account_id', '=', seed.accountId).where('sku', '=', 'NO-SUCH').execute();
    assert.deepEqual(created, []);
  });

  it('refuses a warehouse whose stock the integration does not control', async () => {
    // Seller stock in `main` (no integration controls it) is untouched by the inventory integration.
    await withTx(t.deps.db.db, (tx) =>
      applyStockChange(tx, seed.accountId, ids.get('A-3')!, seed.warehouses.main, { mode: 'onhand', quantity: 77 }, clock.now()),
    );
    const res = await postUpdates(t, seed.inventory.token, {
      updates: [{ sku: 'A-3', warehouseUniqueId: 'SHIP-MAIN', quantity: 0 }],
      observedTs: T0,
    });
    assert.equal(res.json().results[0].failureReason, 'UPDATE_FAILURE_REASON_WAREHOUSE_NOT_YOURS');
    assert.equal(Number((await stockRow(t, seed.accountId, ids.get('A-3')!, seed.warehouses.main))!.onhand_quantity), 77);
  });

  it('keeps accounts apart: another account\'s integration updates only its own stock', async () => {
    const res = await postUpdates(t, other.inventory.token, {
      updates: [
        { sku: 'ONLY-OTHER', warehouseUniqueId: 'WH-SECOND', quantity: 31 },
        { sku: 'A-1', warehouseUniqueId: 'WH-SECOND', quantity: 0 },
      ],
      observedTs: '2026-06-01T00:00:00Z',
    });
    assert.equal(res.json().results[0].success, true);
    assert.equal(res.json().results[1].failureReason, 'UPDATE_FAILURE_REASON_UNKNOWN_SKU');
    assert.equal(Number((await stockRow(t, other.accountId, otherIds.get('ONLY-OTHER')!, other.warehouses.second))!.onhand_quantity), 31);
    assert.equal(Number((await row('A-1'))!.onhand_quantity), 10);
  });

  it('answers INTERNAL for an entry the database refuses, rolls it back, and applies the others', async () => {
    const db = t.deps.db.db;
    // A constraint the service knows nothing about stands in for an unexpected database failure.
    const boom =
      t.deps.db.dialect === 'postgres'
        ? sql`alter table inventory add constraint boom check (onhand_quantity <> 666) not valid`
        : sql`create trigger boom before update on inventory when new.onhand_quantity = 666 begin select raise(abort, 'boom'); end`;
    await boom.execute(db);
    try {
      const res = await postUpdates(t, seed.inventory.token, {
        updates: [
          { sku: 'A-3', warehouseUniqueId: 'WH-SECOND', quantity: 666 },
          { sku: 'A-2', warehouseUniqueId: 'WH-SECOND', quantity: 4 },
        ],
        observedTs: '2026-06-01T00:00:00Z',
      });
      assert.equal(res.statusCode, 200, res.body);
      const [broken, fine] = res.json().results;
      assert.equal(broken.success, false);
      assert.equal(broken.failureReason, 'UPDATE_FAILURE_REASON_INTERNAL');
      assert.doesNotMatch(broken.errorMessage, /boom|constraint|trigger/);
      assert.deepEqual(fine, { sku: 'A-2', warehouseUniqueId: 'WH-SECOND', ...OK });
      // The stock row the failed entry created on its way was rolled back with it.
      assert.equal(await row('A-3'), undefined);
      assert.equal(Number((await row('A-2'))!.onhand_quantity), 4);
    } finally {
      await (t.deps.db.dialect === 'postgres' ? sql`alter table inventory drop constraint boom` : sql`drop trigger boom`).execute(db);
    }
  });

  describe('whole-request errors: 400 INVALID_ARGUMENT and nothing changes', () => {
    const entry = { sku: 'A-2', warehouseUniqueId: 'WH-SECOND', quantity: 999 };
    const cases: { name: string; body: unknown; field?: string; message: RegExp }[] = [
      { name: 'malformed JSON', body: '{"updates": [', message: /malformed JSON/ },
      { name: 'an empty updates list', body: { updates: [], observedTs: T0 }, field: 'updates', message: /fewer than 1 items/ },
      { name: '101 updates', body: { updates: Array.from({ length: 101 }, () => entry), observedTs: T0 }, field: 'updates', message: /more than 100 items/ },
      { name: 'no updates field', body: { observedTs: T0 }, field: 'updates', message: /required/ },
      { name: 'updates not a list', body: { updates: 'A-2=999', observedTs: T0 }, field: 'updates', message: /must be array/ },
      { name: 'a missing observedTs', body: { updates: [entry] }, field: 'observedTs', message: /required/ },
      { name: 'an observedTs without a zone', body: { updates: [entry], observedTs: '2026-05-01T10:00:00' }, field: 'observedTs', message: /time zone/ },
      { name: 'an observed_ts that is no timestamp', body: { updates: [entry], observed_ts: 'yesterday' }, field: 'observedTs', message: /RFC 3339/ },
      { name: 'observedTs as a number', body: { updates: [entry], observedTs: 1_700_000_000 }, field: 'observedTs', message: /must be string/ },
      { name: 'quantity true', body: { updates: [{ ...entry, quantity: true }], observedTs: T0 }, field: 'updates[0].quantity', message: /must be string or number or null/ },
      { name: 'sku as a number', body: { updates: [{ ...entry, sku: 42 }], observedTs: T0 }, field: 'updates[0].sku', message: /must be string/ },
      { name: 'an entry that is not an object', body: { updates: ['A-2'], observedTs: T0 }, field: 'updates[0]', message: /must be object/ },
      { name: 'a body that is a list', body: [entry], field: 'body', message: /must be object/ },
    ];
    for (const c of cases) {
      it(`rejects ${c.name}`, async () => {
        const before = await allStock(t, seed.accountId);
        const res = await postUpdates(t, seed.inventory.token, c.body);
        assert.equal(res.statusCode, 400, res.body);
        const body = res.json();
        assert.equal(body.code, 3);
        assert.match(body.message, c.message);
        if (c.field) {
          assert.equal(body.details[0]['@type'], 'type.googleapis.com/google.rpc.BadRequest');
          const fields = body.details[0].fieldViolations.map((v: { field: string }) => v.field);
          assert.ok(fields.includes(c.field), `violations ${JSON.stringify(body.details)} name ${c.field}`);
        } else {
          assert.deepEqual(body.details, []);
        }
        assert.deepEqual(await allStock(t, seed.accountId), before);
      });
    }
  });
});
