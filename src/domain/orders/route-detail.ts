import type { Db } from '../../db/tx.js';

/**
 * Where one order's units stand per (line, warehouse) for the seller's order page: the v1 view shows only
 * the routed quantity; the seller also needs what is reserved, backordered, shipped and cancelled there, and
 * since when (routed_at / updated_at feed the page's timeline).
 */
export interface OrderRouteDetail {
  lineId: number;
  warehouseId: number;
  quantity: number;
  reserved: number;
  backordered: number;
  shipped: number;
  cancelled: number;
  routedAt: string;
  updatedAt: string;
}

export async function orderRouteDetails(db: Db, accountId: number, orderId: number): Promise<OrderRouteDetail[]> {
  const rows = await db
    .selectFrom('order_line_routes')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('order_id', '=', orderId)
    .execute();
  return rows
    .sort((a, b) => a.line_id - b.line_id || a.warehouse_id - b.warehouse_id)
    .map((r) => ({
      lineId: r.line_id,
      warehouseId: r.warehouse_id,
      quantity: r.quantity,
      reserved: r.reserved_quantity,
      backordered: r.backorder_quantity,
      shipped: r.shipped_quantity,
      cancelled: r.cancelled_quantity,
      routedAt: r.routed_at,
      updatedAt: r.updated_at,
    }));
}
