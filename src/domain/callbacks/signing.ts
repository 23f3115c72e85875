import { createHmac } from 'node:crypto';
import type { CallbackMethod } from './transport.js';

/**
 * Callback signing, document 5.5 exactly. The signing string is four parts joined by LF: the timestamp as
 * sent, the upper-case method, the path with its query exactly as sent (the base URL's path prefix
 * included), and the raw body bytes. GET and DELETE send no body, so their string ends with the LF after
 * the path. One `v1=<hex>` per active secret (current first, then the previous one during rotation).
 * Verification is the partner's side: packages/client's verifyCallback (the tests' receivers use it too).
 */

export const TIMESTAMP_HEADER = 'X-Service-Timestamp';
export const SIGNATURE_HEADER = 'X-Service-Signature';
export const DELIVERY_ID_HEADER = 'X-Service-Delivery-Id';

/** The exact bytes that are signed. */
export function signingString(timestamp: string, method: string, pathWithQuery: string, body: Buffer | null): Buffer {
  const head = Buffer.from(`${timestamp}\n${method.toUpperCase()}\n${pathWithQuery}\n`, 'utf8');
  return body && body.length > 0 ? Buffer.concat([head, body]) : head;
}

/** Lowercase hex HMAC-SHA256 of the signing string under one secret. */
export function signatureHex(secret: string, timestamp: string, method: string, pathWithQuery: string, body: Buffer | null): string {
  return createHmac('sha256', secret).update(signingString(timestamp, method, pathWithQuery, body)).digest('hex');
}

export interface SignedHeaders {
  [TIMESTAMP_HEADER]: string;
  [SIGNATURE_HEADER]: string;
}

/** The two signing headers for one call; `secrets` in order, current first. */
export function signCallback(
  secrets: readonly string[],
  now: Date,
  method: CallbackMethod,
  pathWithQuery: string,
  body: Buffer | null,
): SignedHeaders {
  if (secrets.length === 0) throw new Error('a callback needs at least one signing secret');
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signature = secrets.map((s) => `v1=${signatureHex(s, timestamp, method, pathWithQuery, body)}`).join(',');
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signature };
}
