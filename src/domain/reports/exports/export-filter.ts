import { PRODUCT_FIELDS, type ProductField, type ProductFieldKind } from '../../catalog/product-fields.js';
import { parseFilterFormula, type CompiledFilter, type FilterField, type FilterFieldType, type FilterRecord } from '../filter-formula.js';
import type { ExportType, ReportOptions } from '../model.js';

/**
 * What the `filter` formula of an export can name (docs/partners/reports-exports.md): the columns of that
 * export type, by their header, with the type the formula compares them as.
 * - Products: every product field (PRODUCT_FIELDS) plus attribute("<id>") for the product's attributes.
 * - Inventory: the inventory columns; a row has no attributes, so attribute(…) is refused at creation.
 */

const FILTER_TYPE_OF_KIND: Record<ProductFieldKind, FilterFieldType> = {
  text: 'string',
  identifier: 'string',
  enum: 'string',
  decimal: 'number',
  boolean: 'boolean',
  timestamp: 'timestamp',
};

export const PRODUCT_FILTER_FIELDS: readonly FilterField[] = PRODUCT_FIELDS.map((field) => ({ name: field.name, type: FILTER_TYPE_OF_KIND[field.kind] }));

/** The columns of an Inventory export, in file order, with the type a filter compares them as. */
export const INVENTORY_COLUMNS: readonly FilterField[] = [
  { name: 'sku', type: 'string' },
  { name: 'warehouse_id', type: 'number' },
  { name: 'warehouse', type: 'string' },
  { name: 'available_quantity', type: 'number' },
  { name: 'onhand_quantity', type: 'number' },
  { name: 'reserved_quantity', type: 'number' },
  { name: 'assembled_quantity', type: 'number' },
  { name: 'bin_location', type: 'string' },
  { name: 'updated_at', type: 'timestamp' },
];

export function exportFilterFields(exportType: ExportType): readonly FilterField[] {
  return exportType === 'Inventory' ? INVENTORY_COLUMNS : PRODUCT_FILTER_FIELDS;
}

/** The formula of the options, or null when none was given (a blank filter is no filter, like an absent one). */
export function exportFilterText(options: Pick<ReportOptions, 'filter'>): string | null {
  const text = options.filter;
  return text === null || text.trim() === '' ? null : text;
}

/** The compiled filter of an export, or null; throws FilterFormulaError (checked at creation, so not at run). */
export function compileExportFilter(exportType: ExportType, options: Pick<ReportOptions, 'filter'>): CompiledFilter | null {
  const text = exportFilterText(options);
  return text === null ? null : parseFilterFormula(text, exportFilterFields(exportType));
}

/** A value of a product column as stored (SQLite and PostgreSQL alike: text, or the 0/1 of `active`). */
export type StoredProductValue = string | number | null;

/**
 * A product as the filter sees it. Decimals stay the stored strings (the formula reads decimal text as a
 * number, so no float ever stands in for a price); `active` becomes a boolean; timestamps stay ISO text.
 */
export function productFilterRecord(
  product: Readonly<Record<ProductField['column'], StoredProductValue>>,
  attributes: Record<string, string>,
): FilterRecord {
  const fields: FilterRecord['fields'] = {};
  for (const field of PRODUCT_FIELDS) {
    const value = product[field.column];
    fields[field.name] = field.kind === 'boolean' ? (value === null ? null : Number(value) === 1) : value;
  }
  return { fields, attributes };
}

/** An inventory row as the filter sees it: its cells by column name. */
export function inventoryFilterRecord(cells: Record<string, string | number | null>): FilterRecord {
  const fields: FilterRecord['fields'] = {};
  for (const column of INVENTORY_COLUMNS) fields[column.name] = cells[column.name] ?? null;
  return { fields, attributes: {} };
}
