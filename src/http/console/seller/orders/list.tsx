import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { listCustomStores } from '../../../../domain/accounts/custom-stores.js';
import { listInstallations } from '../../../../domain/accounts/installations.js';
import { invalidArgument } from '../../../../domain/errors.js';
import { ordersNeedingAttention } from '../../../../domain/fulfillment/attention.js';
import { listSellerOrders, type SellerOrderSort, type SellerOrderSummary } from '../../../../domain/orders/seller-list.js';
import { countOrderTabs, ORDER_TABS, type OrderTab } from '../../../../domain/orders/seller-list-sources.js';
import { ordersWithUnroutableLines } from '../../../../domain/orders/unroutable-lines.js';
import { ordersPastShipBy, ordersWithOpenReturns } from '../../../../domain/orders/home-figures.js';
import { COUNT_CAP } from '../../../../db/capped-count.js';
import { Badge, Field, formatMoney, formatTs, Select } from '../../components.js';
import type { DisplaySettings } from '../../format.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { queryText } from '../params.js';
import { decodePosition, encodePosition, listHref, orderDates, readOrderListQuery, statusesOf, type NeedsKind, type OrderListQuery } from './list-query.js';
import { orderStatusText } from './order-words.js';
import { statusTone } from './status-tone.js';

const PAGE_SIZE = 50;

const NEEDS_LABELS: Record<NeedsKind, string> = {
  alert: 'with an open alert',
  rejected: 'with a rejected fulfillment order holding units',
  late: 'with fulfillment unacknowledged for more than 24 h',
  unroutable: 'with a line that could not be sent to a warehouse',
  overdue: 'past their ship-by date with units still to ship',
  returns: 'with a return to receive or close',
};

const TAB_LABELS: Record<OrderTab, string> = {
  all: 'All',
  'to-ship': 'To ship',
  backordered: 'Backordered',
  'awaiting-payment': 'Awaiting payment',
  shipped: 'Shipped',
  cancelled: 'Cancelled',
  returns: 'Returns & refunds',
};

const SORT_LABELS: [SellerOrderSort, string][] = [
  ['newest', 'Newest first'],
  ['oldest', 'Oldest first'],
  ['total-desc', 'Highest total'],
  ['total-asc', 'Lowest total'],
];

const countText = (n: number) => (n > COUNT_CAP ? `${COUNT_CAP.toLocaleString('en-US')}+` : n.toLocaleString('en-US'));

