import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/app.js';
import { bearer } from '../helpers/fixtures.js';

/** Shared by the v2-shipping-*.test.ts files and the fulfillment scenarios (not a test file itself). */

export interface Money {
  amount: string;
  currencyCode: string;
}

export interface FoLine {
  lineItemId: string;
  sku: string;
  title: string;
  quantity: number;
  shippedQuantity: number;
  cancelledQuantity: number;
  unitPrice: Money;
  tax: Money;
}

export interface FulfillmentOrder {
  fulfillmentOrderId: string;
  orderNumber: string;
  externalOrderId: string;
  status: string;
  warehouseUniqueId: string;
  lines: FoLine[];
  openAlerts: { fulfillmentOrderId: string; type: string; message: string; lineItemId: string }[];
  [field: string]: unknown;
}

export interface Cancellation {
  fulfillmentOrderId: string;
  externalOrderId: string;
  orderNumber: string;
  warehouseUniqueId: string;
  reason: string;
  lines: { lineItemId: string; sku: string; quantity: number }[];
  requestedTs: string;
}

export function get(t: TestApp, token: string, url: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ url, headers: bearer(token) });
}

export function post(t: TestApp, token: string, url: string, payload: unknown): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url, headers: bearer(token), payload: payload as object });
}

export async function needToShip(t: TestApp, token: string, query = ''): Promise<{ orders: FulfillmentOrder[]; nextCursor: string }> {
  const res = await get(t, token, `/v2/shipping/need_to_ship${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { orders: FulfillmentOrder[]; nextCursor: string };
}

export async function needToCancel(t: TestApp, token: string, query = ''): Promise<{ cancellations: Cancellation[]; nextCursor: string }> {
  const res = await get(t, token, `/v2/shipping/need_to_cancel${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { cancellations: Cancellation[]; nextCursor: string };
}

export async function fulfillmentOrder(t: TestApp, token: string, id: string): Promise<FulfillmentOrder> {
  const res = await get(t, token, `/v2/shipping/fulfillment_order?fulfillmentOrderId=${encodeURIComponent(id)}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as FulfillmentOrder;
}

/** The fulfillment order of a sales order in the caller's queue (asserts there is exactly one). */
export async function foOf(t: TestApp, token: string, orderNumber: string): Promise<FulfillmentOrder> {
  const all = (await needToShip(t, token, '?pageSize=500')).orders.filter((o) => o.orderNumber === orderNumber);
  assert.equal(all.length, 1, `one fulfillment order for order ${orderNumber}`);
  return all[0]!;
}

export interface BatchResult {
  fulfillmentOrderId: string;
  success: boolean;
  errorMessage: string;
  [field: string]: unknown;
}

/** POSTs a batch and returns its results (asserting 200 and one result per entry). */
export async function batch(t: TestApp, token: string, path: string, key: string, entries: unknown[]): Promise<BatchResult[]> {
  const res = await post(t, token, `/v2/shipping/${path}`, { [key]: entries });
  assert.equal(res.statusCode, 200, res.body);
  const results = (res.json() as { results: BatchResult[] }).results;
  assert.equal(results.length, entries.length);
  return results;
}

export function assertV2Error(res: LightMyRequestResponse, status: number, code: number, pattern?: RegExp): void {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json() as { code: number; message: string; details: unknown[] };
  assert.equal(body.code, code);
  assert.ok(Array.isArray(body.details));
  if (pattern) assert.match(body.message, pattern);
}

/** Sets on-hand stock in a warehouse an inventory integration controls (POST /v2/inventory). */
export async function integrationStock(t: TestApp, token: string, sku: string, warehouseUniqueId: string, quantity: number): Promise<void> {
  const res = await post(t, token, '/v2/inventory', {
    updates: [{ sku, warehouseUniqueId, quantity }],
    observedTs: t.deps.clock.now().toISOString(),
  });
  assert.equal(res.statusCode, 200, res.body);
  const r = (res.json() as { results: { success: boolean; errorMessage: string }[] }).results[0]!;
  assert.ok(r.success, r.errorMessage);
}
