import type { Db } from '../../db/tx.js';

/** The account's kits (products with components) with their recipes, in SKU order, keyset-paged on the SKU. */
export interface KitListPage {
  kits: { productId: number; sku: string; components: { sku: string; quantity: number }[] }[];
  next: string | null;
}

export async function listKits(db: Db, accountId: number, afterSku: string | null, limit: number): Promise<KitListPage> {
  let query = db
    .selectFrom('products as p')
    .select(['p.id', 'p.sku'])
    .where('p.account_id', '=', accountId)
    // Driven from the recipes (kit_components_kit index), so the work follows the number of kits, not of
    // products: an EXISTS per product would walk every product of a large catalog to find a few kits.
    .where('p.id', 'in', (eb) => eb.selectFrom('kit_components as k').select('k.kit_product_id').where('k.account_id', '=', accountId));
  if (afterSku !== null) query = query.where('p.sku', '>', afterSku);
  const rows = await query.orderBy('p.sku').limit(limit + 1).execute();
  const page = rows.slice(0, limit);
  const components =
    page.length === 0
      ? []
      : await db
          .selectFrom('kit_components as k')
          .innerJoin('products as c', 'c.id', 'k.component_product_id')
          .select(['k.kit_product_id', 'c.sku', 'k.quantity'])
          .where('k.account_id', '=', accountId)
          .where(
            'k.kit_product_id',
            'in',
            page.map((p) => p.id),
          )
          .orderBy('k.kit_product_id')
          .orderBy('k.component_product_id')
          .execute();
  return {
    kits: page.map((p) => ({
      productId: p.id,
      sku: p.sku,
      components: components.filter((c) => c.kit_product_id === p.id).map((c) => ({ sku: c.sku, quantity: c.quantity })),
    })),
    next: rows.length > limit ? page[page.length - 1]!.sku : null,
  };
}
