import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SEND_OPTIONS, createCallbackSender } from '../../src/domain/callbacks/send.js';
import { checkCallbackBaseUrl, nonPublicReason, refuseTargetBeforeResolve } from '../../src/domain/accounts/target-safety.js';
import { AppError } from '../../src/domain/errors.js';

/**
 * [address, the IPv4 address it embeds and how, or null when it is allowed]. Every prefix that embeds an
 * IPv4 address, with private, loopback, link-local, unspecified and other non-public ones (refused) and public
 * ones (allowed: the IPv6 address then reaches a public host, as the IPv4 address would).
 */
const EMBEDDED: [string, string | null][] = [
  // IPv4-mapped ::ffff:0:0/96, dotted and hex
  ['::ffff:127.0.0.1', '127.0.0.1 (IPv4-mapped, ::ffff:0:0/96), a loopback address'],
  ['::ffff:7f00:1', '127.0.0.1 (IPv4-mapped, ::ffff:0:0/96), a loopback address'],
  ['::ffff:10.0.0.1', '10.0.0.1 (IPv4-mapped, ::ffff:0:0/96), a private address'],
  ['::ffff:a9fe:a9fe', '169.254.169.254 (IPv4-mapped, ::ffff:0:0/96), a link-local address'],
  ['::ffff:0.0.0.0', '0.0.0.0 (IPv4-mapped, ::ffff:0:0/96), an unspecified'],
  ['0:0:0:0:0:ffff:c0a8:101', '192.168.1.1 (IPv4-mapped, ::ffff:0:0/96), a private address'],
  ['::ffff:100.64.0.1', '100.64.0.1 (IPv4-mapped, ::ffff:0:0/96), a carrier-grade NAT address'],
  ['::ffff:8.8.8.8', null],
  ['::ffff:808:808', null],
  // IPv4-translated ::ffff:0:0:0/96
  ['::ffff:0:127.0.0.1', '127.0.0.1 (IPv4-translated, ::ffff:0:0:0/96), a loopback address'],
  ['::ffff:0:a00:1', '10.0.0.1 (IPv4-translated, ::ffff:0:0:0/96), a private address'],
  ['::ffff:0:8.8.8.8', null],
  // IPv4-compatible ::/96 (deprecated)
  ['::127.0.0.1', '127.0.0.1 (IPv4-compatible, ::/96), a loopback address'],
  ['::7f00:1', '127.0.0.1 (IPv4-compatible, ::/96), a loopback address'],
  ['::a9fe:a9fe', '169.254.169.254 (IPv4-compatible, ::/96), a link-local address'],
  ['::0.0.0.2', '0.0.0.2 (IPv4-compatible, ::/96), an unspecified'],
  ['::8.8.8.8', null],
  // 6to4 2002::/16, the IPv4 address in bits 16–47
  ['2002:7f00:1::', '127.0.0.1 (6to4, 2002::/16), a loopback address'],
  ['2002:7F00:0001:0000:0000:0000:0000:0001', '127.0.0.1 (6to4, 2002::/16), a loopback address'],
  ['2002:a00:1::1', '10.0.0.1 (6to4, 2002::/16), a private address'],
  ['2002:ac10:1:1::1', '172.16.0.1 (6to4, 2002::/16), a private address'],
  ['2002:c0a8:101::', '192.168.1.1 (6to4, 2002::/16), a private address'],
  ['2002:a9fe:a9fe::', '169.254.169.254 (6to4, 2002::/16), a link-local address'],
  ['2002::1', '0.0.0.0 (6to4, 2002::/16), an unspecified'],
  ['2002:e000:1::', '224.0.0.1 (6to4, 2002::/16), a multicast address'],
  ['2002:808:808::', null],
  ['2002:5db8:d822::1', null],
  // Teredo 2001::/32: the server in bits 32–63, the client inverted in the last 32 bits
  ['2001:0:7f00:1::', '127.0.0.1 (Teredo server, 2001::/32), a loopback address'],
  ['2001:0:a00:1::fefe:fefe', '10.0.0.1 (Teredo server, 2001::/32), a private address'],
  ['2001:0:808:808::80ff:fefe', '127.0.1.1 (Teredo client, 2001::/32), a loopback address'],
  ['2001:0:808:808:0:0:f5ff:fffe', '10.0.0.1 (Teredo client, 2001::/32), a private address'],
  ['2001:0:808:808:8000:1234:5601:5601', '169.254.169.254 (Teredo client, 2001::/32), a link-local address'],
  ['2001:0:808:808::', '255.255.255.255 (Teredo client, 2001::/32), a reserved or broadcast address'],
  ['2001:0:808:404::fefe:fefe', null],
  // NAT64 well-known prefix 64:ff9b::/96
  ['64:ff9b::7f00:1', '127.0.0.1 (NAT64, 64:ff9b::/96), a loopback address'],
  ['64:ff9b::127.0.0.1', '127.0.0.1 (NAT64, 64:ff9b::/96), a loopback address'],
  ['64:ff9b::a9fe:a9fe', '169.254.169.254 (NAT64, 64:ff9b::/96), a link-local address'],
  ['64:ff9b::c0a8:1', '192.168.0.1 (NAT64, 64:ff9b::/96), a private address'],
  ['64:ff9b::808:808', null],
  ['64:ff9b::8.8.8.8', null],
  // Local-use NAT64 64:ff9b:1::/48 (RFC 8215): read as /96; other layouts cannot be read here
  ['64:ff9b:1::7f00:1', '127.0.0.1 (local-use NAT64, 64:ff9b:1::/96), a loopback address'],
  ['64:ff9b:1::10.1.2.3', '10.1.2.3 (local-use NAT64, 64:ff9b:1::/96), a private address'],
  ['64:ff9b:1::808:808', null],
];

