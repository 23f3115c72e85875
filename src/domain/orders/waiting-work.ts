import { sql, type ExpressionBuilder, type RawBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Tx } from '../../db/tx.js';

/**
 * Whether stock that just became available can serve any waiting order: ONE statement for all the rows a
 * call changed, so a stock write with nothing waiting (the usual case) pays one indexed lookup per call, not
 * one per item. Each test reads a partial index holding only the waiting rows:
 * - routes: backordered routes of these products in these warehouses (order_line_routes_backorders);
 * - kits: backordered routes, in these warehouses, of kits that have one of these products as a component
 *   (kit_components_component_kits, then order_line_routes_backorders);
 * - unrouted: lines still waiting for a place (sales_order_lines_unrouted) whose product is one of these, or
 *   whose unknown SKU one of these products now carries.
 */
export interface WaitingWork {
  routes: boolean;
  kits: boolean;
  unrouted: boolean;
}

type Eb = ExpressionBuilder<Database, never>;

/**
 * "> 0" written as a literal, never a bound parameter: the partial indexes that hold only waiting rows
 * (order_line_routes_backorders, sales_order_lines_unrouted) say "… > 0", and SQLite uses a partial index
 * only when the query's own terms prove its condition, which a parameter never does.
 */
export const WAITING = sql.lit(0);

/**
 * Routes (alias r) of these (warehouse, products) pairs: "(r.warehouse_id = w and r.product_id in (…)) or …",
 * one term per warehouse. `products` turns a warehouse's product ids into the IN list.
 */
function routesOf(byWarehouse: ReadonlyMap<number, readonly number[]>, products: (ids: readonly number[]) => RawBuilder<unknown>): RawBuilder<boolean> {
  const terms = [...byWarehouse].map(([warehouseId, ids]) => sql`(r.warehouse_id = ${warehouseId} and r.product_id in (${products(ids)}))`);
  return sql<boolean>`(${sql.join(terms, sql` or `)})`;
}

const listed = (ids: readonly number[]) => sql.join([...ids]);

/**
 * The kits with one of these products as a component. A subquery, so the database starts from
 * kit_components_component and probes the waiting routes of each kit, never walking every waiting route of
 * a busy default warehouse.
 */
const kitsOf = (accountId: number) => (ids: readonly number[]) =>
  sql`select k.kit_product_id from kit_components k where k.account_id = ${accountId} and k.component_product_id in (${listed(ids)})`;

const yes = (value: unknown) => value === true || Number(value) === 1;

export async function waitingWork(tx: Tx, accountId: number, byWarehouse: ReadonlyMap<number, readonly number[]>): Promise<WaitingWork> {
  const productIds = [...new Set([...byWarehouse.values()].flat())];
  const row = await tx
    .selectNoFrom((eb: Eb) => [
      eb
        .exists(
          eb
            .selectFrom('order_line_routes as r')
            .select('r.id')
            .where('r.account_id', '=', accountId)
            .where('r.backorder_quantity', '>', WAITING)
            .where(routesOf(byWarehouse, listed)),
        )
        .as('routes'),
      eb
        .exists(
          eb
            .selectFrom('order_line_routes as r')
            .select('r.id')
            .where('r.account_id', '=', accountId)
            .where('r.backorder_quantity', '>', WAITING)
            .where(routesOf(byWarehouse, kitsOf(accountId))),
        )
        .as('kits'),
      eb
        .exists(
          eb
            .selectFrom('sales_order_lines as l')
            .select('l.id')
            .where('l.account_id', '=', accountId)
            .where('l.unrouted_quantity', '>', WAITING)
            .where((w) => w.or([w('l.product_id', 'in', productIds), w.and([w('l.product_id', 'is', null), skuNowKnown(accountId, productIds)])])),
        )
        .as('unrouted'),
    ])
    .executeTakeFirstOrThrow();
  return { routes: yes(row.routes), kits: yes(row.kits), unrouted: yes(row.unrouted) };
}

/**
 * An unknown SKU line (alias l) whose requested SKU one of these products carries now: exactly, or ignoring
 * case as order creation resolves SKUs (resolveRequestedSkus decides afterwards; this only narrows the lines).
 */
export function skuNowKnown(accountId: number, productIds: readonly number[]): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from products p where p.account_id = ${accountId} and p.id in (${sql.join([...productIds])}) and (p.sku = l.requested_sku or p.sku_lower = lower(l.requested_sku)))`;
}
