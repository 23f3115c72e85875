import type { Db } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { listAccountWarehouses } from '../accounts/warehouses.js';
import type { OrderStatus } from './model.js';
import { ORDER_VIEW_COLUMNS, orderViews, type SalesOrderV1 } from './view.js';
import { orderScopeOf, withWarehouseFilter } from './visibility.js';
import type { DbHandle } from '../../db/connect.js';
import { selectRows } from '../../db/fast-paths.js';

/**
 * GET /v1/salesOrder (document 4.6, resolutions §1): oldest lastUpdatedTs first, keyset on
 * (last_updated_ts, id) over the (account_id, last_updated_ts, id) index, never OFFSET, so page 1,000
 * costs what page 1 does. An order updated while a client pages may appear again, never be skipped.
 */
export interface OrderListFilter {
  /** Inclusive lower bound on lastUpdatedTs (ISO). */
  updatedFrom: string | null;
  /** Inclusive lower bound on orderTs (ISO). */
  orderedFrom: string | null;
  statuses: OrderStatus[] | null;
  channelOrderIds: string[] | null;
  warehouseId: number | null;
  /**
   * Orders placed before this are excluded (the one-year window), fixed when the first page is read so
   * every page of one listing applies the same bound; null when channelOrderIds is given.
   */
  windowStart: string | null;
}

export interface OrderKeyset {
  ts: string;
  id: number;
}

export interface OrderListPage {
  results: SalesOrderV1[];
  next: OrderKeyset | null;
}

/** The one-year order-age window (document 8), from the time of the first page. */
export function oneYearBefore(now: Date): string {
  const start = new Date(now.getTime());
  start.setUTCFullYear(start.getUTCFullYear() - 1);
  return start.toISOString();
}

export async function listSalesOrders(
  db: Db,
  principal: Principal,
  filter: OrderListFilter,
  after: OrderKeyset | null,
  pageLength: number,
  /** The handle of `db`: lets the page's wide reads build their rows faster on SQLite (src/db/raw-rows.ts). */
  handle?: DbHandle,
): Promise<OrderListPage> {
  const accountId = principal.accountId;
  let scope = orderScopeOf(principal);
  if (filter.warehouseId !== null) {
    const known = (await listAccountWarehouses(db, accountId)).map((w) => w.id);
    scope = withWarehouseFilter(scope, filter.warehouseId, known);
  }
  let query = db.selectFrom('sales_orders as o').select(ORDER_VIEW_COLUMNS.map((c) => `o.${c}` as const)).where('o.account_id', '=', accountId);
  if (scope.storefrontId !== null) query = query.where('o.storefront_id', '=', scope.storefrontId);
  const routedTo = scope.warehouseIds;
  if (routedTo !== null) {
    if (routedTo.length === 0) return { results: [], next: null };
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('order_line_routes as r')
          .select('r.id')
          .where('r.account_id', '=', accountId)
          .whereRef('r.order_id', '=', 'o.id')
          .where('r.warehouse_id', 'in', routedTo),
      ),
    );
  }
  if (filter.updatedFrom !== null) query = query.where('o.last_updated_ts', '>=', filter.updatedFrom);
  if (filter.orderedFrom !== null) query = query.where('o.order_ts', '>=', filter.orderedFrom);
  if (filter.windowStart !== null) query = query.where('o.order_ts', '>=', filter.windowStart);
  if (filter.statuses !== null) query = query.where('o.status', 'in', filter.statuses);
  if (filter.channelOrderIds !== null) query = query.where('o.channel_order_id', 'in', filter.channelOrderIds);
  if (after !== null) {
    query = query.where((eb) => eb(eb.refTuple('o.last_updated_ts', 'o.id'), '>', eb.tuple(after.ts, after.id)));
  }
  const rows = await selectRows(db, handle, query.orderBy('o.last_updated_ts').orderBy('o.id').limit(pageLength + 1));
  const page = rows.slice(0, pageLength);
  const last = page[page.length - 1];
  const next = rows.length > pageLength && last ? { ts: last.last_updated_ts, id: last.id } : null;
  return { results: await orderViews(db, principal, page, scope, handle), next };
}