const UNDETERMINED = ['64:ff9b:1:7f00:0:100::', '64:ff9b:1:abcd::808:808'];

describe('callback targets: IPv6 addresses that embed an IPv4 address', () => {
  for (const [address, embeds] of EMBEDDED) {
    it(`${address} is ${embeds === null ? 'allowed' : `refused: it embeds ${embeds.split(' (')[0]}`}`, () => {
      const reason = nonPublicReason(address);
      if (embeds === null) {
        assert.equal(reason, null);
        return;
      }
      assert.ok(reason?.startsWith(`the address ${address} embeds the IPv4 address ${embeds}`), reason ?? 'allowed');
      // The same rule at registration (a literal host) and at delivery before any DNS.
      const url = `https://[${address}]/callbacks`;
      assert.throws(
        () => checkCallbackBaseUrl('callbackBaseUrl', url, false),
        (e: unknown) => e instanceof AppError && e.status === 400 && /^callbackBaseUrl: the address .* embeds the IPv4 address .*; callbacks go only to public addresses unless CALLBACKS_ALLOW_PRIVATE is set$/.test(e.message),
      );
      assert.match(refuseTargetBeforeResolve(new URL(url), false) ?? '', /embeds the IPv4 address .*CALLBACKS_ALLOW_PRIVATE/);
      checkCallbackBaseUrl('callbackBaseUrl', url, true);
      assert.equal(refuseTargetBeforeResolve(new URL(url), true), null);
    });
  }

  it('refuses a local-use NAT64 address outside 64:ff9b:1::/96, whose IPv4 address depends on the translator', () => {
    for (const address of UNDETERMINED) assert.match(nonPublicReason(address) ?? '', /local-use NAT64 address .* depends on the local translator/, address);
  });

  it('says what was refused and why, in the words the operator sees', () => {
    assert.equal(nonPublicReason('2002:7f00:1::'), 'the address 2002:7f00:1:: embeds the IPv4 address 127.0.0.1 (6to4, 2002::/16), a loopback address');
    assert.throws(() => checkCallbackBaseUrl('callbackBaseUrl', 'https://[2001:0:7f00:1::]/', false), {
      message:
        'callbackBaseUrl: the address 2001:0:7f00:1:: embeds the IPv4 address 127.0.0.1 (Teredo server, 2001::/32), a loopback address; callbacks go only to public addresses unless CALLBACKS_ALLOW_PRIVATE is set',
    });
    assert.equal(nonPublicReason('10.1.2.3'), 'the address 10.1.2.3 is a private address (RFC 1918)');
    assert.equal(nonPublicReason('[fe80::1%eth0]'), 'the address fe80::1%eth0 is a link-local address');
  });

  it('keeps the plain IPv4 and IPv6 rules', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.31.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '224.0.0.1', '255.255.255.255', '::1', '::', 'fc00::1', 'fd12::1', 'fe80::1', 'fec0::1', 'ff02::1', '2001:db8::1', '100::1']) {
      assert.ok(nonPublicReason(a), a);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '2a00:1450:4001:81b::200e', '2001:4860:4860::8888']) assert.equal(nonPublicReason(a), null, a);
  });

  it('refuses at connect time a name resolving to any such address, before connecting', async () => {
    const options = { ...DEFAULT_SEND_OPTIONS, allowPrivate: false, now: new Date() };
    const request = { method: 'GET' as const, url: 'https://partner.example/cb', body: null, deliveryId: 'd-1', signingSecrets: ['s'] };
    for (const [address, embeds] of EMBEDDED.filter(([, e]) => e !== null)) {
      // A public address first: every address of the answer is checked, not only the one connected to.
      const send = createCallbackSender({ resolve: async () => [{ address: '2606:4700::1111', family: 6 }, { address, family: 6 }] });
      const outcome = await send(request, options);
      assert.equal(outcome.refused, true, address);
      assert.equal(outcome.status, null);
      assert.ok(outcome.error?.startsWith(`refused target: partner.example resolves to ${address}, which embeds the IPv4 address ${embeds}`), outcome.error ?? '');
      assert.match(outcome.error!, /CALLBACKS_ALLOW_PRIVATE/);
    }
  });
});
