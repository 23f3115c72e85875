import type { Db, Tx } from '../../db/tx.js';
import { findOrCreateProduct, type StandardProductIdType } from '../catalog/products.js';
import { inventoryWarehouseNarrowing, type Principal } from '../accounts/principal.js';
import { canUpdateInventory, listAccountWarehouses, type WarehouseRow } from '../accounts/warehouses.js';
import type { Refusal } from '../errors.js';
import { AvailableStock, type BackorderPort } from './backorder-port.js';
import { applyStockChange, type StockChange } from './stock.js';
import { holdStockClosureBySku } from './stock-locks.js';
import { touchProductsInventory } from './stock-touch.js';

/**
 * POST /v1/inventory (document 2.4, resolutions §3): one item at a time, each in its own savepoint of the
 * call's transaction, each with its own outcome. A failed item changes nothing (its savepoint rolls back,
 * including a product it would have created).
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

/** Thrown inside an item's transaction to roll it back while still reporting the item's result. */
export class InventoryItemRejected extends Error {
  readonly result: InventoryItemResultV1;
  /** Why, for the console's words (the API's item result carries errorMessage only). */
  readonly refusal: Refusal | null;
  constructor(result: InventoryItemResultV1, refusal: Refusal | null = null) {
    super(result.errorMessage);
    this.name = 'InventoryItemRejected';
    this.result = result;
    this.refusal = refusal;
  }
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

/**
 * Applies one item inside tx and returns its result; a failure throws InventoryItemRejected so the
 * edge rolls the item's transaction back and reports the result. With a batch, the product touch and the
 * backorder fill wait for finishInventoryBatch; without one, they happen here (an item on its own).
 */
export async function applyInventoryItemV1(
  tx: Tx,
  principal: Principal,
  context: InventoryUpdateContext,
  item: InventoryItemV1,
  now: Date,
  asOf: Date | null,
  backorders: BackorderPort,
  batch?: InventoryBatch,
): Promise<InventoryItemResultV1> {
  const warehouse = findWarehouse(principal, context, item.warehouse);
  const fail = (warehouseId: number | null, errorMessage: string, refusal: Refusal) =>
    new InventoryItemRejected({ SKU: item.sku, warehouseId, success: false, errorMessage }, refusal);
  if (!warehouse) {
    throw fail('id' in item.warehouse ? item.warehouse.id : null, `${describe(item.warehouse)} not found in this account`, { code: 'stock.unknown_warehouse', facts: {} });
  }
  const refusal = writeRefusal(principal, warehouse);
  if (refusal) throw fail(warehouse.id, refusal, { code: 'stock.controlled_by_app', facts: { warehouse: warehouse.name } });

  const { product } = await findOrCreateProduct(
    tx,
    principal.accountId,
    item.sku,
    { standardProductId: item.standardProductId, standardProductIdType: item.standardProductIdType },
    now,
  );
  const change: StockChange = item.change.mode === 'delta' ? item.change : { ...item.change, asOf };
  const outcome = await applyStockChange(tx, principal.accountId, product.id, warehouse.id, change, now, {
    binLocation: item.binLocation,
    // pulled_ts / validAsOf is when the counts were taken: recorded as the row's observation time.
    observedAt: item.change.mode === 'delta' ? null : asOf,
    ...(batch ? { touchLater: batch.touched } : {}),
  });
  if (!outcome.ok) {
    const units = item.change.mode === 'delta' ? -item.change.delta : 0;
    throw fail(
      warehouse.id,
      outcome.message,
      outcome.reason === 'NEGATIVE'
        ? { code: 'stock.would_go_negative', facts: { sku: item.sku, warehouse: warehouse.name, units } }
        : { code: 'stock.newer_count_recorded', facts: { sku: item.sku, warehouse: warehouse.name } },
    );
  }
  // Units available here may be what backordered orders wait for (noted last: a rejected item notes nothing).
  const available = batch?.available ?? new AvailableStock();
  available.note(product.id, warehouse.id, outcome.row.available);
  if (!batch) await available.release(tx, principal.accountId, now, backorders);
  return { SKU: item.sku, warehouseId: warehouse.id, success: true, errorMessage: '' };
}
