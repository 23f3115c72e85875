import type { ProductsTable } from '../../db/schema.js';

/**
 * The catalog fields of a product as files name them (resolutions §8: `sku` plus product fields by name;
 * any other header is an attribute id). One list serves exports (their columns, in this order, then one
 * column per attribute id), imports (header matching) and the export filter formula (its field names).
 *
 * Kinds: `text` free text; `decimal` a non-negative decimal string (prices, measures); `boolean` TRUE/FALSE;
 * `identifier` digits (UPC/EAN/ISBN/GTIN, checked by length); `enum` one of `values`; `timestamp` read-only.
 * Read-only fields are exported and ignored when a file brings them back (an export imports unchanged).
 */
export type ProductFieldKind = 'text' | 'decimal' | 'boolean' | 'identifier' | 'enum' | 'timestamp';

export type ProductColumn = Exclude<
  keyof ProductsTable,
  // low_stock_*: an inventory setting and its figure (src/domain/inventory/low-stock.ts), not catalog fields.
  'id' | 'account_id' | 'sku_lower' | 'inventory_updated_at' | 'landed_cost_units' | 'landed_cost_total' | 'low_stock_threshold' | 'low_stock_gap'
>;

export interface ProductField {
  /** The header in files and the name in filter formulas. */
  name: string;
  column: ProductColumn;
  kind: ProductFieldKind;
  readOnly?: boolean;
  /** enum values (compared case-insensitively on import, stored as listed). */
  values?: readonly string[];
  /** identifier lengths allowed (digits). */
  lengths?: readonly number[];
  /** Other header spellings accepted on import. */
  aliases?: readonly string[];
}

export const PRODUCT_FIELDS: readonly ProductField[] = [
  { name: 'sku', column: 'sku', kind: 'text' },
  { name: 'active', column: 'active', kind: 'boolean' },
  { name: 'title', column: 'title', kind: 'text', aliases: ['name', 'product_name'] },
  { name: 'description', column: 'description', kind: 'text' },
  { name: 'brand', column: 'brand', kind: 'text' },
  { name: 'manufacturer', column: 'manufacturer', kind: 'text' },
  { name: 'mpn', column: 'mpn', kind: 'text' },
  { name: 'model_number', column: 'model_number', kind: 'text' },
  { name: 'condition', column: 'product_condition', kind: 'text' },
  { name: 'standard_product_id', column: 'standard_product_id', kind: 'text' },
  { name: 'standard_product_id_type', column: 'standard_product_id_type', kind: 'enum', values: ['UPC', 'EAN', 'ISBN', 'GTIN'] },
  { name: 'upc', column: 'upc', kind: 'identifier', lengths: [12] },
  { name: 'ean', column: 'ean', kind: 'identifier', lengths: [13] },
  { name: 'isbn', column: 'isbn', kind: 'identifier', lengths: [10, 13] },
  { name: 'gtin', column: 'gtin', kind: 'identifier', lengths: [8, 12, 13, 14] },
  { name: 'price', column: 'price', kind: 'decimal' },
  { name: 'msrp', column: 'msrp', kind: 'decimal' },
  { name: 'map', column: 'map_price', kind: 'decimal', aliases: ['map_price'] },
  { name: 'cost', column: 'cost', kind: 'decimal' },
  { name: 'weight', column: 'weight', kind: 'decimal' },
  { name: 'weight_unit', column: 'weight_unit', kind: 'enum', values: ['lb', 'oz', 'kg', 'g'] },
  { name: 'length', column: 'length', kind: 'decimal' },
  { name: 'width', column: 'width', kind: 'decimal' },
  { name: 'height', column: 'height', kind: 'decimal' },
  { name: 'dimension_unit', column: 'dimension_unit', kind: 'enum', values: ['in', 'cm'] },
  { name: 'category', column: 'category', kind: 'text' },
  { name: 'tags', column: 'tags', kind: 'text' },
  { name: 'image_url', column: 'image_url', kind: 'text' },
  // The weighted-average landed unit cost of the units received on inbound shipments (src/domain/inbound).
  { name: 'landed_cost', column: 'landed_cost', kind: 'decimal', readOnly: true },
  { name: 'created_at', column: 'created_at', kind: 'timestamp', readOnly: true },
  { name: 'updated_at', column: 'updated_at', kind: 'timestamp', readOnly: true },
];

/** Header names compare case-insensitively with spaces and `_` equal (resolutions §8). */
export function normalizeFieldName(name: string): string {
  return name.trim().toLowerCase().replace(/[\s_]+/g, '_');
}

const BY_NAME = new Map<string, ProductField>();
for (const field of PRODUCT_FIELDS) {
  BY_NAME.set(normalizeFieldName(field.name), field);
  for (const alias of field.aliases ?? []) BY_NAME.set(normalizeFieldName(alias), field);
}

/** The product field a header names, or null (then the header is an attribute id). */
export function productFieldByName(header: string): ProductField | null {
  return BY_NAME.get(normalizeFieldName(header)) ?? null;
}
