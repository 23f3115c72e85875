import { sql } from 'kysely';
import type { Db } from '../../db/tx.js';
import { listAccountWarehouses } from '../accounts/warehouses.js';
import { defaultWarehouse } from './routing.js';
import { WAITING } from './waiting-work.js';

/**
 * Units owed to orders that wait for stock, per SKU and warehouse (the console's stock pages): a route's
 * backorder_quantity in its warehouse, plus the lines' unrouted units (unroutable-lines.ts), which count as
 * backordered in the account's default warehouse. Two statements for any number of SKUs, each reading a
 * partial index of waiting rows only (order_line_routes_backorders, sales_order_lines_unrouted).
 */
export interface BackorderedUnits {
  /** product id → warehouse id → units. */
  byProduct: Map<number, Map<number, number>>;
  /** Unrouted units of SKUs with no warehouse to count them in (the account has none that can hold them). */
  unplaced: Map<number, number>;
}

export async function backorderedUnitsOf(db: Db, accountId: number, products: readonly { id: number; sku: string }[]): Promise<BackorderedUnits> {
  const byProduct = new Map<number, Map<number, number>>();
  const unplaced = new Map<number, number>();
  if (products.length === 0) return { byProduct, unplaced };
  const add = (productId: number, warehouseId: number, units: number) => {
    let entry = byProduct.get(productId);
    if (!entry) byProduct.set(productId, (entry = new Map()));
    entry.set(warehouseId, (entry.get(warehouseId) ?? 0) + units);
  };
  const ids = products.map((p) => p.id);
  // An unknown SKU's line names the product only by the SKU it asked for until stock routes it.
  const bySkuLower = new Map(products.map((p) => [p.sku.toLowerCase(), p.id]));
  const [routes, lines, warehouses] = await Promise.all([
    db
      .selectFrom('order_line_routes')
      .select(['product_id', 'warehouse_id', (eb) => eb.fn.sum<number | string>('backorder_quantity').as('units')])
      .where('account_id', '=', accountId)
      .where('backorder_quantity', '>', WAITING)
      .where('product_id', 'in', ids)
      .groupBy(['product_id', 'warehouse_id'])
      .execute(),
    db
      .selectFrom('sales_order_lines as l')
      .select(['l.product_id', 'l.requested_sku', 'l.unrouted_quantity'])
      .where('l.account_id', '=', accountId)
      .where('l.unrouted_quantity', '>', WAITING)
      .where((eb) => eb.or([eb('l.product_id', 'in', ids), eb.and([eb('l.product_id', 'is', null), eb(sql<string>`lower(l.requested_sku)`, 'in', [...bySkuLower.keys()])])]))
      .execute(),
    listAccountWarehouses(db, accountId),
  ]);
  for (const r of routes) add(Number(r.product_id), Number(r.warehouse_id), Number(r.units));
  const fallback = defaultWarehouse(warehouses);
  for (const l of lines) {
    const productId = l.product_id ?? bySkuLower.get(l.requested_sku.toLowerCase());
    if (productId === undefined) continue;
    if (fallback) add(productId, fallback.id, l.unrouted_quantity);
    else unplaced.set(productId, (unplaced.get(productId) ?? 0) + l.unrouted_quantity);
  }
  return { byProduct, unplaced };
}
