import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { listInstallations } from '../../../../domain/accounts/installations.js';
import { sellerPrincipalFor } from '../../../../domain/accounts/principal.js';
import { canUpdateInventory, listAccountWarehouses } from '../../../../domain/accounts/warehouses.js';
import { sellerFulfillmentOrdersOf } from '../../../../domain/fulfillment/seller-order-view.js';
import { getSalesOrder } from '../../../../domain/orders/order-actions.js';
import { readOrderRefunds, type OrderRefunds } from '../../../../domain/orders/order-refunds.js';
import { owedUnits } from '../../../../domain/orders/status.js';
import type { SalesOrderV1 } from '../../../../domain/orders/view.js';
import { orderRouteDetails } from '../../../../domain/orders/route-detail.js';
import { unroutableLinesOf } from '../../../../domain/orders/unroutable-lines.js';
import { UnroutableSection } from './unroutable-section.js';
import { Badge, Field, formatTs, PostForm, Table } from '../../components.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { FulfillmentSection, LinesSection, RoutingSection, type DetailData } from './detail-sections.js';
import { returnProgressOf } from '../../../../domain/orders/returns-view.js';
import { ReturnsTable } from './returns-section.js';
import { byTime, returnEvents, type TimelineEvent } from './timeline.js';
import { statusTone } from './status-tone.js';
import { appNames } from '../../../../domain/accounts/app-catalog.js';

/**
 * Cancel and re-route are offered whenever the API allows them: while a line still owes units (neither
 * shipped nor cancelled), whatever the status says (resolutions §6: a refund or a return never hides owed work).
 */
const owesUnits = (order: SalesOrderV1) => order.products.some((l) => owedUnits(l) > 0);

/**
 * The domain keeps no change log for orders: the timeline is built from the timestamps the rows carry
 * (order, routes, fulfillment orders, alerts, packages, returns), which is what a seller asks "what happened".
 */
function timelineOf(d: DetailData): TimelineEvent[] {
  const o = d.order;
  const events: TimelineEvent[] = [{ ts: o.orderTs, what: `Ordered on ${o.channel}` }];
  if (o.acceptedTs) events.push({ ts: o.acceptedTs, what: 'Accepted by the channel' });
  for (const r of d.routes) events.push({ ts: r.routedAt, what: `Line ${r.lineId}: ${r.quantity} unit(s) routed to ${d.warehouseName(r.warehouseId)}` });
  for (const fo of d.fulfillment) {
    events.push({ ts: fo.assignedTs, what: `Fulfillment order ${fo.fulfillmentOrderId} assigned to ${d.integrationName(fo.integrationId)}` });
    if (fo.acknowledgedTs) events.push({ ts: fo.acknowledgedTs, what: `Fulfillment order ${fo.fulfillmentOrderId} acknowledged` });
    if (fo.rejectedTs) events.push({ ts: fo.rejectedTs, what: `Fulfillment order ${fo.fulfillmentOrderId} rejected (${fo.rejectionReason ?? ''})` });
    for (const a of fo.alerts) {
      events.push({ ts: a.createdAt, what: `Alert ${a.type} raised` });
      if (a.resolvedTs) events.push({ ts: a.resolvedTs, what: `Alert ${a.type} resolved` });
    }
  }
  for (const p of o.packages) events.push({ ts: p.shippedTs, what: `Package ${p.packageId} shipped${p.carrier ? ` with ${p.carrier}` : ''}` });
  events.push(...returnEvents(o.returnOrders, d.returns.progress, d.warehouseName));
  events.push({ ts: o.lastUpdatedTs, what: `Last change (status ${o.status})` });
  return byTime(events);
}

/** The order's refund total and where it was recorded: the same sum as the API's accounting.refund. */
function refundSummary(r: OrderRefunds): string {
  if (r.total === null) return 'Refunded: nothing.';
  const of = r.orderTotal === null ? '' : ` of the order total ${r.orderTotal}`;
  return `Refunded: ${r.total}${of} (order refund ${r.orderLevel ?? '0'}, line refunds ${r.lines ?? '0'}).`;
}

function PackagesAndReturns({ d, refunds, canReturn, canRefund }: { d: DetailData; refunds: OrderRefunds; canReturn: boolean; canRefund: boolean }) {
  const o = d.order;
  const shipped = o.products.filter((l) => l.shippedQuantity > 0);
  return (
    <section aria-labelledby="shipping">
      <h2 id="shipping">Packages, returns and refunds</h2>
      {o.packages.length === 0 ? (
        <p class="muted">Nothing shipped yet.</p>
      ) : (
        <Table caption="Packages" head={['Package', 'Carrier', 'Service', 'Tracking', 'Shipped', 'Items']}>
          {o.packages.map((p) => (
            <tr>
              <td safe>{String(p.packageId)}</td>
              <td safe>{p.carrier ?? '–'}</td>
              <td safe>{p.serviceLevel ?? '–'}</td>
              <td safe>{p.tracking ?? '–'}</td>
              <td safe>{formatTs(p.shippedTs)}</td>
              <td safe>{p.products.map((i) => `${i.quantity} × ${i.sku ?? i.lineItemId}`).join(', ')}</td>
            </tr>
          ))}
        </Table>
      )}
      <ReturnsTable returns={o.returnOrders} data={d.returns} warehouseName={d.warehouseName} base={d.base} csrfToken={d.csrfToken} />
      <p safe>{refundSummary(refunds)}</p>
      {canReturn && shipped.length > 0 ? (
        <details>
          <summary>Record a return</summary>
          <PostForm action={`${d.base}/returns`} csrfToken={d.csrfToken} class="stack">
            <label>
              <span>Line</span>
              <select name="lineItemId">
                {shipped.map((l) => (
                  <option value={l.lineItemId} safe>{`line ${l.lineItemId} (${l.sku ?? l.requestedSku}, ${l.shippedQuantity} shipped)`}</option>
                ))}
              </select>
            </label>
            <Field label="Units" name="quantity" type="number" min="1" required />
            <Field label="Refund amount (optional)" name="refundAmount" />
            <Field label="Channel return id (optional)" name="channelReturnId" />
            <button type="submit">Record return</button>
          </PostForm>
        </details>
      ) : (
        ''
      )}
      {canRefund ? (
        <details>
          <summary>Record a refund</summary>
          <PostForm action={`${d.base}/refunds`} csrfToken={d.csrfToken} class="stack">
            <label>
              <span>Line (or the whole order)</span>
              <select name="lineItemId">
                <option value="">Whole order</option>
                {o.products.map((l) => (
                  <option value={l.lineItemId} safe>{`line ${l.lineItemId} (${l.sku ?? l.requestedSku})`}</option>
                ))}
              </select>
            </label>
            <Field label="Amount" name="amount" required placeholder="12.50" />
            <Field label="Reason" name="reason" required />
            <button type="submit">Record refund</button>
          </PostForm>
        </details>
      ) : (
        ''
      )}
    </section>
  );
}

