import type { Db, Tx } from '../../db/tx.js';
import { findProductsBySkus, type StandardProductIdType } from '../catalog/products.js';
import { createProductsBySku, deleteUnusedNewProducts } from '../catalog/create-products.js';
import { inventoryWarehouseNarrowing, type Principal } from '../accounts/principal.js';
import { canUpdateInventory, listAccountWarehouses, type WarehouseRow } from '../accounts/warehouses.js';
import type { Refusal } from '../errors.js';
import { AvailableStock, type BackorderPort } from './backorder-port.js';
import { availableAfterCount, MAX_STOCK_UNITS, unitsRoutedAfter, type StockChange } from './stock.js';
import { applyStockChangesInOrder, type OrderedStockChange, type StockRefusal } from './stock-rounds.js';
import { holdStockClosureBySku } from './stock-locks.js';
import { touchProductsInventory } from './stock-touch.js';

/**
 * POST /v1/inventory (document 2.4, resolutions §3): the call's items in its one transaction, each with its
 * own outcome. A failed item changes nothing (no stock change, no product or stock row created for it).
 */

/** Where an item goes: the document shape names the warehouse, the public shape gives its id. */
export type WarehouseRef = { name: string } | { id: number };

export interface InventoryItemV1 {
  sku: string;
  warehouse: WarehouseRef;
  standardProductId: string | null;
  standardProductIdType: StandardProductIdType | null;
  change: StockChange;
  binLocation: string | null;
}

export interface InventoryItemResultV1 {
  SKU: string;
  warehouseId: number | null;
  success: boolean;
  /** "" on success, so clients can test the string without a null check. */
  errorMessage: string;
}

/** What every item of one request resolves warehouses against; read once, before the items run. */
export interface InventoryUpdateContext {
  warehouses: WarehouseRow[];
}

export async function loadInventoryUpdateContext(db: Db, principal: Principal): Promise<InventoryUpdateContext> {
  return { warehouses: await listAccountWarehouses(db, principal.accountId) };
}

/**
 * The caller's own warehouseUniqueId wins over a warehouse name: an integration speaks its own
 * namespace, and the names are the seller's.
 */
function findWarehouse(principal: Principal, context: InventoryUpdateContext, ref: WarehouseRef): WarehouseRow | null {
  if ('id' in ref) return context.warehouses.find((w) => w.id === ref.id) ?? null;
  const mapped = principal.mappings.find((m) => m.warehouseUniqueId === ref.name);
  if (mapped) return context.warehouses.find((w) => w.id === mapped.warehouseId) ?? null;
  return context.warehouses.find((w) => w.name === ref.name) ?? null;
}

function describe(ref: WarehouseRef): string {
  return 'id' in ref ? `warehouse ${ref.id}` : `warehouse "${ref.name}"`;
}

/** Why the caller may not change this warehouse's stock, or null when it may (canUpdateInventory). */
function writeRefusal(principal: Principal, warehouse: WarehouseRow): string | null {
  if (canUpdateInventory(principal, warehouse)) return null;
  const narrowing = inventoryWarehouseNarrowing(principal);
  if (narrowing !== null && !narrowing.includes(warehouse.id)) {
    return `warehouse ${warehouse.id} ("${warehouse.name}") is not mapped to this token's integration (scope inventory:self)`;
  }
  return `the inventory of warehouse ${warehouse.id} ("${warehouse.name}") is controlled by an integration; only that integration may change it`;
}

/**
 * What the items of one call leave to do once, after all of them: the changed products' inventory timestamps
 * and listing stock copies move (touchProductsInventory), and the stock rows left with available units are
 * handed to the orders waiting for them (one existence check for the whole call when none waits).
 */
export interface InventoryBatch {
  touched: Set<number>;
  available: AvailableStock;
}

export function newInventoryBatch(): InventoryBatch {
  return { touched: new Set(), available: new AvailableStock() };
}

/** Ends a batch inside the call's transaction: waiting orders take the stock, then the products are touched. */
export async function finishInventoryBatch(tx: Tx, accountId: number, batch: InventoryBatch, now: Date, backorders: BackorderPort): Promise<void> {
  await batch.available.release(tx, accountId, now, backorders);
  await touchProductsInventory(tx, accountId, [...batch.touched], now);
}

/**
 * Holds the stock rows every item of the call may touch (and the kit rows their fills may touch), in one
 * order, before the first item runs: two calls naming the same SKUs in different orders, or a call and a
 * kit order, then queue instead of deadlocking on PostgreSQL (stock-locks.ts). Items whose warehouse does not
 * resolve are left out (they fail on their own).
 */
export async function holdStockOfItems(tx: Tx, principal: Principal, context: InventoryUpdateContext, items: readonly InventoryItemV1[]): Promise<void> {
  const keys = items.flatMap((item) => {
    const warehouse = findWarehouse(principal, context, item.warehouse);
    return warehouse ? [{ sku: item.sku, warehouseId: warehouse.id }] : [];
  });
  await holdStockClosureBySku(tx, principal.accountId, keys);
}

/** An item's result, and why it failed in a seller's terms (the console's words; the API answers errorMessage). */
export interface InventoryItemOutcome {
  result: InventoryItemResultV1;
  refusal: Refusal | null;
}

/**
 * Applies a call's items inside tx, set-based (stock-rounds.ts): the products of every SKU read in one query, the
 * missing ones created in one insert, the stock changes in a few UPDATE … FROM (VALUES …) statements. Each item
 * keeps its own outcome, as if the items ran one after another: items naming the same stock row apply in the
 * order given, and a failed item changes nothing (no stock row or product is left behind for it). The changed
 * products are touched and the waiting orders filled by finishInventoryBatch.
 */
