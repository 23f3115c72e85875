import type { OrderRefunds } from '../../../../domain/orders/order-refunds.js';
import { Field, formatMoney, formatTs, PostForm, Table, type DisplaySettings } from '../../components.js';
import { lineName, type DetailData } from './detail-sections.js';
import { ReturnsTable } from './returns-section.js';

/** The order's refund total and where it was recorded: the same sum as the API's accounting.refund. */
function refundSummary(r: OrderRefunds, settings: DisplaySettings): string {
  if (r.total === null) return 'Refunded: nothing.';
  const money = (amount: string | null) => formatMoney(amount ?? '0', settings);
  const of = r.orderTotal === null ? '' : ` of the order total ${money(r.orderTotal)}`;
  return `Refunded: ${money(r.total)}${of} (order refund ${money(r.orderLevel)}, line refunds ${money(r.lines)}).`;
}

/**
 * Packages, returns and refunds, with the actions the API allows: a return for lines with shipped units not
 * already on a return (`returnable`, requestReturn's rule), and a refund on any order whatever its status
 * (recordRefund accepts one before payment, after cancellation and after shipment alike).
 */
export function PackagesAndReturns({ d, refunds, returnable }: { d: DetailData; refunds: OrderRefunds; returnable: Map<number, number> }) {
  const o = d.order;
  const returnLines = o.products.filter((l) => (returnable.get(Number(l.lineItemId)) ?? 0) > 0);
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
              <td safe>{formatTs(p.shippedTs, d.settings)}</td>
              <td safe>{p.products.map((i) => `${i.quantity} × ${i.sku ?? i.lineItemId}`).join(', ')}</td>
            </tr>
          ))}
        </Table>
      )}
      <ReturnsTable returns={o.returnOrders} data={d.returns} warehouseName={d.warehouseName} base={d.base} csrfToken={d.csrfToken} settings={d.settings} />
      <p safe>{refundSummary(refunds, d.settings)}</p>
      {returnLines.length > 0 ? (
        <details>
          <summary>Record a return</summary>
          <PostForm action={`${d.base}/returns`} csrfToken={d.csrfToken} class="stack">
            <label>
              <span>Line</span>
              <select name="lineItemId">
                {returnLines.map((l) => (
                  <option value={l.lineItemId} safe>{`${lineName(l)}: up to ${returnable.get(Number(l.lineItemId)) ?? 0} to return`}</option>
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
      <details>
        <summary>Record a refund</summary>
        <PostForm action={`${d.base}/refunds`} csrfToken={d.csrfToken} class="stack">
          {o.status === 'PENDING_PAYMENT' ? <p class="muted">This order is awaiting payment. A refund recorded now counts toward its refunded total.</p> : ''}
          <label>
            <span>Line (or the whole order)</span>
            <select name="lineItemId">
              <option value="">Whole order</option>
              {o.products.map((l) => (
                <option value={l.lineItemId} safe>
                  {lineName(l)}
                </option>
              ))}
            </select>
          </label>
          <Field label="Amount" name="amount" required placeholder="12.50" />
          <Field label="Reason" name="reason" required />
          <button type="submit">Record refund</button>
        </PostForm>
      </details>
    </section>
  );
}