export function registerSellerOrderDetail(scope: FastifyInstance, deps: Deps): void {
  scope.get<{ Params: { orderNumber: string } }>('/orders/:orderNumber', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const db = deps.db.db;
    const accountId = user.accountId;
    // Another account's order number is simply not found (404 page), as in the API.
    const order = await getSalesOrder(db, sellerPrincipalFor(accountId), request.params.orderNumber);
    const orderId = Number(order.orderNumber);
    const [routes, fulfillment, warehouses, installations, refunds] = await Promise.all([
      orderRouteDetails(db, accountId, orderId),
      sellerFulfillmentOrdersOf(db, accountId, orderId),
      listAccountWarehouses(db, accountId),
      listInstallations(db, accountId),
      readOrderRefunds(db, accountId, orderId),
    ]);
    const ctx = pageContext(request, reply, user, '/console/orders');
    const warehouseNames = new Map(warehouses.map((w) => [w.id, w.name]));
    const names = await appNames(db, installations.map((i) => i.appId));
    const unroutable = await unroutableLinesOf(db, accountId, orderId);
    const returnProgress = await returnProgressOf(db, accountId, orderId);
    const d: DetailData = {
      order,
      routes,
      fulfillment,
      unroutable,
      warehouseName: (id) => warehouseNames.get(id) ?? `warehouse ${id}`,
      integrationName: (id) => {
        const i = installations.find((x) => x.installationId === id);
        if (!i) return `integration ${id}`;
        return `${names.get(i.appId) ?? `${i.kind.toLowerCase().replace(/_/g, ' ')} integration`} (${id})${i.status === 'REVOKED' ? ', revoked' : ''}`;
      },
      returns: {
        progress: returnProgress,
        restockTargets: warehouses.filter((w) => canUpdateInventory(sellerPrincipalFor(accountId), w)).map((w) => ({ id: w.id, name: w.name })),
      },
      csrfToken: ctx.csrfToken,
      base: `/console/orders/${order.orderNumber}`,
    };
    const open = owesUnits(order);
    const targets = warehouses.filter((w) => !w.channelFulfilled).map((w) => ({ id: w.id, name: w.name }));
    return sendHtml(
      reply,
      <Layout ctx={ctx} title={`Order ${order.orderNumber}`}>
        <p>
          <a href="/console/orders">← Orders</a>
        </p>
        <h1 safe>{`Order ${order.orderNumber}`}</h1>
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <Badge tone={statusTone(order.status)} text={order.status} />
          </dd>
          <dt>Channel</dt>
          <dd safe>{order.channelLabel ? `${order.channel} · ${order.channelLabel}` : order.channel}</dd>
          <dt>Channel order id</dt>
          <dd safe>{order.channelOrderId}</dd>
          <dt>Ordered</dt>
          <dd safe>{formatTs(order.orderTs)}</dd>
          <dt>Customer</dt>
          <dd safe>{order.customerName ?? '–'}</dd>
          {order.cancellationReason ? (
            <>
              <dt>Cancellation reason</dt>
              <dd safe>{order.cancellationReason}</dd>
            </>
          ) : (
            ''
          )}
        </dl>
        {order.status === 'PENDING_PAYMENT' ? (
          <PostForm action={`${d.base}/mark-paid`} csrfToken={ctx.csrfToken}>
            <button type="submit">Mark paid</button>
          </PostForm>
        ) : (
          ''
        )}
        <UnroutableSection lines={d.unroutable} />
        <LinesSection d={d} canCancel={open} />
        <RoutingSection d={d} canReroute={open} targets={targets} />
        <FulfillmentSection d={d} />
        <PackagesAndReturns d={d} refunds={refunds} canReturn={order.products.some((l) => l.shippedQuantity > 0)} canRefund={order.status !== 'PENDING_PAYMENT'} />
        <section aria-labelledby="timeline">
          <h2 id="timeline">Timeline</h2>
          <ol class="timeline">
            {timelineOf(d).map((e) => (
              <li>
                <time datetime={e.ts} safe>
                  {formatTs(e.ts)}
                </time>{' '}
                <span safe>{e.what}</span>
              </li>
            ))}
          </ol>
        </section>
      </Layout>,
    );
  });
}
