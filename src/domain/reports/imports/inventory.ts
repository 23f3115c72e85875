import { listAccountWarehouses, type WarehouseRow } from '../../accounts/warehouses.js';
import { createProductsBySku, deleteUnusedNewProducts } from '../../catalog/create-products.js';
import { findProductsBySkus } from '../../catalog/products.js';
import type { StockChange } from '../../inventory/stock.js';
import {
  stockLevels,
  cannotFail,
  deleteNewStockRows,
  ensureStockRows,
  stockUpdater,
  upsertStockChanges,
  type KeyedStockChange,
  type StockKey,
} from '../../inventory/stock-batch.js';
import { touchProductsInventory } from '../../inventory/stock-touch.js';
import { holdStockClosure } from '../../inventory/stock-locks.js';
import { AvailableStock } from '../../inventory/backorder-port.js';
import { backorderPort } from '../../fulfillment/backorder-port.js';
import type { Tx } from '../../../db/tx.js';
import { MAX_QUANTITY } from '../../inventory/v2-update.js';
import { clip, lineError, parseWholeNumber, skuProblem } from './cells.js';
import { mapHeader } from './header-map.js';
import type { ImportKind, LineError, ParsedLine } from './types.js';

/**
 * Inventory import (resolutions §8): `sku`, `warehouse` (id or name), on each line exactly one of
 * `quantity` (sets available) | `onhand_quantity` (sets on-hand) | `delta_quantity` (adds), optional
 * `bin_location`. The modes mean what they mean in POST /v1/inventory. An import acts for the seller:
 * a warehouse whose stock an integration controls is refused per line, as in v1. An unknown SKU is created
 * only with createNewProducts. Stock a chunk leaves available fills the orders waiting for it (oldest
 * first) in the chunk's transaction, as any stock change does.
 */
export const COLUMNS = ['sku', 'warehouse', 'quantity', 'onhand_quantity', 'delta_quantity', 'bin_location'] as const;
type Column = (typeof COLUMNS)[number];
const MODES = ['quantity', 'onhand_quantity', 'delta_quantity'] as const;

interface Plan {
  index: Partial<Record<Column, number>>;
  header: string[];
  warehouses: WarehouseRow[];
}

interface Row {
  sku: string;
  warehouse: string;
  change: StockChange;
  binLocation: string | null;
}

function findWarehouse(warehouses: WarehouseRow[], ref: string): WarehouseRow | null {
  if (/^\d+$/.test(ref)) {
    const byId = warehouses.find((w) => w.id === Number(ref));
    if (byId) return byId;
  }
  return warehouses.find((w) => w.name === ref) ?? warehouses.find((w) => w.name.toLowerCase() === ref.toLowerCase()) ?? null;
}

