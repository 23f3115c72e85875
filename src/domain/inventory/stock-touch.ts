import { runEach, sendWithoutWaiting } from '../../db/fast-paths.js';
import type { Db } from '../../db/tx.js';
import { productTouchWrites } from '../catalog/product-stock-touch.js';
import { lockProductVariants, lockProductVariantsAhead } from '../listings/variant-stock.js';
import { refreshLockedVariantStock, refreshVariantStock } from './variant-stock-sync.js';

/**
 * A change of reserved or assembled units (routing, cancellation, shipment, kit counts) changes the stock a
 * channel can sell, so the product's inventory timestamp moves like any other stock change (it orders
 * GET /v1/inventory), and the listing variants' stock copy follows.
 */
export async function touchProductInventory(tx: Db, accountId: number, productId: number, now: Date): Promise<void> {
  await touchProductsInventory(tx, accountId, [productId], now);
}

/**
 * What applyStockChange does after its update, once per product of a batch (a new order's reserved SKUs,
 * a v1 update's items, an import's lines): the product's inventory timestamp moves forward (it orders
 * GET /v1/inventory) and the listing variants' stock copy and the low-stock gaps follow.
 */
export async function touchProductsInventory(tx: Db, accountId: number, productIds: readonly number[], now: Date): Promise<void> {
  await runEach(tx, productTouchWrites(tx, accountId, productIds, now));
  await refreshProductCopies(tx, accountId, productIds, now);
}

/**
 * touchProductsInventory in two steps, for a caller that sends the products' statements with another write
 * (a new order's routes: src/db/companion-writes.ts) and then calls refreshProductCopies. The statements are
 * the catalog's (it owns the products table).
 */
export { productTouchWrites };

/**
 * Products whose inventory timestamps were written and whose listing variants were locked ahead of the
 * answers (touchAndLockAhead); refreshProductCopies finishes them.
 */
export interface CopiesHeld {
  products: ReadonlySet<number>;
  /** The products among them that some storefront lists (the lock's answer). */
  listed: readonly number[];
}

/**
 * productTouchWrites and the listing variants' lock sent without waiting (src/db/unanswered.ts), in the order
 * every stock writer takes them (the products, then their variants), right behind a reservation sent ahead: a
 * new order whose reservations are planned touches and locks its products in that one round trip. Answers a
 * function to take the lock's answer with.
 */
export async function touchAndLockAhead(tx: Db, accountId: number, productIds: readonly number[], now: Date): Promise<() => Promise<CopiesHeld>> {
  for (const write of productTouchWrites(tx, accountId, productIds, now)) await sendWithoutWaiting(tx, write);
  const ids = [...new Set(productIds)].sort((a, b) => a - b);
  const listed = await lockProductVariantsAhead(tx, accountId, ids);
  return async () => ({ products: new Set(ids), listed: await listed() });
}

/**
 * After productTouchWrites: listing variants carry a copy of the stock (storefront inventory polls and drift
 * read it). With `held`, its products are locked already: only the others are, and all are refreshed.
 */
export async function refreshProductCopies(tx: Db, accountId: number, productIds: readonly number[], now: Date, held: CopiesHeld | null = null): Promise<void> {
  // refreshVariantStock takes the ids in any order, repeats included.
  if (held === null) {
    if (productIds.length > 0) await refreshVariantStock(tx, accountId, productIds, now);
    return;
  }
  const rest = [...new Set(productIds)].filter((id) => !held.products.has(id)).sort((a, b) => a - b);
  await refreshLockedVariantStock(tx, accountId, [...held.listed, ...(await lockProductVariants(tx, accountId, rest))], now);
}
