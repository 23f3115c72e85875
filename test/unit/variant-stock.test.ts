import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { DbHandle } from '../../src/db/connect.js';
import { withTx } from '../../src/db/tx.js';
import { applyStockChange } from '../../src/domain/inventory/stock.js';
import { refreshVariantStock, stockSnapshot } from '../../src/domain/inventory/variant-stock-sync.js';
import { productHasVariants, recordVariantStock, warehouseQuantitiesJson } from '../../src/domain/listings/variant-stock.js';
import { createTestDatabase } from '../helpers/app.js';
import { variantRow } from '../helpers/listings.js';

describe('stockSnapshot (pure)', () => {
  it('sums merchant and channel-fulfilled warehouses apart and lists merchant warehouses by id', () => {
    const snapshot = stockSnapshot([
      { warehouseId: 9, available: 4, channelFulfilled: false },
      { warehouseId: 3, available: 7, channelFulfilled: true },
      { warehouseId: 2, available: 0, channelFulfilled: false },
      { warehouseId: 5, available: 6, channelFulfilled: true },
    ]);
    assert.deepEqual(snapshot, {
      merchantQuantity: 4,
      storefrontQuantity: 13,
      warehouseQuantities: [
        { warehouseId: 2, quantity: 0 },
        { warehouseId: 9, quantity: 4 },
      ],
    });
  });

  it('is all zeros for a product without stock rows', () => {
    assert.deepEqual(stockSnapshot([]), { merchantQuantity: 0, storefrontQuantity: 0, warehouseQuantities: [] });
  });

  it('floors a (never expected) negative available at zero', () => {
    assert.equal(stockSnapshot([{ warehouseId: 1, available: -3, channelFulfilled: false }]).merchantQuantity, 0);
  });

  it('stores warehouse ids as strings, in id order, whatever the input order', () => {
    const a = warehouseQuantitiesJson({ merchantQuantity: 3, storefrontQuantity: 0, warehouseQuantities: [{ warehouseId: 10, quantity: 1 }, { warehouseId: 2, quantity: 2 }] });
    const b = warehouseQuantitiesJson({ merchantQuantity: 3, storefrontQuantity: 0, warehouseQuantities: [{ warehouseId: 2, quantity: 2 }, { warehouseId: 10, quantity: 1 }] });
    assert.equal(a, b);
    assert.equal(a, '[{"warehouseId":"2","quantity":2},{"warehouseId":"10","quantity":1}]');
  });
});

