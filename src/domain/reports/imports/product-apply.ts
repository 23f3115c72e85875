import type { Updateable } from 'kysely';
import type { ProductsTable } from '../../../db/schema.js';
import type { Db } from '../../../db/tx.js';
import type { ProductColumn } from '../../catalog/product-fields.js';
import { rebuildProductSearch, writeProductSearch } from '../../catalog/product-search.js';
import { deleteProductAttribute, insertProductsIfAbsent, updateProductColumns, upsertProductAttributes } from '../../catalog/product-import-writes.js';
import { findProductsBySkus, newProductRow } from '../../catalog/products.js';
import { clip, lineError } from './cells.js';
import type { ProductPlan, ProductRow } from './product-plan.js';
import type { ImportContext, LineError, ParsedLine } from './types.js';

/**
 * Applies a chunk of product lines set-based: one query reads the chunk's products, one their attributes
 * (only the ids the file writes); the lines then apply in file order to an in-memory copy, so the same SKU
 * twice in a chunk ends as the later line says. Only what differs from the stored values is written: one
 * UPDATE per changed product (updated_at moves only then), new products in multi-row inserts, attributes in
 * multi-row upserts and one delete per attribute id. Every check happens before the first write, so a
 * refused line never needs a savepoint.
 *
 * Options (document 2.9): overwriteWithBlank — a blank cell clears the field or deletes the attribute
 * (never `active`: a product is active unless a file says FALSE); insertOnly — only blank fields and absent
 * attributes are filled, filled ones stay as they are; createNewProducts — an unknown SKU is created,
 * otherwise its line is refused.
 */

type Value = string | null;

interface Working {
  /** null until inserted (a product this chunk creates). */
  id: number | null;
  values: Map<ProductColumn, Value>;
  changed: Set<ProductColumn>;
  attributes: Map<string, string>;
  /** Attribute ids whose value was set or removed. */
  changedAttributes: Set<string>;
  /** Inserted by this chunk with all its values: no update needed. */
  inserted?: boolean;
}

const INSERT_SLICE = 100;

export async function applyProductChunk(db: Db, ctx: ImportContext, plan: ProductPlan, lines: ParsedLine<ProductRow>[], apply: boolean): Promise<LineError[]> {
  const skus = [...new Set(lines.map((l) => l.row.sku))];
  const fieldColumns = [...new Set(plan.columns.flatMap((c) => (c.target.kind === 'field' ? [c.target.field.column] : [])))];
  const attributeIds = [...new Set(plan.columns.flatMap((c) => (c.target.kind === 'attribute' ? [c.target.id] : [])))];
  const products = await readProducts(db, ctx.accountId, skus, apply ? fieldColumns : []);
  if (apply && attributeIds.length > 0) await readAttributes(db, ctx.accountId, products, attributeIds);

  const errors: LineError[] = [];
  for (const { line, row } of lines) {
    let product = products.get(row.sku);
    if (!product) {
      if (!ctx.createNewProducts) {
        errors.push(lineError(line, plan.skuHeader, `SKU "${clip(row.sku)}" does not exist; send createNewProducts true to create it`));
        continue;
      }
      product = { id: null, values: new Map(), changed: new Set(), attributes: new Map(), changedAttributes: new Set() };
      products.set(row.sku, product);
    }
    if (apply) applyLine(product, plan, row, ctx);
  }
  if (apply) await writeChanges(db, ctx, products);
  return errors;
}

function applyLine(product: Working, plan: ProductPlan, row: ProductRow, ctx: ImportContext): void {
  plan.columns.forEach((column, i) => {
    const value = row.values[i] ?? null;
    if (column.target.kind === 'field') {
      const name = column.target.field.column;
      if (value === null && (!ctx.overwriteWithBlank || name === 'active')) return;
      const current = product.values.get(name) ?? null;
      if (ctx.insertOnly && current !== null && current !== '') return;
      if (current === value) return;
      product.values.set(name, value);
      product.changed.add(name);
      return;
    }
    const id = column.target.id;
    const current = product.attributes.get(id);
    if (value === null) {
      if (!ctx.overwriteWithBlank || current === undefined) return;
      product.attributes.delete(id);
      product.changedAttributes.add(id);
      return;
    }
    if (ctx.insertOnly && current !== undefined && current !== '') return;
    if (current === value) return;
    product.attributes.set(id, value);
    product.changedAttributes.add(id);
  });
}

async function readProducts(db: Db, accountId: number, skus: string[], columns: ProductColumn[]): Promise<Map<string, Working>> {
  const out = new Map<string, Working>();
  if (skus.length === 0) return out;
  const rows = await db
    .selectFrom('products')
    .select(['id', 'sku', ...columns])
    .where('account_id', '=', accountId)
    .where('sku', 'in', skus)
    .execute();
  for (const row of rows as Record<string, unknown>[]) {
    const values = new Map<ProductColumn, Value>();
    for (const column of columns) values.set(column, storedText(column, row[column]));
    out.set(row.sku as string, { id: row.id as number, values, changed: new Set(), attributes: new Map(), changedAttributes: new Set() });
  }
  return out;
}

