import type { Deps } from '../../../../deps.js';
import { invalidArgument, isAppError } from '../../../../domain/errors.js';
import { ATTENTION_KINDS, type AttentionKind } from '../../../../domain/fulfillment/attention.js';
import { ORDER_STATUSES, type OrderStatus } from '../../../../domain/orders/model.js';
import { ORDER_TABS, TAB_STATUSES, type OrderTab } from '../../../../domain/orders/seller-list-sources.js';
import { SELLER_ORDER_SORTS, type SellerOrderPosition, type SellerOrderSort } from '../../../../domain/orders/seller-list.js';
import { startOfDayIn } from '../../../../lib/zoned-day.js';
import { decodeV2Cursor, encodeCursor } from '../../../pagination.js';
import { queryText } from '../params.js';

/**
 * The order list's address: what the seller searched and picked (kept in every link of the page: tabs, sort,
 * pages) and the signed position of a previous or next page. Refusals are 400 pages in the seller's words.
 */

/**
 * The fulfillment checks, and the orders-area ones: a line that could not be routed, late (past a line's
 * ship-by date with units still owed), an open return (home-figures.ts).
 */
export type NeedsKind = AttentionKind | 'unroutable' | 'overdue' | 'returns';
const NEEDS_KINDS: readonly string[] = [...ATTENTION_KINDS, 'unroutable', 'overdue', 'returns'];

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_SEARCH = 200;

export interface OrderListQuery {
  q: string;
  tab: OrderTab;
  /** One status (older links, `?status=PENDING`); '' for none. */
  status: string;
  channel: string;
  from: string;
  to: string;
  sort: SellerOrderSort;
  needs: NeedsKind | null;
}

/** A typed day as the instant it starts in the account's time zone (`addDays` 1: the instant it ends). */
function dateBound(label: string, value: string, addDays: number, timeZone: string): string | null {
  if (value === '') return null;
  const asUtc = DATE.test(value) ? new Date(`${value}T00:00:00.000Z`) : new Date(NaN);
  // A day that does not exist (2026-02-30) is refused, not rolled over into the next month.
  const valid = !Number.isNaN(asUtc.getTime()) && asUtc.toISOString().startsWith(value);
  if (!valid) throw invalidArgument(`The "${label}" date is not a date. Pick one in the calendar, or type it like 2026-11-23.`);
  return startOfDayIn(value, timeZone, addDays).toISOString();
}

export function readOrderListQuery(query: unknown): OrderListQuery {
  const text = (name: string) => queryText(query, name).trim();
  // `sku` is the SKU box of earlier versions: a SKU is now one of the things the search finds.
  const q = (text('q') || text('sku')).slice(0, MAX_SEARCH);
  const tab = text('tab') || 'all';
  if (!(ORDER_TABS as readonly string[]).includes(tab)) throw invalidArgument('There is no such list of orders. Pick one of the tabs above the list.');
  const status = text('status');
  if (status !== '' && !(ORDER_STATUSES as readonly string[]).includes(status)) throw invalidArgument('There is no such order status. Pick one of the tabs above the list.');
  const sort = text('sort') || 'newest';
  if (!(SELLER_ORDER_SORTS as readonly string[]).includes(sort)) throw invalidArgument('The list cannot be sorted that way. Pick a sort order from the list.');
  const needs = text('needs');
  if (needs !== '' && !NEEDS_KINDS.includes(needs)) throw invalidArgument('There is no such check. Open the orders that need your attention from Home.');
  return { q, tab: tab as OrderTab, status, channel: text('channel'), from: text('from'), to: text('to'), sort: sort as SellerOrderSort, needs: needs === '' ? null : (needs as NeedsKind) };
}

/** The statuses the tab and an older link's status leave (null: any status). */
export function statusesOf(query: OrderListQuery): readonly OrderStatus[] | null {
  const tabStatuses = query.tab === 'all' || query.tab === 'backordered' ? null : TAB_STATUSES[query.tab];
  if (query.status === '') return tabStatuses;
  const one = query.status as OrderStatus;
  return tabStatuses === null || tabStatuses.includes(one) ? [one] : [];
}

/** The order-date filter's bounds: days as the seller reads them, in the account's time zone. */
export function orderDates(query: OrderListQuery, timeZone: string): { orderedFrom: string | null; orderedBefore: string | null } {
  return { orderedFrom: dateBound('Ordered from', query.from, 0, timeZone), orderedBefore: dateBound('Ordered to', query.to, 1, timeZone) };
}

/** The query as link parameters (empty and default values left out), `changes` applied. */
export function listParams(query: OrderListQuery, changes: Partial<Record<keyof OrderListQuery | 'cursor', string | null>> = {}): URLSearchParams {
  const values: Record<string, string | null> = {
    q: query.q,
    tab: query.tab === 'all' ? '' : query.tab,
    status: query.status,
    channel: query.channel,
    from: query.from,
    to: query.to,
    sort: query.sort === 'newest' ? '' : query.sort,
    needs: query.needs ?? '',
    ...changes,
  };
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v) params.set(k, v);
  return params;
}

export const listHref = (query: OrderListQuery, changes: Parameters<typeof listParams>[1] = {}) => {
  const params = listParams(query, changes).toString();
  return params === '' ? '/console/orders' : `/console/orders?${params}`;
};

interface Cursor {
  /** The sort it is a position in. */
  s: string;
  k: string;
  i: number;
  /** 'a': the page after the position; 'b': the page before it. */
  d: 'a' | 'b';
}
const isCursor = (v: unknown): v is Cursor => {
  const c = v as Cursor;
  return typeof v === 'object' && v !== null && typeof c.s === 'string' && typeof c.k === 'string' && Number.isSafeInteger(c.i) && (c.d === 'a' || c.d === 'b');
};
// Bound to the account, like the API's cursors: another account's cursor is an invalid cursor.
const cursorRoute = (accountId: number) => `GET /console/orders#${accountId}`;

const STALE_LINK = 'This page link is out of date or was changed. Open Orders again to start from the first page.';

export function decodePosition(deps: Deps, accountId: number, raw: string, sort: SellerOrderSort): SellerOrderPosition | null {
  let cursor: Cursor | null;
  try {
    cursor = decodeV2Cursor(deps.signer, cursorRoute(accountId), raw || undefined, isCursor);
  } catch (error) {
    if (isAppError(error)) throw invalidArgument(STALE_LINK);
    throw error;
  }
  if (cursor === null) return null;
  if (cursor.s !== sort) throw invalidArgument(STALE_LINK);
  return { key: cursor.k, id: cursor.i, direction: cursor.d === 'a' ? 'after' : 'before' };
}

export function encodePosition(deps: Deps, accountId: number, sort: SellerOrderSort, at: { key: string; id: number } | null, direction: 'a' | 'b'): string | null {
  return at === null ? null : encodeCursor(deps.signer, cursorRoute(accountId), { s: sort, k: at.key, i: at.id, d: direction } satisfies Cursor);
}
