import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { invalidArgument } from '../../../../domain/errors.js';
import { cancelInboundShipment } from '../../../../domain/inbound/cancel-shipment.js';
import { backorderPort } from '../../../../domain/fulfillment/backorder-port.js';
import { CANCELLABLE_STATUSES, RECEIVABLE_STATUSES } from '../../../../domain/inbound/model.js';
import { receiveShipment } from '../../../../domain/inbound/receive-shipment.js';
import { shipInboundShipment } from '../../../../domain/inbound/ship-shipment.js';
import { findVisibleShipment, shipmentRecord } from '../../../../domain/inbound/view.js';
import { ReceiveBody, ShipBody } from '../../../schemas/inbound.js';
import { Badge, Field, PostForm, Table, field, fields, formAction, formatTs } from '../../components.js';
import { checkForm, formInt, formText } from '../../form-check.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { consolePrincipal } from '../principal.js';
import { STATUS_TONE } from './inbound-list.js';
import { InventoryTabs } from './nav.js';
import { inboundStatusText } from './inbound-words.js';

/** The shipment id of the URL; anything but digits names no shipment (findVisibleShipment answers 404). */
function shipmentId(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  return /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
}

/** /console/inventory/inbound/{id}: the shipment, its receipts, and ship / receive / cancel (the v1 routes' domain). */
export function registerInboundDetailPages(scope: FastifyInstance, deps: Deps): void {
  scope.get('/inventory/inbound/:id', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const principal = consolePrincipal(user);
    const row = await findVisibleShipment(deps.db.db, principal, shipmentId(request));
    const r = await shipmentRecord(deps.db.db, principal, row);
    const base = `/console/inventory/inbound/${r.id}`;
    const receivable = RECEIVABLE_STATUSES.includes(r.status);
    const ctx = pageContext(request, reply, user, '/console/inventory');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title={`Inbound shipment #${r.id}`}>
        <h1 safe>{`Inbound shipment #${r.id}`}</h1>
        <InventoryTabs current="/console/inventory/inbound" />
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <Badge tone={STATUS_TONE[r.status] ?? 'none'} text={inboundStatusText(r.status)} />
          </dd>
          <dt>Purchase order</dt>
          <dd safe>{r.purchase_order_number}</dd>
          <dt>Vendor</dt>
          <dd safe>{r.vendor.name}</dd>
          <dt>Warehouse</dt>
          <dd safe>{r.warehouse.name}</dd>
          <dt>Carrier / tracking</dt>
          <dd safe>{`${r.carrier ?? '–'} / ${r.tracking ?? '–'}`}</dd>
          <dt>Expected</dt>
          <dd safe>{r.expected_delivery_date ?? '–'}</dd>
          <dt>Shipping cost</dt>
          <dd safe>{r.shipping_cost === null ? '–' : String(r.shipping_cost)}</dd>
          <dt>Created / updated</dt>
          <dd safe>{`${formatTs(r.created_at, user.settings)} / ${formatTs(r.updated_at, user.settings)}`}</dd>
        </dl>

        <h2>Products</h2>
        {receivable ? (
          <p class="muted">Enter the units that arrived on each line, then Receive. Stock of the warehouse rises by them.</p>
        ) : (
          ''
        )}
        <PostForm action={`${base}/receive`} csrfToken={ctx.csrfToken} class="receive">
          <Table caption="Products of the shipment" head={['SKU', 'Sent', 'Received', 'Outstanding', 'Unit cost', ...(receivable ? ['Receive now'] : [])]}>
            {r.inbound_shipment_products.map((l) => (
              <tr>
                <td safe>{l.sku}</td>
                <td class="num" safe>{String(l.quantity)}</td>
                <td class="num" safe>{String(l.received_quantity)}</td>
                <td class="num" safe>{String(l.quantity - l.received_quantity)}</td>
                <td class="num" safe>{l.unit_item_cost === null ? '–' : String(l.unit_item_cost)}</td>
                {receivable ? (
                  <td>
                    <input type="hidden" name="sku" value={l.sku} />
                    <input type="number" name="quantity" min="0" max={String(l.quantity - l.received_quantity)} step="1" aria-label={`Units of ${l.sku} received now`} />
                  </td>
                ) : (
                  ''
                )}
              </tr>
            ))}
          </Table>
          {receivable ? <button type="submit">Receive</button> : ''}
        </PostForm>

        {r.status === 'PENDING' || r.status === 'SHIPPED' ? (
          <>
            <h2>{r.status === 'PENDING' ? 'Mark shipped' : 'Update tracking'}</h2>
            <PostForm action={`${base}/ship`} csrfToken={ctx.csrfToken}>
              <Field label="Carrier" name="carrier" value={r.carrier} />
              <Field label="Tracking number" name="tracking" value={r.tracking} />
              <Field label="Expected delivery date" name="expected_delivery_date" type="date" value={r.expected_delivery_date} />
              <button type="submit">{r.status === 'PENDING' ? 'Mark shipped' : 'Save'}</button>
            </PostForm>
          </>
        ) : (
          ''
        )}
        {CANCELLABLE_STATUSES.includes(r.status) ? (
          <PostForm action={`${base}/cancel`} csrfToken={ctx.csrfToken} confirm="Cancel this shipment?">
            <button type="submit" class="danger">
              Cancel shipment
            </button>
          </PostForm>
        ) : (
          ''
        )}

        <h2>Receipts</h2>
        {r.receipts.length === 0 ? <p class="muted">Nothing received yet.</p> : ''}
        {r.receipts.map((receipt) => (
          <p safe>{`${formatTs(receipt.received_at, user.settings)} by ${receipt.received_by}: ${receipt.products.map((p) => `${p.quantity} × ${p.sku}`).join(', ')}`}</p>
        ))}
        <p>
          <a href="/console/inventory/inbound">All shipments</a>
        </p>
      </Layout>,
    );
  });

  scope.post('/inventory/inbound/:id/ship', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const id = shipmentId(request);
    const body = request.body;
    return formAction(deps, request, reply, `/console/inventory/inbound/${id}`, 'Shipment marked shipped.', async () => {
      // A field left blank clears it, as null does in the API.
      const input = checkForm(ShipBody, {
        carrier: formText(field(body, 'carrier')) ?? null,
        tracking: formText(field(body, 'tracking')) ?? null,
        expected_delivery_date: formText(field(body, 'expected_delivery_date')) ?? null,
      });
      await withTx(deps.db.db, (tx) => shipInboundShipment(tx, consolePrincipal(user), id, input, deps.clock.now()));
    });
  });

  scope.post('/inventory/inbound/:id/cancel', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const id = shipmentId(request);
    return formAction(deps, request, reply, `/console/inventory/inbound/${id}`, 'Shipment cancelled.', async () => {
      await withTx(deps.db.db, (tx) => cancelInboundShipment(tx, consolePrincipal(user), id, deps.clock.now()));
    });
  });

  scope.post('/inventory/inbound/:id/receive', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const id = shipmentId(request);
    const body = request.body;
    return formAction(deps, request, reply, `/console/inventory/inbound/${id}`, 'Units received.', async () => {
      const skus = fields(body, 'sku');
      const quantities = fields(body, 'quantity');
      // Lines left blank or at 0 are not part of this receipt.
      const products = skus.flatMap((sku, i) => {
        const quantity = formInt(quantities[i] ?? '');
        return quantity === undefined || quantity === 0 ? [] : [{ sku, quantity }];
      });
      if (products.length === 0) throw invalidArgument('Enter the units that arrived on at least one line.');
      const input = checkForm(ReceiveBody, { products });
      const row = await withTx(deps.db.db, (tx) => receiveShipment(tx, consolePrincipal(user), id, input, deps.clock.now(), backorderPort));
      return `Units received. The shipment is now ${inboundStatusText(row.status).toLowerCase()}.`;
    });
  });
}


