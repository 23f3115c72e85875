import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CallbackMethod } from './transport.js';

/**
 * Callback signing, document 5.5 exactly. The signing string is four parts joined by LF: the timestamp as
 * sent, the upper-case method, the path with its query exactly as sent (the base URL's path prefix
 * included), and the raw body bytes. GET and DELETE send no body, so their string ends with the LF after
 * the path. One `v1=<hex>` per active secret (current first, then the previous one during rotation).
 */

export const TIMESTAMP_HEADER = 'X-Service-Timestamp';
export const SIGNATURE_HEADER = 'X-Service-Signature';
export const DELIVERY_ID_HEADER = 'X-Service-Delivery-Id';

/** Document 8 "callback timestamp tolerance": 300 seconds either direction. */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

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

export interface VerifyInput {
  /** Header lookup, case-insensitive as HTTP headers are (a Node IncomingHttpHeaders object works). */
  headers: Record<string, string | string[] | undefined>;
  method: string;
  /** The request target as received: path and query, exactly. */
  pathWithQuery: string;
  /** Raw body bytes before any parsing. */
  body: Buffer | null;
  /** The partner's signing secret(s): during rotation the receiver may hold both. */
  secrets: readonly string[];
  now: Date;
  toleranceSeconds?: number;
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

function header(headers: VerifyInput['headers'], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    return Array.isArray(value) ? value.join(',') : value;
  }
  return undefined;
}

/**
 * 5.5's verification steps, in order: both headers present; timestamp within the tolerance of the local
 * clock; build the string from the raw body; compute the HMAC; constant-time compare with each v1= value.
 * Only after ok may the receiver parse the body. A failure is answered 401 with a v2 body, code 16.
 */
export function verifyCallback(input: VerifyInput): VerifyResult {
  const timestamp = header(input.headers, TIMESTAMP_HEADER);
  const signature = header(input.headers, SIGNATURE_HEADER);
  if (!timestamp || !signature) return { ok: false, reason: 'missing signature headers' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'malformed timestamp' };
  const skew = Math.abs(Math.floor(input.now.getTime() / 1000) - Number(timestamp));
  if (skew > (input.toleranceSeconds ?? TIMESTAMP_TOLERANCE_SECONDS)) return { ok: false, reason: 'timestamp outside the tolerance' };
  const candidates = signature
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith('v1='))
    .map((part) => Buffer.from(part.slice(3), 'utf8'));
  for (const secret of input.secrets) {
    const expected = Buffer.from(signatureHex(secret, timestamp, input.method, input.pathWithQuery, input.body), 'utf8');
    for (const candidate of candidates) {
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) return { ok: true };
    }
  }
  return { ok: false, reason: 'the signature is not valid' };
}

/** The 401 body 5.5 prescribes for a rejected callback. */
export const SIGNATURE_REJECTION_BODY = { code: 16, message: 'the signature is not valid', details: [] as unknown[] };
