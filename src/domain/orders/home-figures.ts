import { sql } from 'kysely';
import { cappedCount, COUNT_CAP } from '../../db/capped-count.js';
import type { Db } from '../../db/tx.js';
import { backorderedNarrowing, statusNarrowing, TAB_STATUSES } from './seller-list-sources.js';
import { dayFiguresFromRollup, salesOfScaled } from './order-day-figures.js';
import { dayIn, startOfDayIn } from '../../lib/zoned-day.js';

/**
 * The seller's home (console, issue 24 item 6): how many orders are in each state that asks for work, each a
 * capped read of one index (a value above COUNT_CAP means "more than COUNT_CAP"), and the last 30 days of
 * orders and sales per day in the seller's time zone. Every read is bounded by an account-led index range:
 * - to ship: sales_orders_status; backordered: the backordered tab's partial indexes (seller-list-sources.ts);
 * - late: sales_order_lines_past_ship_by (lines still owing units, by ship-by date; 032_home_figures);
 * - open returns: sales_order_returns_open (neither cancelled nor closed);
 * - the days: the quarter-hour rollup sales_order_quarter_hours (order-day-figures.ts).
 */

/** A capped count from a narrowing's short list: null (more than `limit`) reads as COUNT_CAP + 1. */
const cappedIds = (ids: number[] | null) => (ids === null ? COUNT_CAP + 1 : ids.length);

/** Orders with units to ship (the order list's "To ship" tab: PENDING or PARTIALLY_SHIPPED). */
export async function countOrdersToShip(db: Db, accountId: number): Promise<number> {
  return cappedIds(await statusNarrowing(accountId, TAB_STATUSES['to-ship']).ids(db, COUNT_CAP));
}

/** Orders with units waiting for stock or for a warehouse (the "Backordered" tab). */
export async function countBackorderedOrders(db: Db, accountId: number): Promise<number> {
  return cappedIds(await backorderedNarrowing(accountId).ids(db, COUNT_CAP));
}

// The partial index's condition, written as it is there (SQLite uses it only when the query states it).
const OWES_UNITS = sql<boolean>`quantity > cancel_quantity + shipped_quantity`;

function pastShipByQuery(db: Db, accountId: number, now: Date) {
  return db
    .selectFrom('sales_order_lines')
    .select('order_id')
    .distinct()
    .where('account_id', '=', accountId)
    .where('latest_ship_by', '<', now.toISOString())
    .where(OWES_UNITS);
}

/**
 * Late orders: a line still owes units (not shipped, not cancelled) and its ship-by date (latestShipBy, the
 * order's shipBy being the earliest of them) has passed.
 */
export function countOrdersPastShipBy(db: Db, accountId: number, now: Date): Promise<number> {
  return cappedCount(db, pastShipByQuery(db, accountId, now));
}

/** The late orders (at most COUNT_CAP), for the order list's `needs=overdue`. */
export async function ordersPastShipBy(db: Db, accountId: number, now: Date): Promise<number[]> {
  return (await pastShipByQuery(db, accountId, now).limit(COUNT_CAP).execute()).map((r) => Number(r.order_id));
}

function openReturnsQuery(db: Db, accountId: number) {
  return db
    .selectFrom('sales_order_returns')
    .select('order_id')
    .distinct()
    .where('account_id', '=', accountId)
    .where('cancelled', '=', sql.lit(0))
    .where('closed_ts', 'is', null);
}

/** Orders with an open return: requested and not received yet, or received and not closed. */
export function countOrdersWithOpenReturns(db: Db, accountId: number): Promise<number> {
  return cappedCount(db, openReturnsQuery(db, accountId));
}

/** The orders with an open return (at most COUNT_CAP), for the order list's `needs=returns`. */
export async function ordersWithOpenReturns(db: Db, accountId: number): Promise<number[]> {
  return (await openReturnsQuery(db, accountId).limit(COUNT_CAP).execute()).map((r) => Number(r.order_id));
}

/** Whether the account has any order at all (the home's empty state). */
export async function hasAnyOrder(db: Db, accountId: number): Promise<boolean> {
  return (await db.selectFrom('sales_orders').select('id').where('account_id', '=', accountId).limit(1).executeTakeFirst()) !== undefined;
}

export interface DayFigures {
  /** The day in the seller's time zone, YYYY-MM-DD. */
  day: string;
  /** Orders placed that day, cancelled ones left out. */
  orders: number;
  /** Σ of those orders' totals (quantity × unit price of their lines), a decimal string. */
  sales: string;
}

/** The days charted on the home page, today included. */
export const CHART_DAYS = 30;

/**
 * The last `count` calendar days in `timeZone` up to the one `now` is in, oldest first, each with the instant
 * it starts, and the instant the day after today starts. An unknown zone counts in UTC (as formatTs shows it).
 */
export function chartDays(now: Date, timeZone: string, count: number = CHART_DAYS): { days: { day: string; start: string }[]; end: string } {
  let today: string;
  try {
    today = dayIn(now, timeZone);
  } catch {
    today = dayIn(now, 'UTC');
  }
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const dayAt = (offset: number) => new Date(Date.UTC(y, m - 1, d + offset)).toISOString().slice(0, 10);
  const days = Array.from({ length: count }, (_, i) => {
    const day = dayAt(i - count + 1);
    return { day, start: startOfDayIn(day, timeZone).toISOString() };
  });
  return { days, end: startOfDayIn(dayAt(1), timeZone).toISOString() };
}

/**
 * Orders placed and sales per day over the last CHART_DAYS days in the seller's time zone, oldest first, every
 * day present (zeros included). Orders cancelled in full are left out; a total counts what the order was placed
 * for (the order list's Total). Read from the quarter-hour rollup kept by the order writes
 * (order-day-figures.ts, migration 033): one grouped read of at most 31 × 96 rows on its primary key, however
 * many orders the window holds.
 */
export async function salesByDay(db: Db, accountId: number, now: Date, timeZone: string): Promise<DayFigures[]> {
  const { days, end } = chartDays(now, timeZone);
  const figures = await dayFiguresFromRollup(
    db,
    accountId,
    days.map((d) => d.start),
    end,
  );
  return days.map(({ day }, i) => ({ day, orders: figures[i]!.orders, sales: salesOfScaled(figures[i]!.sales) }));
}
