import type { Db } from '../../db/tx.js';
import { emitNudge, nudgeSubscribers } from '../callbacks/nudges.js';
import { lockProductVariants, recordVariantStock, type VariantStockSnapshot } from '../listings/variant-stock.js';

/**
 * Keeps the stock copy on listing variants current (LISTINGS.md "Data model"). Called in the transaction
 * of every stock or reservation change (applyStockChange, touchProductInventory) and after a listing's
 * variants are created. Direction: inventory → listings only (DESIGN.md: no area cycles).
 */

export interface WarehouseStock {
  warehouseId: number;
  available: number;
  channelFulfilled: boolean;
}

/**
 * The snapshot of one product: merchant = available over non-channel-fulfilled warehouses, storefront =
 * available over channel-fulfilled ones, and the merchant warehouses with a stock row, by warehouse id.
 */
export function stockSnapshot(rows: WarehouseStock[]): VariantStockSnapshot {
  let merchantQuantity = 0;
  let storefrontQuantity = 0;
  const warehouseQuantities: VariantStockSnapshot['warehouseQuantities'] = [];
  for (const r of [...rows].sort((a, b) => a.warehouseId - b.warehouseId)) {
    // available is never negative by the counters' invariant; the floor keeps the copy's CHECK safe anyway.
    const quantity = Math.max(0, r.available);
    if (r.channelFulfilled) {
      storefrontQuantity += quantity;
    } else {
      merchantQuantity += quantity;
      warehouseQuantities.push({ warehouseId: r.warehouseId, quantity });
    }
  }
  return { merchantQuantity, storefrontQuantity, warehouseQuantities };
}

/** Recomputes the snapshot of each listed product and writes it onto its variants; unlisted ones cost one indexed lookup. */
export async function refreshVariantStock(tx: Db, accountId: number, productIds: readonly number[], now: Date): Promise<void> {
  // Lock first, read after: see lockProductVariants (a parallel change of another warehouse is not lost).
  const listed = (await lockProductVariants(tx, accountId, [...new Set(productIds)].sort((a, b) => a - b))).sort((a, b) => a - b);
  if (listed.length === 0) return;
  const rows = await tx
    .selectFrom('inventory as i')
    .innerJoin('warehouses as w', (j) => j.onRef('w.id', '=', 'i.warehouse_id').on('w.account_id', '=', accountId))
    .select(['i.product_id', 'i.warehouse_id', 'i.available_quantity', 'w.channel_fulfilled'])
    .where('i.account_id', '=', accountId)
    .where('i.product_id', 'in', listed)
    .execute();
  const byProduct = new Map<number, WarehouseStock[]>(listed.map((id) => [id, []]));
  for (const r of rows) {
    byProduct.get(Number(r.product_id))?.push({
      warehouseId: Number(r.warehouse_id),
      available: Number(r.available_quantity),
      channelFulfilled: Number(r.channel_fulfilled) === 1,
    });
  }
  const changed: number[] = [];
  for (const [productId, stock] of byProduct) {
    if ((await recordVariantStock(tx, accountId, productId, stockSnapshot(stock), now)) > 0) changed.push(productId);
  }
  if (changed.length > 0) await nudgeInventoryChanged(tx, accountId, changed, now);
}

/**
 * VARIANT_INVENTORY_CHANGED to each storefront listing a changed product, if its app subscribed. The
 * subscriber lookup comes first so that, when nobody subscribed, the variants are not read again.
 */
async function nudgeInventoryChanged(tx: Db, accountId: number, productIds: number[], now: Date): Promise<void> {
  const subscribers = await nudgeSubscribers(tx, accountId, 'VARIANT_INVENTORY_CHANGED');
  if (subscribers.size === 0) return;
  const variants = await tx
    .selectFrom('listing_variants')
    .select(['storefront_id', 'sku', 'inventory_updated_at'])
    .where('account_id', '=', accountId)
    .where('product_id', 'in', productIds)
    .where('storefront_id', 'in', [...subscribers.keys()])
    .where('inventory_updated_at', '=', now.toISOString())
    .execute();
  for (const v of variants) {
    await emitNudge(
      tx,
      { accountId, eventType: 'VARIANT_INVENTORY_CHANGED', installationId: v.storefront_id, objectType: 'VARIANT', objectId: v.sku, version: v.inventory_updated_at },
      now,
    );
  }
}
