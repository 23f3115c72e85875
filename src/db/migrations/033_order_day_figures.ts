import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * The home page's 30-day chart from a rollup (src/domain/orders/order-day-figures.ts) instead of aggregating
 * the window's orders on every view:
 * - sales_order_quarter_hours (account_id, quarter, orders, sales): per account and UTC quarter hour (the
 *   quarter's number is epoch milliseconds / 900,000), the orders placed in it that are not cancelled in full
 *   and the sum of their totals in units of 1/10,000 (an integer, exact on both databases). The page sums the
 *   quarters of each local day; every time zone in use starts its days on a quarter hour, so the days stay
 *   exact whatever zone the operator sets later.
 *
 * Existing orders are summed in one set-based INSERT … SELECT (one pass over sales_orders, grouped; a few
 * hundred milliseconds at 100,000 orders).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('sales_order_quarter_hours')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('quarter', 'bigint', (c) => c.notNull())
    .addColumn('orders', 'integer', (c) => c.notNull())
    .addColumn('sales', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sales_order_quarter_hours_pk', ['account_id', 'quarter'])
    .$call((t) => (dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t))
    .execute();
  await backfillOrderDayFigures(db, dialect);
}

/** Sums every stored order into the rollup (the migration's work; apart so a test can compare it to the writes). */
export async function backfillOrderDayFigures(db: Kysely<any>, dialect: MigrationContext['dialect']): Promise<void> {
  // order_ts is ISO UTC text ("2026-11-23T10:07:00.000Z").
  const quarter =
    dialect === 'postgres'
      ? sql`floor(extract(epoch from o.order_ts::timestamptz) / 900)::bigint`
      : sql`cast(strftime('%s', o.order_ts) as integer) / 900`;
  const scaled = dialect === 'postgres' ? sql`round(t.total * 10000)::bigint` : sql`cast(round(t.total * 10000) as integer)`;
  await sql`
    insert into sales_order_quarter_hours (account_id, quarter, orders, sales)
    select o.account_id, ${quarter}, count(*), coalesce(sum(${scaled}), 0)
    from sales_orders o
    left join sales_order_totals t on t.account_id = o.account_id and t.order_id = o.id
    where o.status <> 'CANCELLED'
    group by 1, 2`.execute(db);
}
