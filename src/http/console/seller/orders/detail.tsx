import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { listInstallations } from '../../../../domain/accounts/installations.js';
import { sellerPrincipalFor } from '../../../../domain/accounts/principal.js';
import { listAccountWarehouses } from '../../../../domain/accounts/warehouses.js';
import { sellerFulfillmentOrdersOf } from '../../../../domain/fulfillment/seller-order-view.js';
import { getSalesOrder } from '../../../../domain/orders/order-actions.js';
import { orderRouteDetails } from '../../../../domain/orders/route-detail.js';
import { Badge, Field, formatTs, PostForm, Table } from '../../components.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { FulfillmentSection, LinesSection, RoutingSection, type DetailData } from './detail-sections.js';
import { statusTone } from './status-tone.js';
import { appNames } from '../../../../domain/accounts/app-catalog.js';

/** Statuses with units that can still be cancelled or moved (nothing is owed once shipped or closed). */
const OPEN_STATUSES = ['PENDING_PAYMENT', 'PENDING', 'PARTIALLY_SHIPPED'];

/**
 * The domain keeps no change log for orders: the timeline is built from the timestamps the rows carry
 * (order, routes, fulfillment orders, alerts, packages, returns), which is what a seller asks "what happened".
 */
function timelineOf(d: DetailData): { ts: string; what: string }[] {
  const o = d.order;
  const events: { ts: string; what: string }[] = [{ ts: o.orderTs, what: `Ordered on ${o.channel}` }];
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
  for (const r of o.returnOrders) events.push({ ts: r.requestTs, what: `Return ${r.returnOrderId} requested${r.cancelled ? ' (cancelled)' : ''}` });
  events.push({ ts: o.lastUpdatedTs, what: `Last change (status ${o.status})` });
  return events.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
}

function PackagesAndReturns({ d, canReturn, canRefund }: { d: DetailData; canReturn: boolean; canRefund: boolean }) {
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
      {o.returnOrders.length > 0 ? (
        <Table caption="Returns" head={['Return', 'Channel return id', 'Requested', 'Items', 'State']}>
          {o.returnOrders.map((r) => (
            <tr>
              <td safe>{String(r.returnOrderId)}</td>
              <td safe>{r.channelReturnId ?? '–'}</td>
              <td safe>{formatTs(r.requestTs)}</td>
              <td safe>{r.returnItems.map((i) => `${i.quantity} × ${i.SKU}${i.refundAmount === null ? '' : ` (refund ${i.refundAmount})`}`).join(', ')}</td>
              <td>{r.cancelled ? 'cancelled' : 'open'}</td>
            </tr>
          ))}
        </Table>
      ) : (
        ''
      )}
      <p safe>{`Order refund: ${o.accounting?.refund ?? 0}`}</p>
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
    const [routes, fulfillment, warehouses, installations] = await Promise.all([
      orderRouteDetails(db, accountId, orderId),
      sellerFulfillmentOrdersOf(db, accountId, orderId),
      listAccountWarehouses(db, accountId),
      listInstallations(db, accountId),
    ]);
    const ctx = pageContext(request, reply, user, '/console/orders');
    const warehouseNames = new Map(warehouses.map((w) => [w.id, w.name]));
    const names = await appNames(db, installations.map((i) => i.appId));
    const d: DetailData = {
      order,
      routes,
      fulfillment,
      warehouseName: (id) => warehouseNames.get(id) ?? `warehouse ${id}`,
      integrationName: (id) => {
        const i = installations.find((x) => x.installationId === id);
        if (!i) return `integration ${id}`;
        return `${names.get(i.appId) ?? `${i.kind.toLowerCase().replace(/_/g, ' ')} integration`} (${id})${i.status === 'REVOKED' ? ', revoked' : ''}`;
      },
      csrfToken: ctx.csrfToken,
      base: `/console/orders/${order.orderNumber}`,
    };
    const open = OPEN_STATUSES.includes(order.status);
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
        <LinesSection d={d} canCancel={open} />
        <RoutingSection d={d} canReroute={open} targets={targets} />
        <FulfillmentSection d={d} />
        <PackagesAndReturns d={d} canReturn={order.products.some((l) => l.shippedQuantity > 0)} canRefund={order.status !== 'PENDING_PAYMENT'} />
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
