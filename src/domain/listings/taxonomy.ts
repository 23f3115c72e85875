import type { Db, Tx } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { emitStorefrontProductDataNudge } from '../callbacks/nudges.js';
import { alreadyExists, failedPrecondition, invalidFields, invalidField, notFound, permissionDenied, type FieldViolation } from '../errors.js';
import { idViolation, parseAttributeSpec, readStoredSpec, type StoredSpec } from './taxonomy-spec.js';

/**
 * A storefront's taxonomy (document 2.15, 4.7; resolutions §4): product types and the attribute
 * specifications of each. Everything is keyed by (account, storefront): another storefront's taxonomy is
 * invisible (404). The specs' maxUniqueItems is kept in its own column because the listing polls read it
 * to leave out attributes the channel would reject (attribute-limits.ts).
 */

/** Caps that keep the unpaged list routes sane; creating past them is a FAILED_PRECONDITION. */
export const MAX_PRODUCT_TYPES_PER_STOREFRONT = 10_000;
export const MAX_SPECS_PER_PRODUCT_TYPE = 2_000;

/** The production ProductType message exactly: a description sent with it is kept but never answered. */
export interface ProductTypeView {
  productTypeId: string;
  displayName: string;
  createdAt: string;
  updatedAt: string;
}

/** 2.15 in proto3 JSON: every field emitted, maxUniqueItems an int64 string ("0" = no limit). */
export interface AttributeSpecView extends StoredSpec {
  attributeSpecId: string;
  maxUniqueItems: string;
  createdAt: string;
  updatedAt: string;
}

interface Storefront {
  accountId: number;
  storefrontId: number;
}

function storefrontOf(principal: Principal): Storefront {
  // The route's auth binding already refuses other tokens; this keeps the domain safe on its own.
  if (principal.storefrontId === null) throw permissionDenied('this operation needs a token of a sales-channel installation');
  return { accountId: principal.accountId, storefrontId: principal.storefrontId };
}

