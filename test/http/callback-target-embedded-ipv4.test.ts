import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCallbackSender } from '../../src/domain/callbacks/send.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { admin, assertV1Error, countRows, createAccountVia } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { REDIRECT_URI } from '../helpers/fixtures.js';

/** IPv6 callback base URLs that lead to a non-public IPv4 address, one per prefix that embeds one. */
const EMBEDDING: [string, RegExp][] = [
  ['https://[2002:7f00:1::]/cb', /2002:7f00:1:: embeds the IPv4 address 127\.0\.0\.1 \(6to4, 2002::\/16\), a loopback address/],
  ['https://[2001:0:7f00:1::]/cb', /embeds the IPv4 address 127\.0\.0\.1 \(Teredo server, 2001::\/32\)/],
  ['https://[2001:0:808:808::f5ff:fffe]/cb', /embeds the IPv4 address 10\.0\.0\.1 \(Teredo client, 2001::\/32\), a private address/],
  ['https://[::ffff:169.254.169.254]/cb', /embeds the IPv4 address 169\.254\.169\.254 \(IPv4-mapped, ::ffff:0:0\/96\), a link-local address/],
  ['https://[::127.0.0.1]/cb', /embeds the IPv4 address 127\.0\.0\.1 \(IPv4-compatible, ::\/96\)/],
  ['https://[64:ff9b::a00:1]/cb', /embeds the IPv4 address 10\.0\.0\.1 \(NAT64, 64:ff9b::\/96\)/],
  ['https://[64:ff9b:1::c0a8:101]/cb', /embeds the IPv4 address 192\.168\.1\.1 \(local-use NAT64, 64:ff9b:1::\/96\)/],
  ['https://[::ffff:0.0.0.0]/cb', /embeds the IPv4 address 0\.0\.0\.0 .*an unspecified/],
];

const appBody = (callbackBaseUrl: string) => ({
  name: 'Channel',
  contactEmail: 'dev@channel.example',
  redirectUri: REDIRECT_URI,
  kind: 'SALES_CHANNEL',
  scopes: ['listing:self'],
  callbackBaseUrl,
});

describe('callback base URLs embedding a non-public IPv4 address in IPv6 (without CALLBACKS_ALLOW_PRIVATE)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ config: { callbacksAllowPrivate: false } });
  });
  after(async () => t.close());

  it('refuses them at registration with a 400 naming the field and the reason, creating nothing', async () => {
    const before = await countRows(t, 'apps');
    for (const [url, reason] of EMBEDDING) {
      const [message] = assertV1Error(await admin(t, 'POST', '/admin/apps', appBody(url)), 400, /^callbackBaseUrl: /);
      assert.match(message!, reason, url);
      assert.match(message!, /callbacks go only to public addresses unless CALLBACKS_ALLOW_PRIVATE is set/);
    }
    assert.equal(await countRows(t, 'apps'), before);
    // The same prefixes with a public IPv4 address inside stay allowed.
    for (const url of ['https://[2002:808:808::1]/cb', 'https://[64:ff9b::808:808]/cb', 'https://[2001:0:808:404::fefe:fefe]/cb']) {
      const res = await admin(t, 'POST', '/admin/apps', appBody(url));
      assert.equal(res.statusCode, 201, `${url}: ${res.body}`);
    }
  });

  it('refuses them on PATCH /admin/apps/{appId}, leaving the app unchanged', async () => {
    const created = await admin(t, 'POST', '/admin/apps', appBody('https://partner.example/cb'));
    assert.equal(created.statusCode, 201, created.body);
    const { appId } = created.json() as { appId: number };
    for (const [url, reason] of EMBEDDING) {
      const [message] = assertV1Error(await admin(t, 'PATCH', `/admin/apps/${appId}`, { callbackBaseUrl: url, eventTypes: [] }), 400, /^callbackBaseUrl: /);
      assert.match(message!, reason, url);
    }
    const view = (await admin(t, 'GET', `/admin/apps/${appId}`)).json() as { callbackBaseUrl: string; eventTypes: string[] };
    assert.equal(view.callbackBaseUrl, 'https://partner.example/cb');
    assert.deepEqual(view.eventTypes, []);
  });

  it('refuses at delivery a public name that resolves to such an address, without connecting', async () => {
    // The name passes registration (it is no literal address); its DNS answer is what leads inside.
    const answers: Record<string, string> = { 'sixtofour.partner.example': '2002:7f00:1::', 'teredo.partner.example': '2001:0:7f00:1::' };
    const asked: string[] = [];
    t.deps.callbackSender = createCallbackSender({
      resolve: async (hostname) => {
        asked.push(hostname);
        return [{ address: answers[hostname] ?? '2606:4700::1111', family: 6 }];
      },
    });
    try {
      const accountId = await createAccountVia(t);
      for (const [host, address] of Object.entries(answers)) {
        const reg = await admin(t, 'POST', '/admin/apps', appBody(`https://${host}/cb`));
        assert.equal(reg.statusCode, 201, reg.body);
        const { appId } = reg.json() as { appId: number };
        const { storefrontId } = (await admin(t, 'POST', `/admin/accounts/${accountId}/installations`, { appId })).json() as { storefrontId: number };
        const queued = await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/ingestion-request`);
        assert.equal(queued.statusCode, 202, queued.body);
        const { deliveryId } = queued.json() as { deliveryId: string };
        await new JobWorker(t.deps, { id: 'embedded-ipv4-test', schedules: [] }).runUntilIdle();

        const delivery = (await admin(t, 'GET', `/admin/deliveries/${deliveryId}`)).json() as {
          state: string;
          lastStatus: number | null;
          lastError: string | null;
          attemptLog: { httpStatus: number | null; error: string | null }[];
        };
        assert.equal(delivery.state, 'DEAD', 'a refused target is dead at once');
        assert.equal(delivery.lastStatus, null);
        assert.equal(delivery.attemptLog.length, 1);
        assert.ok(
          delivery.lastError?.startsWith(`refused target: ${host} resolves to ${address}, which embeds the IPv4 address 127.0.0.1`),
          delivery.lastError ?? 'no error',
        );
        assert.match(delivery.lastError!, /CALLBACKS_ALLOW_PRIVATE/);
        assert.ok(asked.includes(host));
      }
    } finally {
      delete t.deps.callbackSender;
    }
  });
});
