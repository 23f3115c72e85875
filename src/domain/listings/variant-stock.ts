import { argList, compiledByShape, compiledBySize, listArgsOf, readAhead } from '../../db/fast-paths.js';
import { sql } from 'kysely';
import type { Db } from '../../db/tx.js';

/**
 * The stock copy on listing variants (LISTINGS.md "Data model"): the inventory area pushes a product's
 * stock here in the transaction that changes it, so the inventory polls and the drift query read one
 * table. This file owns the columns' rules; it never reads the inventory tables (inventory → listings only).
 */

export interface VariantStockSnapshot {
  /** Available units over the account's merchant-fulfilled (not channel-fulfilled) warehouses. */
  merchantQuantity: number;
  /** Available units over the channel-fulfilled warehouses. */
  storefrontQuantity: number;
  /** Merchant warehouses holding a stock row of the product, ordered by warehouse id. */
  warehouseQuantities: { warehouseId: number; quantity: number }[];
}

/**
 * warehouse_quantities as stored: warehouse ids as strings (the v2 shape), ordered by id, keys in a fixed
 * order, so equal snapshots give equal text and the UPDATE can compare text.
 */
export function warehouseQuantitiesJson(snapshot: VariantStockSnapshot): string {
  const sorted = [...snapshot.warehouseQuantities].sort((a, b) => a.warehouseId - b.warehouseId);
  return JSON.stringify(sorted.map((w) => ({ warehouseId: String(w.warehouseId), quantity: w.quantity })));
}

/**
 * Writes the snapshot onto every variant of the product (any storefront, or those `storefronts` names) with ONE UPDATE. Only variants
 * whose copy differs are touched: their inventory_updated_at moves to now (the inventory poll keyset);
 * intended_changed_at moves only when merchant + storefront (the quantity the service intends to send)
 * changes, which is what stableFor measures; drifting is recomputed against the last quantity sent.
 * Every expression reads the row's old values inside the statement, so parallel writers never
 * interleave a read and a write. Returns how many variants changed.
 */
export async function recordVariantStock(
  tx: Db,
  accountId: number,
  productId: number,
  snapshot: VariantStockSnapshot,
  now: Date,
  /** Which storefronts' variants (default: all): one, or all but some (those with inventory rules of their own). */
  storefronts: { storefrontId: number } | { exceptStorefronts: number[] } | null = null,
): Promise<number> {
  const merchant = snapshot.merchantQuantity;
  const storefront = snapshot.storefrontQuantity;
  const args: Record<string, unknown> = {
    accountId,
    productId,
    merchant,
    storefront,
    total: merchant + storefront,
    warehouses: warehouseQuantitiesJson(snapshot),
    iso: now.toISOString(),
  };
  let shape: StorefrontShape = 'all';
  if (storefronts !== null && 'storefrontId' in storefronts) {
    shape = 'one';
    args.storefrontId = storefronts.storefrontId;
  } else if (storefronts !== null && storefronts.exceptStorefronts.length > 0) {
    shape = storefronts.exceptStorefronts.length;
    Object.assign(args, listArgsOf('x', storefronts.exceptStorefronts));
  }
  const result = await tx.executeQuery(writeStockCopy.bound(tx, shape, args));
  return Number(result.numAffectedRows ?? 0n);
}

/** Every variant of the product, one storefront's, or all but n storefronts'. */
type StorefrontShape = 'all' | 'one' | number;

// Every stock change runs it, once per storefront group: compiled once per shape (src/db/compiled.ts).
const writeStockCopy = compiledByShape<unknown, Record<string, unknown>, StorefrontShape>((db, arg, shape) =>
  db
    .updateTable('listing_variants')
    .set((eb) => ({
      merchant_quantity: arg<number>('merchant'),
      storefront_quantity: arg<number>('storefront'),
      warehouse_quantities: arg('warehouses'),
      inventory_updated_at: arg('iso'),
      intended_changed_at: sql<string>`case when ${eb.ref('merchant_quantity')} + ${eb.ref('storefront_quantity')} <> ${arg<number>('total')} then ${arg('iso')} else ${eb.ref('intended_changed_at')} end`,
      drifting: sql<number>`case when ${eb.ref('last_sent_quantity')} is null or ${eb.ref('last_sent_quantity')} <> ${arg<number>('total')} then 1 else 0 end`,
    }))
    .where('account_id', '=', arg<number>('accountId'))
    .where('product_id', '=', arg<number>('productId'))
    // `+storefront_id`: SQLite's planner would otherwise walk a storefront-led index (every variant of the
    // storefront) instead of (account_id, product_id), a handful of rows; the unary plus keeps the column out of
    // index choice on both databases and changes nothing else.
    .$if(shape === 'one', (qb) => qb.where(sql<number>`+storefront_id`, '=', arg<number>('storefrontId')))
    .$if(typeof shape === 'number', (qb) => qb.where('storefront_id', 'not in', argList<number>(arg, 'x', shape as number)))
    .where((eb) =>
      eb.or([
        eb('merchant_quantity', '<>', arg<number>('merchant')),
        eb('storefront_quantity', '<>', arg<number>('storefront')),
        eb('warehouse_quantities', '<>', arg('warehouses')),
      ]),
    ),
);

/** Whether any storefront lists the product (a read-only check; the stock path uses lockProductVariants). */
export async function productHasVariants(db: Db, accountId: number, productId: number): Promise<boolean> {
  const row = await db
    .selectFrom('listing_variants')
    .select('id')
    .where('account_id', '=', accountId)
    .where('product_id', '=', productId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Locks the variants of these products and returns the products that have any (the others need no
 * snapshot). The lock is a no-op UPDATE because it works alike on both databases: on PostgreSQL it waits
 * for any other transaction that changed the same product's stock and is writing its snapshot, so the
 * stock read that follows (a new statement under READ COMMITTED) sees that transaction's rows and the last
 * writer never overwrites the copy with a stale warehouse. SQLite runs one writer at a time anyway.
 */
export async function lockProductVariants(tx: Db, accountId: number, productIds: number[]): Promise<number[]> {
  return (await lockProductVariantsAhead(tx, accountId, productIds))();
}

/** lockProductVariants sent ahead (src/db/unanswered.ts): the lock is taken where it is sent, its answer later. */
export async function lockProductVariantsAhead(tx: Db, accountId: number, productIds: number[]): Promise<() => Promise<number[]>> {
  if (productIds.length === 0) return () => Promise.resolve([]);
  const answer = await readAhead(tx, lockVariantsOf.bound(tx, productIds.length, { accountId, ...listArgsOf('p', productIds) }));
  return async () => [...new Set((await answer()).map((r) => Number(r.product_id)))];
}

// Every stock change runs it (compiled once per IN-list size: src/db/compiled.ts).
const lockVariantsOf = compiledBySize<{ product_id: number }, Record<string, unknown>>((db, arg, n) =>
  db
    .updateTable('listing_variants')
    .set((eb) => ({ merchant_quantity: eb.ref('merchant_quantity') }))
    .where('account_id', '=', arg<number>('accountId'))
    .where('product_id', 'in', argList<number>(arg, 'p', n))
    .returning('product_id'),
);