/** Stored values as the file's cells read them: `active` is an integer column, the rest text. */
function storedText(column: ProductColumn, value: unknown): Value {
  if (value === null || value === undefined) return null;
  if (column === 'active') return Number(value) === 1 ? '1' : '0';
  return String(value);
}

async function readAttributes(db: Db, accountId: number, products: Map<string, Working>, attributeIds: string[]): Promise<void> {
  const byId = new Map<number, Working>();
  for (const p of products.values()) if (p.id !== null) byId.set(p.id, p);
  if (byId.size === 0) return;
  const rows = await db
    .selectFrom('product_attributes')
    .select(['product_id', 'attribute_id', 'value'])
    .where('account_id', '=', accountId)
    .where('product_id', 'in', [...byId.keys()])
    .where('attribute_id', 'in', attributeIds)
    .execute();
  for (const row of rows) byId.get(row.product_id)?.attributes.set(row.attribute_id, row.value);
}

async function writeChanges(db: Db, ctx: ImportContext, products: Map<string, Working>): Promise<void> {
  const now = ctx.now.toISOString();
  const created = [...products.entries()].filter(([, p]) => p.id === null);
  await insertProducts(db, ctx.accountId, created, now);

  const retitled: number[] = [];
  for (const product of products.values()) {
    if (product.id === null || product.inserted || (product.changed.size === 0 && product.changedAttributes.size === 0)) continue;
    const set: Updateable<ProductsTable> = { updated_at: now };
    for (const column of product.changed) assignColumn(set, column, product.values.get(column) ?? null);
    await updateProductColumns(db, ctx.accountId, product.id, set);
    if (product.changed.has('title') || product.changed.has('brand')) retitled.push(product.id);
  }
  // The catalog search's words of a product whose title or brand changed (product-search.ts).
  await rebuildProductSearch(db, ctx.accountId, retitled);

  const upserts: { account_id: number; product_id: number; attribute_id: string; value: string; updated_at: string }[] = [];
  const deletes = new Map<string, number[]>();
  for (const product of products.values()) {
    for (const id of product.changedAttributes) {
      const value = product.attributes.get(id);
      if (value !== undefined) upserts.push({ account_id: ctx.accountId, product_id: product.id!, attribute_id: id, value, updated_at: now });
      else deletes.set(id, [...(deletes.get(id) ?? []), product.id!]);
    }
  }
  await upsertProductAttributes(db, upserts);
  for (const [id, productIds] of deletes) await deleteProductAttribute(db, ctx.accountId, id, productIds);
}

/**
 * Inserts the products this chunk creates and sets their ids. A SKU another writer created since the chunk
 * read its products (the unique (account_id, sku) index refuses the insert) is read back instead, and the
 * chunk's values are then written onto it as an update, as if it had existed.
 */
async function insertProducts(db: Db, accountId: number, created: [string, Working][], now: string): Promise<void> {
  for (let i = 0; i < created.length; i += INSERT_SLICE) {
    const slice = created.slice(i, i + INSERT_SLICE);
    const rows = slice.map(([sku, p]) => {
      const row = newProductRow(accountId, sku, now);
      for (const column of p.changed) assignColumn(row, column, p.values.get(column) ?? null);
      return row;
    });
    const inserted = await insertProductsIfAbsent(db, rows);
    const ids = new Map(inserted.map((r) => [r.sku, r.id]));
    // The catalog search's words of the new products, as inserted (product-search.ts); a raced SKU's product
    // has its own, rewritten by the update pass when its title or brand changes.
    const rowOf = new Map(rows.map((r) => [r.sku, r]));
    await writeProductSearch(
      db,
      accountId,
      inserted.map((r) => ({ id: Number(r.id), sku: r.sku, title: rowOf.get(r.sku)?.title ?? null, brand: rowOf.get(r.sku)?.brand ?? null })),
    );
    const raced = slice.filter(([sku]) => !ids.has(sku)).map(([sku]) => sku);
    for (const r of await findProductsBySkus(db, accountId, raced, true)) ids.set(r.sku, r.id);
    for (const [sku, p] of slice) {
      const id = ids.get(sku);
      if (id === undefined) throw new Error(`product ${sku} vanished after a conflicting insert`);
      p.id = id;
      // Inserted rows are complete; only a raced one still needs its values written by the update pass.
      if (!raced.includes(sku)) p.inserted = true;
    }
  }
}

function assignColumn(row: Updateable<ProductsTable>, column: ProductColumn, value: Value): void {
  if (column === 'active') row.active = value === '0' ? 0 : 1;
  else if (column !== 'created_at' && column !== 'updated_at' && column !== 'sku') row[column] = value;
}
