import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/app.js';
import { adminHeaders } from '../helpers/admin.js';
import { bearer } from '../helpers/fixtures.js';

/** Shared by the inbound shipment and vendor test files (not a test file itself). */

export interface ShipmentProduct {
  product_id: number;
  sku: string;
  quantity: number;
  received_quantity: number;
  unit_item_cost: number | null;
}

export interface Receipt {
  receipt_id: number;
  received_at: string;
  received_by: string;
  products: { product_id: number; sku: string; quantity: number; unit_item_cost: number | null; shipping_cost: number }[];
}

export interface ShipmentRecord {
  id: number;
  status: string;
  vendor: { vendorId: number; name: string };
  vendor_name: string;
  warehouse: { warehouseId: number; name: string; warehouseUniqueId: string | null };
  destination_warehouse_id: number;
  purchase_order_number: string;
  shipping_cost: number | null;
  expected_delivery_date: string | null;
  tracking: string | null;
  carrier: string | null;
  inbound_shipment_products: ShipmentProduct[];
  receipts: Receipt[];
  created_at: string;
  updated_at: string;
  shipped_at: string | null;
  received_at: string | null;
  cancelled_at: string | null;
}

export interface ShipmentPage {
  results: ShipmentRecord[];
  pagination: { hasNext: boolean; nextToken: string };
}

/** A valid create body: one line of `sku`, to `warehouseId`; `extra` overrides or adds fields. */
export function shipmentBody(warehouseId: number, sku: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    inbound_shipment_products: [{ sku, quantity: 10, unit_item_cost: 2.5 }],
    status: 'PENDING',
    vendor_name: 'Acme Ceramics',
    destination_warehouse_id: warehouseId,
    purchase_order_number: 'PO-1',
    ...extra,
  };
}

export function postShipment(t: TestApp, token: string, payload: unknown): Promise<LightMyRequestResponse> {
  // A string is sent as is (malformed JSON), under the JSON Content-Type.
  if (typeof payload === 'string') {
    return t.app.inject({ method: 'POST', url: '/v1/inbound-shipment', headers: { ...bearer(token), 'content-type': 'application/json' }, payload });
  }
  return t.app.inject({ method: 'POST', url: '/v1/inbound-shipment', headers: bearer(token), payload: payload as object });
}

/** Creates a shipment and asserts it was accepted. */
export async function createShipment(t: TestApp, token: string, payload: unknown): Promise<ShipmentRecord> {
  const res = await postShipment(t, token, payload);
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as ShipmentRecord;
}

export function getShipment(t: TestApp, token: string, id: number | string): Promise<LightMyRequestResponse> {
  return t.app.inject({ url: `/v1/inbound-shipment/${id}`, headers: bearer(token) });
}

/** POST …/{id}/{action} with a JSON body, or with no body at all when `payload` is undefined. */
export function shipmentAction(t: TestApp, token: string, id: number | string, action: 'cancel' | 'ship', payload?: unknown) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/inbound-shipment/${id}/${action}`,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

export function listShipments(t: TestApp, token: string, query = ''): Promise<LightMyRequestResponse> {
  return t.app.inject({ url: `/v1/inbound-shipment${query}`, headers: bearer(token) });
}

/** Creates a vendor through the operator API and returns its id. */
export async function createVendorVia(t: TestApp, accountId: number, body: Record<string, unknown>): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: `/admin/accounts/${accountId}/vendors`, headers: adminHeaders, payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return (res.json() as { vendorId: number }).vendorId;
}

export function patchVendor(t: TestApp, accountId: number, vendorId: number | string, body: unknown): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'PATCH', url: `/admin/accounts/${accountId}/vendors/${vendorId}`, headers: adminHeaders, payload: body as object });
}

/** Rows of the account that a refused create must not leave behind. */
export async function inboundCounts(t: TestApp, accountId: number): Promise<{ shipments: number; lines: number; vendors: number; products: number }> {
  const db = t.deps.db.db;
  const count = async (table: 'inbound_shipments' | 'inbound_shipment_lines' | 'vendors' | 'products') =>
    Number(
      (await db.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow()).n,
    );
  return { shipments: await count('inbound_shipments'), lines: await count('inbound_shipment_lines'), vendors: await count('vendors'), products: await count('products') };
}

/**
 * Brings a shipment to PARTIALLY_RECEIVED (one unit of its first line) or RECEIVED (everything outstanding)
 * through the receive route, as the seller whose token is given.
 */
export async function receiveInto(t: TestApp, token: string, id: number, status: 'PARTIALLY_RECEIVED' | 'RECEIVED'): Promise<ShipmentRecord> {
  const record = (await getShipment(t, token, id)).json() as ShipmentRecord;
  const lines = record.inbound_shipment_products.filter((l) => l.quantity > l.received_quantity);
  const products =
    status === 'RECEIVED'
      ? lines.map((l) => ({ sku: l.sku, quantity: l.quantity - l.received_quantity }))
      : [{ sku: lines[0]!.sku, quantity: 1 }];
  const res = await t.app.inject({ method: 'POST', url: `/v1/inbound-shipment/${id}/receive`, headers: bearer(token), payload: { products } });
  assert.equal(res.statusCode, 200, res.body);
  const received = res.json() as ShipmentRecord;
  assert.equal(received.status, status);
  return received;
}

export { assertV1Error } from '../helpers/admin.js';
