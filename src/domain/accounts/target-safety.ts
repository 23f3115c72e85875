import { isIP } from 'node:net';
import { invalidField } from '../errors.js';
import { nonPublicReason } from './address-classes.js';

export { nonPublicPhrase, nonPublicReason } from './address-classes.js';

/**
 * Where callbacks may go (resolutions §8, issue 11 "Safety"): https only, and never to loopback, private,
 * link-local, unspecified, CGNAT or other non-public addresses, nor to IPv6 addresses embedding one
 * (IPv4-mapped, 6to4, Teredo, NAT64…: address-classes.ts) — unless the operator set CALLBACKS_ALLOW_PRIVATE
 * (sandbox, tests). Checked at registration on the literal host, and at delivery on every address the name
 * resolves to (src/domain/callbacks/send.ts), so a public name pointing at 127.0.0.1 is refused too. The
 * rule lives with the apps whose base URL it checks, the bottom area, so registration and delivery share it.
 */

/** Said with every refusal, so the partner or operator knows the rule and the way out. */
export const PUBLIC_ONLY = 'callbacks go only to public addresses unless CALLBACKS_ALLOW_PRIVATE is set';

/** Host names that always mean this machine or the local network, whatever DNS says. */
function isLocalName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal');
}

/**
 * Checks a callback base URL as stored (registration, update): absolute, https (http only with
 * allowPrivate), no credentials, no query or fragment (the callback paths are appended), and not a literal
 * private address or a local name unless allowPrivate. Throws a 400 naming `field`.
 */
export function checkCallbackBaseUrl(field: string, value: string, allowPrivate: boolean): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidField(field, 'must be an absolute URL');
  }
  const protocols = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!protocols.includes(url.protocol)) {
    throw invalidField(field, allowPrivate ? 'must use https or http' : 'must use https (plain http is refused unless CALLBACKS_ALLOW_PRIVATE is set)');
  }
  if (url.username || url.password) throw invalidField(field, 'must not carry credentials');
  if (url.search || url.hash) throw invalidField(field, 'must not have a query or a fragment: the callback paths are appended to it');
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isLocalName(host)) throw invalidField(field, `must not point at a local host name (${host}) unless CALLBACKS_ALLOW_PRIVATE is set`);
  if (isIP(host) !== 0) {
    const reason = nonPublicReason(host);
    if (reason) throw invalidField(field, `${reason}; ${PUBLIC_ONLY}`);
  }
}

/**
 * The refusal reason for a target at delivery time before any DNS (protocol, local name, literal address);
 * null when the name still has to be resolved and its addresses checked.
 */
export function refuseTargetBeforeResolve(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return `the callback URL must use https (got ${url.protocol.replace(':', '')})`;
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isLocalName(host)) return `the callback host ${host} is a local name; ${PUBLIC_ONLY}`;
  const reason = isIP(host) !== 0 ? nonPublicReason(host) : null;
  return reason === null ? null : `${reason}; ${PUBLIC_ONLY}`;
}
