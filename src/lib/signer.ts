import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { hmacSha256, safeEqual } from './crypto.js';

/**
 * Signs opaque values (cursors, v1 nextTokens) with the server secret and binds each to a purpose (its
 * route), so a cursor cannot be tampered with or replayed on another route. Also seals secrets that must
 * be read back (callback signing secrets) with AES-256-GCM under a key derived from the same secret.
 */
export interface Signer {
  sign(purpose: string, payload: unknown): string;
  /** The payload, or null when the value is tampered, foreign or undecodable. */
  verify(purpose: string, token: string): unknown;
  seal(plain: string): string;
  unseal(sealed: string): string;
}

export function createSigner(serverSecret: string): Signer {
  const macKey = createHash('sha256').update(`mac:${serverSecret}`).digest();
  const sealKey = createHash('sha256').update(`seal:${serverSecret}`).digest();
  const mac = (purpose: string, body: string) => hmacSha256(macKey, `${purpose}\n${body}`).toString('base64url');

  return {
    sign(purpose, payload) {
      const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
      return `${body}.${mac(purpose, body)}`;
    },
    verify(purpose, token) {
      const dot = token.indexOf('.');
      if (dot <= 0) return null;
      const body = token.slice(0, dot);
      if (!safeEqual(token.slice(dot + 1), mac(purpose, body))) return null;
      try {
        return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
      } catch {
        return null;
      }
    },
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
    },
    unseal(sealed) {
      const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
      if (!iv || !tag || !data) throw new Error('sealed value is malformed');
      const decipher = createDecipheriv('aes-256-gcm', sealKey, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
    },
  };
}
