import { sql } from 'kysely';
import type { Dialect } from '../../db/connect.js';
import type { Db } from '../../db/tx.js';
import { MAX_SKU_LENGTH } from '../text-limits.js';

/**
 * SKUs of the account that start with what was typed, in any capitals, for the console's SKU lookup as you
 * type (the manual order form). One range of an index whatever the catalog's size: `sku_lower` between the
 * typed prefix and the prefix followed by the highest character, compared byte by byte (SQLite's BINARY on
 * products_account_sku_lower; on PostgreSQL `collate "C"` on products_account_sku_lower_c, migration 036),
 * so a prefix is one contiguous range in any database locale. At most `limit` rows are read.
 */
export interface SkuSuggestion {
  sku: string;
  title: string | null;
}

/** How many suggestions one lookup answers (a datalist shows about this many anyway). */
export const SKU_SUGGESTION_LIMIT = 20;

/** Above every character, so `prefix + HIGHEST` bounds every string that starts with prefix. */
const HIGHEST = String.fromCodePoint(0x10ffff);

export async function suggestSkus(db: Db, dialect: Dialect, accountId: number, typed: string, limit = SKU_SUGGESTION_LIMIT): Promise<SkuSuggestion[]> {
  // The catalog stores sku_lower as JavaScript's toLowerCase (products.ts), so the prefix is lowered alike.
  const prefix = typed.trim().slice(0, MAX_SKU_LENGTH).toLowerCase();
  const key = dialect === 'postgres' ? sql`sku_lower collate "C"` : sql`sku_lower`;
  let query = db.selectFrom('products').select(['sku', 'title']).where('account_id', '=', accountId);
  if (prefix !== '') {
    query = query.where(sql<boolean>`${key} >= ${prefix}`).where(sql<boolean>`${key} < ${prefix + HIGHEST}`);
  }
  const rows = await query.orderBy(key).limit(limit).execute();
  return rows.map((r) => ({ sku: r.sku, title: r.title }));
}
