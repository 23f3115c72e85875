import type { Db } from '../../db/tx.js';
import { canonicalValue } from './attribute-input.js';
import type { AttributeValue, AttributeValueKinds } from './model.js';

/**
 * maxUniqueItems (2.15) enforcement: an attribute carrying more unique items than its specification allows
 * would make the channel reject the whole submission, so the polls leave it out and the service reports
 * it as a TYPE_TOO_MANY_VALUES error instead (2.14).
 */

/** Unique items of a value: distinct texts of a multiTextValue, distinct items of a multiObjectValue, else 1. */
export function uniqueItemCount(value: AttributeValueKinds): number {
  if (value.multiTextValue) return new Set(value.multiTextValue.values).size;
  if (value.multiObjectValue) return new Set(value.multiObjectValue.items.map((item) => canonicalValue(item.properties))).size;
  return 1;
}

/** productTypeId → attributeSpecId → maxUniqueItems, for the specs that set a limit. */
export type AttributeLimits = Map<string, Map<string, number>>;

export async function attributeLimitsFor(db: Db, accountId: number, storefrontId: number, productTypeIds: string[]): Promise<AttributeLimits> {
  const ids = [...new Set(productTypeIds.filter((id) => id !== ''))];
  const limits: AttributeLimits = new Map();
  if (ids.length === 0) return limits;
  const rows = await db
    .selectFrom('taxonomy_attribute_specs')
    .select(['product_type_id', 'attribute_spec_id', 'max_unique_items'])
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .where('product_type_id', 'in', ids)
    .where('max_unique_items', 'is not', null)
    .where('max_unique_items', '>', 0)
    .execute();
  for (const r of rows) {
    let forType = limits.get(r.product_type_id);
    if (!forType) limits.set(r.product_type_id, (forType = new Map()));
    forType.set(r.attribute_spec_id, Number(r.max_unique_items));
  }
  return limits;
}

export interface OverLimit {
  attributeId: string;
  uniqueItems: number;
  maxUniqueItems: number;
}

/** Splits values into those within their limits and those over them. */
export function applyAttributeLimits(values: AttributeValue[], limits: Map<string, number> | undefined): { kept: AttributeValue[]; over: OverLimit[] } {
  if (!limits || limits.size === 0) return { kept: values, over: [] };
  const kept: AttributeValue[] = [];
  const over: OverLimit[] = [];
  for (const v of values) {
    const max = limits.get(v.id);
    const count = max === undefined ? 0 : uniqueItemCount(v);
    if (max !== undefined && count > max) over.push({ attributeId: v.id, uniqueItems: count, maxUniqueItems: max });
    else kept.push(v);
  }
  return { kept, over };
}
