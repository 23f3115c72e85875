import type { Tx } from '../../../db/tx.js';
import { createProductsBySku } from '../../catalog/create-products.js';
import { PRODUCT_FIELDS, productFieldByName, type ProductField } from '../../catalog/product-fields.js';
import { findProductsBySkus } from '../../catalog/products.js';
import { notFound } from '../../errors.js';
import { MAX_ID_LENGTH, longerThan } from '../../text-limits.js';
import { skuProblem } from './cells.js';
import { applyProductChunk } from './product-apply.js';
import { attributeValueProblem, readFieldCell } from './product-cells.js';
import type { ProductColumnPlan, ProductPlan } from './product-plan.js';

/**
 * The console's product form (issue 24) is a one-line product import: each value is read by the import's
 * cell reader (readFieldCell: decimals, identifiers, enums, lengths), attributes by its attribute rules, and
 * the product is written by the import's applyProductChunk, so a form and a file can never disagree about a
 * value or about what a write moves (only changed values, updated_at with them, attributes upserted or
 * removed). The form sends every field: a blank one clears the stored value (overwriteWithBlank), and an
 * attribute the form no longer lists is removed. `active` is not on the form and never changes here.
 */

/** The fields the form edits: every writable product field but the SKU (the product's key) and `active`. */
export const FORM_FIELDS: readonly ProductField[] = PRODUCT_FIELDS.filter((f) => !f.readOnly && f.name !== 'sku' && f.name !== 'active');

export interface ProductFormInput {
  /** Only read when creating: an existing product keeps its SKU. */
  sku: string;
  /** Field name (product-fields.ts) → the text typed; absent or blank is no value. */
  fields: Record<string, string>;
  /** The attribute rows in form order; a row with neither name nor value is ignored. */
  attributes: { name: string; value: string }[];
}

/**
 * What is wrong with one input: `field` is a field name, 'sku', or `attribute-name:<row>` /
 * `attribute-value:<row>` (row index in the input); `message` continues the input's label
 * ("is longer than 1,000 characters").
 */
export interface ProductFormProblem {
  field: string;
  message: string;
  /** A duplicate SKU: the product that already has it. */
  existingProductId?: number;
}

export type ProductFormResult = { ok: true; productId: number } | { ok: false; problems: ProductFormProblem[] };

interface Checked {
  sku: string;
  values: Map<string, string | null>;
  attributes: Map<string, string>;
}

/** Checks the form on its own (no database): the values as they would be stored, or every problem. */
export function checkProductForm(input: ProductFormInput, creating: boolean): { ok: true; checked: Checked } | { ok: false; problems: ProductFormProblem[] } {
  const problems: ProductFormProblem[] = [];
  const sku = input.sku.trim();
  if (creating) {
    const problem = skuProblem(sku);
    if (problem) problems.push({ field: 'sku', message: problem });
  }
  const values = new Map<string, string | null>();
  for (const field of FORM_FIELDS) {
    const text = (input.fields[field.name] ?? '').trim();
    if (text === '') {
      values.set(field.name, null);
      continue;
    }
    const read = readFieldCell(field, text);
    if ('error' in read) problems.push({ field: field.name, message: read.error });
    else values.set(field.name, read.value);
  }
  const attributes = new Map<string, string>();
  input.attributes.forEach((row, i) => {
    const name = row.name.trim();
    const value = row.value.trim();
    if (name === '' && value === '') return;
    if (name === '') return problems.push({ field: `attribute-name:${i}`, message: 'is needed for the value next to it' });
    if (longerThan(name, MAX_ID_LENGTH)) return problems.push({ field: `attribute-name:${i}`, message: `is longer than ${MAX_ID_LENGTH} characters` });
    // A file's header with a field's name writes that field, so an attribute can never be named like one.
    const field = productFieldByName(name);
    if (field) return problems.push({ field: `attribute-name:${i}`, message: `"${name}" is the name of a product field: fill that field instead` });
    if (attributes.has(name)) return problems.push({ field: `attribute-name:${i}`, message: `"${name}" is listed twice` });
    // A name with a blank value is an attribute removed, as a blank cell removes it from a file.
    if (value === '') return;
    const problem = attributeValueProblem(value);
    if (problem) return problems.push({ field: `attribute-value:${i}`, message: problem });
    attributes.set(name, value);
  });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, checked: { sku, values, attributes } };
}

