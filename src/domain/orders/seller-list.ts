import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/tx.js';
import { groupBy } from '../../lib/group-by.js';
import type { OrderStatus } from './model.js';
import { linesTotal } from './order-search.js';
import { backorderedNarrowing, searchNarrowings, SHORT_LIST, statusNarrowing, type Narrowing } from './seller-list-sources.js';

/**
 * The seller's order list (console, issues 12 and 24): the whole account, sorted by order date or by total,
 * keyset-paged both ways on (sort key, id), never OFFSET. A tab's statuses, the backordered orders, a search
 * and the fulfillment checks narrow it (seller-list-sources.ts); channel and order dates filter it.
 *
 * How a page is read, whatever the account's size: each narrowing first lists its orders from its own index,
 * capped. If one list is short, the page is those orders (intersected) sorted, at most SHORT_LIST rows. If
 * every list is long, the orders that pass are dense, and the page walks the sort's index
 * (sales_orders_ordered, or sales_order_totals_total joined to the order) testing each order until it has a
 * page. Conditions the walk does not drive on are written so the planner cannot pick another index of
 * sales_orders for them (a status or channel index would read every order of the status and sort them).
 */

export interface SellerOrderFilter {
  statuses: readonly OrderStatus[] | null;
  /** Only orders with units waiting for stock (backordered or not yet routed). */
  backordered: boolean;
  /** What the seller typed in the search box: every word must start a term of the order (order-search.ts). */
  search: string | null;
  /** The order's channel key: "s:<storefrontId>" for a storefront, "cs:<customStoreId>" for a custom store. */
  channelKey: string | null;
  /** Inclusive lower and exclusive upper bound on the order date (ISO). */
  orderedFrom: string | null;
  orderedBefore: string | null;
  /** Only these orders (for example those a fulfillment attention check named); null = any. */
  orderIds: readonly number[] | null;
}

export const SELLER_ORDER_SORTS = ['newest', 'oldest', 'total-desc', 'total-asc'] as const;
export type SellerOrderSort = (typeof SELLER_ORDER_SORTS)[number];

const SORTS: Record<SellerOrderSort, { byTotal: boolean; descending: boolean }> = {
  newest: { byTotal: false, descending: true },
  oldest: { byTotal: false, descending: false },
  'total-desc': { byTotal: true, descending: true },
  'total-asc': { byTotal: true, descending: false },
};

/** A row's place in the sort: its sort key (order date, or total as a decimal string) and id. */
export interface SellerOrderKeyset {
  key: string;
  id: number;
}

/** Where a page starts: after a position (the next page) or ends before it (the previous page). */
export interface SellerOrderPosition extends SellerOrderKeyset {
  direction: 'after' | 'before';
}

export interface SellerOrderSummary {
  orderNumber: string;
  channelOrderId: string;
  channel: string;
  channelLabel: string | null;
  status: string;
  orderTs: string;
  /** The customer's name, else the ship-to name; null when the order has neither. */
  customerName: string | null;
  customerEmail: string | null;
  /** Set once the buyer's personal data was redacted (resolutions §10): the list then says so. */
  personalDataRedactedTs: string | null;
  lineCount: number;
  units: number;
  /** Σ quantity × unitPrice over lines with a price, as a decimal string; null when no line has one. */
  total: string | null;
}

export interface SellerOrderPage {
  orders: SellerOrderSummary[];
  /** The position after the last row when more follow; the position before the first when more precede. */
  next: SellerOrderKeyset | null;
  previous: SellerOrderKeyset | null;
}

interface Row {
  id: number;
  channel_order_id: string;
  channel: string;
  channel_label: string | null;
  status: string;
  order_ts: string;
  customer_name: string | null;
  customer_email: string | null;
  shipping_address: string | null;
  personal_data_redacted_ts: string | null;
  sort_key: string | number;
}

/** The narrowings' short lists intersected (null: every list is long) and the tests still to apply. */
async function narrow(db: Db, accountId: number, filter: SellerOrderFilter, limits: ListLimits): Promise<{ ids: number[] | null; tests: RawBuilder<boolean>[] }> {
  const narrowings: Narrowing[] = [
    ...(filter.statuses !== null ? [statusNarrowing(accountId, filter.statuses)] : []),
    ...(filter.backordered ? [backorderedNarrowing(accountId)] : []),
    ...(filter.search !== null ? searchNarrowings(accountId, filter.search) : []),
  ];
  let ids: Set<number> | null = filter.orderIds === null ? null : new Set(filter.orderIds);
  const tests: RawBuilder<boolean>[] = [];
  const long: Narrowing[] = [];
  for (const n of narrowings) {
    // An empty intersection already: nothing else needs reading.
    if (ids !== null && ids.size === 0) break;
    const listed = await n.ids(db, limits.short);
    if (listed === null) long.push(n);
    if (listed === null || n.recheck) tests.push(n.test);
    if (listed !== null) ids = ids === null ? new Set(listed) : new Set(listed.filter((id) => ids!.has(id)));
  }
  // Two long lists may still meet in a few orders ("jane" and "smith", a common word in a small tab): a walk
  // would test most of the account to find them. Read them wider and intersect; a short result is the page's.
  if (ids === null && long.length >= 2) {
    let met: Set<number> | null = null;
    // Search words first: a word every order has ends this early, before a large tab is read.
    for (const n of [...long].reverse()) {
      const listed = await n.ids(db, limits.wide);
      if (listed === null) return { ids: null, tests };
      met = met === null ? new Set(listed) : new Set(listed.filter((id) => met!.has(id)));
    }
    if (met !== null && met.size <= limits.short) return { ids: [...met], tests: long.filter((n) => n.recheck).map((n) => n.test) };
  }
  return { ids: ids === null ? null : [...ids], tests };
}

