import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { COUNT_CAP } from '../../../db/capped-count.js';
import { getAccount } from '../../../domain/accounts/accounts.js';
import { countDeadDeliveries } from '../../../domain/callbacks/deliveries.js';
import { storefrontsFailingStatusCheck } from '../../../domain/callbacks/status-checks.js';
import { countFulfillmentAttention } from '../../../domain/fulfillment/attention.js';
import { countPlannedIngestions } from '../../../domain/listings/ingestion-session.js';
import { countRecentFailedReports } from '../../../domain/reports/failed-recently.js';
import { countOrdersWithUnroutableLines } from '../../../domain/orders/unroutable-lines.js';
import { formatTs, type DisplaySettings } from '../format.js';
import { Layout } from '../layout.js';
import { pageContext, sendHtml } from '../render.js';
import { sellerOf } from '../session.js';

interface AttentionItem {
  label: string;
  count: number;
  href: string;
}

const shown = (count: number) => (count > COUNT_CAP ? `${COUNT_CAP}+` : String(count));

/** One line per thing that may need the seller; a count links to the list that shows those things. */
function AttentionList({ items }: { items: AttentionItem[] }) {
  return (
    <ul class="attention">
      {items.map((item) => (
        <li class={item.count > 0 ? 'needs' : 'clear'}>
          <a href={item.href} data-count={String(item.count)}>
            <strong safe>{shown(item.count)}</strong> <span safe>{item.label}</span>
          </a>
        </li>
      ))}
    </ul>
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

export function registerSellerHome(scope: FastifyInstance, deps: Deps): void {
  scope.get('/home', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const db = deps.db.db;
    const accountId = user.accountId;
    const now = deps.clock.now();
    const account = await getAccount(db, accountId);
    const [unroutable, alerts, rejected, late, dead, planned, failing, failed] = await Promise.all([
      countOrdersWithUnroutableLines(db, accountId),
      countFulfillmentAttention(db, accountId, 'alert', now),
      countFulfillmentAttention(db, accountId, 'rejected', now),
      countFulfillmentAttention(db, accountId, 'late', now),
      countDeadDeliveries(db, accountId),
      countPlannedIngestions(db, accountId),
      storefrontsFailingStatusCheck(db, accountId),
      countRecentFailedReports(db, accountId, now),
    ]);
    const items: AttentionItem[] = [
      { label: 'orders with a line that could not be sent to a warehouse (unknown SKU or no warehouse)', count: unroutable, href: '/console/orders?needs=unroutable' },
      { label: 'open alerts on fulfillment orders', count: alerts, href: '/console/orders?needs=alert' },
      { label: 'rejected fulfillment orders still holding units', count: rejected, href: '/console/orders?needs=rejected' },
      { label: 'fulfillment orders unacknowledged for more than 24 h', count: late, href: '/console/orders?needs=late' },
      { label: 'failed reports in the last 7 days', count: failed.reports, href: '/console/reports' },
      { label: 'failed import validations in the last 7 days', count: failed.validations, href: '/console/reports' },
      { label: 'callbacks that gave up (dead deliveries)', count: dead, href: '/console/apps/callbacks?state=DEAD' },
      { label: 'ingestion plans waiting for review', count: planned, href: '/console/listings' },
      { label: 'storefronts failing their last status check', count: failing.length, href: '/console/apps' },
    ];
    const ctx = pageContext(request, reply, user, '/console/home');
    const open = items.filter((i) => i.count > 0);
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Home">
        <h1 safe>{account.name}</h1>
        <SettingsLine settings={user.settings} now={now} />
        <h2>What needs your attention</h2>
        {open.length === 0 ? <p class="muted">Nothing needs your attention right now.</p> : ''}
        <AttentionList items={open} />
        {open.length < items.length ? (
          <details>
            <summary>All clear</summary>
            <AttentionList items={items.filter((i) => i.count === 0)} />
          </details>
        ) : (
          ''
        )}
      </Layout>,
    );
  });
}
