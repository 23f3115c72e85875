import { sql, type RawBuilder } from 'kysely';
import { cappedCount, COUNT_CAP } from '../../db/capped-count.js';
import type { Db } from '../../db/tx.js';
import type { OrderStatus } from './model.js';
import { searchWords, termRange } from '../search-terms.js';
import { WAITING } from './waiting-work.js';

/**
 * What narrows the seller's order list to a subset that an index can name: a tab's statuses, the backordered
 * orders, each search word. Each can list its orders from its own index (a capped read) and can test one order
 * (a condition on `o`, the sales_orders row). seller-list.ts reads the lists first: when one is short it sorts
 * just those orders; when all are long, matching orders are dense, so it walks the sort's index and tests each.
 * Either way a page costs a bounded number of index entries, however large the account.
 */

/** A list longer than this counts as long (its orders are then tested while walking the sort's index). */
export const SHORT_LIST = 1000;

export interface Narrowing {
  /** The orders, when at most `limit` (default SHORT_LIST) rows name them (an order may be named twice); null when more do. */
  ids(db: Db, limit?: number): Promise<number[] | null>;
  /** The same test on one order `o`, written so no index of sales_orders is chosen for it. */
  test: RawBuilder<boolean>;
  /** Whether the test is still needed once the list was short (a status may have changed since). */
  recheck: boolean;
}

/** The status tabs of the console's order list, in display order; `all` narrows nothing. */
export const ORDER_TABS = ['all', 'to-ship', 'backordered', 'awaiting-payment', 'shipped', 'cancelled', 'returns'] as const;
export type OrderTab = (typeof ORDER_TABS)[number];

export const TAB_STATUSES: Record<Exclude<OrderTab, 'all' | 'backordered'>, readonly OrderStatus[]> = {
  'to-ship': ['PENDING', 'PARTIALLY_SHIPPED'],
  'awaiting-payment': ['PENDING_PAYMENT'],
  shipped: ['SHIPPED'],
  cancelled: ['CANCELLED'],
  returns: ['RETURN_REQUESTED', 'RETURNED', 'REFUNDED'],
};

const numbers = (rows: { id: number | string }[]) => rows.map((r) => Number(r.id));
/** A list read with limit `limit` + 1: null when it is longer. */
const shortOrNull = (ids: number[], limit: number) => (ids.length > limit ? null : ids);

/** Orders in one of these statuses, through sales_orders_status. */
export function statusNarrowing(accountId: number, statuses: readonly OrderStatus[]): Narrowing {
  return {
    ids: async (db, limit = SHORT_LIST) =>
      shortOrNull(numbers(await db.selectFrom('sales_orders').select('id').where('account_id', '=', accountId).where('status', 'in', [...statuses]).limit(limit + 1).execute()), limit),
    // `|| ''` keeps the status index out of a walk along the date or total order.
    test: sql<boolean>`(o.status || '') in (${sql.join([...statuses])})`,
    recheck: true,
  };
}

/** Distinct orders with backordered routes, and with unrouted units, each through its partial index. */
async function backorderedIds(db: Db, accountId: number, limit: number): Promise<{ ids: number[]; long: boolean }> {
  const [routes, lines] = await Promise.all([
    db
      .selectFrom('order_line_routes')
      .select('order_id as id')
      .distinct()
      .where('account_id', '=', accountId)
      .where('backorder_quantity', '>', WAITING)
      .orderBy('id')
      .limit(limit)
      .execute(),
    db
      .selectFrom('sales_order_lines')
      .select('order_id as id')
      .distinct()
      .where('account_id', '=', accountId)
      .where('unrouted_quantity', '>', WAITING)
      .orderBy('id')
      .limit(limit)
      .execute(),
  ]);
  return { ids: [...new Set([...numbers(routes), ...numbers(lines)])], long: routes.length >= limit || lines.length >= limit };
}

/** Orders with units waiting for stock: backordered on a route, or on no route yet (unrouted). */
export function backorderedNarrowing(accountId: number): Narrowing {
  return {
    ids: async (db, limit = SHORT_LIST) => {
      const { ids, long } = await backorderedIds(db, accountId, limit + 1);
      return long ? null : shortOrNull(ids, limit);
    },
    test: sql<boolean>`(exists (select 1 from order_line_routes r where r.account_id = ${accountId} and r.order_id = o.id and r.backorder_quantity > ${WAITING})
      or exists (select 1 from sales_order_lines l where l.account_id = ${accountId} and l.order_id = o.id and l.unrouted_quantity > ${WAITING}))`,
    recheck: false,
  };
}

/** Orders with a term that this search word starts. */
export function wordNarrowing(accountId: number, word: string): Narrowing {
  const [from, to] = termRange(word);
  return {
    ids: async (db, limit = SHORT_LIST) =>
      shortOrNull(
        (
          await db
          .selectFrom('sales_order_search_terms')
          .select('order_id')
          .where('account_id', '=', accountId)
          .where('term', '>=', from)
          .where('term', '<', to)
          .limit(limit + 1)
          .execute()
        ).map((r) => Number(r.order_id)),
        limit,
      ),
    test: sql<boolean>`exists (select 1 from sales_order_search_terms t where t.account_id = ${accountId} and t.order_id = o.id and t.term >= ${from} and t.term < ${to})`,
    recheck: false,
  };
}

/** A search's words (at most 8: more would narrow nothing a seller can tell apart). */
export function searchNarrowings(accountId: number, search: string): Narrowing[] {
  return [...new Set(searchWords(search))].slice(0, 8).map((w) => wordNarrowing(accountId, w));
}

/**
 * How many orders each tab holds, each counted up to COUNT_CAP + 1 on its index (a value above COUNT_CAP
 * reads "1,000+"): the counts cost the same for a shop of 100 orders and one of 100,000.
 */
export async function countOrderTabs(db: Db, accountId: number): Promise<Record<OrderTab, number>> {
  const byStatus = (statuses: readonly OrderStatus[]) =>
    cappedCount(db, db.selectFrom('sales_orders').select('id').where('account_id', '=', accountId).where('status', 'in', [...statuses]));
  const [all, toShip, awaiting, shipped, cancelled, returns, backordered] = await Promise.all([
    cappedCount(db, db.selectFrom('sales_orders').select('id').where('account_id', '=', accountId)),
    byStatus(TAB_STATUSES['to-ship']),
    byStatus(TAB_STATUSES['awaiting-payment']),
    byStatus(TAB_STATUSES.shipped),
    byStatus(TAB_STATUSES.cancelled),
    byStatus(TAB_STATUSES.returns),
    backorderedIds(db, accountId, COUNT_CAP + 1).then(({ ids, long }) => (long ? COUNT_CAP + 1 : Math.min(ids.length, COUNT_CAP + 1))),
  ]);
  return { all, 'to-ship': toShip, backordered, 'awaiting-payment': awaiting, shipped, cancelled, returns };
}
