import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { listInstallations } from '../../../../domain/accounts/installations.js';
import { sellerPrincipalFor } from '../../../../domain/accounts/principal.js';
import { canUpdateInventory, listAccountWarehouses } from '../../../../domain/accounts/warehouses.js';
import { sellerFulfillmentOrdersOf } from '../../../../domain/fulfillment/seller-order-view.js';
import { readOrderRefunds } from '../../../../domain/orders/order-refunds.js';
import { owedUnits } from '../../../../domain/orders/status.js';
import type { SalesOrderV1 } from '../../../../domain/orders/view.js';
import { orderRouteDetails } from '../../../../domain/orders/route-detail.js';
import { unroutableLinesOf } from '../../../../domain/orders/unroutable-lines.js';
import { returnableUnitsByLine } from '../../../../domain/orders/returnable-units.js';
import { UnroutableSection } from './unroutable-section.js';
import { Badge, formatTs, PostForm } from '../../components.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { FulfillmentSection, LinesSection, RoutingSection, type DetailData } from './detail-sections.js';
import { returnProgressOf } from '../../../../domain/orders/returns-view.js';
import { byTime, returnEvents, type TimelineEvent } from './timeline.js';
import { statusTone } from './status-tone.js';
import { appNames } from '../../../../domain/accounts/app-catalog.js';
import { CustomerSection, customerContact } from './customer-section.js';
import { PersonalDataSection } from './personal-data-section.js';
import { erasurePending } from '../../../../domain/personal-data/erasure-status.js';
import { lineDisplays } from './line-display.js';
import { alertTypeText, orderStatusText, rejectionText } from './order-words.js';
import { PackagesAndReturns } from './packages-section.js';
import { loadSellerOrder } from './load-order.js';

/**
 * Cancel and re-route are offered whenever the API allows them: while a line still owes units (neither
 * shipped nor cancelled), whatever the status says (resolutions §6: a refund or a return never hides owed work).
 */
const owesUnits = (order: SalesOrderV1) => order.products.some((l) => owedUnits(l) > 0);

/** Units to pack: every line's units not cancelled (a packing slip lists what the box holds). */
const hasUnitsToPack = (order: SalesOrderV1) => order.products.some((l) => l.quantity - l.cancelQuantity > 0);

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
    events.push({ ts: fo.assignedTs, what: `Fulfillment order ${fo.fulfillmentOrderId} sent to ${d.integrationName(fo.integrationId)}` });
    if (fo.acknowledgedTs) events.push({ ts: fo.acknowledgedTs, what: `Fulfillment order ${fo.fulfillmentOrderId} accepted by the shipper` });
    if (fo.rejectedTs) events.push({ ts: fo.rejectedTs, what: `Fulfillment order ${fo.fulfillmentOrderId} rejected by the shipper${fo.rejectionReason ? ` (${rejectionText(fo.rejectionReason, null).toLowerCase()})` : ''}` });
    for (const a of fo.alerts) {
      events.push({ ts: a.createdAt, what: `Alert raised: ${alertTypeText(a.type)}` });
      if (a.resolvedTs) events.push({ ts: a.resolvedTs, what: `Alert resolved: ${alertTypeText(a.type)}` });
    }
  }
  for (const p of o.packages) events.push({ ts: p.shippedTs, what: `Package ${p.packageId} shipped${p.carrier ? ` with ${p.carrier}` : ''}` });
  events.push(...returnEvents(o.returnOrders, d.returns.progress, d.warehouseName));
  events.push({ ts: o.lastUpdatedTs, what: `Last change (now ${orderStatusText(o.status).toLowerCase()})` });
  return byTime(events);
}

