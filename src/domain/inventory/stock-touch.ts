import { argList, compiledBySize, listArgsOf } from '../../db/compiled.js';
import type { Db } from '../../db/tx.js';
import { refreshVariantStock } from './variant-stock-sync.js';

/**
 * A change of reserved or assembled units (routing, cancellation, shipment, kit counts) changes the stock a
 * channel can sell, so the product's inventory timestamp moves like any other stock change (it orders
 * GET /v1/inventory), and the listing variants' stock copy follows.
 */
export async function touchProductInventory(tx: Db, accountId: number, productId: number, now: Date): Promise<void> {
  await touchProductsInventory(tx, accountId, [productId], now);
}

const touchProducts = compiledBySize<never, Record<string, unknown>>((db, arg, n) =>
  db
    .updateTable('products')
    .set({ inventory_updated_at: arg('iso') })
    .where('account_id', '=', arg<number>('accountId'))
    .where('id', 'in', argList<number>(arg, 'p', n))
    .where('inventory_updated_at', '<', arg('iso')),
);

/** touchProductInventory for several products at once (a new order's reserved SKUs). */
export async function touchProductsInventory(tx: Db, accountId: number, productIds: readonly number[], now: Date): Promise<void> {
  if (productIds.length === 0) return;
  const ids = [...productIds].sort((a, b) => a - b);
  await touchProducts.all(tx, ids.length, { accountId, iso: now.toISOString(), ...listArgsOf('p', ids) });
  // Listing variants carry a copy of the stock (storefront inventory polls and drift read it).
  await refreshVariantStock(tx, accountId, ids, now);
}
