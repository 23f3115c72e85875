import { sql } from 'kysely';
import { compiledStatement, sendWithoutWaiting } from '../../db/fast-paths.js';
import type { Db } from '../../db/tx.js';
import { divideToScale, negate, roundToScale, twentyDigits } from '../../lib/decimal.js';

/**
 * The rollup behind the home page's 30-day chart (console, issue 24 item 6; migration 033): per account and
 * UTC quarter hour, how many orders were placed that are not cancelled in full, and the sum of their totals
 * (the order list's Total: Σ quantity × unit price of the lines, order-search.ts), written in the transaction
 * that changes either: order creation (create-order.ts) and a status change into or out of CANCELLED
 * (recomputeOrderStatus, status.ts). Lines' quantities and prices, and the order date, never change after
 * creation, so nothing else moves an order's contribution.
 *
 * Why quarter hours of UTC rather than the seller's days: the time zone is an account setting the operator may
 * change at any time, and a rollup by local day would then be wrong for every past day. A local day is a run
 * of whole UTC quarter hours in every zone in use (offsets are whole hours, or :30 as in India, or :45 as in
 * Nepal and the Chatham Islands; summer time moves them by whole hours or half hours), so summing the
 * quarters from one local midnight to the next is exact for any zone, set now or later. A 30-day chart reads
 * at most 31 × 96 rollup rows on the primary key, summed by the database into one row per day: the work is
 * the same for 100 orders a month or 100,000.
 *
 * Adding is an upsert that adds to what the row holds (ON CONFLICT … DO UPDATE SET orders = orders + …), so
 * orders created at the same time never lose a count: the row is locked by the conflicting insert on
 * PostgreSQL, and SQLite runs one writer at a time.
 */

export const QUARTER_MS = 900_000;
/** Totals are kept in whole units of 1/10,000 (an integer column, exact on SQLite, whose numeric is a float). */
const SALES_DECIMALS = 4;
export const SALES_SCALE = 10 ** SALES_DECIMALS;

/** The quarter hour an instant (ISO text) falls in: epoch milliseconds / 900,000, rounded down. */
export function quarterOf(iso: string): number {
  return Math.floor(Date.parse(iso) / QUARTER_MS);
}

/**
 * A total (decimal string) in units of 1/10,000, rounded half away from zero as the databases' round() is.
 * Scaled to 20 significant digits, as the order list's Total is summed (twentyDigits in src/lib/decimal.ts).
 */
export function scaledSales(total: string | number): string {
  return roundToScale(twentyDigits.multiply(total, SALES_SCALE), 0, 'half-up');
}

/** Sales in units of 1/10,000 (a whole number) as the decimal string of the amount (exact). */
export function salesOfScaled(scaled: string): string {
  return divideToScale(scaled, SALES_SCALE, SALES_DECIMALS, 'down');
}

const addToQuarter = compiledStatement<never, { accountId: number; quarter: number; orders: number; sales: string }>((db, arg) =>
  db
    .insertInto('sales_order_quarter_hours')
    .values({ account_id: arg<number>('accountId'), quarter: arg<number>('quarter'), orders: arg<number>('orders'), sales: arg('sales') })
    .onConflict((oc) =>
      oc.columns(['account_id', 'quarter']).doUpdateSet((eb) => ({
        orders: eb('sales_order_quarter_hours.orders', '+', eb.ref('excluded.orders')),
        sales: eb('sales_order_quarter_hours.sales', '+', eb.ref('excluded.sales')),
      })),
    ),
);

/**
 * Counts an order in (sign 1) or out of (sign -1) the rollup: its quarter hour gains or loses one order and
 * its total. Called in the transaction that creates the order or moves it into or out of CANCELLED.
 */
export async function countOrderInDayFigures(tx: Db, accountId: number, orderTs: string, total: string | number, sign: 1 | -1): Promise<void> {
  const sales = scaledSales(total);
  // Nobody reads its answer: on PostgreSQL it rides with the transaction's next statement (often the COMMIT).
  const args = { accountId, quarter: quarterOf(orderTs), orders: sign, sales: sign === 1 ? sales : negate(sales) };
  await sendWithoutWaiting(tx, addToQuarter.bound(tx, args));
}

/**
 * The orders and sales (scaled) of each day whose starts are given (ISO instants, ascending), the last day
 * ending at `end`: one grouped read of the rollup's quarters in [first start, end), the database adding them
 * up per day. A day start that is not on a quarter hour (a zone's offset in seconds, before 1972) takes the
 * quarter it falls in into the day before it.
 */
export async function dayFiguresFromRollup(
  db: Db,
  accountId: number,
  starts: readonly string[],
  end: string,
): Promise<{ orders: number; sales: string }[]> {
  const bounds = starts.map((s) => Math.ceil(Date.parse(s) / QUARTER_MS));
  const last = Math.ceil(Date.parse(end) / QUARTER_MS);
  const out = starts.map(() => ({ orders: 0, sales: '0' }));
  if (bounds.length === 0) return out;
  // The day index of a quarter: the last day whose first quarter is not after it (literals: whole numbers
  // computed here, at most 30 of them).
  const dayOf =
    bounds.length === 1
      ? sql`0`
      : sql`case ${sql.join(
          bounds.slice(1).map((q, i) => sql`when quarter < ${sql.lit(q)} then ${sql.lit(i)}`),
          sql` `,
        )} else ${sql.lit(bounds.length - 1)} end`;
  const rows = (
    await sql<{ d: number | string; n: number | string | null; s: number | string | null }>`
      select ${dayOf} as d, sum(orders) as n, sum(sales) as s
      from sales_order_quarter_hours
      where account_id = ${accountId} and quarter >= ${bounds[0]!} and quarter < ${last}
      group by 1`.execute(db)
  ).rows;
  for (const r of rows) {
    const day = out[Number(r.d)];
    if (!day) continue;
    day.orders += Number(r.n ?? 0);
    if (r.s !== null) day.sales = twentyDigits.add(day.sales, String(r.s));
  }
  return out;
}

/**
 * Counts many orders in at once (bulk writers: the benchmarks' seeding), added per quarter hour in multi-row
 * upserts that add to what is there. Orders cancelled in full are left out, as countOrderInDayFigures does.
 */
export async function countOrdersInDayFigures(
  db: Db,
  accountId: number,
  orders: readonly { order_ts: string; total: string | number; status: string }[],
): Promise<void> {
  const byQuarter = new Map<number, { orders: number; sales: string }>();
  for (const o of orders) {
    if (o.status === 'CANCELLED') continue;
    const q = quarterOf(o.order_ts);
    const bucket = byQuarter.get(q) ?? { orders: 0, sales: '0' };
    bucket.orders += 1;
    bucket.sales = twentyDigits.add(bucket.sales, scaledSales(o.total));
    byQuarter.set(q, bucket);
  }
  const rows = [...byQuarter].map(([quarter, b]) => ({ account_id: accountId, quarter, orders: b.orders, sales: b.sales }));
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('sales_order_quarter_hours')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) =>
        oc.columns(['account_id', 'quarter']).doUpdateSet((eb) => ({
          orders: eb('sales_order_quarter_hours.orders', '+', eb.ref('excluded.orders')),
          sales: eb('sales_order_quarter_hours.sales', '+', eb.ref('excluded.sales')),
        })),
      )
      .execute();
  }
}
