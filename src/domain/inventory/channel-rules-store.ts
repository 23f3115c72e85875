import { compiledStatement } from '../../db/fast-paths.js';
import type { StorefrontInventoryRulesTable } from '../../db/schema.js';
import type { Db, Tx } from '../../db/tx.js';
import { isStorefrontOf } from '../accounts/installations.js';
import { listAccountWarehouses, type WarehouseRow } from '../accounts/warehouses.js';
import { findProductsBySkus } from '../catalog/products.js';
import { invalidFields, notFound, type FieldViolation } from '../errors.js';
import { DEFAULT_CHANNEL_RULE, type ChannelRuleFields, type ChannelRuleOverride, type ChannelRules } from './channel-rules.js';

/**
 * A storefront's channel inventory rules as stored and as the operator API and the console read and replace
 * them (resolutions §9). No row means the defaults; PUT replaces the whole set (an empty body resets it).
 * Every value is checked before anything is written, and every problem is named by its field.
 */

/** Overrides one storefront may hold: checked before any SKU is looked up. */
export const MAX_SKU_OVERRIDES = 5000;
/** SKUs looked up per statement. */
const LOOKUP_CHUNK = 500;

const RULE_FIELDS = ['warehouseIds', 'percent', 'safetyQuantity', 'maxQuantity', 'fixedQuantity'] as const;

export interface ChannelRulesInput {
  warehouseIds?: number[] | null;
  percent?: number;
  safetyQuantity?: number;
  maxQuantity?: number | null;
  fixedQuantity?: number | null;
  skuOverrides?: ({ sku: string } & ChannelRuleOverride)[];
}

/** The rules as answered: the storefront's fields with the defaults filled (warehouseIds resolved), overrides as set. */
export interface ChannelRulesView {
  storefrontId: number;
  warehouseIds: number[];
  percent: number;
  safetyQuantity: number;
  maxQuantity: number | null;
  fixedQuantity: number | null;
  skuOverrides: ({ sku: string } & ChannelRuleOverride)[];
  /** When the seller last replaced them; null while they are the defaults nobody set. */
  updatedAt: string | null;
}

/** Every seller warehouse that is not channel-fulfilled, by id: the default feed of a channel. */
export function defaultChannelWarehouses(warehouses: readonly WarehouseRow[]): number[] {
  return warehouses
    .filter((w) => !w.channelFulfilled)
    .map((w) => w.id)
    .sort((a, b) => a - b);
}

/** The largest quantity a rule may hold: far above any stock, and within a 32-bit integer column. */
export const MAX_RULE_QUANTITY = 1_000_000_000;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_RULE_QUANTITY;
const COUNT_TEXT = `a whole number from 0 to ${MAX_RULE_QUANTITY.toLocaleString('en-US')}`;

type RuleFieldValues = Partial<Record<(typeof RULE_FIELDS)[number], unknown>>;

/**
 * Problems of one set of rule fields that need no lookup: the ranges, and a list of warehouses that lists
 * none. Shared with the console's forms, which check what was typed with it before anything is read.
 */
export function ruleValueProblems(at: string, fields: RuleFieldValues): FieldViolation[] {
  const out: FieldViolation[] = [];
  const field = (name: string) => (at ? `${at}.${name}` : name);
  const ids = fields.warehouseIds;
  if (ids !== undefined && ids !== null && (!Array.isArray(ids) || ids.length === 0)) {
    out.push({ field: field('warehouseIds'), description: 'must list at least one warehouse id, or be left out (or null) for every seller warehouse that is not channel-fulfilled' });
  }
  const percent = fields.percent;
  if (percent !== undefined && !(typeof percent === 'number' && Number.isInteger(percent) && percent >= 1 && percent <= 100)) {
    out.push({ field: field('percent'), description: 'must be a whole number from 1 to 100' });
  }
  if (fields.safetyQuantity !== undefined && !isCount(fields.safetyQuantity)) out.push({ field: field('safetyQuantity'), description: `must be ${COUNT_TEXT}` });
  for (const name of ['maxQuantity', 'fixedQuantity'] as const) {
    const v = fields[name];
    if (v !== undefined && v !== null && !isCount(v)) out.push({ field: field(name), description: `must be ${COUNT_TEXT}, or null for none` });
  }
  return out;
}

