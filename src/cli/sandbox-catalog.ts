import type { Tx } from '../db/tx.js';
import type { SandboxSummary } from '../domain/sandbox-partner/sandbox.js';
import { findOrCreateProduct } from '../domain/catalog/products.js';
import { applyStockChange } from '../domain/inventory/stock.js';
import { createProductFromForm } from '../domain/reports/imports/product-form.js';

/**
 * The sandbox's catalog: products with the title, brand, price and the other fields a seller's catalog has,
 * written by the console's product form (createProductFromForm: the product import's own checks and writer),
 * and stock in Main through the same stock change as POST /v1/inventory. The kettle has none, so its order
 * waits as a backorder (sandbox-orders.ts). Runs in the sandbox's transaction.
 */

export interface SandboxProduct {
  sku: string;
  title: string;
  brand: string;
  price: string;
  msrp?: string;
  weight: string;
  category: string;
  description: string;
  /** Units on hand in Main; the mugs' stock comes with their listing (sandbox-listing.ts). */
  onHandInMain: number | null;
}

export const SANDBOX_PRODUCTS: readonly SandboxProduct[] = [
  { sku: 'SANDBOX-MUG-BLUE', title: 'Stoneware mug, 350 ml, blue', brand: 'Sandbox Goods', price: '12.50', msrp: '15.00', weight: '0.9', category: 'Kitchen > Mugs', description: 'A sturdy stoneware mug for tea and coffee.', onHandInMain: null },
  { sku: 'SANDBOX-MUG-RED', title: 'Stoneware mug, 350 ml, red', brand: 'Sandbox Goods', price: '12.50', msrp: '15.00', weight: '0.9', category: 'Kitchen > Mugs', description: 'A sturdy stoneware mug for tea and coffee.', onHandInMain: null },
  { sku: 'SANDBOX-TEAPOT', title: 'Cast-iron teapot, 800 ml', brand: 'Sandbox Goods', price: '39.00', msrp: '45.00', weight: '3.1', category: 'Kitchen > Tea', description: 'Enamelled cast iron with a stainless steel infuser.', onHandInMain: 8 },
  { sku: 'SANDBOX-TOWEL', title: 'Linen tea towel, natural', brand: 'Northfield Linen', price: '9.90', weight: '0.3', category: 'Kitchen > Textiles', description: 'Stonewashed linen, 50 × 70 cm.', onHandInMain: 40 },
  { sku: 'SANDBOX-BEANS', title: 'Coffee beans, medium roast, 1 kg', brand: 'Roastery Row', price: '24.00', weight: '2.2', category: 'Pantry > Coffee', description: 'Whole beans from Colombia and Ethiopia.', onHandInMain: 30 },
  { sku: 'SANDBOX-GRINDER', title: 'Hand coffee grinder', brand: 'Brewline', price: '45.00', msrp: '55.00', weight: '1.4', category: 'Kitchen > Coffee', description: 'Ceramic burrs, 40 settings.', onHandInMain: 6 },
  { sku: 'SANDBOX-KETTLE', title: 'Gooseneck kettle, 1 l', brand: 'Brewline', price: '54.00', weight: '2.0', category: 'Kitchen > Coffee', description: 'Stainless steel, for pour-over coffee.', onHandInMain: 0 },
];

export async function seedSandboxCatalog(tx: Tx, summary: SandboxSummary, now: Date): Promise<string[]> {
  const accountId = summary.account.accountId;
  const main = summary.warehouses.find((w) => w.key === 'main')!.warehouseId;
  for (const p of SANDBOX_PRODUCTS) {
    const fields: Record<string, string> = {
      title: p.title,
      brand: p.brand,
      price: p.price,
      weight: p.weight,
      weight_unit: 'lb',
      category: p.category,
      description: p.description,
      ...(p.msrp ? { msrp: p.msrp } : {}),
    };
    const result = await createProductFromForm(tx, accountId, { sku: p.sku, fields, attributes: [] }, now);
    // A new account has no products, so a refusal is a mistake in the list above.
    if (!result.ok) throw new Error(`sandbox product ${p.sku}: ${result.problems.map((x) => `${x.field} ${x.message}`).join('; ')}`);
    if (p.onHandInMain !== null) {
      const { product } = await findOrCreateProduct(tx, accountId, p.sku, {}, now);
      await applyStockChange(tx, accountId, product.id, main, { mode: 'onhand', quantity: p.onHandInMain }, now);
    }
  }
  return SANDBOX_PRODUCTS.map((p) => p.sku);
}
