import type { SellerFulfillmentOrder } from '../../../../domain/fulfillment/seller-order-view.js';
import type { OrderRouteDetail } from '../../../../domain/orders/route-detail.js';
import type { UnroutableLine } from '../../../../domain/orders/unroutable-lines.js';
import type { SalesOrderV1 } from '../../../../domain/orders/view.js';
import { Badge, Field, formatMoney, formatTs, PostForm, Table, type DisplaySettings } from '../../components.js';
import { LineTitle, type LineDisplay } from './line-display.js';
import { alertStatusText, alertTypeText, fulfillmentStatusText, messageInWords, orderStatusText, rejectionText } from './order-words.js';
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
  /** Each line's product title and image (line-display.tsx), by line id. */
  lineDisplay: Map<string, LineDisplay>;
  /** The account's currency and time zone: every amount and date on the page (format.ts). */
  settings: DisplaySettings;
  csrfToken: string;
  base: string;
}

/** A line as a seller names it in a form: "line 12 (MUG)". */
export const lineName = (l: { lineItemId: string; sku: string | null; requestedSku: string }) => `line ${l.lineItemId} (${l.sku ?? l.requestedSku})`;

export function LinesSection({ d, canCancel }: { d: DetailData; canCancel: boolean }) {
  const cancellable = d.order.products.filter((l) => l.quantity - l.cancelQuantity - l.shippedQuantity > 0);
  return (
    <section aria-labelledby="lines">
      <h2 id="lines">Lines</h2>
      <Table caption="Order lines" head={['Line', 'SKU', 'Product', 'Status', 'Ordered', 'Shipped', 'Cancelled', 'Backordered', 'Unit price', 'Refunded']}>
        {d.order.products.map((l) => {
          const unrouted = d.unroutable.find((u) => String(u.lineId) === l.lineItemId)?.units ?? 0;
          const backordered = d.routes.filter((r) => String(r.lineId) === l.lineItemId).reduce((n, r) => n + r.backordered, unrouted);
          return (
            <tr>
              <td safe>{l.lineItemId}</td>
              <td safe>{l.sku ?? `${l.requestedSku} (not in catalog)`}</td>
              <td>
                <LineTitle display={d.lineDisplay.get(l.lineItemId)} sku={l.sku ?? l.requestedSku} />
              </td>
              <td>
                <Badge tone={statusTone(l.status)} text={orderStatusText(l.status)} />
              </td>
              <td safe>{String(l.quantity)}</td>
              <td safe>{String(l.shippedQuantity)}</td>
              <td safe>{String(l.cancelQuantity)}</td>
              <td safe>{String(backordered)}</td>
              <td safe>{formatMoney(l.unitPrice, d.settings)}</td>
              <td safe>{l.refund === null ? '–' : `${formatMoney(l.refund, d.settings)}${l.refundReason ? ` (${l.refundReason})` : ''}`}</td>
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

/**
 * Re-route (rerouteLine's rules): units still owed (reserved or backordered) on a line whose SKU is in the
 * catalog, to another warehouse the order may use (`targets`: not channel-fulfilled unless the channel
 * fulfils the order, not one whose shipper rejected it). Offered whenever such a move exists.
 */
export function RoutingSection({ d, canReroute, targets }: { d: DetailData; canReroute: boolean; targets: { id: number; name: string }[] }) {
  const known = new Set(d.order.products.filter((l) => l.sku !== null).map((l) => l.lineItemId));
  const owed = d.routes.filter((r) => r.reserved + r.backordered > 0 && known.has(String(r.lineId)));
  const movable = owed.some((r) => targets.some((t) => t.id !== r.warehouseId));
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
      {canReroute && movable ? (
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
                <Badge tone={statusTone(fo.status)} text={fulfillmentStatusText(fo.status)} />
              </td>
              <td safe>{formatTs(fo.assignedTs, d.settings)}</td>
              <td safe>{formatTs(fo.acknowledgedTs, d.settings)}</td>
              <td safe>{rejectionText(fo.rejectionReason, fo.rejectionDetail)}</td>
            </tr>
          ))}
        </Table>
      )}
      {d.fulfillment.flatMap((fo) => fo.alerts).length > 0 ? <h3>Alerts</h3> : ''}
      <ul class="alerts">
        {d.fulfillment.flatMap((fo) =>
          fo.alerts.map((a) => (
            <li>
              <Badge tone={a.status === 'OPEN' ? 'warn' : 'none'} text={alertStatusText(a.status)} /> <strong safe>{alertTypeText(a.type)}</strong>{' '}
              <span safe>{`(fulfillment order ${a.fulfillmentOrderId}, raised by ${a.raisedBy === 'SERVICE' ? 'the service' : 'the integration'}, ${formatTs(a.createdAt, d.settings)})`}</span>
              <p safe>{messageInWords(a.message)}</p>
              {a.status === 'OPEN' ? (
                <PostForm action={`${d.base}/alerts/${a.alertId}/resolve`} csrfToken={d.csrfToken}>
                  <Field label="Resolution" name="resolution" required />
                  <button type="submit">Resolve</button>
                </PostForm>
              ) : (
                <p class="muted" safe>{`Resolved ${formatTs(a.resolvedTs, d.settings)}: ${a.resolution ?? ''}`}</p>
              )}
            </li>
          )),
        )}
      </ul>
    </section>
  );
}
