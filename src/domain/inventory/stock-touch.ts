import type { Db } from '../../db/tx.js';
import { refreshVariantStock } from './variant-stock-sync.js';

/**
 * A change of reserved or assembled units (routing, cancellation, shipment, kit counts) changes the stock a
 * channel can sell, so the product's inventory timestamp moves like any other stock change (it orders
 * GET /v1/inventory), and the listing variants' stock copy follows.
 */
export async function touchProductInventory(tx: Db, accountId: number, productId: number, now: Date): Promise<void> {
  const iso = now.toISOString();
  await tx
    .updateTable('products')
    .set({ inventory_updated_at: iso })
    .where('account_id', '=', accountId)
    .where('id', '=', productId)
    .where('inventory_updated_at', '<', iso)
    .execute();
  // Listing variants carry a copy of the stock (storefront inventory polls and drift read it).
  await refreshVariantStock(tx, accountId, [productId], now);
}
