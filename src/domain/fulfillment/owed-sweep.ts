import { sql } from 'kysely';
import type { Db } from '../../db/tx.js';

/**
 * The safety net of "units routed to a shipping / 3PL warehouse become that integration's work" (sync.ts).
 * Order creation and a new warehouse mapping each create the fulfillment orders they call for, in their own
 * transactions; on PostgreSQL (READ COMMITTED) an order committing while the first mapping of its warehouse is
 * being made is seen by neither, and its units would never reach need_to_ship. The sweep
 * (src/jobs/handlers/waiting-work-sweep.ts) finds such orders and runs syncFulfillmentOrders for them.
 *
 * An order is owed one when a route of it holds units (reserved or backordered) in a warehouse mapped to an
 * ACTIVE shipping or 3PL installation and the order has no live (not WITHDRAWN) fulfillment order there: the
 * same conditions syncFulfillmentOrders inserts under.
 */

export interface OwedOrder {
  /** The route that showed it: the keyset position of the walk. */
  routeId: number;
  accountId: number;
  orderId: number;
}

/** Routes after `afterRouteId` (in id order, `limit` of them read) and the orders among them owed work. */
export async function ordersOwedFulfillmentAfter(db: Db, afterRouteId: number, limit: number): Promise<{ lastRouteId: number | null; owed: OwedOrder[] }> {
  // The walk reads a page of routes by primary key whatever they hold, so each page costs the same.
  const page = await sql<{ id: number }>`select id from order_line_routes where id > ${afterRouteId} order by id limit ${limit}`.execute(db);
  if (page.rows.length === 0) return { lastRouteId: null, owed: [] };
  const lastRouteId = Number(page.rows[page.rows.length - 1]!.id);
  const owed = await sql<{ id: number; account_id: number; order_id: number }>`
    select r.id, r.account_id, r.order_id
      from order_line_routes r
      join warehouse_mappings m on m.account_id = r.account_id and m.warehouse_id = r.warehouse_id
      join installations i on i.id = m.installation_id and i.account_id = r.account_id
      where r.id > ${afterRouteId} and r.id <= ${lastRouteId}
        and r.reserved_quantity + r.backorder_quantity > 0
        and i.status = 'ACTIVE' and i.kind in ('SHIPPING', 'THIRD_PARTY_LOGISTICS')
        and not exists (
          select 1 from fulfillment_orders f
          where f.account_id = r.account_id and f.order_id = r.order_id and f.warehouse_id = r.warehouse_id and f.status <> 'WITHDRAWN'
        )
      order by r.id
  `.execute(db);
  return { lastRouteId, owed: owed.rows.map((r) => ({ routeId: Number(r.id), accountId: Number(r.account_id), orderId: Number(r.order_id) })) };
}
