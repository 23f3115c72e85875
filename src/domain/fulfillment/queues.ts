import { sql } from 'kysely';
import type { Db } from '../../db/tx.js';
import { warehouseUniqueIdFor, type Principal } from '../accounts/principal.js';
import { callerWarehouseIds } from './access.js';
import { FULFILLMENT_ORDER_VIEW_COLUMNS, fulfillmentOrderViews, type FulfillmentOrderV2, type FulfillmentOrderViewRow } from './view.js';
import { stillOwesUnits } from './owed.js';
import type { DbHandle } from '../../db/connect.js';
import { argList, compiledByShape, listArgsOf, selectRows, withOneConnection } from '../../db/fast-paths.js';

/**
 * The two partner queues (document 4.8, 3.5, 3.7; resolutions §4). Both are level reads, keyset-paged by
 * id: every call shows what is owed NOW, so a partner that re-polls from the start never misses work.
 */

export interface Page<T> {
  items: T[];
  /** Last id of this page when another page follows. */
  nextAfter: number | null;
}

/**
 * need_to_ship's page, compiled once per shape (src/db/compiled.ts): the number of the caller's warehouses
 * times two, plus one when the page starts after a cursor.
 */
const openQueuePage = compiledByShape<FulfillmentOrderViewRow, Record<string, unknown>, number>((db, arg, shape) =>
  db
    .selectFrom('fulfillment_orders as fo')
    // Only what the view shows: each column more is a value per row SQLite hands to JavaScript.
    .select(FULFILLMENT_ORDER_VIEW_COLUMNS.map((c) => `fo.${c}` as const))
    .where('fo.account_id', '=', arg<number>('accountId'))
    .where('fo.installation_id', '=', arg<number>('installationId'))
    .where('fo.warehouse_id', 'in', argList<number>(arg, 'w', Math.floor(shape / 2)))
    // Literals, not parameters: the partial index fulfillment_orders_open_queue (migration 022) is used
    // only when the planner can see that the query asks for exactly its statuses.
    .where(sql<boolean>`fo.status in ('NEW', 'ACCEPTED')`)
    .$if(shape % 2 === 1, (qb) => qb.where('fo.id', '>', arg<number>('after')))
    .where(stillOwesUnits)
    .orderBy('fo.id')
    .limit(arg<number>('limit')),
);

/**
 * need_to_ship: the caller's fulfillment orders that are not rejected and still owe at least one unit in
 * their warehouse (acknowledging does not remove an order; shipping, cancelling or rejecting does).
 */
export async function listNeedToShip(
  db: Db,
  principal: Principal,
  after: number | null,
  pageSize: number,
  /** The handle of `db`: lets the page's reads build their rows faster on SQLite (src/db/raw-rows.ts). */
  handle?: DbHandle,
): Promise<Page<FulfillmentOrderV2>> {
  const warehouses = callerWarehouseIds(principal);
  if (principal.integrationId === null || warehouses.length === 0) return { items: [], nextAfter: null };
  const query = openQueuePage.bound(db, warehouses.length * 2 + (after === null ? 0 : 1), {
    accountId: principal.accountId,
    installationId: principal.integrationId,
    after: after ?? 0,
    limit: pageSize + 1,
    ...listArgsOf('w', warehouses),
  });
  // The page and its views' reads on one PostgreSQL connection: the views' three reads then take one round trip.
  return withOneConnection(db, async (one) => {
    const rows = await selectRows(one, handle, query);
    const page = rows.slice(0, pageSize);
    return {
      items: await fulfillmentOrderViews(one, principal, page, handle),
      nextAfter: rows.length > pageSize ? page[page.length - 1]!.id : null,
    };
  });
}

export interface CancellationV2 {
  fulfillmentOrderId: string;
  externalOrderId: string;
  orderNumber: string;
  warehouseUniqueId: string;
  reason: string;
  lines: { lineItemId: string; sku: string; quantity: number }[];
  requestedTs: string;
}

/**
 * need_to_cancel: open cancellation requests on the caller's (acknowledged) fulfillment orders, those of
 * warehouses the seller has since unmapped from it included (warehouseUniqueId is then empty).
 */
export async function listNeedToCancel(db: Db, principal: Principal, after: number | null, pageSize: number): Promise<Page<CancellationV2>> {
  if (principal.integrationId === null) return { items: [], nextAfter: null };
  const rows = await db
    .selectFrom('fulfillment_cancellation_requests as c')
    .innerJoin('fulfillment_orders as fo', 'fo.id', 'c.fulfillment_order_id')
    .select(['c.id', 'c.reason', 'c.requested_ts', 'fo.id as fo_id', 'fo.external_order_id', 'fo.order_id', 'fo.warehouse_id'])
    .where('c.account_id', '=', principal.accountId)
    .where('c.status', '=', 'OPEN')
    .where('fo.account_id', '=', principal.accountId)
    .where('fo.installation_id', '=', principal.integrationId)
    .$if(after !== null, (qb) => qb.where('c.id', '>', after ?? 0))
    .orderBy('c.id')
    .limit(pageSize + 1)
    .execute();
  const page = rows.slice(0, pageSize);
  const lines =
    page.length === 0
      ? []
      : await db
          .selectFrom('fulfillment_cancellation_lines as cl')
          .innerJoin('sales_order_lines as l', 'l.id', 'cl.line_id')
          .select(['cl.request_id', 'cl.line_id', 'cl.quantity', 'l.sku', 'l.requested_sku'])
          .where('cl.account_id', '=', principal.accountId)
          .where('cl.request_id', 'in', page.map((r) => r.id))
          .orderBy('cl.line_id')
          .execute();
  return {
    items: page.map((r) => ({
      fulfillmentOrderId: String(r.fo_id),
      externalOrderId: r.external_order_id ?? '',
      orderNumber: String(r.order_id),
      warehouseUniqueId: warehouseUniqueIdFor(principal, r.warehouse_id) ?? '',
      reason: r.reason,
      lines: lines
        .filter((l) => l.request_id === r.id)
        .map((l) => ({ lineItemId: String(l.line_id), sku: l.sku ?? l.requested_sku, quantity: l.quantity })),
      requestedTs: r.requested_ts,
    })),
    nextAfter: rows.length > pageSize ? page[page.length - 1]!.id : null,
  };
}