/** Problems of one set of rule fields (the storefront's or an override's), each named under `at`. */
function fieldProblems(at: string, fields: RuleFieldValues, warehouses: ReadonlyMap<number, WarehouseRow>): FieldViolation[] {
  const out: FieldViolation[] = [];
  const field = (name: string) => (at ? `${at}.${name}` : name);
  const ids = fields.warehouseIds;
  // An empty list is ruleValueProblems'; each id of a list is looked up among the account's warehouses.
  if (Array.isArray(ids) && ids.length > 0) {
    const seen = new Set<unknown>();
    ids.forEach((id, i) => {
      const w = typeof id === 'number' ? warehouses.get(id) : undefined;
      if (seen.has(id)) out.push({ field: `${field('warehouseIds')}[${i}]`, description: `warehouse ${String(id)} is listed twice` });
      else if (!w) out.push({ field: `${field('warehouseIds')}[${i}]`, description: `${JSON.stringify(id)} is not a warehouse of this account` });
      else if (w.channelFulfilled) out.push({ field: `${field('warehouseIds')}[${i}]`, description: `warehouse ${w.id} ("${w.name}") is channel-fulfilled: its stock is the channel's own, not the seller's to share` });
      seen.add(id);
    });
  }
  return [...out, ...ruleValueProblems(at, fields)];
}

interface OverrideRow {
  product_id: number;
  sku: string;
  fields: string;
}

function overrideFieldsOf(entry: { sku: string } & ChannelRuleOverride): ChannelRuleOverride {
  const out: ChannelRuleOverride = {};
  for (const name of RULE_FIELDS) if (entry[name] !== undefined) (out as Record<string, unknown>)[name] = entry[name];
  return out;
}

async function requireStorefront(db: Db, accountId: number, storefrontId: number): Promise<void> {
  if (!(await isStorefrontOf(db, accountId, storefrontId))) throw notFound(`storefront ${storefrontId} not found in account ${accountId}`);
}

type RuleColumns = Pick<StorefrontInventoryRulesTable, 'warehouse_ids' | 'percent' | 'safety_quantity' | 'max_quantity' | 'fixed_quantity'>;

/** A stored rule row as rule fields (pg may answer integers as numbers or strings: Number() covers both). */
function ruleFieldsOf(row: RuleColumns): ChannelRuleFields {
  return {
    warehouseIds: row.warehouse_ids === null ? null : (JSON.parse(row.warehouse_ids) as number[]),
    percent: Number(row.percent),
    safetyQuantity: Number(row.safety_quantity),
    maxQuantity: row.max_quantity === null ? null : Number(row.max_quantity),
    fixedQuantity: row.fixed_quantity === null ? null : Number(row.fixed_quantity),
  };
}

/** The stored rules of a storefront, defaults where nothing is stored (for the arithmetic: warehouseIds null = default). */
export async function loadChannelRules(db: Db, accountId: number, storefrontId: number): Promise<ChannelRules & { updatedAt: string | null }> {
  const row = await db
    .selectFrom('storefront_inventory_rules')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .executeTakeFirst();
  const overrides: OverrideRow[] = await db
    .selectFrom('storefront_inventory_rule_overrides')
    .select(['product_id', 'sku', 'fields'])
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .orderBy('sku')
    .execute();
  const fields: ChannelRuleFields = row ? ruleFieldsOf(row) : { ...DEFAULT_CHANNEL_RULE };
  return {
    ...fields,
    skuOverrides: new Map(overrides.map((o) => [o.sku, JSON.parse(o.fields) as ChannelRuleOverride])),
    updatedAt: row?.updated_at ?? null,
  };
}

function viewOf(storefrontId: number, rules: ChannelRules & { updatedAt: string | null }, warehouses: readonly WarehouseRow[]): ChannelRulesView {
  return {
    storefrontId,
    warehouseIds: rules.warehouseIds ?? defaultChannelWarehouses(warehouses),
    percent: rules.percent,
    safetyQuantity: rules.safetyQuantity,
    maxQuantity: rules.maxQuantity,
    fixedQuantity: rules.fixedQuantity,
    skuOverrides: [...rules.skuOverrides].map(([sku, fields]) => ({ sku, ...fields })),
    updatedAt: rules.updatedAt,
  };
}

export async function getChannelRules(db: Db, accountId: number, storefrontId: number): Promise<ChannelRulesView> {
  await requireStorefront(db, accountId, storefrontId);
  return viewOf(storefrontId, await loadChannelRules(db, accountId, storefrontId), await listAccountWarehouses(db, accountId));
}

/**
 * Replaces a storefront's rules (fields left out take their defaults; no override left out survives).
 * Answers the stored rules and whether anything changed, so the caller moves the variants only then.
 */
