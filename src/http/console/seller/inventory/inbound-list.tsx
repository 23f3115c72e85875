import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { withTx } from '../../../../db/tx.js';
import { listAccountWarehouses } from '../../../../domain/accounts/warehouses.js';
import { invalidField } from '../../../../domain/errors.js';
import { createInboundShipment } from '../../../../domain/inbound/create-shipment.js';
import { backorderPort } from '../../../../domain/fulfillment/backorder-port.js';
import { listInboundShipments, statusFilter, type ShipmentKeyset } from '../../../../domain/inbound/list-shipments.js';
import { INBOUND_STATUSES } from '../../../../domain/inbound/model.js';
import { listVendors } from '../../../../domain/inbound/vendors.js';
import { shipmentRecords } from '../../../../domain/inbound/view.js';
import { CreateShipmentBody } from '../../../schemas/inbound.js';
import { Badge, Field, Pager, PostForm, Select, Table, field, formatTs, type Tone } from '../../components.js';
import { checkForm, formBool, formInt, formText } from '../../form-check.js';
import { Layout } from '../../layout.js';
import { pageContext, sendHtml } from '../../render.js';
import { sellerOf } from '../../session.js';
import { createAction } from '../form-redirect.js';
import { consolePrincipal } from '../principal.js';
import { InventoryTabs, PAGE_SIZE, queryText } from './nav.js';
import { INBOUND_STATUS_WORDS, inboundStatusText } from './inbound-words.js';

export const STATUS_TONE: Record<string, Tone> = { PENDING: 'none', SHIPPED: 'warn', PARTIALLY_RECEIVED: 'warn', RECEIVED: 'ok', CANCELLED: 'bad' };

/** The list's cursor in the URL: "<updated_at>~<id>" of the last row shown (the query is scoped to the account). */
function parseCursor(text: string): ShipmentKeyset | null {
  const match = /^(.{1,40})~(\d{1,10})$/.exec(text);
  return match ? { ts: match[1]!, id: Number(match[2]) } : null;
}

/**
 * The lines of the create form: one product per line, "SKU, quantity[, unit cost]" — a textarea works
 * without JavaScript for any number of lines; the API's schema then checks each entry.
 */
function parseLines(text: string): Record<string, unknown>[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) throw invalidField('lines', 'give at least one product: "SKU, quantity[, unit cost]" per line');
  return lines.map((line) => {
    const [sku = '', quantity = '', cost = ''] = line.split(',').map((p) => p.trim());
    return { sku, quantity: formInt(quantity) ?? '', ...(cost === '' ? {} : { unit_item_cost: cost }) };
  });
}

