import { BlockList, isIP } from 'node:net';
import { invalidField } from '../errors.js';

/**
 * Where callbacks may go (resolutions §8, issue 11 "Safety"): https only, and never to loopback, private,
 * link-local, unspecified, CGNAT or other non-public addresses — unless the operator set
 * CALLBACKS_ALLOW_PRIVATE (sandbox, tests). Checked at registration on the literal host, and at delivery on
 * every address the name resolves to (send.ts), so a public name pointing at 127.0.0.1 is refused too.
 */

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // CGNAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routable inside some networks)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['100::', 64], // discard
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address embedded in an IPv4-mapped (::ffff:a.b.c.d), -compatible or NAT64 IPv6 address. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:(?:0{1,4}:)?|::|64:ff9b::)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** Why an IP address must not receive callbacks, or null when it is a public address. */
export function nonPublicReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 0) return `"${address}" is not an IP address`;
  if (version === 4) return blocked.check(bare, 'ipv4') ? `${bare} is a loopback, private, link-local or reserved address` : null;
  const v4 = embeddedIpv4(bare);
  if (v4 !== null) return isIP(v4) === 4 && !blocked.check(v4, 'ipv4') ? null : `${bare} maps to the non-public IPv4 address ${v4}`;
  return blocked.check(bare, 'ipv6') ? `${bare} is a loopback, private, link-local or reserved address` : null;
}

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
    if (reason) throw invalidField(field, `must not point at a non-public address: ${reason}`);
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
  if (isLocalName(host)) return `the callback host ${host} is a local name`;
  if (isIP(host) !== 0) return nonPublicReason(host);
  return null;
}