export async function replaceChannelRules(
  tx: Tx,
  accountId: number,
  storefrontId: number,
  input: ChannelRulesInput,
  now: Date,
): Promise<{ rules: ChannelRulesView; changed: boolean }> {
  await requireStorefront(tx, accountId, storefrontId);
  const overrides = input.skuOverrides ?? [];
  if (overrides.length > MAX_SKU_OVERRIDES) {
    throw invalidFields([{ field: 'skuOverrides', description: `lists ${overrides.length} SKUs; at most ${MAX_SKU_OVERRIDES} per storefront` }]);
  }
  const warehouses = await listAccountWarehouses(tx, accountId);
  const byId = new Map(warehouses.map((w) => [w.id, w]));
  const problems = fieldProblems('', input, byId);
  const firstIndex = new Map<string, number>();
  overrides.forEach((entry, i) => {
    const at = `skuOverrides[${i}]`;
    if (typeof entry.sku !== 'string' || entry.sku === '') problems.push({ field: `${at}.sku`, description: 'must be a SKU of the catalog' });
    else if (firstIndex.has(entry.sku)) problems.push({ field: `${at}.sku`, description: `${entry.sku} is already overridden at skuOverrides[${firstIndex.get(entry.sku)!}]` });
    else firstIndex.set(entry.sku, i);
    problems.push(...fieldProblems(at, entry, byId));
  });
  const skus = [...firstIndex.keys()];
  const productOf = new Map<string, number>();
  for (let i = 0; i < skus.length; i += LOOKUP_CHUNK) {
    for (const p of await findProductsBySkus(tx, accountId, skus.slice(i, i + LOOKUP_CHUNK), true)) productOf.set(p.sku, p.id);
  }
  for (const [sku, i] of firstIndex) {
    if (!productOf.has(sku)) problems.push({ field: `skuOverrides[${i}].sku`, description: `${sku} is not a SKU of this account's catalog` });
  }
  if (problems.length > 0) throw invalidFields(problems);

  const before = await loadChannelRules(tx, accountId, storefrontId);
  const iso = now.toISOString();
  const row: { warehouse_ids: string | null; percent: number; safety_quantity: number; max_quantity: number | null; fixed_quantity: number | null; updated_at: string; apply_after_variant_id?: number } = {
    warehouse_ids: input.warehouseIds === undefined || input.warehouseIds === null ? null : JSON.stringify([...input.warehouseIds].sort((a, b) => a - b)),
    percent: input.percent ?? DEFAULT_CHANNEL_RULE.percent,
    safety_quantity: input.safetyQuantity ?? DEFAULT_CHANNEL_RULE.safetyQuantity,
    max_quantity: input.maxQuantity ?? null,
    fixed_quantity: input.fixedQuantity ?? null,
    updated_at: iso,
  };
  const overridesChanged = !sameOverrides(before, overrides);
  // Any change restarts the propagation from the first variant (applyChannelRulesStep), even mid-way.
  const changed = overridesChanged || !sameFields(before, row);
  if (changed) row.apply_after_variant_id = 0;
  await tx
    .insertInto('storefront_inventory_rules')
    .values({ account_id: accountId, storefront_id: storefrontId, apply_after_variant_id: null, ...row })
    .onConflict((oc) => oc.columns(['account_id', 'storefront_id']).doUpdateSet(row))
    .execute();
  await tx.deleteFrom('storefront_inventory_rule_overrides').where('account_id', '=', accountId).where('storefront_id', '=', storefrontId).execute();
  const rows = overrides.map((entry) => ({
    account_id: accountId,
    storefront_id: storefrontId,
    product_id: productOf.get(entry.sku)!,
    sku: entry.sku,
    fields: JSON.stringify(overrideFieldsOf(entry)),
  }));
  for (let i = 0; i < rows.length; i += LOOKUP_CHUNK) await tx.insertInto('storefront_inventory_rule_overrides').values(rows.slice(i, i + LOOKUP_CHUNK)).execute();

  return { rules: viewOf(storefrontId, await loadChannelRules(tx, accountId, storefrontId), warehouses), changed };
}

function sameFields(before: ChannelRules, row: { warehouse_ids: string | null; percent: number; safety_quantity: number; max_quantity: number | null; fixed_quantity: number | null }): boolean {
  const ids = before.warehouseIds === null ? null : JSON.stringify([...before.warehouseIds].sort((a, b) => a - b));
  return (
    ids === row.warehouse_ids &&
    before.percent === row.percent &&
    before.safetyQuantity === row.safety_quantity &&
    before.maxQuantity === row.max_quantity &&
    before.fixedQuantity === row.fixed_quantity
  );
}