/** /console/inventory/inbound: shipments with a status filter (keyset-paged); the create form. */
export function registerInboundListPages(scope: FastifyInstance, deps: Deps): void {
  scope.get('/inventory/inbound', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const principal = consolePrincipal(user);
    const db = deps.db.db;
    const status = queryText(request.query, 'status');
    const statuses = statusFilter('status', status === '' ? [] : [status]);
    const after = parseCursor(queryText(request.query, 'after'));
    const page = await listInboundShipments(db, principal, { statuses, warehouseIds: null, vendorId: null, updatedFrom: null, purchaseOrderNumber: null }, after, PAGE_SIZE);
    const [records, warehouses, vendors] = await Promise.all([
      shipmentRecords(db, principal, page.rows),
      listAccountWarehouses(db, user.accountId),
      listVendors(db, user.accountId, { includeArchived: false, afterId: null, limit: 500 }),
    ]);
    const ctx = pageContext(request, reply, user, '/console/inventory');
    return sendHtml(
      reply,
      <Layout ctx={ctx} title="Inbound shipments">
        <h1>Inbound shipments</h1>
        <InventoryTabs current="/console/inventory/inbound" />
        <form method="get" action="/console/inventory/inbound" class="inline">
          <Select label="Status" name="status" value={status} options={[['', 'Any'], ...INBOUND_STATUSES.map((s) => [s, INBOUND_STATUS_WORDS[s]] as [string, string])]} />
          <button type="submit">Filter</button>
        </form>
        <Table caption="Inbound shipments, least recently updated first" head={['Shipment', 'PO number', 'Vendor', 'Warehouse', 'Status', 'Units (received / sent)', 'Updated']}>
          {records.map((r) => (
            <tr>
              <td>
                <a href={`/console/inventory/inbound/${r.id}`} safe>{`#${r.id}`}</a>
              </td>
              <td safe>{r.purchase_order_number}</td>
              <td safe>{r.vendor.name}</td>
              <td safe>{r.warehouse.name}</td>
              <td>
                <Badge tone={STATUS_TONE[r.status] ?? 'none'} text={inboundStatusText(r.status)} />
              </td>
              <td class="num" safe>{`${r.inbound_shipment_products.reduce((n, l) => n + l.received_quantity, 0)} / ${r.inbound_shipment_products.reduce((n, l) => n + l.quantity, 0)}`}</td>
              <td safe>{formatTs(r.updated_at, user.settings)}</td>
            </tr>
          ))}
        </Table>
        {records.length === 0 ? <p class="muted">No shipments.</p> : ''}
        <Pager base="/console/inventory/inbound" params={{ status }} cursorName="after" next={page.next ? `${page.next.ts}~${page.next.id}` : null} />

        <h2>New shipment</h2>
        <PostForm action="/console/inventory/inbound" csrfToken={ctx.csrfToken} class="stack">
          <label>
            <span>Vendor</span>
            <span class="hint">an existing vendor's name, or a new name (the vendor is created)</span>
            <input type="text" name="vendor_name" list="vendor-names" required />
          </label>
          <datalist id="vendor-names">
            {vendors.rows.map((v) => (
              <option value={v.name}></option>
            ))}
          </datalist>
          <Select label="Destination warehouse" name="destination_warehouse_id" options={warehouses.map((w) => [String(w.id), w.name] as [string, string])} />
          <Field label="Purchase order number" name="purchase_order_number" required />
          <Select label="Status" name="status" options={[['PENDING', INBOUND_STATUS_WORDS.PENDING], ['SHIPPED', INBOUND_STATUS_WORDS.SHIPPED]]} />
          <label>
            <span>Products</span>
            <span class="hint">one per line: SKU, quantity, unit cost (optional)</span>
            <textarea name="lines" rows="5" required></textarea>
          </label>
          <label>
            <span>
              <input type="checkbox" name="create_new_products" value="1" /> Create unknown SKUs
            </span>
          </label>
          <Field label="Shipping cost" name="shipping_cost" hint="optional, for the whole shipment" />
          <Field label="Expected delivery date" name="expected_delivery_date" type="date" />
          <Field label="Carrier" name="carrier" />
          <Field label="Tracking number" name="tracking" />
          <button type="submit">Create shipment</button>
        </PostForm>
      </Layout>,
    );
  });

  scope.post('/inventory/inbound', { schema: { hide: true } }, async (request, reply) => {
    const user = sellerOf(request, reply);
    if (!user) return reply;
    const body = request.body;
    return createAction(deps, request, reply, '/console/inventory/inbound', async () => {
      const input = checkForm(CreateShipmentBody, {
        inbound_shipment_products: parseLines(field(body, 'lines')),
        status: field(body, 'status') || 'PENDING',
        vendor_name: field(body, 'vendor_name'),
        destination_warehouse_id: formInt(field(body, 'destination_warehouse_id')),
        purchase_order_number: field(body, 'purchase_order_number'),
        ...optional('shipping_cost', formText(field(body, 'shipping_cost'))),
        ...optional('expected_delivery_date', formText(field(body, 'expected_delivery_date'))),
        ...optional('carrier', formText(field(body, 'carrier'))),
        ...optional('tracking', formText(field(body, 'tracking'))),
        create_new_products: formBool(field(body, 'create_new_products')),
      });
      const row = await withTx(deps.db.db, (tx) => createInboundShipment(tx, consolePrincipal(user), input, deps.clock.now(), backorderPort));
      return { message: `Shipment #${row.id} created.`, to: `/console/inventory/inbound/${row.id}` };
    });
  });
}

/** A property only when it has a value (the schemas refuse undefined-as-null where null means "clear"). */
export function optional(name: string, value: string | undefined): Record<string, string> {
  return value === undefined ? {} : { [name]: value };
}
