import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/app.js';
import { bearer } from '../helpers/fixtures.js';

/** Shared by the v1 inventory test files (not a test file itself). */

export interface ItemResult {
  SKU: string;
  warehouseId: number | null;
  success: boolean;
  errorMessage: string;
}

export async function postInventory(t: TestApp, token: string, payload: unknown): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/v1/inventory', headers: bearer(token), payload: payload as object });
}

/** Posts public-shape items and asserts every one succeeded. */
export async function setStock(
  t: TestApp,
  token: string,
  products: { SKU: string; warehouseId: number; [mode: string]: unknown }[],
): Promise<ItemResult[]> {
  const res = await postInventory(t, token, { products });
  assert.equal(res.statusCode, 200, res.body);
  const results = (res.json() as { results: ItemResult[] }).results;
  for (const r of results) assert.equal(r.success, true, r.errorMessage);
  return results;
}

export async function getJson(t: TestApp, token: string, url: string) {
  const res = await t.app.inject({ url, headers: bearer(token) });
  return { status: res.statusCode, body: res.json() as Record<string, unknown>, res };
}

/** A v1 error body with the request id as referenceId. */
export function assertV1Error(res: LightMyRequestResponse, status: number, pattern?: RegExp): string[] {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json() as { errorCode: number; errorMessages: string[]; referenceId: string };
  assert.equal(body.errorCode, status);
  assert.ok(Array.isArray(body.errorMessages) && body.errorMessages.length > 0);
  assert.equal(body.referenceId, res.headers['x-request-id']);
  // No credentials: a realm-only challenge; wrong ones: invalid_token (RFC 6750 §3.1).
  if (status === 401) assert.match(String(res.headers['www-authenticate']), /^Bearer (realm="[^"]+"|error="invalid_token")$/);
  if (pattern) assert.match(body.errorMessages.join('\n'), pattern);
  return body.errorMessages;
}