function sameOverrides(before: ChannelRules, overrides: readonly ({ sku: string } & ChannelRuleOverride)[]): boolean {
  if (before.skuOverrides.size !== overrides.length) return false;
  return overrides.every((entry) => JSON.stringify(before.skuOverrides.get(entry.sku)) === JSON.stringify(overrideFieldsOf(entry)));
}

/** What the stock path needs to rule the variants of some products: none of it when the account set no rules. */
export interface StockRules {
  /** Storefronts with rules of their own (the others list every available unit, as without rules). */
  storefronts: Map<number, ChannelRuleFields>;
  /** `${storefrontId}:${productId}` → that product's override in that storefront. */
  overrides: Map<string, ChannelRuleOverride>;
  /** Every seller warehouse that is not channel-fulfilled, by id (warehouseIds null). */
  defaultWarehouses: number[];
}

// Every stock change of an account asks it: one indexed read, compiled once.
const rulesOfAccount = compiledStatement<
  { storefront_id: number; warehouse_ids: string | null; percent: number; safety_quantity: number; max_quantity: number | null; fixed_quantity: number | null },
  { accountId: number }
>((db, arg) =>
  db
    .selectFrom('storefront_inventory_rules')
    .select(['storefront_id', 'warehouse_ids', 'percent', 'safety_quantity', 'max_quantity', 'fixed_quantity'])
    .where('account_id', '=', arg<number>('accountId')),
);

/** The rules that apply to these products' variants, or null when no storefront of the account has rules. */
export async function loadStockRules(db: Db, accountId: number, productIds: readonly number[]): Promise<StockRules | null> {
  const rows = await rulesOfAccount.all(db, { accountId });
  if (rows.length === 0) return null;
  const storefronts = new Map<number, ChannelRuleFields>();
  for (const r of rows) {
    storefronts.set(Number(r.storefront_id), ruleFieldsOf(r));
  }
  const overrides = new Map<string, ChannelRuleOverride>();
  for (let i = 0; i < productIds.length; i += LOOKUP_CHUNK) {
    const found = await db
      .selectFrom('storefront_inventory_rule_overrides')
      .select(['storefront_id', 'product_id', 'fields'])
      .where('account_id', '=', accountId)
      .where('product_id', 'in', productIds.slice(i, i + LOOKUP_CHUNK))
      .execute();
    for (const o of found) overrides.set(`${o.storefront_id}:${o.product_id}`, JSON.parse(o.fields) as ChannelRuleOverride);
  }
  return { storefronts, overrides, defaultWarehouses: defaultChannelWarehouses(await listAccountWarehouses(db, accountId)) };
}

/** Variants moved to new rules per step of the propagation (each step one short transaction). */
export const RULES_STEP_VARIANTS = 100;

/**
 * The next products of a storefront whose variants have not been moved to its current rules, from the
 * propagation's checkpoint, and the checkpoint after them: null when the storefront is done (or has no
 * rules row). The caller refreshes those products' stock copies, then records the checkpoint.
 */
export async function nextRulesStep(db: Db, accountId: number, storefrontId: number): Promise<{ from: number; productIds: number[]; lastVariantId: number } | null> {
  const row = await db
    .selectFrom('storefront_inventory_rules')
    .select('apply_after_variant_id')
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .executeTakeFirst();
  if (!row || row.apply_after_variant_id === null) return null;
  const from = Number(row.apply_after_variant_id);
  const variants = await db
    .selectFrom('listing_variants')
    .select(['id', 'product_id'])
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .where('id', '>', from)
    .orderBy('id')
    .limit(RULES_STEP_VARIANTS)
    .execute();
  if (variants.length === 0) return { from, productIds: [], lastVariantId: -1 };
  return { from, productIds: [...new Set(variants.map((v) => Number(v.product_id)))], lastVariantId: Number(variants[variants.length - 1]!.id) };
}

/**
 * Records a step's checkpoint unless the rules changed meanwhile (their checkpoint was reset: the next step
 * starts again from the first variant). `lastVariantId` -1 means the storefront is done.
 */
export async function recordRulesStep(db: Db, accountId: number, storefrontId: number, from: number, lastVariantId: number): Promise<void> {
  await db
    .updateTable('storefront_inventory_rules')
    .set({ apply_after_variant_id: lastVariantId === -1 ? null : lastVariantId })
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .where('apply_after_variant_id', '=', from)
    .execute();
}
