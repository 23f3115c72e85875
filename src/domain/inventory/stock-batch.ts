import { sql } from 'kysely';
import type { Db } from '../../db/tx.js';
import { newStockRow, updateStockRow, type StockChange } from './stock.js';

/**
 * Set-based stock writes for bulk work (imports): the same effects as applyStockChange line by line, with
 * the per-line statements cut to the one conditional UPDATE each line needs. Stock rows are ensured for a
 * whole batch in one INSERT … ON CONFLICT DO NOTHING, and the product's inventory timestamp and the
 * listing variants' stock copy move once per product per batch (touchProductsInventory) instead of once
 * per line. Every counter still changes with one conditional UPDATE (DESIGN.md "Counters").
 */

const SLICE = 250;

export interface StockKey {
  productId: number;
  warehouseId: number;
}

/** Creates the missing stock rows of these (product, warehouse) pairs at zero; returns the pairs it created. */
export async function ensureStockRows(db: Db, accountId: number, keys: readonly StockKey[], now: Date): Promise<StockKey[]> {
  const seen = new Set<string>();
  const unique = keys
    .filter((k) => {
      const id = `${k.productId}:${k.warehouseId}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    // One order for every writer: two batches over the same rows never wait on each other in a cycle.
    .sort((a, b) => a.productId - b.productId || a.warehouseId - b.warehouseId);
  const iso = now.toISOString();
  const created: StockKey[] = [];
  for (let i = 0; i < unique.length; i += SLICE) {
    const rows = await db
      .insertInto('inventory')
      .values(
        unique.slice(i, i + SLICE).map((k) => newStockRow(accountId, k.productId, k.warehouseId, iso)),
      )
      .onConflict((oc) => oc.columns(['account_id', 'product_id', 'warehouse_id']).doNothing())
      .returning(['product_id', 'warehouse_id'])
      .execute();
    for (const r of rows) created.push({ productId: Number(r.product_id), warehouseId: Number(r.warehouse_id) });
  }
  return created;
}

/** Deletes stock rows that ensureStockRows created in this transaction and no change used after all. */
export async function deleteNewStockRows(db: Db, accountId: number, keys: readonly StockKey[]): Promise<void> {
  for (const k of keys) {
    await db
      .deleteFrom('inventory')
      .where('account_id', '=', accountId)
      .where('product_id', '=', k.productId)
      .where('warehouse_id', '=', k.warehouseId)
      .execute();
  }
}

/** A change that cannot be refused: an absolute one, or a delta that adds. */
export function cannotFail(change: StockChange): boolean {
  return change.mode !== 'delta' || change.delta >= 0;
}

export interface KeyedStockChange {
  key: StockKey;
  change: StockChange;
  binLocation: string | null;
}

/** A stock row's available units after a change. */
export interface StockLevel extends StockKey {
  available: number;
}

/**
 * Applies changes that cannot be refused (cannotFail), at most one per (product, warehouse), as one
 * INSERT … ON CONFLICT DO UPDATE per mode and slice: a missing stock row is created with the change applied
 * to zero stock, an existing one gets the same conditional arithmetic as applyStockChange (the counters
 * are computed from the row's own columns by the statement, never read first). Refusable changes
 * (negative deltas) go through stockUpdater one by one. Answers each row's available units after it.
 */
export async function upsertStockChanges(db: Db, accountId: number, changes: readonly KeyedStockChange[], now: Date): Promise<StockLevel[]> {
  const iso = now.toISOString();
  const levels: StockLevel[] = [];
  const sorted = [...changes].sort((a, b) => a.key.productId - b.key.productId || a.key.warehouseId - b.key.warehouseId);
  for (const mode of ['delta', 'available', 'onhand'] as const) {
    const ofMode = sorted.filter((c) => c.change.mode === mode);
    for (let i = 0; i < ofMode.length; i += SLICE) {
      const rows = ofMode.slice(i, i + SLICE).map(({ key, change, binLocation }) => {
        if (!cannotFail(change) || (change.mode !== 'delta' && change.asOf)) throw new Error('upsertStockChanges takes only changes that cannot fail, without asOf');
        const value = change.mode === 'delta' ? change.delta : change.quantity;
        return {
          account_id: accountId,
          product_id: key.productId,
          warehouse_id: key.warehouseId,
          // On a new row (nothing reserved) every mode sets available and on-hand to the value.
          available_quantity: value,
          onhand_quantity: value,
          reserved_quantity: 0,
          assembled_quantity: null,
          bin_location: binLocation,
          observed_at: null,
          updated_at: iso,
        };
      });
      const written = await db
        .insertInto('inventory')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['account_id', 'product_id', 'warehouse_id']).doUpdateSet((eb) => {
            const common = {
              bin_location: eb.fn.coalesce(eb.ref('excluded.bin_location'), eb.ref('inventory.bin_location')),
              updated_at: eb.ref('excluded.updated_at'),
            };
            if (mode === 'delta') {
              return {
                ...common,
                available_quantity: eb(eb.ref('inventory.available_quantity'), '+', eb.ref('excluded.available_quantity')),
                onhand_quantity: eb(eb.ref('inventory.onhand_quantity'), '+', eb.ref('excluded.onhand_quantity')),
              };
            }
            if (mode === 'available') {
              return {
                ...common,
                available_quantity: eb.ref('excluded.available_quantity'),
                onhand_quantity: eb(eb.ref('excluded.available_quantity'), '+', eb.ref('inventory.reserved_quantity')),
              };
            }
            return {
              ...common,
              onhand_quantity: eb.ref('excluded.onhand_quantity'),
              available_quantity: sql<number>`case when ${eb.ref('excluded.onhand_quantity')} - ${eb.ref('inventory.reserved_quantity')} > 0 then ${eb.ref('excluded.onhand_quantity')} - ${eb.ref('inventory.reserved_quantity')} else 0 end`,
            };
          }),
        )
        .returning(['product_id', 'warehouse_id', 'available_quantity'])
        .execute();
      for (const r of written) levels.push({ productId: Number(r.product_id), warehouseId: Number(r.warehouse_id), available: Number(r.available_quantity) });
    }
  }
  return levels;
}

/**
 * The conditional UPDATE of one stock change (applyStockChange's, without asOf and observedAt, through the
 * same compiled statements: updateStockRow), for a batch's refusable lines: the units available after it,
 * or null when it was refused.
 */
export function stockUpdater(db: Db): (accountId: number, key: StockKey, change: StockChange, binLocation: string | null, now: string) => Promise<number | null> {
  return async (accountId, key, change, binLocation, now) => {
    if (change.mode !== 'delta' && change.asOf) throw new Error('stockUpdater does not take asOf; use applyStockChange');
    const value = change.mode === 'delta' ? change.delta : change.quantity;
    const row = await updateStockRow(db, accountId, key.productId, key.warehouseId, change.mode, value, now, { observedAt: null, rejectStale: false, bin: binLocation });
    return row === undefined ? null : Number(row.available_quantity);
  };
}

/** Available and reserved units per (product, warehouse) of some products, keyed `productId:warehouseId`. */
export async function stockLevels(db: Db, accountId: number, productIds: number[]): Promise<Map<string, { available: number; reserved: number }>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('inventory')
    .select(['product_id', 'warehouse_id', 'available_quantity', 'reserved_quantity'])
    .where('account_id', '=', accountId)
    .where('product_id', 'in', productIds)
    .execute();
  return new Map(rows.map((r) => [`${r.product_id}:${r.warehouse_id}`, { available: r.available_quantity, reserved: r.reserved_quantity }]));
}
