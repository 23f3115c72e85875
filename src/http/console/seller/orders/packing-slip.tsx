import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { formatTs, Table } from '../../components.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { addressLines } from './customer-section.js';
import { lineDisplays } from './line-display.js';
import { loadSellerOrder } from './load-order.js';

/**
 * The order's packing slip: what goes in the box and where it goes, printed from the browser. Seller-facing
 * fields only (order number and date, ship-to, lines with SKU, title and units, gift messages), no prices.
 * The console's stylesheet has the print rules (@media print: no navigation, no buttons, black on white);
 * no script, so "Print" is the browser's own command.
 */

/** The units to pack for a line: ordered minus cancelled (shipped units included: the slip lists the whole order). */
const unitsToPack = (l: { quantity: number; cancelQuantity: number }) => Math.max(0, l.quantity - l.cancelQuantity);

export function registerSellerPackingSlip(scope: FastifyInstance, deps: Deps): void {
  scope.get<{ Params: { orderNumber: string } }>('/orders/:orderNumber/packing-slip', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const db = deps.db.db;
    const { order, storefrontId } = await loadSellerOrder(db, user.accountId, request.params.orderNumber);
    const lines = order.products.filter((l) => unitsToPack(l) > 0);
    const display = await lineDisplays(db, user.accountId, lines, storefrontId);
    const shipTo = addressLines(order.shippingAddress);
    const gifts = lines.filter((l) => l.giftWrapMessage);
    const ctx = pageContext(request, reply, user, '/console/orders');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title={`Packing slip, order ${order.orderNumber}`}>
        <div class="no-print">
          <p class="crumbs">
            <a href={`/console/orders/${order.orderNumber}`} safe>{`← Order ${order.orderNumber}`}</a>
          </p>
          <p class="muted">To print it, use your browser's Print command (Ctrl+P, or ⌘P on a Mac): only the slip is printed.</p>
        </div>
        <article class="slip" aria-labelledby="slip-title">
          <h1 id="slip-title" safe>{`Packing slip · Order ${order.orderNumber}`}</h1>
          <dl class="facts">
            <dt>Order</dt>
            <dd safe>{order.orderNumber}</dd>
            <dt>Channel order</dt>
            <dd safe>{order.channelLabel ? `${order.channelOrderId} (${order.channelLabel})` : `${order.channelOrderId} (${order.channel})`}</dd>
            <dt>Ordered</dt>
            <dd safe>{formatTs(order.orderTs, ctx.settings)}</dd>
            {order.standardServiceLevel !== 'Unknown' ? (
              <>
                <dt>Shipping service</dt>
                <dd safe>{order.standardServiceLevel}</dd>
              </>
            ) : (
              ''
            )}
          </dl>
          <section aria-labelledby="slip-ship-to">
            <h2 id="slip-ship-to">Ship to</h2>
            {order.personalDataRedactedTs !== null ? (
              // The buyer's name and address were removed under the personal-data policy; the country is all that is left.
              <p safe>{`Redacted · ${shipTo.join(', ') || 'no address kept'}`}</p>
            ) : shipTo.length === 0 ? (
              <p class="muted">No shipping address on this order.</p>
            ) : (
              <address>
                {shipTo.map((l) => (
                  <>
                    <span safe>{l}</span>
                    <br />
                  </>
                ))}
              </address>
            )}
          </section>
          <section aria-labelledby="slip-items">
            <h2 id="slip-items">Items</h2>
            {lines.length === 0 ? (
              <p class="muted">Every unit of this order was cancelled: nothing to pack.</p>
            ) : (
              <Table caption="Items to pack" head={['SKU', 'Product', 'Quantity']}>
                {lines.map((l) => (
                  <tr>
                    <td safe>{l.sku ?? l.requestedSku}</td>
                    <td safe>{display.get(l.lineItemId)?.title ?? ''}</td>
                    <td class="num" safe>
                      {String(unitsToPack(l))}
                    </td>
                  </tr>
                ))}
              </Table>
            )}
            <p safe>{`${lines.reduce((n, l) => n + unitsToPack(l), 0)} unit(s) in total.`}</p>
          </section>
          {gifts.length > 0 ? (
            <section aria-labelledby="slip-gifts">
              <h2 id="slip-gifts">Gift messages</h2>
              <ul class="plain">
                {gifts.map((l) => (
                  <li safe>{`${l.sku ?? l.requestedSku}: ${l.giftWrapMessage ?? ''}`}</li>
                ))}
              </ul>
            </section>
          ) : (
            ''
          )}
        </article>
      </Layout>,
    );
  });
}
