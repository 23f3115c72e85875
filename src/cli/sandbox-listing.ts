import type { Tx } from '../db/tx.js';
import { findOrCreateProduct } from '../domain/catalog/products.js';
import type { SandboxSummary } from '../domain/sandbox-partner/sandbox.js';
import { applyStockChange } from '../domain/inventory/stock.js';
import { refreshVariantStock } from '../domain/inventory/variant-stock-sync.js';
import { createListing } from '../domain/listings/write.js';

/**
 * A first listing for the sandbox storefront, so a channel developer has something to poll at once: two
 * stocked mugs (one also in the channel-fulfilled warehouse) grouped under one listing without channel ids,
 * which the storefront's `listing/new` poll returns. Runs in the sandbox's transaction, through the same
 * domain functions the inventory routes and the operator API use.
 */
export interface SandboxListing {
  listingId: number;
  sku: string;
  variantSkus: string[];
}

const STOCK: { sku: string; color: string; units: { warehouse: 'main' | 'marketplace'; quantity: number }[] }[] = [
  { sku: 'SANDBOX-MUG-BLUE', color: 'blue', units: [{ warehouse: 'main', quantity: 25 }, { warehouse: 'marketplace', quantity: 5 }] },
  { sku: 'SANDBOX-MUG-RED', color: 'red', units: [{ warehouse: 'main', quantity: 10 }] },
];

export async function seedSandboxListing(tx: Tx, summary: SandboxSummary, now: Date): Promise<SandboxListing | null> {
  const storefront = summary.apps.find((a) => a.storefrontId !== null);
  if (!storefront?.storefrontId) return null;
  const accountId = summary.account.accountId;
  const warehouseId = (key: 'main' | 'marketplace') => summary.warehouses.find((w) => w.key === key)!.warehouseId;
  for (const item of STOCK) {
    const { product } = await findOrCreateProduct(tx, accountId, item.sku, {}, now);
    for (const u of item.units) await applyStockChange(tx, accountId, product.id, warehouseId(u.warehouse), { mode: 'onhand', quantity: u.quantity }, now);
  }
  const created = await createListing(
    tx,
    accountId,
    storefront.storefrontId,
    {
      sku: 'SANDBOX-MUG',
      productData: {
        categoryId: 'kitchen/mugs',
        productTypeId: 'mug',
        pivotAttributes: ['color'],
        attributes: [
          { id: 'title', textValue: 'Stoneware mug, 350 ml' },
          { id: 'description', textValue: 'A sturdy stoneware mug for tea and coffee.' },
          { id: 'brand', textValue: 'Sandbox Goods' },
        ],
      },
      variants: STOCK.map((item) => ({
        sku: item.sku,
        productData: { attributes: [{ id: 'color', textValue: item.color }] },
        pricing: { attributes: [{ id: 'price', moneyValue: { amount: '12.50', currencyCode: 'USD' } }] },
      })),
    },
    now,
  );
  await refreshVariantStock(tx, accountId, created.productIds, now);
  return { listingId: created.listingId, sku: 'SANDBOX-MUG', variantSkus: STOCK.map((s) => s.sku) };
}
