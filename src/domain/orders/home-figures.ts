import { sql } from 'kysely';
import { cappedCount, COUNT_CAP } from '../../db/capped-count.js';
import type { Db } from '../../db/tx.js';
import { backorderedNarrowing, statusNarrowing, TAB_STATUSES } from './seller-list-sources.js';
import { dayFiguresFromRollup, SALES_SCALE } from './order-day-figures.js';

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

const zoneClocks = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of an instant in a zone: its date (YYYY-MM-DD) and the instant that wall time would be in UTC. */
function wallClock(ms: number, timeZone: string): { date: string; asUtc: number } {
  let format = zoneClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    // Zones are a few hundred at most.
    if (zoneClocks.size < 1000) zoneClocks.set(timeZone, format);
  }
  const p: Record<string, string> = {};
  for (const part of format.formatToParts(ms)) p[part.type] = part.value;
  const [y, m, d, h, min] = [p.year, p.month, p.day, p.hour, p.minute].map(Number) as [number, number, number, number, number];
  return { date: `${p.year}-${p.month}-${p.day}`, asUtc: Date.UTC(y, m - 1, d, h, min) };
}

const HOUR = 3_600_000;

/** The first instant of a calendar day in a zone (its midnight, or the first instant after a gap at midnight). */
function startOfDay(day: string, timeZone: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d);
  // Midnight as wall time less the zone's offset there, twice: the second pass corrects a guess made on the
  // other side of an offset change.
  let at = wall;
  for (let i = 0; i < 2; i++) at = wall - (wallClock(at, timeZone).asUtc - Math.floor(at / 60_000) * 60_000);
  // Midnight skipped (a change at 00:00): the day starts at the first instant that is in it.
  while (wallClock(at, timeZone).date < day) at += HOUR;
  while (wallClock(at - 1, timeZone).date >= day) at -= HOUR;
  return at;
}

/**
 * The last `count` calendar days in `timeZone` up to the one `now` is in, oldest first, each with the instant
 * it starts, and the instant the day after today starts. An unknown zone counts in UTC (as formatTs shows it).
 */
export function chartDays(now: Date, timeZone: string, count: number = CHART_DAYS): { days: { day: string; start: string }[]; end: string } {
  let zone = timeZone;
  try {
    wallClock(now.getTime(), zone);
  } catch {
    zone = 'UTC';
  }
  const today = wallClock(now.getTime(), zone).date;
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const dayAt = (offset: number) => new Date(Date.UTC(y, m - 1, d + offset)).toISOString().slice(0, 10);
  const days = Array.from({ length: count }, (_, i) => {
    const day = dayAt(i - count + 1);
    return { day, start: new Date(startOfDay(day, zone)).toISOString() };
  });
  return { days, end: new Date(startOfDay(dayAt(1), zone)).toISOString() };
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
  return days.map(({ day }, i) => ({ day, orders: figures[i]!.orders, sales: figures[i]!.sales.div(SALES_SCALE).toFixed() }));
}
