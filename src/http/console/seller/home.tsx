import { countLowStock } from '../../../domain/inventory/low-stock.js';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { COUNT_CAP } from '../../../db/capped-count.js';
import { getAccount } from '../../../domain/accounts/accounts.js';
import { countDeadDeliveries } from '../../../domain/callbacks/deliveries.js';
import { storefrontsFailingStatusCheck } from '../../../domain/callbacks/status-checks.js';
import { countFulfillmentAttention } from '../../../domain/fulfillment/attention.js';
import { countPlannedIngestions } from '../../../domain/listings/ingestion-session.js';
import { countRecentFailedReports } from '../../../domain/reports/failed-recently.js';
import {
  countBackorderedOrders,
  countOrdersPastShipBy,
  countOrdersToShip,
  countOrdersWithOpenReturns,
  hasAnyOrder,
  salesByDay,
} from '../../../domain/orders/home-figures.js';
import { countOrdersWithUnroutableLines } from '../../../domain/orders/unroutable-lines.js';
import { countAccountDeadJobs } from '../../../jobs/dead-jobs.js';
import { formatTs, type DisplaySettings } from '../format.js';
import { Layout } from '../layout.js';
import { pageContext, sendHtml } from '../render.js';
import { sellerOf } from '../session.js';
import { LastDays } from './home-chart-view.js';

/**
 * The seller's home (issue 24 item 6): how many things of each kind wait for the seller, each number a link to
 * the list of exactly those things, then orders and sales of the last 30 days. "All clear" only when every
 * number is 0. Every count is a capped read of one index (over COUNT_CAP reads "1,000+").
 */

interface Figure {
  /** Stable name for tests and styles. */
  key: string;
  count: number;
  label: string;
  /** Everyday work (orders to ship) rather than something that went wrong. */
  work?: boolean;
  /** The list that shows exactly these things; null when the seller has no such list (then `note` says why). */
  href: string | null;
  note?: string;
}

interface FigureGroup {
  title: string;
  figures: Figure[];
}

const shown = (count: number) => (count > COUNT_CAP ? `${COUNT_CAP.toLocaleString('en-US')}+` : count.toLocaleString('en-US'));

function Tile({ figure }: { figure: Figure }) {
  const body = (
    <>
      <strong class="count" safe>
        {shown(figure.count)}
      </strong>{' '}
      <span class="label" safe>
        {figure.label}
      </span>
    </>
  );
  return (
    <li class={figure.count === 0 ? 'tile clear' : figure.work ? 'tile work' : 'tile needs'}>
      {figure.href !== null ? (
        <a href={figure.href} data-count={String(figure.count)} data-figure={figure.key}>
          {body}
        </a>
      ) : (
        <div data-count={String(figure.count)} data-figure={figure.key}>
          {body}
          {figure.note ? (
            <span class="note" safe>
              {figure.note}
            </span>
          ) : (
            ''
          )}
        </div>
      )}
    </li>
  );
}

function Groups({ groups }: { groups: FigureGroup[] }) {
  return (
    <>
      {groups.map((g) => (
        <>
          <h3 safe>{g.title}</h3>
          <ul class="tiles">
            {g.figures.map((f) => (
              <Tile figure={f} />
            ))}
          </ul>
        </>
      ))}
    </>
  );
}

/** The account's settings as a seller reads them; the operator sets them (PATCH /admin/accounts/{accountId}). */
function SettingsLine({ settings, now }: { settings: DisplaySettings; now: Date }) {
  const zoneNow = formatTs(now.toISOString(), settings);
  return (
    <p class="muted" safe>
      {`Money is shown in ${settings.currencyCode} and dates in the ${settings.timeZone} time zone (now ${zoneNow}). Your platform operator sets these.`}
    </p>
  );
}

/** A new account: what to do to see orders here. */
function FirstSteps() {
  return (
    <section class="panel first-steps" aria-labelledby="first-steps">
      <h2 id="first-steps">No orders yet</h2>
      <p>Orders from your sales channels and your own stores show here as they arrive, with what needs doing and your sales by day. To get there:</p>
      <ul>
        <li>
          <a href="/console/apps">Connect a sales channel and a shipping app</a> in Apps.
        </li>
        <li>
          <a href="/console/inventory">Put your products in stock</a> in Inventory.
        </li>
      </ul>
    </section>
  );
}

/** The low-stock list (issue 24 item 5): SKUs whose available units are at or below their alert. */
const LOW_STOCK_HREF = '/console/inventory/low-stock';

