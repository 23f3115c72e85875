import { isIP } from 'node:net';

/**
 * Which IP addresses are not public, and why, for the callback target rules (target-safety.ts).
 *
 * An IPv6 address can carry an IPv4 address that a host, a relay or a translator on the way turns into an
 * IPv4 connection: `2002:7f00:1::` (6to4) leads to 127.0.0.1 through a 6to4 relay, `::ffff:7f00:1`
 * (IPv4-mapped) is 127.0.0.1 on a dual-stack socket. So the IPv4 address embedded by every such prefix is
 * extracted and judged by the IPv4 rules. An embedded public IPv4 address stays allowed: the IPv6 address
 * then reaches a public host, which is what a public IPv4 address would do.
 */

interface Range {
  /** The network as 32-bit (IPv4) or 128-bit (IPv6) number, and its prefix length. */
  net: bigint;
  prefix: number;
  what: string;
}

const IPV4_RANGES: Range[] = (
  [
    ['0.0.0.0', 8, 'an unspecified ("this network") address'],
    ['10.0.0.0', 8, 'a private address (RFC 1918)'],
    ['100.64.0.0', 10, 'a carrier-grade NAT address (RFC 6598)'],
    ['127.0.0.0', 8, 'a loopback address'],
    ['169.254.0.0', 16, 'a link-local address (cloud metadata services live here)'],
    ['172.16.0.0', 12, 'a private address (RFC 1918)'],
    ['192.0.0.0', 24, 'an IETF protocol assignment address'],
    ['192.0.2.0', 24, 'a documentation address'],
    ['192.168.0.0', 16, 'a private address (RFC 1918)'],
    ['198.18.0.0', 15, 'a benchmarking address'],
    ['198.51.100.0', 24, 'a documentation address'],
    ['203.0.113.0', 24, 'a documentation address'],
    ['224.0.0.0', 4, 'a multicast address'],
    ['240.0.0.0', 4, 'a reserved or broadcast address'],
  ] as const
).map(([net, prefix, what]) => ({ net: BigInt(ipv4Number(net)), prefix, what }));

const IPV6_RANGES: Range[] = (
  [
    ['::', 128, 'the unspecified address'],
    ['::1', 128, 'the loopback address'],
    ['fc00::', 7, 'a unique local (private) address'],
    ['fe80::', 10, 'a link-local address'],
    ['fec0::', 10, 'a site-local address (deprecated, still routed inside some networks)'],
    ['ff00::', 8, 'a multicast address'],
    ['2001:db8::', 32, 'a documentation address'],
    ['100::', 64, 'a discard-only address'],
  ] as const
).map(([net, prefix, what]) => ({ net: ipv6Number(ipv6Hextets(net)), prefix, what }));