/**
 * A list is short up to `short` rows (its orders are then sorted); `wide` rows of two long lists are read to
 * intersect them. Tests pass small values to take the long-list paths with a few orders.
 */
export interface ListLimits {
  short: number;
  wide: number;
}
const LIST_LIMITS: ListLimits = { short: SHORT_LIST, wide: 20_000 };

export async function listSellerOrders(
  db: Db,
  accountId: number,
  filter: SellerOrderFilter,
  sort: SellerOrderSort,
  position: SellerOrderPosition | null,
  pageLength: number,
  limits: ListLimits = LIST_LIMITS,
): Promise<SellerOrderPage> {
  const { ids, tests } = await narrow(db, accountId, filter, limits);
  if (ids !== null && ids.length === 0) return { orders: [], next: null, previous: null };
  const { byTotal, descending } = SORTS[sort];
  // Reading backwards (the previous page) walks the other way and turns the rows round after.
  const backwards = position?.direction === 'before';
  const down = descending !== backwards;
  const key = byTotal ? sql.ref('s.total') : sql.ref('o.order_ts');
  const id = byTotal ? sql.ref('s.order_id') : sql.ref('o.id');
  const where: RawBuilder<unknown>[] = [];
  let from: RawBuilder<unknown>;
  if (ids !== null) {
    // A short list: those orders by primary key, sorted (`+ 0` keeps the account's indexes out of it).
    from = byTotal ? sql`sales_orders o cross join sales_order_totals s` : sql`sales_orders o`;
    where.push(sql`o.account_id + 0 = ${accountId}`, sql`o.id in (${sql.join(ids)})`);
  } else {
    // A walk along the sort's index; CROSS JOIN keeps SQLite's join order (the totals index first).
    from = byTotal ? sql`sales_order_totals s cross join sales_orders o` : sql`sales_orders o`;
    where.push(byTotal ? sql`s.account_id = ${accountId}` : sql`o.account_id = ${accountId}`);
  }
  if (byTotal) where.push(sql`s.account_id = o.account_id`, sql`s.order_id = o.id`);
  where.push(...tests);
  if (filter.channelKey !== null) where.push(sql`(o.channel_key || '') = ${filter.channelKey}`);
  if (filter.orderedFrom !== null) where.push(sql`o.order_ts >= ${filter.orderedFrom}`);
  if (filter.orderedBefore !== null) where.push(sql`o.order_ts < ${filter.orderedBefore}`);
  if (position !== null) where.push(sql`(${key}, ${id}) ${sql.raw(down ? '<' : '>')} (${position.key}, ${position.id})`);
  const direction = sql.raw(down ? 'desc' : 'asc');
  const rows = (
    await sql<Row>`
      select o.id, o.channel_order_id, o.channel, o.channel_label, o.status, o.order_ts, o.customer_name, o.customer_email,
        o.shipping_address, o.personal_data_redacted_ts, ${key} as sort_key
      from ${from}
      where ${sql.join(where, sql` and `)}
      order by ${key} ${direction}, ${id} ${direction}
      limit ${pageLength + 1}`.execute(db)
  ).rows;
  const more = rows.length > pageLength;
  const page = rows.slice(0, pageLength);
  if (backwards) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  const at = (r: Row): SellerOrderKeyset => ({ key: String(r.sort_key), id: Number(r.id) });
  // Forwards, rows precede the page when it started after a position; backwards, rows follow it.
  const next = last && (backwards ? true : more) ? at(last) : null;
  const previous = first && (backwards ? more : position !== null) ? at(first) : null;
  return { orders: await summaries(db, accountId, page), next, previous };
}

function shipToName(json: string | null): string | null {
  if (!json) return null;
  try {
    const name = (JSON.parse(json) as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name.trim() !== '' ? name : null;
  } catch {
    return null;
  }
}

async function summaries(db: Db, accountId: number, page: Row[]): Promise<SellerOrderSummary[]> {
  const lines =
    page.length === 0
      ? []
      : await db
          .selectFrom('sales_order_lines')
          .select(['order_id', 'quantity', 'unit_price'])
          .where('account_id', '=', accountId)
          .where(
            'order_id',
            'in',
            page.map((o) => Number(o.id)),
          )
          .execute();
  const linesOf = groupBy(lines, (l) => Number(l.order_id));
  return page.map((o) => {
    const orderLines = linesOf.get(Number(o.id)) ?? [];
    return {
      orderNumber: String(o.id),
      channelOrderId: o.channel_order_id,
      channel: o.channel,
      channelLabel: o.channel_label,
      status: o.status,
      orderTs: o.order_ts,
      customerName: o.customer_name?.trim() ? o.customer_name : shipToName(o.shipping_address),
      customerEmail: o.customer_email,
      personalDataRedactedTs: o.personal_data_redacted_ts,
      lineCount: orderLines.length,
      units: orderLines.reduce((n, l) => n + Number(l.quantity), 0),
      total: linesTotal(orderLines),
    };
  });
}