/** Code-unit order, the same on both databases (PostgreSQL would otherwise sort by its locale). */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface ProductTypeRow {
  product_type_id: string;
  display_name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

const productTypeView = (r: ProductTypeRow): ProductTypeView => ({
  productTypeId: r.product_type_id,
  displayName: r.display_name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

interface SpecRow {
  attribute_spec_id: string;
  spec: string;
  max_unique_items: number | null;
  created_at: string;
  updated_at: string;
}

const specView = (r: SpecRow): AttributeSpecView => ({
  attributeSpecId: r.attribute_spec_id,
  ...readStoredSpec(r.spec),
  maxUniqueItems: String(r.max_unique_items ?? 0),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const PRODUCT_TYPE_COLUMNS = ['product_type_id', 'display_name', 'description', 'created_at', 'updated_at'] as const;
const SPEC_COLUMNS = ['attribute_spec_id', 'spec', 'max_unique_items', 'created_at', 'updated_at'] as const;

function productTypes(db: Db, sf: Storefront) {
  return db.selectFrom('taxonomy_product_types').where('account_id', '=', sf.accountId).where('storefront_id', '=', sf.storefrontId);
}

function specs(db: Db, sf: Storefront, productTypeId: string) {
  return db
    .selectFrom('taxonomy_attribute_specs')
    .where('account_id', '=', sf.accountId)
    .where('storefront_id', '=', sf.storefrontId)
    .where('product_type_id', '=', productTypeId);
}

async function requireProductType(db: Db, sf: Storefront, productTypeId: string): Promise<void> {
  const row = await productTypes(db, sf).select('id').where('product_type_id', '=', productTypeId).executeTakeFirst();
  if (!row) throw notFound(`product type "${productTypeId}" not found`);
}

function checkId(field: string, value: string): void {
  const problem = idViolation(value);
  if (problem) throw invalidField(field, problem);
}

export async function listProductTypes(db: Db, principal: Principal): Promise<ProductTypeView[]> {
  const rows = await productTypes(db, storefrontOf(principal)).select(PRODUCT_TYPE_COLUMNS).execute();
  return rows.map(productTypeView).sort((a, b) => byText(a.productTypeId, b.productTypeId));
}

export interface ProductTypeInput {
  productTypeId: string;
  displayName: string;
  description: string;
}

/** Reads {productTypeId*, displayName, description} (camelCase or snake_case; null = unset); path '' for a bare body. */
export function parseProductType(input: unknown, path: string): ProductTypeInput {
  const o = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : null;
  if (!o) throw invalidField(path || 'body', 'must be an object');
  const at = (name: string) => (path ? `${path}.${name}` : name);
  const violations: FieldViolation[] = [];
  const text = (camel: string, snake: string): string => {
    const name = o[camel] === undefined && o[snake] !== undefined ? snake : camel;
    const value = o[name] ?? '';
    if (typeof value === 'string') return value;
    violations.push({ field: at(name), description: 'must be a string' });
    return '';
  };
  const idSent = o.productTypeId ?? o.product_type_id;
  const parsed = {
    productTypeId: text('productTypeId', 'product_type_id'),
    displayName: text('displayName', 'display_name'),
    description: text('description', 'description'),
  };
  if (idSent === undefined || idSent === null) violations.push({ field: at('productTypeId'), description: 'is required' });
  else if (typeof idSent === 'string') {
    const problem = idViolation(idSent);
    if (problem) violations.push({ field: at('productTypeId'), description: problem });
  }
  if (violations.length > 0) throw invalidFields(violations);
  return parsed;
}

/** Refuses a new product type past the storefront's cap (an existing one can always be rewritten). */
async function checkProductTypeRoom(tx: Tx, sf: Storefront, productTypeId: string): Promise<void> {
  const exists = await productTypes(tx, sf).select('id').where('product_type_id', '=', productTypeId).executeTakeFirst();
  if (exists) return;
  const { n } = await productTypes(tx, sf).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  if (Number(n) >= MAX_PRODUCT_TYPES_PER_STOREFRONT) {
    throw failedPrecondition(`a storefront holds at most ${MAX_PRODUCT_TYPES_PER_STOREFRONT} product types; delete unused ones first`);
  }
}

/**
 * Inserts the product type, or on an existing one replaces displayName and description (replace = true)
 * or leaves it alone. One statement, so two concurrent requests cannot collide; created_at stays.
 */
async function writeProductType(tx: Tx, sf: Storefront, input: ProductTypeInput, at: string, replace: boolean): Promise<void> {
  await checkProductTypeRoom(tx, sf, input.productTypeId);
  await tx
    .insertInto('taxonomy_product_types')
    .values({
      account_id: sf.accountId,
      storefront_id: sf.storefrontId,
      product_type_id: input.productTypeId,
      display_name: input.displayName,
      description: input.description,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => {
      const key = oc.columns(['account_id', 'storefront_id', 'product_type_id']);
      return replace ? key.doUpdateSet({ display_name: input.displayName, description: input.description, updated_at: at }) : key.doNothing();
    })
    .execute();
}

/** Upsert by productTypeId: displayName and description are replaced, createdAt kept, updatedAt moves. */
export async function upsertProductType(tx: Tx, principal: Principal, input: ProductTypeInput, now: Date): Promise<ProductTypeView> {
  const sf = storefrontOf(principal);
  await writeProductType(tx, sf, input, now.toISOString(), true);
  const row = await productTypes(tx, sf).select(PRODUCT_TYPE_COLUMNS).where('product_type_id', '=', input.productTypeId).executeTakeFirstOrThrow();
  return productTypeView(row);
}

/**
 * maxUniqueItems decides which attributes the polls send (2.14), so a limit set, changed or removed changes
 * what the storefront's listings of that product type look like: they move in product_data/updated.
 */
async function touchListingsOfProductType(tx: Tx, sf: { accountId: number; storefrontId: number }, productTypeId: string, now: Date): Promise<void> {
  const at = now.toISOString();
  const moved = await tx
    .updateTable('listings')
    .set({ poll_updated_at: at })
    .where('account_id', '=', sf.accountId)
    .where('storefront_id', '=', sf.storefrontId)
    .where('product_type_id', '=', productTypeId)
    .where('poll_updated_at', '<', at)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) > 0) await emitStorefrontProductDataNudge(tx, sf.accountId, sf.storefrontId, now);
}

/** Deletes the product type and every attribute spec under it; 404 when unknown. */
export async function deleteProductType(tx: Tx, principal: Principal, productTypeId: string, now: Date): Promise<void> {
  const sf = storefrontOf(principal);
  await requireProductType(tx, sf, productTypeId);
  const limited = await specs(tx, sf, productTypeId).select('id').where('max_unique_items', 'is not', null).executeTakeFirst();
  if (limited) await touchListingsOfProductType(tx, sf, productTypeId, now);
  await tx
    .deleteFrom('taxonomy_attribute_specs')
    .where('account_id', '=', sf.accountId)
    .where('storefront_id', '=', sf.storefrontId)
    .where('product_type_id', '=', productTypeId)
    .execute();
  await tx
    .deleteFrom('taxonomy_product_types')
    .where('account_id', '=', sf.accountId)
    .where('storefront_id', '=', sf.storefrontId)
    .where('product_type_id', '=', productTypeId)
    .execute();
}

export async function listAttributeSpecs(db: Db, principal: Principal, productTypeId: string): Promise<AttributeSpecView[]> {
  return listStorefrontAttributeSpecs(db, storefrontOf(principal), productTypeId);
}

/** The specs of one of the storefront's product types, ordered by id; an unknown product type is a 404. */
export async function listStorefrontAttributeSpecs(db: Db, sf: Storefront, productTypeId: string): Promise<AttributeSpecView[]> {
  await requireProductType(db, sf, productTypeId);
  const rows = await specs(db, sf, productTypeId).select(SPEC_COLUMNS).execute();
  return rows.map(specView).sort((a, b) => byText(a.attributeSpecId, b.attributeSpecId));
}

export async function getAttributeSpec(db: Db, principal: Principal, productTypeId: string, attributeSpecId: string): Promise<AttributeSpecView> {
  const row = await specs(db, storefrontOf(principal), productTypeId)
    .select(SPEC_COLUMNS)
    .where('attribute_spec_id', '=', attributeSpecId)
    .executeTakeFirst();
  if (!row) throw notFound(`attribute spec "${attributeSpecId}" of product type "${productTypeId}" not found`);
  return specView(row);
}

export interface PutAttributeSpecInput {
  productTypeId: string;
  /** The id in the path, or null when the route takes it from the body. */
  pathAttributeSpecId: string | null;
  /** The object under attributeSpec, unparsed, and the name it came under (for messages). */
  attributeSpec: unknown;
  bodyField: string;
  /**
   * 'upsert' (the PUTs) replaces an existing spec; 'create' (POST, resolutions §7) refuses one with
   * ALREADY_EXISTS and leaves it as it is.
   */
  mode: 'upsert' | 'create';
}

/**
 * Writes one spec (a PUT replaces every field; a POST only creates). The product type is created, with
 * empty names, when the channel pushes a spec before it: channels often send specs first.
 */
export async function putAttributeSpec(tx: Tx, principal: Principal, input: PutAttributeSpecInput, now: Date): Promise<AttributeSpecView> {
  const sf = storefrontOf(principal);
  checkId('productTypeId', input.productTypeId);
  const parsed = parseAttributeSpec(input.attributeSpec, input.bodyField);
  const idField = `${input.bodyField}.attributeSpecId`;
  let attributeSpecId = parsed.attributeSpecId;
  if (input.pathAttributeSpecId !== null) {
    checkId('attributeSpecId', input.pathAttributeSpecId);
    if (attributeSpecId !== '' && attributeSpecId !== input.pathAttributeSpecId) {
      throw invalidField(idField, `"${attributeSpecId}" differs from the attributeSpecId in the path ("${input.pathAttributeSpecId}")`);
    }
    attributeSpecId = input.pathAttributeSpecId;
  } else if (attributeSpecId === '') {
    throw invalidField(idField, 'is required');
  }

  const at = now.toISOString();
  await writeProductType(tx, sf, { productTypeId: input.productTypeId, displayName: '', description: '' }, at, false);
  const existing = await specs(tx, sf, input.productTypeId).select(['id', 'max_unique_items']).where('attribute_spec_id', '=', attributeSpecId).executeTakeFirst();
  const exists = () => alreadyExists(`attribute spec "${attributeSpecId}" of product type "${input.productTypeId}" already exists; PUT replaces it`);
  if (existing && input.mode === 'create') throw exists();
  if (!existing) {
    const { n } = await specs(tx, sf, input.productTypeId).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    if (Number(n) >= MAX_SPECS_PER_PRODUCT_TYPE) {
      throw failedPrecondition(`a product type holds at most ${MAX_SPECS_PER_PRODUCT_TYPE} attribute specs; delete unused ones first`);
    }
  }
  const spec = JSON.stringify(parsed.spec);
  const written = await tx
    .insertInto('taxonomy_attribute_specs')
    .values({
      account_id: sf.accountId,
      storefront_id: sf.storefrontId,
      product_type_id: input.productTypeId,
      attribute_spec_id: attributeSpecId,
      spec,
      max_unique_items: parsed.maxUniqueItems,
      created_at: at,
      updated_at: at,
    })
    // One statement, so that two concurrent writes of a new spec cannot collide: a PUT updates (created_at
    // stays), a POST that lost the race to another writer inserts nothing and answers ALREADY_EXISTS.
    .onConflict((oc) => {
      const key = oc.columns(['account_id', 'storefront_id', 'product_type_id', 'attribute_spec_id']);
      return input.mode === 'create' ? key.doNothing() : key.doUpdateSet({ spec, max_unique_items: parsed.maxUniqueItems, updated_at: at });
    })
    .executeTakeFirst();
  if (input.mode === 'create' && Number(written.numInsertedOrUpdatedRows ?? 0n) === 0) throw exists();
  if ((existing?.max_unique_items ?? null) !== parsed.maxUniqueItems) await touchListingsOfProductType(tx, sf, input.productTypeId, now);
  return getAttributeSpec(tx, principal, input.productTypeId, attributeSpecId);
}

export async function deleteAttributeSpec(tx: Tx, principal: Principal, productTypeId: string, attributeSpecId: string, now: Date): Promise<void> {
  const sf = storefrontOf(principal);
  const limited = await specs(tx, sf, productTypeId)
    .select('id')
    .where('attribute_spec_id', '=', attributeSpecId)
    .where('max_unique_items', 'is not', null)
    .executeTakeFirst();
  if (limited) await touchListingsOfProductType(tx, sf, productTypeId, now);
  const result = await tx
    .deleteFrom('taxonomy_attribute_specs')
    .where('account_id', '=', sf.accountId)
    .where('storefront_id', '=', sf.storefrontId)
    .where('product_type_id', '=', productTypeId)
    .where('attribute_spec_id', '=', attributeSpecId)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) {
    throw notFound(`attribute spec "${attributeSpecId}" of product type "${productTypeId}" not found`);
  }
}
