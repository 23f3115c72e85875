import type { Tx } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { findProductBySku } from '../catalog/products.js';
import type { BackorderPort } from './backorder-port.js';
import { applyStockChange } from './stock.js';
import { holdStockClosure } from './stock-locks.js';

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

/**
 * One entry of POST /v2/inventory, inside its own transaction: sets the on-hand count of an existing SKU
 * in a warehouse whose stock the integration controls. v2 never creates products. An update observed
 * before the observation already held is discarded as stale and changes nothing. Units it leaves available
 * go to the orders waiting for them in that warehouse, in the same transaction.
 */
export async function updateInventoryEntry(
  tx: Tx,
  principal: Principal,
  entry: InventoryUpdateEntry,
  observedAt: Date,
  now: Date,
  backorders: BackorderPort,
): Promise<InventoryUpdateResult> {
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
  const product = await findProductBySku(tx, principal.accountId, entry.sku);
  if (!product) {
    return failedEntry(entry, 'UPDATE_FAILURE_REASON_UNKNOWN_SKU', `SKU "${entry.sku}" does not exist in this account`);
  }
  // The row and the kit rows its fill may touch, in one order (stock-locks.ts).
  await holdStockClosure(tx, principal.accountId, [{ productId: product.id, warehouseId: mapping.warehouseId }]);
  const outcome = await applyStockChange(
    tx,
    principal.accountId,
    product.id,
    mapping.warehouseId,
    { mode: 'onhand', quantity: quantity.value },
    now,
    { observedAt, rejectStale: true, binLocation: entry.binLocation === '' ? null : entry.binLocation },
  );
  if (!outcome.ok) {
    if (outcome.reason === 'STALE') {
      return { ...failedEntry(entry, 'UPDATE_FAILURE_REASON_UNSPECIFIED', outcome.message), stale: true };
    }
    return failedEntry(entry, 'UPDATE_FAILURE_REASON_INVALID', outcome.message);
  }
  if (outcome.row.available > 0) await backorders.stockAvailable(tx, principal.accountId, [{ productId: product.id, warehouseId: mapping.warehouseId }], now);
  return {
    sku: entry.sku,
    warehouseUniqueId: entry.warehouseUniqueId,
    success: true,
    errorMessage: '',
    stale: false,
    failureReason: 'UPDATE_FAILURE_REASON_UNSPECIFIED',
  };
}
