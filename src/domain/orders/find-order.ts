import type { Db } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { notFound } from '../errors.js';
import type { OrderRow } from './view.js';
import { orderScopeOf, type OrderScope } from './visibility.js';

/** Order numbers are the numeric ids, output as strings; anything else names no order. */
export function parseOrderNumber(orderNumber: string): number | null {
  if (!/^\d{1,15}$/.test(orderNumber)) return null;
  const id = Number(orderNumber);
  return id > 0 ? id : null;
}

/**
 * The order with this number as the caller may see it, or a 404: another account's order, another
 * storefront's, or one with nothing routed to a narrowed token's warehouses are all simply not found.
 */
export async function findVisibleOrder(db: Db, principal: Principal, orderNumber: string): Promise<{ order: OrderRow; scope: OrderScope }> {
  const scope = orderScopeOf(principal);
  const id = parseOrderNumber(orderNumber);
  const missing = () => notFound(`sales order ${orderNumber} not found`).because('order.not_found', {});
  if (id === null) throw missing();
  let query = db.selectFrom('sales_orders as o').selectAll('o').where('o.account_id', '=', principal.accountId).where('o.id', '=', id);
  if (scope.storefrontId !== null) query = query.where('o.storefront_id', '=', scope.storefrontId);
  const visibleWarehouses = scope.warehouseIds;
  if (visibleWarehouses !== null) {
    if (visibleWarehouses.length === 0) throw missing();
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('order_line_routes as r')
          .select('r.id')
          .where('r.account_id', '=', principal.accountId)
          .whereRef('r.order_id', '=', 'o.id')
          .where('r.warehouse_id', 'in', visibleWarehouses),
      ),
    );
  }
  const order = await query.executeTakeFirst();
  if (!order) throw missing();
  return { order, scope };
}
