import type { Tx } from '../../db/tx.js';

/**
 * The products' landed-cost columns, written here because the catalog owns the products table; the inbound
 * area computes the figures from its receipts (src/domain/inbound/landed-cost.ts).
 */

export interface LandedCostCounters {
  units: number;
  /** A decimal string. */
  total: string;
}

/**
 * Replaces a product's landed cost and its counters if they still hold `expected` (a compare-and-swap: the
 * total is a decimal string SQL cannot add). Answers false when another writer changed them first.
 */
export async function swapProductLandedCost(
  tx: Tx,
  accountId: number,
  productId: number,
  expected: LandedCostCounters,
  next: LandedCostCounters & { landedCost: string | null },
): Promise<boolean> {
  const swapped = await tx
    .updateTable('products')
    .set({ landed_cost: next.landedCost, landed_cost_units: next.units, landed_cost_total: next.total })
    .where('account_id', '=', accountId)
    .where('id', '=', productId)
    .where('landed_cost_units', '=', expected.units)
    .where('landed_cost_total', '=', expected.total)
    .returning('id')
    .executeTakeFirst();
  return swapped !== undefined;
}