describe('recordVariantStock and refreshVariantStock (database)', () => {
  let handle: DbHandle;
  let drop: () => Promise<void>;
  let accountId: number;
  let storefrontId: number;
  let otherStorefrontId: number;
  let merchantWh: number;
  let merchantWh2: number;
  let channelWh: number;
  const T0 = '2026-01-01T00:00:00.000Z';
  let n = 0;

  const db = () => handle.db;
  const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000);

  async function product(sku: string): Promise<number> {
    const row = await db()
      .insertInto('products')
      .values({
        account_id: accountId,
        sku,
        sku_lower: sku.toLowerCase(),
        standard_product_id: null,
        standard_product_id_type: null,
        title: null,
        active: 1,
        inventory_updated_at: T0,
        created_at: T0,
        updated_at: T0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async function variant(productId: number, sku: string, storefront = storefrontId): Promise<number> {
    const row = await db()
      .insertInto('listing_variants')
      .values(variantRow({ account_id: accountId, storefront_id: storefront, listing_id: null, product_id: productId, sku }, T0))
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  const read = (id: number) =>
    db()
      .selectFrom('listing_variants')
      .select(['merchant_quantity', 'storefront_quantity', 'warehouse_quantities', 'inventory_updated_at', 'intended_changed_at', 'drifting', 'last_sent_quantity'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  before(async () => {
    ({ handle, drop } = await createTestDatabase());
    accountId = Number((await db().insertInto('accounts').values({ name: 'a', created_at: T0 }).returning('id').executeTakeFirstOrThrow()).id);
    const app = await db()
      .insertInto('apps')
      .values({
        name: 'Channel',
        contact_email: 'dev@partner.example',
        redirect_uri: 'https://partner.example/cb',
        logo_url: null,
        kind: 'SALES_CHANNEL',
        scopes: '[]',
        callback_base_url: null,
        client_id: 'c1',
        client_secret_hash: 'x',
        previous_client_secret_hash: null,
        previous_secret_expires_at: null,
        callback_signing_secret_sealed: 'x',
        previous_callback_signing_secret_sealed: null,
        created_at: T0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const install = (name: string) =>
      db()
        .insertInto('installations')
        .values({ account_id: accountId, app_id: app.id, kind: 'SALES_CHANNEL', status: 'ACTIVE', storefront_name: name, created_at: T0, revoked_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
    storefrontId = Number((await install('One')).id);
    otherStorefrontId = Number((await install('Two')).id);
    const warehouse = async (name: string, channel: number) =>
      Number((await db().insertInto('warehouses').values({ account_id: accountId, name, channel_fulfilled: channel, created_at: T0 }).returning('id').executeTakeFirstOrThrow()).id);
    merchantWh = await warehouse('Main', 0);
    channelWh = await warehouse('Channel', 1);
    merchantWh2 = await warehouse('Second', 0);
  });
  after(async () => {
    await handle.close();
    await drop();
  });
  beforeEach(() => {
    n += 1;
  });

  it('writes a changed snapshot on every variant of the product, moving both timestamps and drifting', async () => {
    const p = await product(`P${n}`);
    const v1 = await variant(p, `P${n}`);
    const v2 = await variant(p, `P${n}`, otherStorefrontId);
    const changed = await recordVariantStock(db(), accountId, p, { merchantQuantity: 5, storefrontQuantity: 2, warehouseQuantities: [{ warehouseId: 7, quantity: 5 }] }, at(1));
    assert.equal(changed, 2);
    for (const id of [v1, v2]) {
      assert.deepEqual(await read(id), {
        merchant_quantity: 5,
        storefront_quantity: 2,
        warehouse_quantities: '[{"warehouseId":"7","quantity":5}]',
        inventory_updated_at: at(1).toISOString(),
        intended_changed_at: at(1).toISOString(),
        drifting: 1,
        last_sent_quantity: null,
      });
    }
  });

  it('leaves variants alone when nothing in the snapshot differs', async () => {
    const p = await product(`P${n}`);
    const v = await variant(p, `P${n}`);
    const snap = { merchantQuantity: 3, storefrontQuantity: 0, warehouseQuantities: [{ warehouseId: 1, quantity: 3 }] };
    await recordVariantStock(db(), accountId, p, snap, at(1));
    assert.equal(await recordVariantStock(db(), accountId, p, snap, at(2)), 0);
    const row = await read(v);
    assert.equal(row.inventory_updated_at, at(1).toISOString());
    assert.equal(row.intended_changed_at, at(1).toISOString());
  });

  it('moves intended_changed_at only when merchant + storefront changes', async () => {
    const p = await product(`P${n}`);
    const v = await variant(p, `P${n}`);
    await recordVariantStock(db(), accountId, p, { merchantQuantity: 4, storefrontQuantity: 0, warehouseQuantities: [{ warehouseId: 1, quantity: 4 }] }, at(1));
    // Same total split differently: the inventory poll sees it, the drift clock does not restart.
    await recordVariantStock(
      db(),
      accountId,
      p,
      { merchantQuantity: 4, storefrontQuantity: 0, warehouseQuantities: [{ warehouseId: 1, quantity: 1 }, { warehouseId: 2, quantity: 3 }] },
      at(2),
    );
    let row = await read(v);
    assert.equal(row.inventory_updated_at, at(2).toISOString());
    assert.equal(row.intended_changed_at, at(1).toISOString());
    await recordVariantStock(db(), accountId, p, { merchantQuantity: 2, storefrontQuantity: 2, warehouseQuantities: [{ warehouseId: 1, quantity: 2 }] }, at(3));
    row = await read(v);
    assert.equal(row.inventory_updated_at, at(3).toISOString());
    assert.equal(row.intended_changed_at, at(1).toISOString(), '2 + 2 is still 4');
    await recordVariantStock(db(), accountId, p, { merchantQuantity: 2, storefrontQuantity: 3, warehouseQuantities: [{ warehouseId: 1, quantity: 2 }] }, at(4));
    row = await read(v);
    assert.equal(row.intended_changed_at, at(4).toISOString());
  });

  it('recomputes drifting against the last quantity sent', async () => {
    const p = await product(`P${n}`);
    const v = await variant(p, `P${n}`);
    await db().updateTable('listing_variants').set({ last_sent_quantity: 6, drifting: 1 }).where('id', '=', v).execute();
    await recordVariantStock(db(), accountId, p, { merchantQuantity: 6, storefrontQuantity: 0, warehouseQuantities: [] }, at(1));
    assert.equal((await read(v)).drifting, 0);
    await recordVariantStock(db(), accountId, p, { merchantQuantity: 5, storefrontQuantity: 0, warehouseQuantities: [] }, at(2));
    assert.equal((await read(v)).drifting, 1);
    await recordVariantStock(db(), accountId, p, { merchantQuantity: 1, storefrontQuantity: 5, warehouseQuantities: [] }, at(3));
    assert.equal((await read(v)).drifting, 0);
  });

  it('productHasVariants tells listed from unlisted products', async () => {
    const listed = await product(`P${n}`);
    const unlisted = await product(`Q${n}`);
    await variant(listed, `P${n}`);
    assert.equal(await productHasVariants(db(), accountId, listed), true);
    assert.equal(await productHasVariants(db(), accountId, unlisted), false);
    assert.equal(await productHasVariants(db(), accountId + 1000, listed), false, 'another account');
  });

  it('refreshVariantStock reads the stock rows; applyStockChange keeps the copy current in its transaction', async () => {
    const p = await product(`P${n}`);
    const v = await variant(p, `P${n}`);
    await withTx(db(), async (tx) => {
      await applyStockChange(tx, accountId, p, merchantWh2, { mode: 'available', quantity: 4 }, at(1));
      await applyStockChange(tx, accountId, p, merchantWh, { mode: 'available', quantity: 3 }, at(1));
      await applyStockChange(tx, accountId, p, channelWh, { mode: 'available', quantity: 10 }, at(1));
    });
    const row = await read(v);
    assert.equal(row.merchant_quantity, 7);
    assert.equal(row.storefront_quantity, 10);
    const ids = [merchantWh, merchantWh2].sort((a, b) => a - b);
    const qty = new Map([
      [merchantWh, 3],
      [merchantWh2, 4],
    ]);
    assert.deepEqual(JSON.parse(row.warehouse_quantities), ids.map((id) => ({ warehouseId: String(id), quantity: qty.get(id) })));
    assert.equal(row.inventory_updated_at, at(1).toISOString());

    // A refresh with unchanged stock changes nothing; an unlisted product is skipped.
    const unlisted = await product(`Q${n}`);
    await withTx(db(), (tx) => refreshVariantStock(tx, accountId, [p, unlisted, p], at(5)));
    assert.equal((await read(v)).inventory_updated_at, at(1).toISOString());

    // A failed delta (would go negative) changes nothing, the copy included.
    const outcome = await withTx(db(), (tx) => applyStockChange(tx, accountId, p, merchantWh, { mode: 'delta', delta: -50 }, at(6)));
    assert.equal(outcome.ok, false);
    assert.equal((await read(v)).merchant_quantity, 7);
  });

  it('parallel stock changes of one product in different warehouses leave the copy equal to the stock', async () => {
    const p = await product(`P${n}`);
    const v = await variant(p, `P${n}`);
    const warehouses: number[] = [];
    for (let i = 0; i < 6; i++) {
      warehouses.push(
        Number((await db().insertInto('warehouses').values({ account_id: accountId, name: `Par ${n}-${i}`, channel_fulfilled: i % 3 === 0 ? 1 : 0, created_at: T0 }).returning('id').executeTakeFirstOrThrow()).id),
      );
    }
    for (let round = 1; round <= 10; round++) {
      await Promise.all(
        warehouses.map((w, i) => withTx(db(), (tx) => applyStockChange(tx, accountId, p, w, { mode: 'available', quantity: round * 10 + i }, at(10 + round)))),
      );
      const stockRows = await db()
        .selectFrom('inventory as i')
        .innerJoin('warehouses as w', 'w.id', 'i.warehouse_id')
        .select(['i.warehouse_id', 'i.available_quantity', 'w.channel_fulfilled'])
        .where('i.product_id', '=', p)
        .execute();
      const truth = stockSnapshot(stockRows.map((r) => ({ warehouseId: r.warehouse_id, available: r.available_quantity, channelFulfilled: r.channel_fulfilled === 1 })));
      const row = await read(v);
      assert.deepEqual(
        { merchant: row.merchant_quantity, storefront: row.storefront_quantity, warehouses: row.warehouse_quantities },
        { merchant: truth.merchantQuantity, storefront: truth.storefrontQuantity, warehouses: warehouseQuantitiesJson(truth) },
        `round ${round}`,
      );
    }
  });
});
