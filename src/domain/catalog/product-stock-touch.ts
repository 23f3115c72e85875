import { sql, type CompiledQuery } from 'kysely';
import { argList, compiledBySize, listArgsOf } from '../../db/fast-paths.js';
import type { Db } from '../../db/tx.js';
import { lowStockGapExpression } from './product-low-stock-gap.js';

/**
 * The products' inventory timestamp and low-stock gap after a stock change, as statements: the catalog owns
 * the products table, the inventory area sends them (src/domain/inventory/stock-touch.ts), alone or with
 * other writes of the same change (a new order's routes: src/db/companion-writes.ts).
 */

/** Products per statement: a batch of any size touches its products in slices of this many. */
const SLICE = 100;

const touchProducts = compiledBySize<never, Record<string, unknown>>(
  (db, arg, n) =>
    db
      .updateTable('products')
      // The timestamp only moves forward; a SKU with a low-stock alert gets its gap recomputed in the same
      // statement (product-low-stock-gap.ts), so a stock write pays no statement for alerts.
      .set((eb) => ({
        inventory_updated_at: sql<string>`case when ${eb.ref('inventory_updated_at')} < ${arg('iso')} then ${arg('iso')} else ${eb.ref('inventory_updated_at')} end`,
        low_stock_gap: sql<number | null>`case when ${eb.ref('low_stock_threshold')} is null then null else ${lowStockGapExpression} end`,
      }))
      .where('id', 'in', argList<number>(arg, 'p', n))
      // `+ 0`: the tenancy filter must not steer SQLite (no statistics) to an account-wide index range
      // (products_account_inventory_updated) instead of the primary-key lookups of the ids.
      .where(sql<number>`${sql.ref('account_id')} + 0`, '=', arg<number>('accountId'))
      .where((eb) => eb.or([eb('inventory_updated_at', '<', arg('iso')), eb('low_stock_threshold', 'is not', null)])),
  SLICE,
);

/**
 * The statements that move these products' inventory timestamp forward to `now` and recompute their
 * low-stock gaps: one per slice of ids, in id order, for the caller to run or send with its own writes.
 */
export function productTouchWrites(tx: Db, accountId: number, productIds: readonly number[], now: Date): CompiledQuery[] {
  const ids = [...new Set(productIds)].sort((a, b) => a - b);
  const iso = now.toISOString();
  const writes: CompiledQuery[] = [];
  for (let i = 0; i < ids.length; i += SLICE) {
    const slice = ids.slice(i, i + SLICE);
    writes.push(touchProducts.bound(tx, slice.length, { accountId, iso, ...listArgsOf('p', slice) }));
  }
  return writes;
}