function ipv4Number(dotted: string): number {
  return dotted.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

function ipv4Dotted(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/**
 * The eight 16-bit groups of an IPv6 address that net.isIP accepted (zone removed): `::` expanded, and a
 * trailing dotted quad (`::ffff:1.2.3.4`) turned into the last two groups.
 */
export function ipv6Hextets(address: string): number[] {
  let head = address;
  const tail: number[] = [];
  const lastColon = address.lastIndexOf(':');
  if (address.indexOf('.', lastColon) !== -1) {
    const v4 = ipv4Number(address.slice(lastColon + 1));
    tail.push(v4 >>> 16, v4 & 0xffff);
    head = address.slice(0, lastColon + 1);
  }
  const groups = (part: string) => part.split(':').filter((g) => g !== '').map((g) => parseInt(g, 16));
  const gap = head.indexOf('::');
  const left = groups(gap === -1 ? head : head.slice(0, gap));
  const right = gap === -1 ? [] : groups(head.slice(gap + 2));
  const zeros = gap === -1 ? 0 : 8 - left.length - right.length - tail.length;
  return [...left, ...new Array<number>(zeros).fill(0), ...right, ...tail];
}

function ipv6Number(hextets: number[]): bigint {
  return hextets.reduce((value, h) => (value << 16n) | BigInt(h), 0n);
}

function rangeOf(ranges: Range[], value: bigint, bits: number): Range | undefined {
  return ranges.find((r) => value >> BigInt(bits - r.prefix) === r.net >> BigInt(bits - r.prefix));
}

/** What a non-public IPv4 address is ("a loopback address"), or null when it is public. */
function ipv4Class(value: number): string | null {
  return rangeOf(IPV4_RANGES, BigInt(value), 32)?.what ?? null;
}

/** An IPv4 address carried inside an IPv6 one, and how (for the message). */
interface Embedded {
  ipv4: number;
  how: string;
}

const pair = (hi: number, lo: number) => ((hi << 16) | lo) >>> 0;
const zero = (h: number[], from: number, to: number) => h.slice(from, to).every((g) => g === 0);

/**
 * The IPv4 addresses an IPv6 address carries, for every prefix that embeds one; `undetermined` when the
 * address is in a prefix whose embedding cannot be known here.
 */
function embeddedIpv4(h: number[]): Embedded[] | 'undetermined' {
  const last = pair(h[6]!, h[7]!);
  if (zero(h, 0, 5) && h[5] === 0xffff) return [{ ipv4: last, how: 'IPv4-mapped, ::ffff:0:0/96' }];
  if (zero(h, 0, 4) && h[4] === 0xffff && h[5] === 0) return [{ ipv4: last, how: 'IPv4-translated, ::ffff:0:0:0/96' }];
  if (zero(h, 0, 6)) return [{ ipv4: last, how: 'IPv4-compatible, ::/96' }];
  if (h[0] === 0x2002) return [{ ipv4: pair(h[1]!, h[2]!), how: '6to4, 2002::/16' }];
  if (h[0] === 0x2001 && h[1] === 0) {
    // Teredo (RFC 4380): the server in bits 32–63, the client's public address inverted in the last 32.
    return [
      { ipv4: pair(h[2]!, h[3]!), how: 'Teredo server, 2001::/32' },
      { ipv4: (last ^ 0xffffffff) >>> 0, how: 'Teredo client, 2001::/32' },
    ];
  }
  if (h[0] === 0x64 && h[1] === 0xff9b && zero(h, 2, 6)) return [{ ipv4: last, how: 'NAT64, 64:ff9b::/96' }];
  if (h[0] === 0x64 && h[1] === 0xff9b && h[2] === 1) {
    // Local-use NAT64 (RFC 8215): the operator's translator may use a /48, /56, /64 or /96 layout
    // (RFC 6052), each putting the IPv4 address elsewhere. Only 64:ff9b:1::/96 reads one way.
    return zero(h, 3, 6) ? [{ ipv4: last, how: 'local-use NAT64, 64:ff9b:1::/96' }] : 'undetermined';
  }
  return [];
}

/**
 * What makes `address` (an IP address, maybe in brackets or with a zone) unfit for callbacks, as a phrase
 * that follows the address ("is a loopback address", "embeds the IPv4 address 127.0.0.1 (6to4, 2002::/16),
 * a loopback address"); null when it is a public address.
 */
export function nonPublicPhrase(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 0) return 'is not an IP address';
  if (version === 4) {
    const what = ipv4Class(ipv4Number(bare));
    return what ? `is ${what}` : null;
  }
  const hextets = ipv6Hextets(bare.toLowerCase());
  const own = rangeOf(IPV6_RANGES, ipv6Number(hextets), 128);
  if (own) return `is ${own.what}`;
  const embedded = embeddedIpv4(hextets);
  if (embedded === 'undetermined') {
    return "is a local-use NAT64 address (64:ff9b:1::/48) outside 64:ff9b:1::/96, whose IPv4 address depends on the local translator's layout";
  }
  for (const { ipv4, how } of embedded) {
    const what = ipv4Class(ipv4);
    if (what) return `embeds the IPv4 address ${ipv4Dotted(ipv4)} (${how}), ${what}`;
  }
  return null;
}

/** Why an IP address must not receive callbacks ("the address 10.0.0.1 is a private address (RFC 1918)"), or null when it is public. */
export function nonPublicReason(address: string): string | null {
  const phrase = nonPublicPhrase(address);
  return phrase === null ? null : `the address ${address.replace(/^\[|\]$/g, '')} ${phrase}`;
}
