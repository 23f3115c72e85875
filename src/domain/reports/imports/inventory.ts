import type { Db } from '../../../db/tx.js';
import { inSavepoint } from '../../../db/savepoint.js';
import { listAccountWarehouses, type WarehouseRow } from '../../accounts/warehouses.js';
import { findOrCreateProduct, findProductsBySkus } from '../../catalog/products.js';
import { applyStockChange, type StockChange } from '../../inventory/stock.js';
import { MAX_QUANTITY } from '../../inventory/v2-update.js';
import { clip, lineError, parseWholeNumber, skuProblem } from './cells.js';
import { mapHeader } from './header-map.js';
import type { ImportKind, LineError, ParsedLine } from './types.js';

/**
 * Inventory import (resolutions §8): `sku`, `warehouse` (id or name), on each line exactly one of
 * `quantity` (sets available) | `onhand_quantity` (sets on-hand) | `delta_quantity` (adds), optional
 * `bin_location`. The modes mean what they mean in POST /v1/inventory. An import acts for the seller:
 * a warehouse whose stock an integration controls is refused per line, as in v1. An unknown SKU is created
 * only with createNewProducts.
 */
const COLUMNS = ['sku', 'warehouse', 'quantity', 'onhand_quantity', 'delta_quantity', 'bin_location'] as const;
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
    const products = new Map((await findProductsBySkus(db, ctx.accountId, [...new Set(lines.map((l) => l.row.sku))], true)).map((p) => [p.sku, p]));
    for (const { line, row } of lines) {
      const refusal = checkLine(plan, ctx.createNewProducts, products.has(row.sku), { line, row });
      if (refusal) {
        errors.push(refusal);
        continue;
      }
      if (!apply) continue;
      const warehouse = findWarehouse(plan.warehouses, row.warehouse)!;
      // Only a delta can be refused by the stock update itself (below zero); its savepoint then undoes the
      // SKU the line created. Absolute modes always apply, so they skip the savepoint's two statements.
      const write = () => applyLine(db, ctx.accountId, warehouse.id, row, ctx.now);
      const outcome = row.change.mode === 'delta' ? await inSavepoint(db, write, (r) => r === null) : await write();
      if (outcome !== null) errors.push(lineError(line, plan.header[plan.index.delta_quantity ?? plan.index.quantity ?? 0] ?? '', outcome));
      else if (!products.has(row.sku)) {
        const created = await findProductsBySkus(db, ctx.accountId, [row.sku], true);
        if (created[0]) products.set(row.sku, created[0]);
      }
    }
    return errors;
  },
};

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

/** Writes one line; returns null when applied, or why it was refused (its writes are then rolled back). */
async function applyLine(db: Db, accountId: number, warehouseId: number, row: Row, now: Date): Promise<string | null> {
  const { product } = await findOrCreateProduct(db, accountId, row.sku, {}, now);
  const outcome = await applyStockChange(db, accountId, product.id, warehouseId, row.change, now, { binLocation: row.binLocation });
  return outcome.ok ? null : outcome.message;
}
