import { sql } from 'kysely';
import { argList, compiledBySize, listArgsOf } from '../../db/fast-paths.js';
import type { Db } from '../../db/tx.js';

/**
 * The products' low-stock columns (issue 24 item 5, migration 031), written here because the catalog owns
 * the products table; the inventory area decides when (src/domain/inventory/low-stock.ts, stock-touch.ts).
 * low_stock_gap = threshold − units available across the sellable warehouses, kept for an index of the low
 * SKUs; the gap reads the stock in the statement that writes it, so a stock write pays no extra statement.
 */

/** Products per statement when gaps are refreshed (product-stock-touch.ts slices its batches alike). */
const SLICE = 100;

/**
 * threshold − units available in the product's sellable warehouses, for the products (alias "products") of
 * an UPDATE: one correlated sum over the product's few stock rows.
 */
export const lowStockGapExpression = sql<number>`low_stock_threshold - coalesce((select sum(i.available_quantity) from inventory i
  where i.account_id = products.account_id and i.product_id = products.id
    and i.warehouse_id in (select w.id from warehouses w where w.account_id = products.account_id and w.channel_fulfilled = 0)), 0)`;

const refreshGaps = compiledBySize<never, Record<string, unknown>>(
  (db, arg, n) =>
    db
      .updateTable('products')
      .set({ low_stock_gap: lowStockGapExpression })
      .where('id', 'in', argList<number>(arg, 'p', n))
      // `+ 0` as in product-stock-touch.ts: primary-key lookups of the ids, not an account-wide index range.
      .where(sql<number>`${sql.ref('account_id')} + 0`, '=', arg<number>('accountId'))
      .where('low_stock_threshold', 'is not', null),
  SLICE,
);

/** Recomputes the low-stock gap of these products (those without a threshold are left alone). */
export async function refreshLowStockGaps(db: Db, accountId: number, productIds: readonly number[]): Promise<void> {
  for (let i = 0; i < productIds.length; i += SLICE) {
    const slice = productIds.slice(i, i + SLICE);
    await refreshGaps.all(db, slice.length, { accountId, ...listArgsOf('p', slice) });
  }
}

/**
 * Sets (or with null clears) the threshold of the product with exactly this SKU, its gap cleared until
 * refreshLowStockGaps computes it. Answers the product's id, or null when no product has the SKU.
 */
export async function writeLowStockThreshold(db: Db, accountId: number, sku: string, threshold: number | null): Promise<number | null> {
  const row = await db
    .updateTable('products')
    .set({ low_stock_threshold: threshold, low_stock_gap: null })
    .where('account_id', '=', accountId)
    .where('sku', '=', sku)
    .returning('id')
    .executeTakeFirst();
  return row ? row.id : null;
}
