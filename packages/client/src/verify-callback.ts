// Verifies a callback from the service exactly as document 5.5 lists the steps: (1) both headers present,
// (2) timestamp within 300 s of the local clock either way, (3) signing string from the raw body,
// (4) HMAC-SHA256, (5) constant-time comparison with every v1= value. Step (6), parsing and handling, is the
// caller's, and only after `ok`.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { V2ErrorBody } from './errors.js';

export const TIMESTAMP_HEADER = 'x-service-timestamp';
export const SIGNATURE_HEADER = 'x-service-signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Node's IncomingHttpHeaders, a plain record, or a fetch Headers. */
export type CallbackHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyCallbackInput {
  /** The active signing secrets (two during a rotation); or `secret` for one. */
  secrets?: readonly string[];
  secret?: string;
  headers: CallbackHeaders;
  /** The request method (POST, GET, DELETE); upper-cased before signing. */
  method: string;
  /** The path with its query string exactly as received, including any prefix of the registered base URL. */
  pathWithQuery: string;
  /** The body bytes before any parsing; empty or absent for GET and DELETE. */
  rawBody?: Uint8Array | string;
  /** The local clock (default: now). */
  now?: Date;
  toleranceSeconds?: number;
}

export type VerifyFailure =
  | 'missing-timestamp'
  | 'missing-signature'
  | 'invalid-timestamp'
  | 'timestamp-out-of-tolerance'
  | 'no-v1-signature'
  | 'signature-mismatch';

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: VerifyFailure };

/** The signing string of 5.5: timestamp LF METHOD LF path-with-query LF raw body (nothing after the LF when empty). */
export function signingString(timestamp: string, method: string, pathWithQuery: string, rawBody: Uint8Array | string = ''): Buffer {
  return Buffer.concat([Buffer.from(`${timestamp}\n${method.toUpperCase()}\n${pathWithQuery}\n`, 'utf8'), Buffer.from(rawBody)]);
}

/** Lowercase hex HMAC-SHA256 of the signing string (what one v1= value carries). */
export function signCallback(secret: string, timestamp: string, method: string, pathWithQuery: string, rawBody?: Uint8Array | string): string {
  return createHmac('sha256', secret).update(signingString(timestamp, method, pathWithQuery, rawBody)).digest('hex');
}

export function verifyCallback(input: VerifyCallbackInput): VerifyResult {
  const secrets = [...(input.secrets ?? []), ...(input.secret !== undefined ? [input.secret] : [])];
  if (secrets.length === 0) throw new Error('verifyCallback needs `secret` or `secrets`');

  // (1) Both headers.
  const timestamp = header(input.headers, TIMESTAMP_HEADER);
  if (timestamp === undefined || timestamp === '') return { ok: false, reason: 'missing-timestamp' };
  const signature = header(input.headers, SIGNATURE_HEADER);
  if (signature === undefined || signature === '') return { ok: false, reason: 'missing-signature' };

  // (2) Unix seconds, within the tolerance in either direction.
  if (!/^\d+$/.test(timestamp)) return { ok: false, reason: 'invalid-timestamp' };
  const seconds = Number(timestamp);
  const nowSeconds = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - seconds) > (input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    return { ok: false, reason: 'timestamp-out-of-tolerance' };
  }

  const provided = signature
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith('v1='))
    .map((part) => Buffer.from(part.slice(3), 'utf8'));
  if (provided.length === 0) return { ok: false, reason: 'no-v1-signature' };

  // (3)-(5) The timestamp exactly as sent goes into the string; every pair is compared (no early exit), each in
  // constant time. A value of another length cannot match and is skipped (the length of a digest is public).
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(signCallback(secret, timestamp, input.method, input.pathWithQuery, input.rawBody), 'utf8');
    for (const value of provided) {
      if (value.length === expected.length && timingSafeEqual(value, expected)) matched = true;
    }
  }
  return matched ? { ok: true, timestamp: seconds } : { ok: false, reason: 'signature-mismatch' };
}

/** The rejection 5.5 and 7.3 rule 7 prescribe: HTTP 401 with this v2 body. */
export function callbackRejection(): { status: 401; body: V2ErrorBody } {
  return { status: 401, body: { code: 16, message: 'the callback signature is not valid', details: [] } };
}

function header(headers: CallbackHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  // A repeated header arrives as an array in Node; a repeated signature header is joined like a list.
  return Array.isArray(value) ? value.join(',') : value;
}
