import type { Db } from '../../db/tx.js';
import { findProductBySku, findProductsBySkus } from '../catalog/products.js';
import type { WarehouseRow } from '../accounts/warehouses.js';
import { ruleForSku, ruleOverStock, type ChannelRuleFields, type ChannelRuleOverride, type ChannelRules, type RuledQuantity } from './channel-rules.js';
import { defaultChannelWarehouses } from './channel-rules-store.js';

/**
 * The console's preview of a storefront's inventory rules for one SKU (issue 28): the SKU's available
 * units per warehouse as the stock path reads them, and the ruled quantity worked out step by step with
 * the same function and the same warehouse selection as the stock copy the storefront reads
 * (variant-stock-sync.ts, ruledSnapshot). Reads one product and its stock rows: a few indexed rows.
 */

export interface SkuStock {
  productId: number;
  sku: string;
  title: string | null;
  /** Every stock row of the SKU, channel-fulfilled ones included (they are shown, never ruled). */
  stock: { warehouseId: number; available: number }[];
  /** What the storefront's stock copy holds now (null when the SKU is not listed on it). */
  listed: { merchantQuantity: number } | null;
}

/**
 * One SKU's stock in the account, found as typed, else in any capitals when that names one product only
 * (a seller types `mug-red` for `MUG-RED`). Null when the catalog has no such SKU.
 */
export async function readSkuStock(db: Db, accountId: number, storefrontId: number, typed: string): Promise<SkuStock | null> {
  const sku = typed.trim();
  if (sku === '') return null;
  let product = await findProductBySku(db, accountId, sku);
  if (!product) {
    const loose = await findProductsBySkus(db, accountId, [sku], false);
    if (loose.length !== 1) return null;
    product = loose[0]!;
  }
  const [meta, rows, variant] = await Promise.all([
    db.selectFrom('products').select('title').where('account_id', '=', accountId).where('id', '=', product.id).executeTakeFirst(),
    db
      .selectFrom('inventory')
      .select(['warehouse_id', 'available_quantity'])
      .where('account_id', '=', accountId)
      .where('product_id', '=', product.id)
      .orderBy('warehouse_id')
      .execute(),
    // Unique per storefront and SKU (listing_variants_sku).
    db
      .selectFrom('listing_variants')
      .select('merchant_quantity')
      .where('account_id', '=', accountId)
      .where('storefront_id', '=', storefrontId)
      .where('sku', '=', product.sku)
      .executeTakeFirst(),
  ]);
  return {
    productId: product.id,
    sku: product.sku,
    title: meta?.title ?? null,
    stock: rows.map((r) => ({ warehouseId: Number(r.warehouse_id), available: Number(r.available_quantity) })),
    listed: variant ? { merchantQuantity: Number(variant.merchant_quantity) } : null,
  };
}

/** How one warehouse counts for the SKU on this storefront. */
export interface PreviewWarehouse {
  warehouseId: number;
  name: string;
  /** On hand − reserved (may be below 0 when oversold; counted as 0). */
  available: number;
  role: 'feeds' | 'not-feeding' | 'channel';
  /** Units of the ruled quantity this warehouse carries (feeding warehouses only). */
  shown: number;
}

export interface RulePreview {
  /** The rule the SKU follows: the storefront's, with its exception's fields over it. */
  rule: ChannelRuleFields;
  /** The fields the SKU's exception sets (empty when it has none). */
  override: ChannelRuleOverride | null;
  warehouses: PreviewWarehouse[];
  ruled: RuledQuantity;
}

/** The ruled quantity of one SKU on a storefront, with each warehouse's part, exactly as the stock copy computes it. */
export function previewRules(rules: ChannelRules, sku: string, stock: readonly { warehouseId: number; available: number }[], warehouses: readonly WarehouseRow[]): RulePreview {
  const rule = ruleForSku(rules, sku);
  const byId = new Map(warehouses.map((w) => [w.id, w]));
  const rows = stock.map((s) => ({ ...s, channelFulfilled: byId.get(s.warehouseId)?.channelFulfilled ?? false }));
  const { feeding, ruled } = ruleOverStock(rule, rows, defaultChannelWarehouses(warehouses));
  const shownBy = new Map(ruled.warehouses.map((w) => [w.warehouseId, w.quantity]));
  // Every warehouse with stock, and every feeding one (a fixed quantity may sit in one without a row).
  const ids = [...new Set([...stock.map((s) => s.warehouseId), ...feeding])].sort((a, b) => a - b);
  const availableOf = new Map(stock.map((s) => [s.warehouseId, s.available]));
  return {
    rule,
    override: rules.skuOverrides.get(sku) ?? null,
    warehouses: ids.map((id) => {
      const w = byId.get(id);
      return {
        warehouseId: id,
        name: w?.name ?? `Warehouse ${id}`,
        available: availableOf.get(id) ?? 0,
        role: w?.channelFulfilled ? 'channel' : feeding.includes(id) ? 'feeds' : 'not-feeding',
        shown: shownBy.get(id) ?? 0,
      };
    }),
    ruled,
  };
}