export const inventoryImport: ImportKind<Plan, Row> = {
  type: 'Inventory',

  async prepare(db, ctx, header) {
    const { index, unknown, duplicates, actual } = mapHeader(header, COLUMNS, { warehouse_id: 'warehouse', warehouse_name: 'warehouse', onhand: 'onhand_quantity', delta: 'delta_quantity', bin: 'bin_location' });
    const missing = (['sku', 'warehouse'] as const).filter((c) => index[c] === undefined);
    if (missing.length > 0) return { ok: false, error: `the header has no ${missing.join(' or ')} column; an Inventory file needs sku, warehouse and one of quantity, onhand_quantity, delta_quantity` };
    if (!MODES.some((m) => index[m] !== undefined)) return { ok: false, error: 'the header has none of quantity, onhand_quantity, delta_quantity; an Inventory file needs one of them' };
    if (duplicates.length > 0) return { ok: false, error: `the header names the same column twice: ${duplicates.join(', ')}` };
    const notes: LineError[] = unknown.map((h) => lineError(1, h, 'not an Inventory column; ignored (columns: sku, warehouse, quantity, onhand_quantity, delta_quantity, bin_location)'));
    return { ok: true, plan: { index, header, warehouses: await listAccountWarehouses(db, ctx.accountId) }, actualHeaders: actual, notes };
  },

  parseLine(plan, cells, line) {
    const cell = (c: Column) => (plan.index[c] === undefined ? '' : (cells[plan.index[c]!] ?? '').trim());
    const header = (c: Column) => (plan.index[c] === undefined ? c : plan.header[plan.index[c]!]!);
    const errors: LineError[] = [];
    const sku = cell('sku');
    const skuError = skuProblem(sku);
    if (skuError) errors.push(lineError(line, header('sku'), `sku ${skuError}`));
    const warehouse = cell('warehouse');
    if (warehouse === '') errors.push(lineError(line, header('warehouse'), 'warehouse is required (its id or name)'));
    const given = MODES.filter((m) => cell(m) !== '');
    let change: StockChange | null = null;
    if (given.length !== 1) {
      errors.push(lineError(line, given.length > 1 ? header(given[1]!) : header('quantity'), given.length === 0 ? 'one of quantity, onhand_quantity, delta_quantity is required' : `only one of quantity, onhand_quantity, delta_quantity may be filled, not ${given.join(' and ')}`));
    } else {
      const mode = given[0]!;
      const parsed = parseWholeNumber(cell(mode), mode === 'delta_quantity' ? -MAX_QUANTITY : 0, MAX_QUANTITY);
      if ('error' in parsed) errors.push(lineError(line, header(mode), `${mode} ${parsed.error}`));
      else if (mode === 'quantity') change = { mode: 'available', quantity: parsed.value };
      else if (mode === 'onhand_quantity') change = { mode: 'onhand', quantity: parsed.value };
      else change = { mode: 'delta', delta: parsed.value };
    }
    const bin = cell('bin_location');
    if (bin.length > 255) errors.push(lineError(line, header('bin_location'), 'bin_location is longer than 255 characters'));
    if (errors.length > 0 || !change) return { errors };
    return { row: { sku, warehouse, change, binLocation: bin === '' ? null : bin } };
  },

  async processChunk(db, ctx, plan, lines, apply) {
    const errors: LineError[] = [];
    const products = new Map((await findProductsBySkus(db, ctx.accountId, [...new Set(lines.map((l) => l.row.sku))], true)).map((p) => [p.sku, p.id]));
    const accepted: { line: number; row: Row; warehouseId: number }[] = [];
    for (const { line, row } of lines) {
      const refusal = checkLine(plan, ctx.createNewProducts, products.has(row.sku), { line, row });
      if (refusal) errors.push(refusal);
      else accepted.push({ line, row, warehouseId: findWarehouse(plan.warehouses, row.warehouse)!.id });
    }
    if (accepted.length === 0) return errors;
    if (!apply) return [...errors, ...(await refusedByStock(db, ctx.accountId, plan, accepted, products))];

    // Set-based per chunk (a chunk is one transaction): one query for the chunk's products (above), the
    // missing ones in one multi-row insert, the stock changes in multi-row upserts or conditional updates
    // (below), and the product's inventory timestamp and variant stock copy once per product at the end.
    const created = await createProductsBySku(db, ctx.accountId, accepted.filter((a) => !products.has(a.row.sku)).map((a) => a.row.sku), ctx.now);
    for (const [sku, id] of created) products.set(sku, id);
    const missing = [...new Set(accepted.filter((a) => !products.has(a.row.sku)).map((a) => a.row.sku))];
    // Created by another transaction between the read and the insert.
    for (const p of await findProductsBySkus(db, ctx.accountId, missing, true)) products.set(p.sku, p.id);
    const keyOf = (a: (typeof accepted)[number]) => ({ productId: products.get(a.row.sku)!, warehouseId: a.warehouseId });

    // Lines are grouped by stock row (file order kept within a group; rows are independent of each other).
    // A group whose lines cannot be refused folds into one change, and all those go in a few multi-row
    // upserts; a group with a negative delta runs line by line, each a conditional UPDATE that may refuse.
    const groups = new Map<string, { key: StockKey; lines: typeof accepted }>();
    for (const a of accepted) {
      const key = keyOf(a);
      const id = `${key.productId}:${key.warehouseId}`;
      const group = groups.get(id);
      if (group) group.lines.push(a);
      else groups.set(id, { key, lines: [a] });
    }
    const folded: KeyedStockChange[] = [];
    const stepwise: { key: StockKey; lines: typeof accepted }[] = [];
    for (const group of groups.values()) {
      const change = foldChanges(group.lines.map((l) => l.row.change));
      if (change) folded.push({ key: group.key, change, binLocation: group.lines.reduce<string | null>((bin, l) => l.row.binLocation ?? bin, null) });
      else stepwise.push(group);
    }
    // Rows left with available units are where backordered orders may now be filled (after the chunk's lines).
    // Every row the chunk and its fills may touch, held in one order first (stock-locks.ts).
    await holdStockClosure(db, ctx.accountId, [...groups.values()].map((g) => g.key));
    const available = new AvailableStock();
    for (const level of await upsertStockChanges(db, ctx.accountId, folded, ctx.now)) available.note(level.productId, level.warehouseId, level.available);
    const changedProducts = new Set<number>(folded.map((f) => f.key.productId));

    const newRows = await ensureStockRows(db, ctx.accountId, stepwise.map((g) => g.key), ctx.now);
    const update = stockUpdater(db);
    const iso = ctx.now.toISOString();
    const usedRows = new Set<string>();
    const changeColumn = plan.header[plan.index.delta_quantity ?? plan.index.quantity ?? 0] ?? '';
    for (const { key, lines: groupLines } of stepwise) {
      for (const a of groupLines) {
        const left = await update(ctx.accountId, key, a.row.change, a.row.binLocation, iso);
        if (left !== null) {
          changedProducts.add(key.productId);
          usedRows.add(`${key.productId}:${key.warehouseId}`);
          available.note(key.productId, key.warehouseId, left);
        } else {
          // Only a delta can be refused by the update itself (it would take the stock below zero).
          errors.push(lineError(a.line, changeColumn, a.row.change.mode === 'delta' ? `delta_quantity ${a.row.change.delta} would make the available quantity negative` : 'the stock row is gone'));
        }
      }
    }

    // A refused line changes nothing: the stock rows and products created for lines that were all refused go.
    const unusedRows = newRows.filter((k) => !usedRows.has(`${k.productId}:${k.warehouseId}`));
    if (unusedRows.length > 0) await deleteNewStockRows(db, ctx.accountId, unusedRows);
    const unusedProducts = [...created.values()].filter((id) => !changedProducts.has(id));
    if (unusedProducts.length > 0) await deleteUnusedNewProducts(db, ctx.accountId, unusedProducts);
    // The orders waiting for the stock get it in the chunk's transaction, oldest first (one check when none waits).
    await available.release(db as Tx, ctx.accountId, ctx.now, backorderPort);
    await touchProductsInventory(db, ctx.accountId, [...changedProducts], ctx.now);
    return errors;
  },
};

