import { sql } from 'kysely';
import type { Db } from '../../db/tx.js';
import type { ChannelRuleOverride } from './channel-rules.js';

/**
 * One page of a storefront's per-SKU exceptions for the console, in SKU order, optionally those whose SKU
 * starts with a prefix (case-sensitive, as SKUs are), keyset-paged on the SKU through
 * storefront_inventory_rule_overrides_sku: a storefront may hold thousands, the page reads `limit` + 1.
 */
export interface OverridesPage {
  overrides: ({ sku: string } & ChannelRuleOverride)[];
  /** The last SKU of this page when another page follows. */
  next: string | null;
  /** How many exceptions the storefront holds in all (capped at MAX_SKU_OVERRIDES by the store). */
  total: number;
}

export async function listRuleOverrides(db: Db, accountId: number, storefrontId: number, prefix: string, afterSku: string | null, limit: number): Promise<OverridesPage> {
  let query = db
    .selectFrom('storefront_inventory_rule_overrides')
    .select(['sku', 'fields'])
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId);
  // substr rather than LIKE, as the stock search: LIKE's case rules differ between the databases, and a SKU may hold % or _.
  if (prefix !== '') query = query.where(sql<boolean>`substr(sku, 1, ${sql.lit(prefix.length)}) = ${prefix}`);
  if (afterSku !== null) query = query.where('sku', '>', afterSku);
  const [rows, count] = await Promise.all([
    query.orderBy('sku').limit(limit + 1).execute(),
    db
      .selectFrom('storefront_inventory_rule_overrides')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('storefront_id', '=', storefrontId)
      .executeTakeFirstOrThrow(),
  ]);
  const page = rows.slice(0, limit);
  return {
    overrides: page.map((r) => ({ sku: r.sku, ...(JSON.parse(r.fields) as ChannelRuleOverride) })),
    next: rows.length > limit ? page[page.length - 1]!.sku : null,
    total: Number(count.n),
  };
}
