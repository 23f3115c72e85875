import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { listInstallations } from '../../../../domain/accounts/installations.js';
import { listCustomStores } from '../../../../domain/accounts/custom-stores.js';
import { invalidField } from '../../../../domain/errors.js';
import { ATTENTION_KINDS, ordersNeedingAttention, type AttentionKind } from '../../../../domain/fulfillment/attention.js';
import { ORDER_STATUSES, type OrderStatus } from '../../../../domain/orders/model.js';
import { listSellerOrders, type SellerOrderKeyset } from '../../../../domain/orders/seller-list.js';
import { ordersWithUnroutableLines } from '../../../../domain/orders/unroutable-lines.js';
import { decodeV2Cursor, encodeCursor } from '../../../pagination.js';
import { Badge, Field, formatTs, Pager, Select, Table } from '../../components.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { statusTone } from './status-tone.js';

const PAGE_SIZE = 50;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

interface Cursor {
  t: string;
  i: number;
}
const isCursor = (v: unknown): v is Cursor =>
  typeof v === 'object' && v !== null && typeof (v as Cursor).t === 'string' && Number.isSafeInteger((v as Cursor).i);
// Bound to the account, like the API's cursors: another account's cursor is an invalid cursor.
const cursorRoute = (accountId: number) => `GET /console/orders#${accountId}`;

/** The fulfillment checks, and orders with a line that could not be routed (an orders-area check). */
type NeedsKind = AttentionKind | 'unroutable';
const NEEDS_KINDS: readonly string[] = [...ATTENTION_KINDS, 'unroutable'];

const NEEDS_LABELS: Record<NeedsKind, string> = {
  alert: 'with an open alert',
  rejected: 'with a rejected fulfillment order holding units',
  late: 'with fulfillment unacknowledged for more than 24 h',
  unroutable: 'with a line that could not be sent to a warehouse',
};

function text(query: unknown, name: string): string {
  const value = query && typeof query === 'object' ? (query as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value.trim() : '';
}

function dateBound(name: string, value: string, addDays: number): string | null {
  if (value === '') return null;
  const at = DATE.test(value) ? new Date(`${value}T00:00:00.000Z`) : new Date(NaN);
  if (Number.isNaN(at.getTime())) throw invalidField(name, 'must be a date (YYYY-MM-DD)');
  return new Date(at.getTime() + addDays * 86_400_000).toISOString();
}

export function registerSellerOrderList(scope: FastifyInstance, deps: Deps): void {
  scope.get('/orders', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const db = deps.db.db;
    const accountId = user.accountId;
    const q = request.query;
    const params = { status: text(q, 'status'), channel: text(q, 'channel'), from: text(q, 'from'), to: text(q, 'to'), sku: text(q, 'sku'), needs: text(q, 'needs') };
    if (params.status !== '' && !(ORDER_STATUSES as readonly string[]).includes(params.status)) throw invalidField('status', 'is not an order status');
    if (params.needs !== '' && !NEEDS_KINDS.includes(params.needs)) throw invalidField('needs', 'is not a known check');
    const needs = params.needs === '' ? null : (params.needs as NeedsKind);
    const [installations, stores] = await Promise.all([listInstallations(db, accountId), listCustomStores(db, accountId)]);
    const channels: [string, string][] = [
      ['', 'Any channel'],
      ...installations.filter((i) => i.storefrontId !== null).map((i): [string, string] => [`s:${i.storefrontId}`, `Storefront: ${i.storefrontName ?? i.installationId}`]),
      ...stores.map((s): [string, string] => [`cs:${s.integrationId}`, `Custom store: ${s.name}`]),
    ];
    if (params.channel !== '' && !channels.some(([v]) => v === params.channel)) throw invalidField('channel', 'is not one of your channels');
    const cursor = decodeV2Cursor(deps.signer, cursorRoute(accountId), text(q, 'cursor') || undefined, isCursor);
    const before: SellerOrderKeyset | null = cursor ? { ts: cursor.t, id: cursor.i } : null;
    const page = await listSellerOrders(
      db,
      accountId,
      {
        statuses: params.status === '' ? null : [params.status as OrderStatus],
        channelKey: params.channel === '' ? null : params.channel,
        orderedFrom: dateBound('from', params.from, 0),
        orderedBefore: dateBound('to', params.to, 1),
        sku: params.sku === '' ? null : params.sku,
        orderIds:
          needs === null
            ? null
            : needs === 'unroutable'
              ? await ordersWithUnroutableLines(db, accountId)
              : await ordersNeedingAttention(db, accountId, needs, deps.clock.now()),
      },
      before,
      PAGE_SIZE,
    );
    const next = page.next ? encodeCursor(deps.signer, cursorRoute(accountId), { t: page.next.ts, i: page.next.id } satisfies Cursor) : null;
    const ctx = pageContext(request, reply, user, '/console/orders');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Orders">
        <h1>Orders</h1>
        {needs ? (
          <p>
            <span safe>{`Showing orders ${NEEDS_LABELS[needs]}.`}</span> <a href="/console/orders">Show all orders</a>
          </p>
        ) : (
          ''
        )}
        <form method="get" action="/console/orders" class="filters" role="search">
          {needs ? <input type="hidden" name="needs" value={needs} /> : ''}
          <Select label="Status" name="status" options={[['', 'Any status'], ...ORDER_STATUSES]} value={params.status} />
          <Select label="Channel" name="channel" options={channels} value={params.channel} />
          <Field label="Ordered from" name="from" type="date" value={params.from} />
          <Field label="Ordered to" name="to" type="date" value={params.to} />
          <Field label="SKU" name="sku" value={params.sku} />
          <button type="submit">Filter</button>
        </form>
        {page.orders.length === 0 ? (
          <p class="muted">No orders match.</p>
        ) : (
          <Table caption="Sales orders, most recently changed first" head={['Order', 'Channel order id', 'Ordered', 'Status', 'Lines', 'Units', 'Total', 'Channel']}>
            {page.orders.map((o) => (
              <tr>
                <td>
                  <a href={`/console/orders/${o.orderNumber}`} safe>
                    {o.orderNumber}
                  </a>
                </td>
                <td safe>{o.channelOrderId}</td>
                <td safe>{formatTs(o.orderTs)}</td>
                <td>
                  <Badge tone={statusTone(o.status)} text={o.status} />
                </td>
                <td safe>{String(o.lineCount)}</td>
                <td safe>{String(o.units)}</td>
                <td safe>{o.total ?? '–'}</td>
                <td safe>{o.channelLabel ? `${o.channel} · ${o.channelLabel}` : o.channel}</td>
              </tr>
            ))}
          </Table>
        )}
        <Pager base="/console/orders" params={params} next={next} />
      </Layout>,
    );
  });
}
