import type { SellerFulfillmentOrder } from '../../../../domain/fulfillment/seller-order-view.js';
import type { OrderRouteDetail } from '../../../../domain/orders/route-detail.js';
import type { UnroutableLine } from '../../../../domain/orders/unroutable-lines.js';
import type { SalesOrderV1 } from '../../../../domain/orders/view.js';
import { Badge, Field, formatTs, PostForm, Table } from '../../components.js';
import type { ReturnsData } from './returns-section.js';
import { statusTone } from './status-tone.js';

/** The order page's sections; the route in detail.tsx loads the data and decides which actions apply. */

export interface DetailData {
  order: SalesOrderV1;
  routes: OrderRouteDetail[];
  fulfillment: SellerFulfillmentOrder[];
  /** Lines (or units of them) not sent to any warehouse yet: they count as backordered (unroutable-lines.ts). */
  unroutable: UnroutableLine[];
  warehouseName: (id: number) => string;
  integrationName: (id: number) => string;
  /** Where each return stands and where returned units may go back into stock. */
  returns: ReturnsData;
  csrfToken: string;
  base: string;
}

export function LinesSection({ d, canCancel }: { d: DetailData; canCancel: boolean }) {
  const cancellable = d.order.products.filter((l) => l.quantity - l.cancelQuantity - l.shippedQuantity > 0);
  return (
    <section aria-labelledby="lines">
      <h2 id="lines">Lines</h2>
      <Table caption="Order lines" head={['Line', 'SKU', 'Title', 'Status', 'Ordered', 'Shipped', 'Cancelled', 'Backordered', 'Unit price', 'Refund']}>
        {d.order.products.map((l) => {
          const unrouted = d.unroutable.find((u) => String(u.lineId) === l.lineItemId)?.units ?? 0;
          const backordered = d.routes.filter((r) => String(r.lineId) === l.lineItemId).reduce((n, r) => n + r.backordered, unrouted);
          return (
            <tr>
              <td safe>{l.lineItemId}</td>
              <td safe>{l.sku ?? `${l.requestedSku} (not in catalog)`}</td>
              <td safe>{l.title ?? ''}</td>
              <td>
                <Badge tone={statusTone(l.status)} text={l.status} />
              </td>
              <td safe>{String(l.quantity)}</td>
              <td safe>{String(l.shippedQuantity)}</td>
              <td safe>{String(l.cancelQuantity)}</td>
              <td safe>{String(backordered)}</td>
              <td safe>{l.unitPrice === null ? '–' : String(l.unitPrice)}</td>
              <td safe>{l.refund === null ? '–' : `${String(l.refund)} ${l.refundReason ?? ''}`}</td>
            </tr>
          );
        })}
      </Table>
      {canCancel && cancellable.length > 0 ? (
        <details>
          <summary>Cancel units</summary>
          <PostForm action={`${d.base}/cancel`} csrfToken={d.csrfToken} class="stack" confirm="Cancel these units?">
            {cancellable.map((l) => (
              <Field
                label={`Line ${l.lineItemId} (${l.sku ?? l.requestedSku}): units to cancel`}
                name={`qty_${l.lineItemId}`}
                type="number"
                min="0"
                hint={`up to ${l.quantity - l.cancelQuantity - l.shippedQuantity}`}
              />
            ))}
            <Field label="Reason" name="reason" required />
            <button type="submit">Cancel units</button>
          </PostForm>
        </details>
      ) : (
        ''
      )}
    </section>
  );
}