export async function applyInventoryItemsV1(
  tx: Tx,
  principal: Principal,
  context: InventoryUpdateContext,
  items: readonly InventoryItemV1[],
  now: Date,
  asOf: Date | null,
  batch: InventoryBatch,
): Promise<InventoryItemOutcome[]> {
  const accountId = principal.accountId;
  const outcomes: InventoryItemOutcome[] = new Array(items.length);
  const fail = (index: number, warehouseId: number | null, errorMessage: string, refusal: Refusal) => {
    outcomes[index] = { result: { SKU: items[index]!.sku, warehouseId, success: false, errorMessage }, refusal };
  };
  // Warehouses and permissions first: they need no database.
  const accepted: { index: number; item: InventoryItemV1; warehouse: WarehouseRow }[] = [];
  items.forEach((item, index) => {
    const warehouse = findWarehouse(principal, context, item.warehouse);
    if (!warehouse) {
      fail(index, 'id' in item.warehouse ? item.warehouse.id : null, `${describe(item.warehouse)} not found in this account`, { code: 'stock.unknown_warehouse', facts: {} });
      return;
    }
    const refusal = writeRefusal(principal, warehouse);
    if (refusal) fail(index, warehouse.id, refusal, { code: 'stock.controlled_by_app', facts: { warehouse: warehouse.name } });
    else accepted.push({ index, item, warehouse });
  });
  if (accepted.length === 0) return outcomes;

  const skus = [...new Set(accepted.map((a) => a.item.sku))];
  const products = new Map((await findProductsBySkus(tx, accountId, skus, true)).map((p) => [p.sku, p.id]));
  // A new SKU's product is created with the identifiers of its first item that stock at zero takes (the first
  // that can succeed); a SKU named only by deltas that remove units gets none (they are refused anyway).
  const firstTaken = new Map<string, InventoryItemV1>();
  for (const { item } of accepted) {
    if (!products.has(item.sku) && !firstTaken.has(item.sku) && (item.change.mode !== 'delta' || item.change.delta >= 0)) firstTaken.set(item.sku, item);
  }
  const identifiersOf = (sku: string) => {
    const item = firstTaken.get(sku)!;
    return { standardProductId: item.standardProductId, standardProductIdType: item.standardProductIdType };
  };
  // Sorted: parallel calls creating the same SKUs take their index entries in one order.
  const created = await createProductsBySku(tx, accountId, [...firstTaken.keys()].sort(), now, identifiersOf);
  for (const [sku, id] of created) products.set(sku, id);
  const raced = [...firstTaken.keys()].filter((sku) => !products.has(sku));
  // Created by another transaction between the read and the insert.
  for (const p of await findProductsBySkus(tx, accountId, raced, true)) products.set(p.sku, p.id);

  const runs = accepted.filter((a) => products.has(a.item.sku));
  const keyOf = (a: (typeof runs)[number]) => ({ productId: products.get(a.item.sku)!, warehouseId: a.warehouse.id });
  const counted = runs.filter((a) => a.item.change.mode === 'available');
  const routed = asOf && counted.length > 0 ? await unitsRoutedAfter(tx, accountId, counted.map(keyOf), asOf) : new Map<string, number>();
  const changes: OrderedStockChange[] = runs.map((a) => {
    const key = keyOf(a);
    const change = a.item.change;
    return {
      key,
      change: change.mode === 'available' ? { mode: 'available', quantity: availableAfterCount(change.quantity, routed.get(`${key.productId}:${key.warehouseId}`) ?? 0) } : change,
      binLocation: a.item.binLocation,
      // pulled_ts / validAsOf is when the counts were taken: recorded as the row's observation time.
      observedAt: change.mode === 'delta' || asOf === null ? null : asOf.toISOString(),
    };
  });
  const applied = await applyStockChangesInOrder(tx, accountId, changes, now);

  const usedProducts = new Set<number>();
  runs.forEach((a, i) => {
    const outcome = applied[i]!;
    const key = changes[i]!.key;
    if (outcome.ok) {
      usedProducts.add(key.productId);
      batch.touched.add(key.productId);
      // Units available here may be what backordered orders wait for (finishInventoryBatch hands them over).
      batch.available.note(key.productId, key.warehouseId, outcome.available);
      outcomes[a.index] = { result: { SKU: a.item.sku, warehouseId: a.warehouse.id, success: true, errorMessage: '' }, refusal: null };
    } else refuseStock(a, outcome.reason);
  });
  // SKUs with no product: named only by deltas that remove units, which stock at zero refuses.
  for (const a of accepted) if (!products.has(a.item.sku)) refuseStock(a, 'NEGATIVE');
  // A failed item changes nothing: products created for items that all failed go again (their rows went already).
  const unusedProducts = [...created.values()].filter((id) => !usedProducts.has(id));
  if (unusedProducts.length > 0) await deleteUnusedNewProducts(tx, accountId, unusedProducts);
  return outcomes;

  function refuseStock(a: (typeof accepted)[number], reason: StockRefusal) {
    const change = a.item.change;
    if (reason === 'NEGATIVE' && change.mode === 'delta') {
      fail(a.index, a.warehouse.id, `delta_quantity ${change.delta} would make the available quantity negative`, {
        code: 'stock.would_go_negative',
        facts: { sku: a.item.sku, warehouse: a.warehouse.name, units: -change.delta },
      });
      return;
    }
    fail(a.index, a.warehouse.id, `the change would take the stock of ${a.item.sku} in ${describe(a.item.warehouse)} past ${MAX_STOCK_UNITS} units`, {
      code: 'stock.too_large',
      facts: { sku: a.item.sku, warehouse: a.warehouse.name },
    });
  }
}
