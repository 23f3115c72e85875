import { cappedCount } from '../../db/capped-count.js';
import type { Db } from '../../db/tx.js';

/**
 * The figures of the operator's overview page (read-only, across accounts). Every figure is a capped read of
 * an index, so the page costs the same with a hundred rows or ten million: a count above the cap is shown
 * as "cap+" (OVERVIEW_CAP), which still says what matters (a backlog).
 */
export const OVERVIEW_CAP = 10_000;

/** Days of orders the overview shows, today (UTC) included. */
export const ORDER_DAYS = 7;

export interface JobQueueFigures {
  /** PENDING and due: waiting for a worker now. */
  ready: number;
  /** PENDING with run_at in the future (retry backoff, scheduled work). */
  delayed: number;
  running: number;
  dead: number;
  /** run_at of the oldest ready job (how long it has waited), null when none is ready. */
  oldestReadySince: string | null;
}

export interface OrdersOnDay {
  /** YYYY-MM-DD, UTC. */
  day: string;
  orders: number;
}

export interface OperatorOverview {
  accounts: number;
  /** Oldest day first, ORDER_DAYS of them ending today. */
  ordersPerDay: OrdersOnDay[];
  jobs: JobQueueFigures;
  deadDeliveries: number;
}

/** The job queue: capped range reads of jobs_due (status, run_at, id) and jobs_status_list (status, id). */
export async function jobQueueFigures(db: Db, now: Date): Promise<JobQueueFigures> {
  const nowIso = now.toISOString();
  const pending = () => db.selectFrom('jobs').select('id').where('status', '=', 'PENDING');
  const [ready, delayed, running, dead, oldest] = await Promise.all([
    cappedCount(db, pending().where('run_at', '<=', nowIso), OVERVIEW_CAP),
    cappedCount(db, pending().where('run_at', '>', nowIso), OVERVIEW_CAP),
    cappedCount(db, db.selectFrom('jobs').select('id').where('status', '=', 'RUNNING'), OVERVIEW_CAP),
    cappedCount(db, db.selectFrom('jobs').select('id').where('status', '=', 'DEAD'), OVERVIEW_CAP),
    db.selectFrom('jobs').select('run_at').where('status', '=', 'PENDING').where('run_at', '<=', nowIso).orderBy('run_at').orderBy('id').limit(1).executeTakeFirst(),
  ]);
  return { ready, delayed, running, dead, oldestReadySince: oldest?.run_at ?? null };
}

/** YYYY-MM-DD of `date` in UTC. */
function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Accounts whose orders the per-day figures read (ids in IN lists of ACCOUNTS_PER_QUERY). */
export const ORDER_DAY_ACCOUNTS = 5000;
const ACCOUNTS_PER_QUERY = 1000;

/**
 * Orders per UTC day by order time, every account together. sales_orders_ordered (account_id, order_ts, id)
 * leads with the account, so each query names the accounts (an IN list: one range per account and day on
 * both databases; a join or a subquery let the planners scan the whole index instead). Per day and list of
 * accounts a capped count; the sum is capped again. Only the first ORDER_DAY_ACCOUNTS accounts are read.
 */
export async function ordersPerDay(db: Db, now: Date, days = ORDER_DAYS): Promise<OrdersOnDay[]> {
  const accountIds = (await db.selectFrom('accounts').select('id').orderBy('id').limit(ORDER_DAY_ACCOUNTS).execute()).map((a) => a.id);
  const chunks: number[][] = [];
  for (let i = 0; i < accountIds.length; i += ACCOUNTS_PER_QUERY) chunks.push(accountIds.slice(i, i + ACCOUNTS_PER_QUERY));
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const starts = Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * 86_400_000));
  return Promise.all(
    starts.map(async (start) => {
      const end = new Date(start.getTime() + 86_400_000);
      let orders = 0;
      for (const ids of chunks) {
        if (orders > OVERVIEW_CAP) break;
        const query = db
          .selectFrom('sales_orders')
          .select('id')
          .where('account_id', 'in', ids)
          .where('order_ts', '>=', start.toISOString())
          .where('order_ts', '<', end.toISOString());
        orders += await cappedCount(db, query, OVERVIEW_CAP);
      }
      return { day: utcDay(start), orders: Math.min(orders, OVERVIEW_CAP + 1) };
    }),
  );
}

export async function operatorOverview(db: Db, now: Date): Promise<OperatorOverview> {
  const [accounts, orders, jobs, deadDeliveries] = await Promise.all([
    cappedCount(db, db.selectFrom('accounts').select('id'), OVERVIEW_CAP),
    ordersPerDay(db, now),
    jobQueueFigures(db, now),
    // callback_deliveries_state (state, id).
    cappedCount(db, db.selectFrom('callback_deliveries').select('id').where('state', '=', 'DEAD'), OVERVIEW_CAP),
  ]);
  return { accounts, ordersPerDay: orders, jobs, deadDeliveries };
}