export function RoutingSection({ d, canReroute, targets }: { d: DetailData; canReroute: boolean; targets: { id: number; name: string }[] }) {
  const owed = d.routes.filter((r) => r.reserved + r.backordered > 0);
  return (
    <section aria-labelledby="routing">
      <h2 id="routing">Routing</h2>
      {d.routes.length === 0 ? (
        <p class="muted">No units are routed.</p>
      ) : (
        <Table caption="Units per line and warehouse" head={['Line', 'Warehouse', 'Routed', 'Reserved', 'Backordered', 'Shipped', 'Cancelled']}>
          {d.routes.map((r) => (
            <tr>
              <td safe>{String(r.lineId)}</td>
              <td safe>{d.warehouseName(r.warehouseId)}</td>
              <td safe>{String(r.quantity)}</td>
              <td safe>{String(r.reserved)}</td>
              <td safe>{String(r.backordered)}</td>
              <td safe>{String(r.shipped)}</td>
              <td safe>{String(r.cancelled)}</td>
            </tr>
          ))}
        </Table>
      )}
      {canReroute && owed.length > 0 && targets.length > 1 ? (
        <details>
          <summary>Re-route units</summary>
          <PostForm action={`${d.base}/reroute`} csrfToken={d.csrfToken} class="stack">
            <label>
              <span>Units of</span>
              <select name="route">
                {owed.map((r) => (
                  <option value={`${r.lineId}:${r.warehouseId}`} safe>
                    {`line ${r.lineId} in ${d.warehouseName(r.warehouseId)} (${r.reserved + r.backordered} owed)`}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span>To warehouse</span>
              <select name="toWarehouseId">
                {targets.map((w) => (
                  <option value={String(w.id)} safe>
                    {w.name}
                  </option>
                ))}
              </select>
            </label>
            <Field label="Units" name="quantity" type="number" min="1" required />
            <button type="submit">Re-route</button>
          </PostForm>
        </details>
      ) : (
        ''
      )}
    </section>
  );
}

function rejectionText(fo: SellerFulfillmentOrder): string {
  if (!fo.rejectionReason) return '–';
  return fo.rejectionDetail ? `${fo.rejectionReason}: ${fo.rejectionDetail}` : fo.rejectionReason;
}

export function FulfillmentSection({ d }: { d: DetailData }) {
  return (
    <section aria-labelledby="fulfillment">
      <h2 id="fulfillment">Fulfillment orders</h2>
      {d.fulfillment.length === 0 ? (
        <p class="muted">No warehouse of this order is run by a shipping or 3PL integration.</p>
      ) : (
        <Table caption="Fulfillment orders" head={['Fulfillment order', 'Warehouse', 'Integration', 'Status', 'Assigned', 'Acknowledged', 'Rejection']}>
          {d.fulfillment.map((fo) => (
            <tr>
              <td safe>{fo.externalOrderId ? `${fo.fulfillmentOrderId} (${fo.externalOrderId})` : fo.fulfillmentOrderId}</td>
              <td safe>{d.warehouseName(fo.warehouseId)}</td>
              <td safe>{d.integrationName(fo.integrationId)}</td>
              <td>
                <Badge tone={statusTone(fo.status)} text={fo.status.replace('FULFILLMENT_ORDER_STATUS_', '')} />
              </td>
              <td safe>{formatTs(fo.assignedTs)}</td>
              <td safe>{formatTs(fo.acknowledgedTs)}</td>
              <td safe>{rejectionText(fo)}</td>
            </tr>
          ))}
        </Table>
      )}
      {d.fulfillment.flatMap((fo) => fo.alerts).length > 0 ? <h3>Alerts</h3> : ''}
      <ul class="alerts">
        {d.fulfillment.flatMap((fo) =>
          fo.alerts.map((a) => (
            <li>
              <Badge tone={a.status === 'OPEN' ? 'warn' : 'none'} text={a.status} /> <strong safe>{a.type}</strong>{' '}
              <span safe>{`(fulfillment order ${a.fulfillmentOrderId}, raised by ${a.raisedBy === 'SERVICE' ? 'the service' : 'the integration'}, ${formatTs(a.createdAt)})`}</span>
              <p safe>{a.message}</p>
              {a.status === 'OPEN' ? (
                <PostForm action={`${d.base}/alerts/${a.alertId}/resolve`} csrfToken={d.csrfToken}>
                  <Field label="Resolution" name="resolution" required />
                  <button type="submit">Resolve</button>
                </PostForm>
              ) : (
                <p class="muted" safe>{`Resolved ${formatTs(a.resolvedTs)}: ${a.resolution ?? ''}`}</p>
              )}
            </li>
          )),
        )}
      </ul>
    </section>
  );
}
