import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { findProductBySku } from '../../src/domain/catalog/products.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { assertV1Error, postInventory, setStock, type ItemResult } from './v1-inventory-helpers.js';

const NOW = '2026-05-01T12:00:00.000Z';

describe('POST /v1/inventory', () => {
  const clock = manualClock(new Date(NOW));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other seller');
  });
  after(async () => t.close());
  beforeEach(() => clock.advance(1000));

  /** Every stock row and product of the account, to prove that a refused request changed nothing. */
  async function snapshot(accountId = seed.accountId) {
    const db = t.deps.db.db;
    const products = await db.selectFrom('products').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
    const stock = await db.selectFrom('inventory').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
    return { products, stock };
  }

  async function stockOf(sku: string, warehouseId: number, accountId = seed.accountId) {
    const product = await findProductBySku(t.deps.db.db, accountId, sku);
    if (!product) return null;
    const row = await t.deps.db.db
      .selectFrom('inventory')
      .select(['available_quantity', 'onhand_quantity', 'reserved_quantity', 'bin_location', 'observed_at', 'updated_at'])
      .where('account_id', '=', accountId)
      .where('product_id', '=', product.id)
      .where('warehouse_id', '=', warehouseId)
      .executeTakeFirst();
    return row ?? null;
  }

  const results = (res: { json(): unknown }) => (res.json() as { results: ItemResult[] }).results;

  describe('document shape', () => {
    it('creates unknown SKUs with the identifiers given and sets available quantities', async () => {
      const res = await postInventory(t, seed.sellerToken, {
        pulled_ts: '2026-05-01T11:59:00Z',
        warehouseName: 'Main',
        items: [
          { SKU: 'DOC-1', standardProductId: '4006381333931', standardProductIdType: 'EAN', quantity: 10 },
          { SKU: 'DOC-2', standardProductId: '9780306406157', standardProductIdType: 'ISBN', onhand_quantity: 6 },
        ],
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(results(res), [
        { SKU: 'DOC-1', warehouseId: seed.warehouses.main, success: true, errorMessage: '' },
        { SKU: 'DOC-2', warehouseId: seed.warehouses.main, success: true, errorMessage: '' },
      ]);
      const product = await findProductBySku(t.deps.db.db, seed.accountId, 'DOC-1');
      assert.equal(product?.standardProductId, '4006381333931');
      assert.equal(product?.standardProductIdType, 'EAN');
      const row = await stockOf('DOC-1', seed.warehouses.main);
      assert.equal(row?.available_quantity, 10);
      assert.equal(row?.onhand_quantity, 10);
      assert.equal(row?.observed_at, '2026-05-01T11:59:00.000Z');
      assert.equal(row?.updated_at, clock.now().toISOString());
      assert.equal((await stockOf('DOC-2', seed.warehouses.main))?.available_quantity, 6);
    });

    it('adds and subtracts with delta_quantity and refuses to go below zero, changing nothing', async () => {
      await setStock(t, seed.sellerToken, [{ SKU: 'DELTA-1', warehouseId: seed.warehouses.main, quantity: 5 }]);
      const res = await postInventory(t, seed.sellerToken, {
        warehouseName: 'Main',
        items: [
          { SKU: 'DELTA-1', standardProductId: '1', standardProductIdType: 'UPC', delta_quantity: 3 },
          { SKU: 'DELTA-1', standardProductId: '1', standardProductIdType: 'UPC', delta_quantity: -9 },
          { SKU: 'DELTA-1', standardProductId: '1', standardProductIdType: 'UPC', delta_quantity: -8 },
          // A new SKU cannot start negative; it is not created either.
          { SKU: 'DELTA-NEW', standardProductId: '1', standardProductIdType: 'UPC', delta_quantity: -1 },
        ],
      });
      assert.equal(res.statusCode, 200, res.body);
      const [plus, tooMuch, exact, fresh] = results(res);
      assert.equal(plus!.success, true);
      assert.equal(tooMuch!.success, false);
      assert.match(tooMuch!.errorMessage, /negative/);
      assert.equal(tooMuch!.warehouseId, seed.warehouses.main);
      assert.equal(exact!.success, true);
      assert.equal(fresh!.success, false);
      const row = await stockOf('DELTA-1', seed.warehouses.main);
      assert.equal(row?.available_quantity, 0);
      assert.equal(row?.onhand_quantity, 0);
      assert.equal(await findProductBySku(t.deps.db.db, seed.accountId, 'DELTA-NEW'), null);
    });

    it("resolves warehouseName as the caller's own warehouseUniqueId", async () => {
      const res = await postInventory(t, seed.inventory.token, {
        warehouseName: 'WH-SECOND',
        items: [{ SKU: 'OWN-1', standardProductId: '1', standardProductIdType: 'GTIN', quantity: 4 }],
      });
      assert.deepEqual(results(res), [{ SKU: 'OWN-1', warehouseId: seed.warehouses.second, success: true, errorMessage: '' }]);
      assert.equal((await stockOf('OWN-1', seed.warehouses.second))?.available_quantity, 4);
    });

    it('fails every item of an unknown warehouseName and creates nothing', async () => {
      const before = await snapshot();
      const res = await postInventory(t, seed.sellerToken, {
        warehouseName: 'Nowhere',
        items: [
          { SKU: 'GHOST-1', standardProductId: '1', standardProductIdType: 'UPC', quantity: 1 },
          { SKU: 'GHOST-2', standardProductId: '1', standardProductIdType: 'UPC', quantity: 1 },
        ],
      });
      assert.equal(res.statusCode, 200);
      for (const r of results(res)) {
        assert.equal(r.success, false);
        assert.equal(r.warehouseId, null);
        assert.match(r.errorMessage, /warehouse "Nowhere" not found/);
      }
      assert.deepEqual(await snapshot(), before);
    });

    it("does not resolve another account's warehouse name or another integration's id", async () => {
      const res = await postInventory(t, other.sellerToken, {
        warehouseName: 'WH-SECOND',
        items: [{ SKU: 'X', standardProductId: '1', standardProductIdType: 'UPC', quantity: 1 }],
      });
      assert.equal(results(res)[0]!.success, false);
    });
  });

  describe('public shape', () => {
    it('sets on-hand with a bin location per warehouse id, validAsOf recorded', async () => {
      const res = await postInventory(t, seed.sellerToken, {
        validAsOf: '2026-05-01T13:00:00+01:00',
        products: [
          { SKU: 'PUB-1', warehouseId: seed.warehouses.main, binLocation: 'B-07', onhand_quantity: 9 },
          { SKU: 'PUB-1', warehouseId: seed.warehouses.channel, quantity: 2, standardProductId: '1', standardProductIdType: 'UPC' },
        ],
      });
      assert.deepEqual(results(res), [
        { SKU: 'PUB-1', warehouseId: seed.warehouses.main, success: true, errorMessage: '' },
        { SKU: 'PUB-1', warehouseId: seed.warehouses.channel, success: true, errorMessage: '' },
      ]);
      const main = await stockOf('PUB-1', seed.warehouses.main);
      assert.equal(main?.onhand_quantity, 9);
      assert.equal(main?.available_quantity, 9);
      assert.equal(main?.bin_location, 'B-07');
      assert.equal(main?.observed_at, '2026-05-01T12:00:00.000Z');
      // The product was created by the first item, without identifiers; the second item does not change them.
      const product = await findProductBySku(t.deps.db.db, seed.accountId, 'PUB-1');
      assert.equal(product?.standardProductId, null);
    });

    it('takes null as "not given" for the unused quantity fields and optional identifiers', async () => {
      const res = await postInventory(t, seed.sellerToken, {
        products: [
          {
            SKU: 'NULLS-1',
            warehouseId: seed.warehouses.main,
            quantity: null,
            delta_quantity: 4,
            onhand_quantity: null,
            binLocation: null,
            standardProductId: null,
            standardProductIdType: null,
          },
        ],
      });
      assert.deepEqual(results(res), [{ SKU: 'NULLS-1', warehouseId: seed.warehouses.main, success: true, errorMessage: '' }]);
      assert.equal((await stockOf('NULLS-1', seed.warehouses.main))?.available_quantity, 4);
    });

    it("fails an unknown or another account's warehouse id, keeping the other items", async () => {
      const res = await postInventory(t, seed.sellerToken, {
        products: [
          { SKU: 'PUB-2', warehouseId: 999999, quantity: 1 },
          { SKU: 'PUB-2', warehouseId: other.warehouses.main, quantity: 1 },
          { SKU: 'PUB-2', warehouseId: seed.warehouses.main, quantity: 1 },
        ],
      });
      const [unknown, foreign, ok] = results(res);
      assert.deepEqual(unknown, { SKU: 'PUB-2', warehouseId: 999999, success: false, errorMessage: 'warehouse 999999 not found in this account' });
      assert.equal(foreign!.success, false);
      assert.match(foreign!.errorMessage, /not found in this account/);
      assert.equal(ok!.success, true);
      assert.equal(await stockOf('PUB-2', other.warehouses.main, other.accountId), null);
    });
  });

  describe('warehouses controlled by an integration', () => {
    it('refuses the seller on `second` (controlled) but not on `main`', async () => {
      const res = await postInventory(t, seed.sellerToken, {
        products: [
          { SKU: 'CTL-1', warehouseId: seed.warehouses.second, quantity: 5 },
          { SKU: 'CTL-1', warehouseId: seed.warehouses.main, quantity: 5 },
        ],
      });
      const [second, main] = results(res);
      assert.equal(second!.success, false);
      assert.match(second!.errorMessage, /controlled by an integration/);
      assert.equal(main!.success, true);
      assert.equal(await stockOf('CTL-1', seed.warehouses.second), null);
    });

    it('lets the controlling integration write its warehouse, and nothing outside its mappings', async () => {
      const res = await postInventory(t, seed.inventory.token, {
        products: [
          { SKU: 'CTL-2', warehouseId: seed.warehouses.second, delta_quantity: 3 },
          { SKU: 'CTL-2', warehouseId: seed.warehouses.main, quantity: 5 },
        ],
      });
      const [second, main] = results(res);
      assert.equal(second!.success, true);
      assert.equal(main!.success, false);
      assert.match(main!.errorMessage, /not mapped to this token's integration/);
      assert.equal((await stockOf('CTL-2', seed.warehouses.second))?.available_quantity, 3);
      assert.equal(await stockOf('CTL-2', seed.warehouses.main), null);
    });
  });

  describe('absolute updates and reserved units', () => {
    it('subtracts units routed after pulled_ts from quantity, and keeps available = on-hand − reserved', async () => {
      await setStock(t, seed.sellerToken, [{ SKU: 'RES-1', warehouseId: seed.warehouses.main, quantity: 0 }]);
      const product = (await findProductBySku(t.deps.db.db, seed.accountId, 'RES-1'))!;
      const db = t.deps.db.db;
      // An order line holding 2 units, routed at 12:30 (the orders area writes these).
      await db
        .insertInto('inventory_reservations')
        .values({
          account_id: seed.accountId,
          product_id: product.id,
          warehouse_id: seed.warehouses.main,
          order_line_id: 1,
          quantity: 2,
          routed_at: '2026-05-01T12:30:00.000Z',
        })
        .execute();
      await db
        .updateTable('inventory')
        .set({ reserved_quantity: 2, onhand_quantity: 2 })
        .where('product_id', '=', product.id)
        .where('warehouse_id', '=', seed.warehouses.main)
        .execute();

      // Counted at 12:00, before the order: those 2 units are already gone from the 10 counted.
      const early = await postInventory(t, seed.sellerToken, {
        pulled_ts: '2026-05-01T12:00:00Z',
        warehouseName: 'Main',
        items: [{ SKU: 'RES-1', standardProductId: '1', standardProductIdType: 'UPC', quantity: 10 }],
      });
      assert.equal(results(early)[0]!.success, true);
      let row = await stockOf('RES-1', seed.warehouses.main);
      assert.equal(row?.available_quantity, 8);
      assert.equal(row?.onhand_quantity, 10);

      // Counted at 13:00, after the order: the count is what is available.
      await postInventory(t, seed.sellerToken, {
        pulled_ts: '2026-05-01T13:00:00Z',
        warehouseName: 'Main',
        items: [{ SKU: 'RES-1', standardProductId: '1', standardProductIdType: 'UPC', quantity: 10 }],
      });
      row = await stockOf('RES-1', seed.warehouses.main);
      assert.equal(row?.available_quantity, 10);
      assert.equal(row?.onhand_quantity, 12);
      assert.equal(row?.observed_at, '2026-05-01T13:00:00.000Z');

      // onhand_quantity: available = on-hand − reserved.
      await setStock(t, seed.sellerToken, [{ SKU: 'RES-1', warehouseId: seed.warehouses.main, onhand_quantity: 5 }]);
      row = await stockOf('RES-1', seed.warehouses.main);
      assert.equal(row?.available_quantity, 3);
      assert.equal(row?.onhand_quantity, 5);
      // An older pulled_ts never moves the observation time backwards.
      assert.equal(row?.observed_at, '2026-05-01T13:00:00.000Z');
    });
  });

  describe('refused requests change nothing', () => {
    const item = (extra: Record<string, unknown> = {}) => ({
      SKU: 'BAD-NEW',
      standardProductId: '1',
      standardProductIdType: 'UPC',
      quantity: 1,
      ...extra,
    });
    const many = (n: number) => Array.from({ length: n }, (_, i) => item({ SKU: `BAD-${i}` }));

    const cases: { name: string; payload: unknown; pattern: RegExp }[] = [
      { name: 'quantity as a string', payload: { warehouseName: 'Main', items: [item({ quantity: '5' })] }, pattern: /items\[0\]\.quantity: must be integer/ },
      { name: 'quantity as a boolean', payload: { warehouseName: 'Main', items: [item({ quantity: true })] }, pattern: /items\[0\]\.quantity: must be integer/ },
      { name: 'a fractional quantity', payload: { warehouseName: 'Main', items: [item({ quantity: 1.5 })] }, pattern: /must be integer/ },
      { name: 'a negative quantity', payload: { warehouseName: 'Main', items: [item({ quantity: -1 })] }, pattern: /must be >= 0/ },
      { name: 'a negative onhand_quantity', payload: { products: [{ SKU: 'X', warehouseId: 1, onhand_quantity: -1 }] }, pattern: /products\[0\]\.onhand_quantity: must be >= 0/ },
      { name: 'delta_quantity as a string', payload: { products: [{ SKU: 'X', warehouseId: 1, delta_quantity: '-1' }] }, pattern: /must be integer/ },
      {
        name: 'an unknown standardProductIdType',
        payload: { warehouseName: 'Main', items: [item({ standardProductIdType: 'ASIN' })] },
        pattern: /items\[0\]\.standardProductIdType: must be one of UPC, EAN, ISBN, GTIN/,
      },
      { name: '51 items', payload: { warehouseName: 'Main', items: many(51) }, pattern: /items: must NOT have more than 50 items/ },
      { name: '51 products', payload: { products: Array.from({ length: 51 }, () => ({ SKU: 'X', warehouseId: 1, quantity: 1 })) }, pattern: /more than 50/ },
      { name: 'no items', payload: { warehouseName: 'Main', items: [] }, pattern: /items: must NOT have fewer than 1 items/ },
      {
        name: 'two modes in one item',
        payload: { warehouseName: 'Main', items: [item(), item({ delta_quantity: 2 })] },
        pattern: /items\[1\]: sends quantity and delta_quantity; send exactly one/,
      },
      {
        name: 'no mode in an item',
        payload: { products: [{ SKU: 'X', warehouseId: 1, quantity: 1 }, { SKU: 'Y', warehouseId: 1 }] },
        pattern: /products\[1\]: needs one of quantity, delta_quantity, onhand_quantity/,
      },
      {
        name: 'all three quantities null',
        payload: { products: [{ SKU: 'X', warehouseId: 1, quantity: null, delta_quantity: null, onhand_quantity: null }] },
        pattern: /products\[0\]: needs one of/,
      },
      { name: 'pulled_ts without a zone', payload: { pulled_ts: '2026-05-01T12:00:00', warehouseName: 'Main', items: [item()] }, pattern: /pulled_ts: .*time zone/ },
      { name: 'validAsOf without a zone', payload: { validAsOf: '2026-05-01 12:00', products: [{ SKU: 'X', warehouseId: 1, quantity: 1 }] }, pattern: /validAsOf/ },
      { name: 'items without warehouseName', payload: { items: [item()] }, pattern: /warehouseName: is required/ },
      { name: 'items and products together', payload: { warehouseName: 'Main', items: [item()], products: [{ SKU: 'X', warehouseId: 1, quantity: 1 }] }, pattern: /not both/ },
      { name: 'neither items nor products', payload: { warehouseName: 'Main' }, pattern: /needs items/ },
      { name: 'an item without SKU', payload: { warehouseName: 'Main', items: [{ standardProductId: '1', standardProductIdType: 'UPC', quantity: 1 }] }, pattern: /items\[0\]\.SKU: is required/ },
      { name: 'an empty SKU', payload: { products: [{ SKU: '', warehouseId: 1, quantity: 1 }] }, pattern: /products\[0\]\.SKU/ },
      { name: 'document item without standardProductId', payload: { warehouseName: 'Main', items: [{ SKU: 'X', standardProductIdType: 'UPC', quantity: 1 }] }, pattern: /items\[0\]\.standardProductId: is required/ },
      { name: 'warehouseId as a string', payload: { products: [{ SKU: 'X', warehouseId: '1', quantity: 1 }] }, pattern: /products\[0\]\.warehouseId: must be integer/ },
      { name: 'a JSON array body', payload: [], pattern: /must be object/ },
    ];

    for (const c of cases) {
      it(`answers 400 for ${c.name}`, async () => {
        await setStock(t, seed.sellerToken, [{ SKU: 'STEADY', warehouseId: seed.warehouses.main, quantity: 3 }]);
        const before = await snapshot();
        const res = await postInventory(t, seed.sellerToken, c.payload);
        assertV1Error(res, 400, c.pattern);
        assert.deepEqual(await snapshot(), before);
      });
    }

    it('answers 400 for malformed JSON', async () => {
      const before = await snapshot();
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/inventory',
        headers: { ...bearer(seed.sellerToken), 'content-type': 'application/json' },
        payload: '{"warehouseName": "Main", "items": [',
      });
      assertV1Error(res, 400, /malformed JSON/);
      assert.deepEqual(await snapshot(), before);
    });

    it('names every bad item in one 400', async () => {
      const res = await postInventory(t, seed.sellerToken, {
        warehouseName: 'Main',
        items: [item({ delta_quantity: 1 }), item(), item({ quantity: undefined })],
      });
      const messages = assertV1Error(res, 400);
      assert.equal(messages.length, 2);
      assert.match(messages[0]!, /^items\[0\]/);
      assert.match(messages[1]!, /^items\[2\]/);
    });
  });

  it('answers 401 with the v1 body for a missing or invalid token, changing nothing', async () => {
    const before = await snapshot();
    const payload = { products: [{ SKU: 'AUTH-1', warehouseId: seed.warehouses.main, quantity: 1 }] };
    assertV1Error(await t.app.inject({ method: 'POST', url: '/v1/inventory', payload }), 401);
    assertV1Error(await t.app.inject({ method: 'POST', url: '/v1/inventory', payload, headers: bearer('mcs_nope') }), 401);
    assert.deepEqual(await snapshot(), before);
  });

  it('replays a request sent again with the same Idempotency-Key without applying it twice', async () => {
    await setStock(t, seed.sellerToken, [{ SKU: 'IDEM-1', warehouseId: seed.warehouses.main, quantity: 1 }]);
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/inventory',
        headers: { ...bearer(seed.sellerToken), 'idempotency-key': 'v1-inv-idem-1' },
        payload: { products: [{ SKU: 'IDEM-1', warehouseId: seed.warehouses.main, delta_quantity: 4 }] },
      });
    const first = await send();
    const second = await send();
    assert.equal(first.statusCode, 200);
    assert.equal(second.body, first.body);
    assert.equal((await stockOf('IDEM-1', seed.warehouses.main))?.available_quantity, 5);
  });
});
