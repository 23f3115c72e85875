import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/app.js';
import { bearer } from '../helpers/fixtures.js';

/** Shared by the sales order test files (not a test file itself). */

export interface RoutingInfo {
  warehouseId: number;
  warehouseUniqueId?: string | null;
  quantity: number;
  assembledQuantity: number | null;
  kitComponents: unknown;
}

export interface LineItem {
  lineItemId: string;
  requestedSku: string;
  sku: string | null;
  SKU: string | null;
  quantity: number;
  status: string;
  routing_info: RoutingInfo[];
  [field: string]: unknown;
}

export interface Order {
  orderNumber: string;
  status: string;
  channel: string;
  channelLabel: string | null;
  channelOrderId: string;
  lastUpdatedTs: string;
  orderTs: string;
  products: LineItem[];
  [field: string]: unknown;
}

export const ORDER_TS = '2026-11-20T10:00:00Z';

export function orderBody(channelOrderId: string, products: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  return { channelOrderId, orderTs: ORDER_TS, products, ...extra };
}

export async function postOrder(t: TestApp, token: string, payload: unknown): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/v1/salesOrder', headers: bearer(token), payload: payload as object });
}

/** Creates an order and asserts it was accepted. */
export async function createOrder(t: TestApp, token: string, payload: unknown): Promise<Order> {
  const res = await postOrder(t, token, payload);
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as Order;
}

/** Sets available stock (public shape of POST /v1/inventory) and asserts success. */
export async function stock(t: TestApp, token: string, SKU: string, warehouseId: number, quantity: number): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/inventory',
    headers: bearer(token),
    payload: { products: [{ SKU, warehouseId, quantity }] },
  });
  assert.equal(res.statusCode, 200, res.body);
  for (const r of (res.json() as { results: { success: boolean; errorMessage: string }[] }).results) assert.ok(r.success, r.errorMessage);
}

/** Available units per warehouse id, as GET /v1/inventory/{SKU} shows them to the seller. */
export async function availableBySku(t: TestApp, token: string, sku: string): Promise<Map<number, number>> {
  const res = await t.app.inject({ url: `/v1/inventory/${encodeURIComponent(sku)}`, headers: bearer(token) });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json() as { warehouses: { warehouseId: number; availableQuantity: number }[] };
  return new Map(body.warehouses.map((w) => [w.warehouseId, w.availableQuantity]));
}

/** Routing of a line as {warehouseId: quantity}. */
export function routes(line: LineItem | undefined): Record<number, number> {
  assert.ok(line, 'line exists');
  return Object.fromEntries(line.routing_info.map((r) => [r.warehouseId, r.quantity]));
}

export { assertV1Error } from './v1-inventory-helpers.js';
