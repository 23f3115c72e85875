import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { backorderPort } from '../../domain/fulfillment/backorder-port.js';
import { ordersOwedFulfillmentAfter } from '../../domain/fulfillment/owed-sweep.js';
import { syncFulfillmentOrders } from '../../domain/fulfillment/sync.js';
import { servableStockAfter, type ServableStock } from '../../domain/orders/waiting-sweep.js';
import { nextTurn } from '../../lib/next-turn.js';

export const WAITING_WORK_SWEEP = 'orders.waiting-work-sweep';

/** Stock rows per page; each page's rows are handed over account by account, one transaction each. */
const STOCK_PAGE = 200;
/** Routes read per page of the fulfillment walk (a primary-key range: a few milliseconds a page). */
const ROUTE_PAGE = 2000;

export interface WaitingWorkSweepResult {
  /** Stock rows offered to the orders waiting for them (a row they cannot take, e.g. on hold, is offered every sweep). */
  stockRows: number;
  /** Orders given the fulfillment orders they were owed. */
  orders: number;
}

/**
 * Hands the waiting work a race left behind to where it belongs (src/domain/orders/waiting-sweep.ts,
 * src/domain/fulfillment/owed-sweep.ts): stock available beside orders waiting for it fills them, oldest order
 * first, as a stock change would have; orders owed a fulfillment order get it. Each walk goes once over the
 * data in keyset pages, with a turn of the event loop after each page and each transaction, so a sweep never
 * holds the database or the API long. Idempotent: what it fixed is no longer found.
 */
export async function sweepWaitingWork(deps: Pick<Deps, 'db' | 'clock'>): Promise<WaitingWorkSweepResult> {
  const db = deps.db.db;
  const result: WaitingWorkSweepResult = { stockRows: 0, orders: 0 };
  let after: ServableStock | null = null;
  for (;;) {
    const page = await servableStockAfter(db, after, STOCK_PAGE);
    if (page.length === 0) break;
    const byAccount = new Map<number, ServableStock[]>();
    for (const row of page) byAccount.set(row.accountId, [...(byAccount.get(row.accountId) ?? []), row]);
    for (const [accountId, rows] of byAccount) {
      await withTx(db, (tx) => backorderPort.stockAvailable(tx, accountId, rows, deps.clock.now()));
      result.stockRows += rows.length;
      await nextTurn();
    }
    after = page[page.length - 1]!;
    if (page.length < STOCK_PAGE) break;
  }
  let afterRoute = 0;
  for (;;) {
    const { lastRouteId, owed } = await ordersOwedFulfillmentAfter(db, afterRoute, ROUTE_PAGE);
    if (lastRouteId === null) break;
    const seen = new Set<string>();
    for (const o of owed) {
      const key = `${o.accountId}:${o.orderId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      await withTx(db, (tx) => syncFulfillmentOrders(tx, o.accountId, o.orderId, deps.clock.now()));
      result.orders += 1;
    }
    afterRoute = lastRouteId;
    await nextTurn();
  }
  return result;
}

export async function runWaitingWorkSweep(deps: Deps): Promise<void> {
  const result = await sweepWaitingWork(deps);
  // An order missing its fulfillment order is the trace of a race worth knowing about; offered stock is routine.
  if (result.orders > 0) deps.log.warn({ ...result }, 'orders owed fulfillment orders (left behind by a race) were given them');
  else if (result.stockRows > 0) deps.log.info({ ...result }, 'stock available beside waiting orders was offered to them');
}
