import type { Db } from '../../db/tx.js';

/**
 * How many kits the stock can still build from components (console catalog, issue 24). A kit is built in
 * ONE warehouse holding every component (src/domain/orders/kit-routing.ts), so a warehouse builds
 * min over components of floor(available ÷ units per kit), and the account builds the sum over warehouses.
 * Assembled kits are the kit's own stock and are counted apart.
 */

export interface KitComponent {
  productId: number;
  sku: string;
  title: string | null;
  quantity: number;
}

/** Kit product id → its components in product-id order; products without components are absent. */
export type KitRecipes = Map<number, KitComponent[]>;

/** The recipes of those of these products that are kits (one query for a page of products). */
export async function kitRecipesOf(db: Db, accountId: number, productIds: readonly number[]): Promise<KitRecipes> {
  const recipes: KitRecipes = new Map();
  if (productIds.length === 0) return recipes;
  const rows = await db
    .selectFrom('kit_components as k')
    .innerJoin('products as c', 'c.id', 'k.component_product_id')
    .select(['k.kit_product_id', 'k.component_product_id', 'c.sku', 'c.title', 'k.quantity'])
    .where('k.account_id', '=', accountId)
    .where('k.kit_product_id', 'in', [...productIds])
    .orderBy('k.kit_product_id')
    .orderBy('k.component_product_id')
    .execute();
  for (const r of rows) {
    const list = recipes.get(r.kit_product_id) ?? [];
    list.push({ productId: r.component_product_id, sku: r.sku, title: r.title, quantity: r.quantity });
    recipes.set(r.kit_product_id, list);
  }
  return recipes;
}

/** Units available of a product in a warehouse (0 when it has no stock row there). */
export type AvailableOf = (warehouseId: number, productId: number) => number;

/** Kits each warehouse can build from its available components, in the order of `warehouseIds`. */
export function kitsBuildable(recipe: readonly KitComponent[], warehouseIds: readonly number[], available: AvailableOf): { warehouseId: number; kits: number }[] {
  if (recipe.length === 0) return warehouseIds.map((warehouseId) => ({ warehouseId, kits: 0 }));
  return warehouseIds.map((warehouseId) => ({
    warehouseId,
    kits: Math.max(0, Math.min(...recipe.map((c) => Math.floor(available(warehouseId, c.productId) / c.quantity)))),
  }));
}
