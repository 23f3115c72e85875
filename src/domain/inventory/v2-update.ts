import type { Tx } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { findProductsBySkus } from '../catalog/products.js';
import { AvailableStock, type BackorderPort } from './backorder-port.js';
import { holdStockClosure } from './stock-locks.js';
import { applyStockChangesInOrder } from './stock-rounds.js';
import { touchProductsInventory } from './stock-touch.js';

/** Why one entry of POST /v2/inventory failed (resolutions §4); UNSPECIFIED on success and on stale. */
export const UPDATE_FAILURE_REASONS = [
  'UPDATE_FAILURE_REASON_UNSPECIFIED',
  'UPDATE_FAILURE_REASON_UNKNOWN_SKU',
  'UPDATE_FAILURE_REASON_WAREHOUSE_NOT_YOURS',
  'UPDATE_FAILURE_REASON_MISSING_SKU',
  'UPDATE_FAILURE_REASON_INTERNAL',
  'UPDATE_FAILURE_REASON_INVALID',
] as const;
export type UpdateFailureReason = (typeof UPDATE_FAILURE_REASONS)[number];

/** One entry as sent, field names already normalized; absent or null fields are null. */
export interface InventoryUpdateEntry {
  sku: string | null;
  warehouseUniqueId: string | null;
  /** int32 as a JSON number or string (proto3 JSON); checked here so a bad one fails only its entry. */
  quantity: string | number | null;
  binLocation: string | null;
}

export interface InventoryUpdateResult {
  sku: string;
  warehouseUniqueId: string;
  success: boolean;
  errorMessage: string;
  stale: boolean;
  failureReason: UpdateFailureReason;
}

// Stock columns are 32-bit integers on PostgreSQL; a larger count is refused on both databases alike.
export const MAX_QUANTITY = 2_147_483_647;

export function failedEntry(entry: InventoryUpdateEntry, failureReason: UpdateFailureReason, errorMessage: string): InventoryUpdateResult {
  return {
    sku: entry.sku ?? '',
    warehouseUniqueId: entry.warehouseUniqueId ?? '',
    success: false,
    errorMessage,
    stale: false,
    failureReason,
  };
}

/** The absolute on-hand count of an entry, or why it is not one. */
export function parseQuantity(value: string | number | null): { ok: true; value: number } | { ok: false; message: string } {
  // proto3 would read a missing quantity as 0; setting stock to zero by omission is too dangerous to guess.
  if (value === null) return { ok: false, message: 'quantity is required (the absolute on-hand count)' };
  const n = typeof value === 'number' ? value : /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isFinite(n) || !Number.isInteger(n)) {
    return { ok: false, message: `quantity must be a whole number, got ${JSON.stringify(value)}` };
  }
  if (n < 0) return { ok: false, message: `quantity must not be negative, got ${JSON.stringify(value)}` };
  if (n > MAX_QUANTITY) return { ok: false, message: `quantity must be at most ${MAX_QUANTITY}` };
  return { ok: true, value: n };
}

/** Why an entry cannot run, before any database work: a missing SKU, a bad count, a warehouse not the caller's. */
function entryRefusal(principal: Principal, entry: InventoryUpdateEntry): InventoryUpdateResult | { quantity: number; warehouseId: number } {
  if (entry.sku === null || entry.sku.trim() === '') {
    return failedEntry(entry, 'UPDATE_FAILURE_REASON_MISSING_SKU', 'sku is required');
  }
  const quantity = parseQuantity(entry.quantity);
  if (!quantity.ok) return failedEntry(entry, 'UPDATE_FAILURE_REASON_INVALID', quantity.message);
  if (entry.warehouseUniqueId === null || entry.warehouseUniqueId === '') {
    return failedEntry(entry, 'UPDATE_FAILURE_REASON_INVALID', 'warehouseUniqueId is required');
  }
  const mapping = principal.mappings.find((m) => m.warehouseUniqueId === entry.warehouseUniqueId);
  if (!mapping || !mapping.controlsStock) {
    return failedEntry(
      entry,
      'UPDATE_FAILURE_REASON_WAREHOUSE_NOT_YOURS',
      `warehouseUniqueId "${entry.warehouseUniqueId}" is not a warehouse whose stock this integration controls; ` +
        'GET /v2/inventory/warehouses lists yours',
    );
  }
  return { quantity: quantity.value, warehouseId: mapping.warehouseId };
}

