import type { ProductField } from '../../catalog/product-fields.js';
import { MAX_ID_LENGTH } from '../../text-limits.js';
import { clip, lineError, skuProblem } from './cells.js';
import { attributeValueProblem, readFieldCell } from './product-cells.js';
import type { LineError, PrepareResult } from './types.js';

/**
 * How a product file (TemplatelessProduct or FullProductData) is read: which column holds the SKU and what
 * every other column writes. The two types differ only in how a header finds its target (by name, or
 * through the seller's template); everything after that is shared, so they validate and apply alike.
 */
export type ProductTarget = { kind: 'field'; field: ProductField } | { kind: 'attribute'; id: string };

export interface ProductColumnPlan {
  index: number;
  header: string;
  target: ProductTarget;
}

export interface ProductPlan {
  skuIndex: number;
  skuHeader: string;
  /** Every column written, sku excluded, in file order. */
  columns: ProductColumnPlan[];
}

export interface ProductRow {
  sku: string;
  /** Per plan column: the value read, or null for a blank cell. */
  values: (string | null)[];
}

/** What one header is read as: a target, ignored with a note, or a problem that stops the file. */
export type HeaderReading = { target: ProductTarget } | { ignored: string } | { error: string };

/** Builds the plan from the header, given how one header finds its target and what to say without a sku column. */
export function planProductColumns(header: string[], read: (header: string) => HeaderReading, noSkuColumn: string): PrepareResult<ProductPlan> {
  const notes: LineError[] = [];
  const actualHeaders: (string | null)[] = [];
  const columns: ProductColumnPlan[] = [];
  const byTarget = new Map<string, string>();
  let sku: { index: number; header: string } | null = null;
  for (const [index, h] of header.entries()) {
    const reading = read(h);
    if ('error' in reading) return { ok: false, error: reading.error };
    if ('ignored' in reading) {
      notes.push(lineError(1, h, reading.ignored));
      actualHeaders.push(null);
      continue;
    }
    const name = targetName(reading.target);
    // Target names compare as headers do; attribute ids are case-sensitive, so those compare exactly.
    const key = reading.target.kind === 'field' ? `field:${name}` : `attribute:${name}`;
    const earlier = byTarget.get(key);
    if (earlier !== undefined) return { ok: false, error: `the columns "${clip(earlier)}" and "${clip(h)}" both write ${name}; keep one of them` };
    byTarget.set(key, h);
    actualHeaders.push(name);
    if (reading.target.kind === 'field' && reading.target.field.name === 'sku') sku = { index, header: h };
    else columns.push({ index, header: h, target: reading.target });
  }
  if (!sku) return { ok: false, error: noSkuColumn };
  return { ok: true, plan: { skuIndex: sku.index, skuHeader: sku.header, columns }, actualHeaders, notes };
}

export function targetName(target: ProductTarget): string {
  return target.kind === 'field' ? target.field.name : target.id;
}

/** An attribute id as a header or template names it: kept as written, trimmed. */
export function attributeTarget(id: string, where: string): HeaderReading {
  const trimmed = id.trim();
  if ([...trimmed].length > MAX_ID_LENGTH) return { error: `${where} "${clip(trimmed)}" is longer than ${MAX_ID_LENGTH} characters, too long for an attribute id` };
  return { target: { kind: 'attribute', id: trimmed } };
}

export const READ_ONLY_NOTE = (name: string) => `${name} is read-only (set by the service); the column is ignored`;

/** Checks one line on its own: every cell by its field's kind. */
export function parseProductLine(plan: ProductPlan, cells: string[], line: number): { row: ProductRow } | { errors: LineError[] } {
  const errors: LineError[] = [];
  const sku = (cells[plan.skuIndex] ?? '').trim();
  const skuError = skuProblem(sku);
  if (skuError) errors.push(lineError(line, plan.skuHeader, `${plan.skuHeader} ${skuError}`));
  const values: (string | null)[] = [];
  for (const column of plan.columns) {
    const text = (cells[column.index] ?? '').trim();
    if (text === '') {
      values.push(null);
      continue;
    }
    if (column.target.kind === 'attribute') {
      const problem = attributeValueProblem(text);
      if (problem) errors.push(lineError(line, column.header, `${column.header} ${problem}`));
      values.push(text);
      continue;
    }
    const read = readFieldCell(column.target.field, text);
    if ('error' in read) {
      errors.push(lineError(line, column.header, `${column.header} ${read.error}`));
      values.push(null);
    } else values.push(read.value);
  }
  if (errors.length > 0) return { errors };
  return { row: { sku, values } };
}