/** Creates a product from the form; a SKU the account already has (in any case) is a problem, not an edit. */
export async function createProductFromForm(tx: Tx, accountId: number, input: ProductFormInput, now: Date): Promise<ProductFormResult> {
  const check = checkProductForm(input, true);
  if (!check.ok) {
    // A taken SKU is said with the other problems, so the seller does not fix the form to learn it next.
    const sku = input.sku.trim();
    if (check.problems.some((p) => p.field === 'sku')) return check;
    const taken = await findProductsBySkus(tx, accountId, [sku], false);
    return { ok: false, problems: taken[0] ? [duplicateSku(sku, taken[0]), ...check.problems] : check.problems };
  }
  const { sku } = check.checked;
  const taken = await findProductsBySkus(tx, accountId, [sku], false);
  // createProductsBySku skips a SKU another writer inserted meanwhile: that is a duplicate too.
  const created = taken.length === 0 ? await createProductsBySku(tx, accountId, [sku], now) : new Map<string, number>();
  const productId = created.get(sku);
  if (productId === undefined) {
    const existing = taken[0] ?? (await findProductsBySkus(tx, accountId, [sku], false))[0];
    return { ok: false, problems: [existing ? duplicateSku(sku, existing) : { field: 'sku', message: `"${sku}" is already a product of yours` }] };
  }
  await write(tx, accountId, sku, check.checked, [], now);
  return { ok: true, productId };
}

function duplicateSku(sku: string, existing: { id: number; sku: string }): ProductFormProblem {
  const message =
    existing.sku === sku
      ? `"${sku}" is already a product of yours`
      : `"${sku}" is already a product of yours, written ${existing.sku} (SKUs that differ only in capitals are the same SKU)`;
  return { field: 'sku', message, existingProductId: existing.id };
}

/** Saves the form onto an existing product of the account (404 for another account's or a missing one). */
export async function updateProductFromForm(tx: Tx, accountId: number, productId: number, input: ProductFormInput, now: Date): Promise<ProductFormResult> {
  const row = await tx.selectFrom('products').select('sku').where('account_id', '=', accountId).where('id', '=', productId).executeTakeFirst();
  if (!row) throw notFound(`there is no product ${productId} in this account`);
  const check = checkProductForm(input, false);
  if (!check.ok) return check;
  const stored = await tx.selectFrom('product_attributes').select('attribute_id').where('account_id', '=', accountId).where('product_id', '=', productId).execute();
  const removed = stored.map((a) => a.attribute_id).filter((id) => !check.checked.attributes.has(id));
  await write(tx, accountId, row.sku, check.checked, removed, now);
  return { ok: true, productId };
}

/** One import line: every form field, the attributes given and (blank) those removed. */
async function write(tx: Tx, accountId: number, sku: string, checked: Checked, removedAttributes: string[], now: Date): Promise<void> {
  const columns: ProductColumnPlan[] = [];
  const values: (string | null)[] = [];
  for (const field of FORM_FIELDS) {
    columns.push({ index: columns.length + 1, header: field.name, target: { kind: 'field', field } });
    values.push(checked.values.get(field.name) ?? null);
  }
  for (const [id, value] of checked.attributes) {
    columns.push({ index: columns.length + 1, header: id, target: { kind: 'attribute', id } });
    values.push(value);
  }
  for (const id of removedAttributes) {
    columns.push({ index: columns.length + 1, header: id, target: { kind: 'attribute', id } });
    values.push(null);
  }
  const plan: ProductPlan = { skuIndex: 0, skuHeader: 'sku', columns };
  const ctx = { accountId, overwriteWithBlank: true, createNewProducts: false, insertOnly: false, templateId: null, integrationId: null, now };
  const refused = await applyProductChunk(tx, ctx, plan, [{ line: 1, row: { sku, values } }], true);
  // The product was read or created in this transaction, so the line cannot be refused.
  if (refused.length > 0) throw new Error(`product form write refused: ${refused.map((e) => e.message).join('; ')}`);
}
