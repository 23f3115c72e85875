import { sql } from 'kysely';
import type { Db } from '../../db/tx.js';

/**
 * The safety net of "stock fills the orders waiting for it" (fill-backorders.ts). Every stock writer hands the
 * rows it left with units to the waiting orders in its own transaction, so this normally finds nothing. What
 * it exists for is a race on PostgreSQL (READ COMMITTED): an order that backorders units, or names a SKU not
 * in the catalog yet, commits while a parallel stock change is looking for waiting orders and cannot see it
 * yet; the stock then sits available beside an order waiting for it until the next change of that row. The
 * sweep (src/jobs/handlers/waiting-work-sweep.ts) hands such rows to the orders as that change would have.
 *
 * A servable stock row has units available and, in its warehouse, a route backordered for its product, a
 * backordered kit it is a component of, or (in any warehouse) a line still waiting for a place whose product
 * it is or whose unknown SKU it now carries. Each is a superset the fill itself narrows (oldest order first,
 * only what can be taken), so a row it cannot serve costs one look per sweep.
 */

export interface ServableStock {
  accountId: number;
  productId: number;
  warehouseId: number;
}

/** Servable stock rows after `after` in (account, product, warehouse) order: one keyset page. */
export async function servableStockAfter(db: Db, after: ServableStock | null, limit: number): Promise<ServableStock[]> {
  const from = after ?? { accountId: 0, productId: 0, warehouseId: 0 };
  // "> 0" as literals: SQLite uses the partial indexes of waiting rows only when the query proves their condition.
  const rows = await sql<{ account_id: number; product_id: number; warehouse_id: number }>`
    select account_id, product_id, warehouse_id from (
      select r.account_id, r.product_id, r.warehouse_id
        from order_line_routes r
        join inventory i on i.account_id = r.account_id and i.product_id = r.product_id and i.warehouse_id = r.warehouse_id
        where r.backorder_quantity > 0 and i.available_quantity > 0
      union
      select r.account_id, c.component_product_id, r.warehouse_id
        from order_line_routes r
        join kit_components c on c.account_id = r.account_id and c.kit_product_id = r.product_id
        join inventory i on i.account_id = r.account_id and i.product_id = c.component_product_id and i.warehouse_id = r.warehouse_id
        where r.backorder_quantity > 0 and i.available_quantity > 0
      union
      select l.account_id, l.product_id, i.warehouse_id
        from sales_order_lines l
        join inventory i on i.account_id = l.account_id and i.product_id = l.product_id
        where l.unrouted_quantity > 0 and i.available_quantity > 0
      union
      select l.account_id, p.id, i.warehouse_id
        from sales_order_lines l
        join products p on p.account_id = l.account_id and p.sku_lower = lower(l.requested_sku)
        join inventory i on i.account_id = p.account_id and i.product_id = p.id
        where l.unrouted_quantity > 0 and l.product_id is null and i.available_quantity > 0
    ) as servable
    where (account_id, product_id, warehouse_id) > (${from.accountId}, ${from.productId}, ${from.warehouseId})
    order by account_id, product_id, warehouse_id
    limit ${limit}
  `.execute(db);
  return rows.rows.map((r) => ({ accountId: Number(r.account_id), productId: Number(r.product_id), warehouseId: Number(r.warehouse_id) }));
}