export function registerSellerHome(scope: FastifyInstance, deps: Deps): void {
  scope.get('/home', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const db = deps.db.db;
    const accountId = user.accountId;
    const now = deps.clock.now();
    const [account, toShip, pastShipBy, backordered, unroutable, returns, alerts, rejected, unacknowledged, lowStock] = await Promise.all([
      getAccount(db, accountId),
      countOrdersToShip(db, accountId),
      countOrdersPastShipBy(db, accountId, now),
      countBackorderedOrders(db, accountId),
      countOrdersWithUnroutableLines(db, accountId),
      countOrdersWithOpenReturns(db, accountId),
      countFulfillmentAttention(db, accountId, 'alert', now),
      countFulfillmentAttention(db, accountId, 'rejected', now),
      countFulfillmentAttention(db, accountId, 'late', now),
      countLowStock(db, accountId),
    ]);
    const [deadDeliveries, deadJobs, planned, failing, failed, anyOrder, days] = await Promise.all([
      countDeadDeliveries(db, accountId),
      countAccountDeadJobs(db, accountId),
      countPlannedIngestions(db, accountId),
      storefrontsFailingStatusCheck(db, accountId),
      countRecentFailedReports(db, accountId, now),
      hasAnyOrder(db, accountId),
      salesByDay(db, accountId, now, user.settings.timeZone),
    ]);
    const groups: FigureGroup[] = [
      {
        title: 'Orders',
        figures: [
          { key: 'to-ship', count: toShip, label: 'to ship', href: '/console/orders?tab=to-ship', work: true },
          { key: 'past-ship-by', count: pastShipBy, label: 'late: past their ship-by date, not shipped', href: '/console/orders?needs=overdue' },
          { key: 'backordered', count: backordered, label: 'backordered: waiting for stock', href: '/console/orders?tab=backordered' },
          { key: 'unroutable', count: unroutable, label: 'with a line not sent to any warehouse', href: '/console/orders?needs=unroutable' },
          { key: 'open-returns', count: returns, label: 'with a return to receive or close', href: '/console/orders?needs=returns' },
          { key: 'alerts', count: alerts, label: 'with an open alert', href: '/console/orders?needs=alert' },
          { key: 'rejected', count: rejected, label: 'rejected by the shipper, units still held', href: '/console/orders?needs=rejected' },
          { key: 'unacknowledged', count: unacknowledged, label: 'not accepted by the shipper within 24 h', href: '/console/orders?needs=late' },
        ],
      },
      { title: 'Stock', figures: [{ key: 'low-stock', count: lowStock, label: 'products at or below their low-stock alert', href: LOW_STOCK_HREF }] },
      {
        title: 'Apps, listings and reports',
        figures: [
          { key: 'failed-callbacks', count: deadDeliveries, label: 'callbacks to partners that failed', href: '/console/apps/callbacks?state=DEAD' },
          { key: 'failing-storefronts', count: failing.length, label: 'storefronts failing their status check', href: '/console/apps' },
          { key: 'planned-ingestions', count: planned, label: 'ingestion plans waiting for your review', href: '/console/listings/ingestions' },
          { key: 'failed-reports', count: failed.reports, label: 'reports failed in the last 7 days', href: '/console/reports' },
          { key: 'failed-validations', count: failed.validations, label: 'file checks failed in the last 7 days', href: '/console/reports' },
          {
            key: 'dead-jobs',
            count: deadJobs,
            label: 'background tasks that failed',
            href: null,
            note: deadJobs > 0 ? 'Every retry failed. Ask your platform operator: they see these on their Jobs page and can run them again.' : undefined,
          },
        ],
      },
    ];
    const waiting = groups.reduce((n, g) => n + g.figures.reduce((m, f) => m + f.count, 0), 0);
    const ctx = pageContext(request, reply, user, '/console/home');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Home">
        <h1 safe>{account.name}</h1>
        <SettingsLine settings={user.settings} now={now} />
        {anyOrder ? '' : <FirstSteps />}
        <section aria-labelledby="attention" class="attention">
          <h2 id="attention">What needs your attention</h2>
          {waiting === 0 ? (
            <>
              <p class="all-clear" data-all-clear="true">
                All clear: nothing to ship, nothing late, no alerts or failures.
              </p>
              <details>
                <summary>Show every check</summary>
                <Groups groups={groups} />
              </details>
            </>
          ) : (
            <>
              <p class="muted">Each number opens the list of exactly those orders or items.</p>
              <Groups groups={groups} />
            </>
          )}
        </section>
        {anyOrder ? <LastDays figures={days} settings={user.settings} /> : ''}
      </Layout>,
    );
  });
}