/**
 * Validation (apply false): the lines the stock update itself would refuse — a negative delta that would take
 * the available quantity below zero — found by playing the chunk's changes in file order over the stock as
 * it is now, as the import does. New SKUs start at zero.
 */
async function refusedByStock(db: Parameters<typeof stockLevels>[0], accountId: number, plan: Plan, accepted: { line: number; row: Row; warehouseId: number }[], products: Map<string, number>): Promise<LineError[]> {
  const productIds = [...new Set(accepted.map((a) => products.get(a.row.sku)).filter((id): id is number => id !== undefined))];
  const stock = await stockLevels(db, accountId, productIds);
  const column = plan.header[plan.index.delta_quantity ?? plan.index.quantity ?? 0] ?? '';
  const errors: LineError[] = [];
  for (const { line, row, warehouseId } of accepted) {
    const key = `${products.get(row.sku) ?? `new:${row.sku}`}:${warehouseId}`;
    const current = stock.get(key) ?? { available: 0, reserved: 0 };
    const change = row.change;
    if (change.mode === 'available') current.available = change.quantity;
    else if (change.mode === 'onhand') current.available = Math.max(0, change.quantity - current.reserved);
    else if (current.available + change.delta < 0) {
      errors.push(lineError(line, column, `delta_quantity ${change.delta} would make the available quantity negative`));
      continue;
    } else current.available += change.delta;
    stock.set(key, current);
  }
  return errors;
}

function checkLine(plan: Plan, createNewProducts: boolean, skuExists: boolean, { line, row }: ParsedLine<Row>): LineError | null {
  const header = (c: Column) => plan.header[plan.index[c]!] ?? c;
  const warehouse = findWarehouse(plan.warehouses, row.warehouse);
  if (!warehouse) return lineError(line, header('warehouse'), `warehouse "${clip(row.warehouse)}" not found in this account (give its id or exact name)`);
  if (warehouse.controlledBy !== null) {
    return lineError(line, header('warehouse'), `the inventory of warehouse ${warehouse.id} ("${warehouse.name}") is controlled by an integration; only that integration may change it`);
  }
  if (!skuExists && !createNewProducts) return lineError(line, header('sku'), `SKU "${clip(row.sku)}" does not exist; send createNewProducts true to create it`);
  return null;
}

/**
 * One change with the effect of these in sequence, when none of them can be refused and the result is
 * expressible as one: deltas add up, an absolute change replaces what came before, and deltas after an
 * absolute `quantity` raise it. Null otherwise (a negative delta; deltas after an on-hand count, whose
 * available quantity depends on what is reserved) — those lines run one by one.
 */
function foldChanges(changes: StockChange[]): StockChange | null {
  let folded: StockChange | null = null;
  for (const change of changes) {
    if (!cannotFail(change)) return null;
    if (change.mode !== 'delta' || folded === null) folded = change;
    else if (folded.mode === 'delta') folded = { mode: 'delta', delta: folded.delta + change.delta };
    else if (folded.mode === 'available') folded = { mode: 'available', quantity: folded.quantity + change.delta };
    else return null;
  }
  return folded;
}
