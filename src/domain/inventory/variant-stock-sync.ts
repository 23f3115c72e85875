import type { Db } from '../../db/tx.js';
import { emitNudge, nudgeSubscribers } from '../callbacks/nudges.js';
import { lockProductVariants, recordVariantStock, type VariantStockSnapshot } from '../listings/variant-stock.js';
import { ruleOverStock, withOverride, type ChannelRuleFields } from './channel-rules.js';
import { loadStockRules, nextRulesStep, recordRulesStep, type StockRules } from './channel-rules-store.js';

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

/**
 * The snapshot one storefront with rules gets (resolutions §9): the merchant quantity and its per-warehouse
 * split from ruledQuantity over the rule's warehouses; channel-fulfilled stock as it is.
 */
export function ruledSnapshot(rows: WarehouseStock[], rule: ChannelRuleFields, defaultWarehouses: readonly number[]): VariantStockSnapshot {
  const plain = stockSnapshot(rows);
  const { ruled } = ruleOverStock(rule, rows, defaultWarehouses);
  return { merchantQuantity: ruled.quantity, storefrontQuantity: plain.storefrontQuantity, warehouseQuantities: ruled.warehouses };
}

/**
 * Writes one product's snapshots: the plain one on storefronts without rules, a ruled one on each with rules.
 * With `only`, just that storefront's variants (the move to its changed rules).
 */
async function recordProductStock(
  tx: Db,
  accountId: number,
  productId: number,
  stock: WarehouseStock[],
  rules: StockRules | null,
  now: Date,
  only: number | null,
): Promise<number> {
  if (only !== null) {
    const rule = rules?.storefronts.get(only);
    const snapshot = rule ? ruledSnapshot(stock, withOverride(rule, rules!.overrides.get(`${only}:${productId}`)), rules!.defaultWarehouses) : stockSnapshot(stock);
    return recordVariantStock(tx, accountId, productId, snapshot, now, { storefrontId: only });
  }
  if (rules === null) return recordVariantStock(tx, accountId, productId, stockSnapshot(stock), now);
  const ruledStorefronts = [...rules.storefronts.keys()];
  let changed = await recordVariantStock(tx, accountId, productId, stockSnapshot(stock), now, { exceptStorefronts: ruledStorefronts });
  for (const [storefrontId, rule] of rules.storefronts) {
    const snapshot = ruledSnapshot(stock, withOverride(rule, rules.overrides.get(`${storefrontId}:${productId}`)), rules.defaultWarehouses);
    changed += await recordVariantStock(tx, accountId, productId, snapshot, now, { storefrontId });
  }
  return changed;
}

/** Recomputes the snapshot of each listed product and writes it onto its variants; unlisted ones cost one indexed lookup. */
export async function refreshVariantStock(
  tx: Db,
  accountId: number,
  productIds: readonly number[],
  now: Date,
  /** Only this storefront's variants (the others are current): the move to its changed inventory rules. */
  onlyStorefront: number | null = null,
): Promise<void> {
  // Lock first, read after: see lockProductVariants (a parallel change of another warehouse is not lost).
  const listed = await lockProductVariants(tx, accountId, [...new Set(productIds)].sort((a, b) => a - b));
  await refreshLockedVariantStock(tx, accountId, listed, now, onlyStorefront);
}

/**
 * refreshVariantStock after its lock: `listed` are the products whose variants this transaction has locked
 * (lockProductVariants, or its form sent ahead), in any order.
 */
export async function refreshLockedVariantStock(tx: Db, accountId: number, lockedListed: readonly number[], now: Date, onlyStorefront: number | null = null): Promise<void> {
  const listed = [...new Set(lockedListed)].sort((a, b) => a - b);
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
  const rules = await loadStockRules(tx, accountId, listed);
  const changed: number[] = [];
  for (const [productId, stock] of byProduct) {
    if ((await recordProductStock(tx, accountId, productId, stock, rules, now, onlyStorefront)) > 0) changed.push(productId);
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

/**
 * One step of moving a storefront's variants to its current inventory rules (after a change of them): the
 * next RULES_STEP_VARIANTS variants from the checkpoint get their stock copy recomputed (only those whose
 * ruled quantity changed move, so the polls and drift report exactly them), then the checkpoint advances.
 * Answers whether steps remain. Run in a short transaction per step by the propagation job.
 */
export async function applyChannelRulesStep(tx: Db, accountId: number, storefrontId: number, now: Date): Promise<boolean> {
  const step = await nextRulesStep(tx, accountId, storefrontId);
  if (step === null) return false;
  if (step.productIds.length > 0) await refreshVariantStock(tx, accountId, step.productIds, now, storefrontId);
  await recordRulesStep(tx, accountId, storefrontId, step.from, step.lastVariantId);
  return true;
}