/**
 * The entries of POST /v2/inventory, inside the call's transaction and set-based (stock-rounds.ts), each with its
 * own result in request order: sets the on-hand count of existing SKUs in warehouses whose stock the integration
 * controls. v2 never creates products. An entry observed before the observation already held is discarded as
 * stale and changes nothing; entries naming the same SKU and warehouse apply in the order given. Units the
 * entries leave available go to the orders waiting for them, in the same transaction.
 */
export async function updateInventoryEntries(
  tx: Tx,
  principal: Principal,
  entries: readonly InventoryUpdateEntry[],
  observedAt: Date,
  now: Date,
  backorders: BackorderPort,
): Promise<InventoryUpdateResult[]> {
  const accountId = principal.accountId;
  const results: InventoryUpdateResult[] = new Array(entries.length);
  const valid: { index: number; entry: InventoryUpdateEntry & { sku: string; warehouseUniqueId: string }; quantity: number; warehouseId: number }[] = [];
  entries.forEach((entry, index) => {
    const checked = entryRefusal(principal, entry);
    if ('success' in checked) results[index] = checked;
    else valid.push({ index, entry: entry as InventoryUpdateEntry & { sku: string; warehouseUniqueId: string }, ...checked });
  });
  const products = new Map((await findProductsBySkus(tx, accountId, [...new Set(valid.map((v) => v.entry.sku))], true)).map((p) => [p.sku, p.id]));
  const known = valid.filter((v) => {
    if (products.has(v.entry.sku)) return true;
    results[v.index] = failedEntry(v.entry, 'UPDATE_FAILURE_REASON_UNKNOWN_SKU', `SKU "${v.entry.sku}" does not exist in this account`);
    return false;
  });
  if (known.length === 0) return results;
  const keys = known.map((v) => ({ productId: products.get(v.entry.sku)!, warehouseId: v.warehouseId }));
  // The rows and the kit rows their fills may touch, in one order (stock-locks.ts).
  await holdStockClosure(tx, accountId, keys);
  const observed = observedAt.toISOString();
  const outcomes = await applyStockChangesInOrder(
    tx,
    accountId,
    known.map((v, i) => ({
      key: keys[i]!,
      change: { mode: 'onhand', quantity: v.quantity },
      binLocation: v.entry.binLocation === '' ? null : v.entry.binLocation,
      observedAt: observed,
    })),
    now,
    { rejectStale: true },
  );
  const available = new AvailableStock();
  const touched = new Set<number>();
  known.forEach((v, i) => {
    const outcome = outcomes[i]!;
    if (!outcome.ok) {
      results[v.index] = { ...failedEntry(v.entry, 'UPDATE_FAILURE_REASON_UNSPECIFIED', 'a newer observation of this SKU in this warehouse is already recorded'), stale: true };
      return;
    }
    touched.add(keys[i]!.productId);
    available.note(keys[i]!.productId, keys[i]!.warehouseId, outcome.available);
    results[v.index] = {
      sku: v.entry.sku,
      warehouseUniqueId: v.entry.warehouseUniqueId,
      success: true,
      errorMessage: '',
      stale: false,
      failureReason: 'UPDATE_FAILURE_REASON_UNSPECIFIED',
    };
  });
  // Waiting orders take the units first, then the products' inventory timestamps and listing copies move once.
  await available.release(tx, accountId, now, backorders);
  await touchProductsInventory(tx, accountId, [...touched], now);
  return results;
}