function Tabs({ query, counts }: { query: OrderListQuery; counts: Record<OrderTab, number> }) {
  return (
    <nav class="tabs" aria-label="Orders by status">
      <ul>
        {ORDER_TABS.map((tab) => (
          <li>
            <a href={listHref({ ...query, status: '' }, { tab: tab === 'all' ? '' : tab })} data-tab={tab} aria-current={query.tab === tab ? 'page' : undefined}>
              <span safe>{TAB_LABELS[tab]}</span> <span class="count" safe>{countText(counts[tab])}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A column heading that sorts by it: first click the usual direction, the next the other way. */
function SortHeading({ query, label, down, up, cls }: { query: OrderListQuery; label: string; down: SellerOrderSort; up: SellerOrderSort; cls?: string }) {
  const current = query.sort === down ? 'descending' : query.sort === up ? 'ascending' : undefined;
  const target = query.sort === down ? up : down;
  return (
    <th scope="col" class={cls} aria-sort={current}>
      <a class="sort" href={listHref(query, { sort: target === 'newest' ? '' : target })}>
        <span safe>{label}</span>
        {current ? <span aria-hidden="true">{current === 'descending' ? ' ↓' : ' ↑'}</span> : ''}
      </a>
    </th>
  );
}

function OrderRow({ o, settings }: { o: SellerOrderSummary; settings: DisplaySettings }) {
  const channel = o.channelLabel && o.channelLabel !== o.channel ? `${o.channel} · ${o.channelLabel}` : o.channel;
  return (
    <tr>
      <td class="order">
        {/* The number's link covers the whole row (order-list CSS): a click anywhere on it opens the order. */}
        <a class="row-link" href={`/console/orders/${o.orderNumber}`} safe>
          {o.orderNumber}
        </a>
      </td>
      <td class="customer">
        <span safe>{o.customerName ?? o.customerEmail ?? (o.personalDataRedactedTs !== null ? 'redacted' : '–')}</span>
        {o.customerName && o.customerEmail ? (
          <span class="sub muted" safe>
            {o.customerEmail}
          </span>
        ) : (
          ''
        )}
      </td>
      <td class="channel">
        <span safe>{o.channelOrderId}</span>
        <span class="sub muted" safe>
          {channel}
        </span>
      </td>
      <td class="date" safe>
        {formatTs(o.orderTs, settings)}
      </td>
      <td class="status">
        <Badge tone={statusTone(o.status)} text={orderStatusText(o.status)} />
      </td>
      <td class="num items" safe>
        {`${o.units} ${o.units === 1 ? 'item' : 'items'}`}
      </td>
      <td class="num total" safe>
        {formatMoney(o.total, settings)}
      </td>
    </tr>
  );
}

function Pages({ query, previous, next }: { query: OrderListQuery; previous: string | null; next: string | null }) {
  if (!previous && !next) return <p class="muted">End of the list.</p>;
  return (
    <nav class="pager" aria-label="Pages">
      {previous ? <a href={listHref(query, { cursor: previous })}>← Previous page</a> : ''}
      {next ? <a href={listHref(query, { cursor: next })}>Next page →</a> : <span class="muted">End of the list.</span>}
    </nav>
  );
}

export function registerSellerOrderList(scope: FastifyInstance, deps: Deps): void {
  scope.get('/orders', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const db = deps.db.db;
    const accountId = user.accountId;
    const query = readOrderListQuery(request.query);
    const dates = orderDates(query, user.settings.timeZone);
    const [installations, stores] = await Promise.all([listInstallations(db, accountId), listCustomStores(db, accountId)]);
    const channels: [string, string][] = [
      ['', 'Any channel'],
      ...installations.filter((i) => i.storefrontId !== null).map((i): [string, string] => [`s:${i.storefrontId}`, `${i.storefrontName ?? `Storefront ${i.installationId}`}`]),
      ...stores.map((s): [string, string] => [`cs:${s.integrationId}`, `${s.name} (your own store)`]),
    ];
    if (query.channel !== '' && !channels.some(([v]) => v === query.channel)) throw invalidArgument('That channel is not one of yours. Pick a channel from the list.');
    const position = decodePosition(deps, accountId, queryText(request.query, 'cursor'), query.sort);
    const needs = query.needs;
    const [page, counts] = await Promise.all([
      listSellerOrders(
        db,
        accountId,
        {
          statuses: statusesOf(query),
          backordered: query.tab === 'backordered',
          search: query.q === '' ? null : query.q,
          channelKey: query.channel === '' ? null : query.channel,
          ...dates,
          orderIds:
            needs === null
              ? null
              : needs === 'unroutable'
                ? await ordersWithUnroutableLines(db, accountId)
                : needs === 'overdue'
                  ? await ordersPastShipBy(db, accountId, deps.clock.now())
                  : needs === 'returns'
                    ? await ordersWithOpenReturns(db, accountId)
                    : await ordersNeedingAttention(db, accountId, needs, deps.clock.now()),
        },
        query.sort,
        position,
        PAGE_SIZE,
      ),
      countOrderTabs(db, accountId),
    ]);
    const next = encodePosition(deps, accountId, query.sort, page.next, 'a');
    const previous = encodePosition(deps, accountId, query.sort, page.previous, 'b');
    const ctx = pageContext(request, reply, user, '/console/orders');
    const filtered = query.channel !== '' || query.from !== '' || query.to !== '';
    const narrowed = filtered || query.q !== '' || query.tab !== 'all' || query.status !== '' || needs !== null;
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Orders">
        <div class="page-head">
          <h1>Orders</h1>
          <a class="button" href="/console/orders/new">
            New order
          </a>
        </div>
        {needs ? (
          <p>
            <span safe>{`Showing orders ${NEEDS_LABELS[needs]}.`}</span> <a href="/console/orders">Show all orders</a>
          </p>
        ) : (
          ''
        )}
        <form method="get" action="/console/orders" class="order-search" role="search" aria-label="Search orders">
          {query.tab !== 'all' ? <input type="hidden" name="tab" value={query.tab} /> : ''}
          {query.status ? <input type="hidden" name="status" value={query.status} /> : ''}
          {needs ? <input type="hidden" name="needs" value={needs} /> : ''}
          <label class="grow">
            <span>Search orders</span>
            <input type="search" name="q" value={query.q} placeholder="Order number, channel order id, customer, email or SKU" maxlength="200" />
          </label>
          <Select label="Sort" name="sort" options={SORT_LABELS} value={query.sort} />
          <button type="submit">Search</button>
          <details class="more" open={filtered}>
            <summary>More filters</summary>
            <div class="fields">
              <Select label="Channel" name="channel" options={channels} value={query.channel} />
              <Field label="Ordered from" name="from" type="date" value={query.from} />
              <Field label="Ordered to" name="to" type="date" value={query.to} />
            </div>
          </details>
        </form>
        <Tabs query={query} counts={counts} />
        {page.orders.length === 0 ? (
          <p class="empty">
            {counts.all === 0 ? (
              'No orders yet. Orders from your channels and stores show here as they arrive.'
            ) : narrowed ? (
              <>
                No orders match. <a href="/console/orders">Show all orders</a>
              </>
            ) : (
              'No orders on this page.'
            )}
          </p>
        ) : (
          <div class="table-wrap">
            <table class="orders">
              <caption class="skip" safe>
                {`Orders, ${SORT_LABELS.find(([s]) => s === query.sort)![1].toLowerCase()}`}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Channel order</th>
                  <SortHeading query={query} label="Ordered" down="newest" up="oldest" />
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Items
                  </th>
                  <SortHeading query={query} label="Total" down="total-desc" up="total-asc" cls="num" />
                </tr>
              </thead>
              <tbody>
                {page.orders.map((o) => (
                  <OrderRow o={o} settings={ctx.settings} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pages query={query} previous={previous} next={next} />
      </Layout>,
    );
  });
}
