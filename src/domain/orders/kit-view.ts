import type { Db } from '../../db/tx.js';

export type KitComponentsV1 = { SKU: string; componentQuantity: number }[];

/** routing_info kitComponents of kit routes (the recipe they were routed with), by route id. */
export async function kitComponentsByRoute(db: Db, accountId: number, routeIds: number[]): Promise<Map<number, KitComponentsV1>> {
  const out = new Map<number, KitComponentsV1>();
  if (routeIds.length === 0) return out;
  const rows = await db
    .selectFrom('order_route_kit_components as k')
    .innerJoin('products as p', 'p.id', 'k.component_product_id')
    .select(['k.route_id', 'p.sku', 'k.component_quantity'])
    .where('k.account_id', '=', accountId)
    .where('k.route_id', 'in', routeIds)
    .orderBy('k.route_id')
    .orderBy('k.component_product_id')
    .execute();
  for (const r of rows) out.set(r.route_id, [...(out.get(r.route_id) ?? []), { SKU: r.sku, componentQuantity: r.component_quantity }]);
  return out;
}
