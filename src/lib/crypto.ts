import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function hmacSha256(key: string | Buffer, value: string | Buffer): Buffer {
  return createHmac('sha256', key).update(value).digest();
}

/** Constant-time comparison of two strings; different lengths compare unequal without leaking where. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ab.length !== bb.length) {
    // Still spend the comparison so timing does not reveal the length mismatch early.
    timingSafeEqual(ab, ab);
    return false;
  }
  return timingSafeEqual(ab, bb);
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

export function randomBase64Url(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}