export function registerSellerOrderDetail(scope: FastifyInstance, deps: Deps): void {
  scope.get<{ Params: { orderNumber: string } }>('/orders/:orderNumber', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const db = deps.db.db;
    const accountId = user.accountId;
    // Another account's order number is simply not found (404 page), as in the API.
    const { order, storefrontId } = await loadSellerOrder(db, accountId, request.params.orderNumber);
    const orderId = Number(order.orderNumber);
    const [routes, fulfillment, warehouses, installations, refunds, returnable, lineDisplay] = await Promise.all([
      orderRouteDetails(db, accountId, orderId),
      sellerFulfillmentOrdersOf(db, accountId, orderId),
      listAccountWarehouses(db, accountId),
      listInstallations(db, accountId),
      readOrderRefunds(db, accountId, orderId),
      returnableUnitsByLine(db, accountId, orderId),
      lineDisplays(db, accountId, order.products, storefrontId),
    ]);
    const ctx = pageContext(request, reply, user, '/console/orders');
    const warehouseNames = new Map(warehouses.map((w) => [w.id, w.name]));
    const names = await appNames(db, installations.map((i) => i.appId));
    const unroutable = await unroutableLinesOf(db, accountId, orderId);
    const returnProgress = await returnProgressOf(db, accountId, orderId);
    const pendingErasure = await erasurePending(db, accountId, orderId);
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
      lineDisplay,
      settings: ctx.settings,
      csrfToken: ctx.csrfToken,
      base: `/console/orders/${order.orderNumber}`,
    };
    const open = owesUnits(order);
    // rerouteLine's rules: a channel-fulfilled warehouse only for an order the channel fulfils, never a
    // warehouse whose shipper rejected this order.
    const rejectedIn = new Set(fulfillment.filter((fo) => fo.status.endsWith('REJECTED')).map((fo) => fo.warehouseId));
    const channelFulfils = order.fba || order.channelWillFulfill;
    const targets = warehouses.filter((w) => (!w.channelFulfilled || channelFulfils) && !rejectedIn.has(w.id)).map((w) => ({ id: w.id, name: w.name }));
    return sendHtml(
      reply,
      <Layout ctx={ctx} title={`Order ${order.orderNumber}`}>
        <p class="crumbs">
          <a href="/console/orders">← Orders</a>
        </p>
        <h1 safe>{`Order ${order.orderNumber}`}</h1>
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <Badge tone={statusTone(order.status)} text={orderStatusText(order.status)} />
          </dd>
          <dt>Channel</dt>
          {/* A custom store's orders carry its name as both channel and label: say it once. */}
          <dd safe>{order.channelLabel && order.channelLabel !== order.channel ? `${order.channel} · ${order.channelLabel}` : order.channel}</dd>
          <dt>Channel order id</dt>
          <dd safe>{order.channelOrderId}</dd>
          <dt>Ordered</dt>
          <dd safe>{formatTs(order.orderTs, ctx.settings)}</dd>
          {order.shipBy ? (
            <>
              <dt>Ship by</dt>
              <dd safe>{formatTs(order.shipBy, ctx.settings)}</dd>
            </>
          ) : (
            ''
          )}
          {order.standardServiceLevel !== 'Unknown' || order.requestedServiceLevel ? (
            <>
              <dt>Shipping service</dt>
              <dd safe>{order.requestedServiceLevel && order.requestedServiceLevel !== order.standardServiceLevel ? `${order.standardServiceLevel} (${order.requestedServiceLevel})` : order.standardServiceLevel}</dd>
            </>
          ) : (
            ''
          )}
          {order.customer_notes ? (
            <>
              <dt>Customer note</dt>
              <dd safe>{order.customer_notes}</dd>
            </>
          ) : (
            ''
          )}
          {order.cancellationReason ? (
            <>
              <dt>Cancellation reason</dt>
              <dd safe>{order.cancellationReason}</dd>
            </>
          ) : (
            ''
          )}
        </dl>
        <div class="actions">
          {hasUnitsToPack(order) ? (
            <a class="button secondary" href={`${d.base}/packing-slip`}>
              Print packing slip
            </a>
          ) : (
            ''
          )}
          {order.status === 'PENDING_PAYMENT' ? (
            <PostForm action={`${d.base}/mark-paid`} csrfToken={ctx.csrfToken}>
              <button type="submit">Mark paid</button>
            </PostForm>
          ) : (
            ''
          )}
        </div>
        <UnroutableSection lines={d.unroutable} settings={ctx.settings} />
        <CustomerSection order={order} />
        <LinesSection d={d} canCancel={open} />
        <RoutingSection d={d} canReroute={open} targets={targets} />
        <FulfillmentSection d={d} />
        <PackagesAndReturns d={d} refunds={refunds} returnable={returnable} />
        <PersonalDataSection
          order={order}
          pending={pendingErasure}
          isOwner={user.role === 'OWNER'}
          buyerEmail={customerContact(order).email}
          retentionDays={user.settings.personalDataRetentionDays}
          settings={ctx.settings}
          csrfToken={ctx.csrfToken}
          base={d.base}
        />
        <section aria-labelledby="timeline">
          <h2 id="timeline">Timeline</h2>
          <ol class="timeline">
            {timelineOf(d).map((e) => (
              <li>
                <time datetime={e.ts} safe>
                  {formatTs(e.ts, ctx.settings)}
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
