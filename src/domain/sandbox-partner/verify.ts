import { timingSafeEqual } from 'node:crypto';
import { signatureHex } from '../callbacks/signing.js';

/**
 * The partner's side of document 5.5, in the order docs/partners/callbacks.md lists the steps: both headers,
 * a timestamp within 300 s of the partner's clock, the HMAC over the raw body, a constant-time comparison
 * with every v1= value. It mirrors packages/client's verifyCallback rather than importing it: the compiled
 * server would then need that package's build (packages/client/dist, made only by its own build or npm pack);
 * test/unit/sandbox-partner.test.ts checks the two agree.
 */

export const TOLERANCE_SECONDS = 300;

export type VerifyFailure =
  | 'missing-timestamp'
  | 'missing-signature'
  | 'invalid-timestamp'
  | 'timestamp-out-of-tolerance'
  | 'no-v1-signature'
  | 'signature-mismatch';

export interface SignedCall {
  method: string;
  /** The path with its query exactly as received (what was signed). */
  pathWithQuery: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  rawBody: Buffer | null;
}

export function verifySignedCall(call: SignedCall, secrets: readonly string[], now: Date): { ok: true } | { ok: false; reason: VerifyFailure } {
  const timestamp = call.headers['x-service-timestamp'] ?? '';
  if (timestamp === '') return { ok: false, reason: 'missing-timestamp' };
  const signature = call.headers['x-service-signature'] ?? '';
  if (signature === '') return { ok: false, reason: 'missing-signature' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'invalid-timestamp' };
  if (Math.abs(Math.floor(now.getTime() / 1000) - Number(timestamp)) > TOLERANCE_SECONDS) return { ok: false, reason: 'timestamp-out-of-tolerance' };
  const provided = signature
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith('v1='))
    .map((part) => Buffer.from(part.slice(3), 'utf8'));
  if (provided.length === 0) return { ok: false, reason: 'no-v1-signature' };
  // Every pair is compared (no early exit), each in constant time; a value of another length cannot match.
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(signatureHex(secret, timestamp, call.method, call.pathWithQuery, call.rawBody), 'utf8');
    for (const value of provided) {
      if (value.length === expected.length && timingSafeEqual(value, expected)) matched = true;
    }
  }
  return matched ? { ok: true } : { ok: false, reason: 'signature-mismatch' };
}
