import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyCallback } from '@mcs/partner-client';
import { createFullSandbox, type FullSandbox } from '../../src/cli/sandbox.js';
import { withTx } from '../../src/db/tx.js';
import { signCallback } from '../../src/domain/callbacks/signing.js';
import type { CallbackOutcome, CallbackRequest, CallbackSender } from '../../src/domain/callbacks/transport.js';
import { simulatorBaseUrl } from '../../src/domain/sandbox-partner/address.js';
import { withPartnerSimulator } from '../../src/domain/sandbox-partner/sender.js';
import { answerSimulatedCall, simulatorCalls } from '../../src/domain/sandbox-partner/simulator.js';
import { verifySignedCall } from '../../src/domain/sandbox-partner/verify.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { REDIRECT_URI } from '../helpers/fixtures.js';

/**
 * The sandbox's partner simulator (issue 24 item 10): a fresh sandbox's storefront, shipping and 3PL apps are
 * answered by the simulator the service runs, so the seller's status check, ingestion request and disconnect
 * are delivered and logged at once. The service runs WITHOUT CALLBACKS_ALLOW_PRIVATE here, as in production:
 * the sandbox needs no exception to the callback target rules.
 */

interface Delivery {
  deliveryId: string;
  appId: number;
  kind: string;
  state: string;
  attempts: number;
  lastStatus: number | null;
}

const OPERATOR = 'ops@sandbox-sim.example';
const PASSWORD = 'correct horse battery';

describe('sandbox partner simulator', () => {
  let t: TestApp;
  let sandbox: FullSandbox;
  let b: ConsoleBrowser;
  let accountId: number;
  let storefrontId: number;
  let channelAppId: number;
  const runJobs = () => new JobWorker(t.deps, { schedules: [] }).runUntilIdle();
  const appOf = (kind: string) => sandbox.summary.apps.find((a) => a.kind === kind)!;
  const deliveries = async () => (await admin(t, 'GET', `/admin/deliveries?accountId=${accountId}&pageSize=100`)).json<{ results: Delivery[] }>().results;
  const follow = async (res: { statusCode: number; headers: Record<string, unknown>; body: string }) => {
    assert.equal(res.statusCode, 303, res.body);
    return b.get(String(res.headers.location));
  };

  before(async () => {
    t = await createTestApp({ config: { callbacksAllowPrivate: false } });
    sandbox = await withTx(t.deps.db.db, (tx) => createFullSandbox(tx, t.deps.signer, t.deps.clock.now(), 'Simulated seller'));
    accountId = sandbox.summary.account.accountId;
    storefrontId = appOf('SALES_CHANNEL').storefrontId!;
    channelAppId = appOf('SALES_CHANNEL').appId;
    b = consoleBrowser(t);
    assert.equal((await b.signIn(sandbox.user.email, sandbox.user.password)).statusCode, 303);
  });
  after(async () => t.close());

  it('points the storefront, shipping and 3PL apps at the simulator, and no other', async () => {
    for (const kind of ['SALES_CHANNEL', 'SHIPPING', 'THIRD_PARTY_LOGISTICS']) {
      const app = appOf(kind);
      assert.equal(app.callbackBaseUrl, simulatorBaseUrl(app.appId));
      const stored = await admin(t, 'GET', `/admin/apps/${app.appId}`);
      assert.equal(stored.json<{ callbackBaseUrl: string }>().callbackBaseUrl, simulatorBaseUrl(app.appId));
    }
    assert.equal(appOf('INVENTORY').callbackBaseUrl, null);
  });

  it('"Check status now" succeeds through the simulator, shows its checks and is in the delivery log', async () => {
    const page = await follow(await b.post(`/console/apps/storefronts/${storefrontId}/status-check`, {}));
    assert.equal(page.statusCode, 200);
    assert.doesNotMatch(page.body, /class="flash bad"/);
    assert.match(page.body, /Signed call verified/);
    assert.match(page.body, /1 listing on the storefront/);

    const status = (await deliveries()).filter((d) => d.kind === 'STOREFRONT_STATUS');
    assert.equal(status.length, 1);
    assert.equal(status[0]!.state, 'SUCCEEDED');
    assert.equal(status[0]!.lastStatus, 200);
    const detail = await admin(t, 'GET', `/admin/deliveries/${status[0]!.deliveryId}`);
    const attempts = detail.json<{ attemptLog: { url: string; httpStatus: number; responseBody: string }[] }>().attemptLog;
    assert.equal(attempts[0]!.url, `${simulatorBaseUrl(channelAppId)}/v2/storefront/status/${storefrontId}`);
    assert.match(attempts[0]!.responseBody, /"checks":\[/);

    const received = await simulatorCalls(t.deps.db.db, accountId);
    const call = received.find((c) => c.deliveryId === status[0]!.deliveryId);
    assert.deepEqual(
      call && { kind: call.kind, verified: call.verified, status: call.status, method: call.method },
      { kind: 'storefront-status', verified: true, status: 200, method: 'GET' },
    );

    const callbacks = await b.get('/console/apps/callbacks');
    assert.equal(callbacks.statusCode, 200);
    assert.match(callbacks.body, /Sandbox Channel/);
    assert.doesNotMatch(callbacks.body, /No callbacks match/);
  });

  it('delivers the nudges the seeded orders caused to the shipping partner', async () => {
    await runJobs();
    const nudges = (await deliveries()).filter((d) => d.kind === 'NUDGE' && d.appId === appOf('SHIPPING').appId);
    assert.ok(nudges.length > 0, 'the orders changed the shipping app\'s fulfillment orders');
    assert.ok(nudges.every((d) => d.state === 'SUCCEEDED'), JSON.stringify(nudges));
    const calls = (await simulatorCalls(t.deps.db.db, accountId)).filter((c) => c.appId === appOf('SHIPPING').appId);
    assert.ok(calls.length > 0 && calls.every((c) => c.kind === 'nudge' && c.verified && c.status === 200));
  });

  it('delivers an ingestion request and then a disconnect, both shown to the operator', async () => {
    const requested = await follow(await b.post(`/console/apps/storefronts/${storefrontId}/ingestion-request`, { skus: 'SANDBOX-MUG-BLUE' }));
    assert.equal(requested.statusCode, 200);
    assert.doesNotMatch(requested.body, /class="flash bad"/);
    await runJobs();
    const disconnected = await b.post(`/console/apps/storefronts/${storefrontId}/disconnect`, { confirm: 'yes' });
    assert.equal(disconnected.statusCode, 303, disconnected.body);
    await runJobs();

    const logged = await deliveries();
    const byKind = (kind: string) => logged.filter((d) => d.kind === kind);
    for (const kind of ['INITIATE_INGESTION', 'DELETE_CONFIGURATION']) {
      const found = byKind(kind);
      assert.equal(found.length, 1, kind);
      assert.equal(found[0]!.state, 'SUCCEEDED', kind);
      assert.equal(found[0]!.lastStatus, 200, kind);
    }
    const kinds = (await simulatorCalls(t.deps.db.db, accountId)).filter((c) => c.appId === channelAppId).map((c) => `${c.kind}:${c.verified}:${c.status}`);
    assert.ok(kinds.includes('ingestion-initiate:true:200'), kinds.join());
    assert.ok(kinds.includes('delete-configuration:true:200'), kinds.join());

    // The operator's deliveries page lists them too.
    assert.equal((await admin(t, 'POST', '/admin/operators', { email: OPERATOR, password: PASSWORD })).statusCode, 201);
    const ops = consoleBrowser(t);
    assert.equal((await ops.signIn(OPERATOR, PASSWORD)).statusCode, 303);
    const page = await ops.get(`/console/operator/deliveries?accountId=${accountId}`);
    assert.equal(page.statusCode, 200);
    for (const d of byKind('INITIATE_INGESTION').concat(byKind('DELETE_CONFIGURATION'))) assert.ok(page.body.includes(d.deliveryId.slice(0, 8)), `${d.kind} on the operator page`);
  });

  it('rejects a call whose signature does not verify with the app\'s secret (401), and records why', async () => {
    const refuseNetwork: CallbackSender = () => Promise.reject(new Error('the simulator must not use the network'));
    const sender = withPartnerSimulator(t.deps, refuseNetwork);
    const now = t.deps.clock.now();
    const request: CallbackRequest = {
      method: 'POST',
      url: `${simulatorBaseUrl(appOf('SHIPPING').appId)}/events`,
      body: Buffer.from('{"eventType":"FULFILLMENT_ORDER_CHANGED"}'),
      deliveryId: 'wrong-secret-delivery',
      signingSecrets: ['not-the-apps-secret'],
    };
    const outcome: CallbackOutcome = await sender(request, { allowPrivate: false, connectTimeoutMs: 5000, totalTimeoutMs: 15000, maxResponseBytes: 16384, now });
    assert.equal(outcome.ok, false);
    assert.equal(outcome.status, 401);
    assert.match(outcome.error ?? '', /HTTP 401: code 16/);
    const call = (await simulatorCalls(t.deps.db.db, accountId)).find((c) => c.deliveryId === 'wrong-secret-delivery');
    assert.deepEqual(call && { verified: call.verified, rejection: call.rejection, kind: call.kind }, { verified: false, rejection: 'signature-mismatch', kind: null });

    // Unsigned, and signed too long ago: refused as well.
    const unsigned = await answerSimulatedCall(t.deps, { appId: appOf('SHIPPING').appId, path: '/events', method: 'POST', pathWithQuery: '/apps/x/events', headers: {}, rawBody: null });
    assert.equal(unsigned.status, 401);
    const secret = appOf('SHIPPING').callbackSigningSecret;
    const path = `/apps/${appOf('SHIPPING').appId}/events`;
    const old = signCallback([secret], new Date(now.getTime() - 301_000), 'POST', path, null);
    const stale = await answerSimulatedCall(t.deps, {
      appId: appOf('SHIPPING').appId,
      path: '/events',
      method: 'POST',
      pathWithQuery: path,
      headers: { 'x-service-timestamp': old['X-Service-Timestamp'], 'x-service-signature': old['X-Service-Signature'] },
      rawBody: null,
    });
    assert.equal(stale.status, 401);
  });

  it('verifies exactly as the partner client package does', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const body = Buffer.from('{"storefrontId":"7","skus":[],"autoApplyIngestionPlan":false}');
    const cases = [
      { secrets: ['mcs-test-vector-secret-0001'], signWith: ['mcs-test-vector-secret-0001'], at: now },
      { secrets: ['mcs-test-vector-secret-0001'], signWith: ['mcs-test-vector-secret-0002', 'mcs-test-vector-secret-0001'], at: now },
      { secrets: ['mcs-test-vector-secret-0001'], signWith: ['mcs-test-vector-secret-0002'], at: now },
      { secrets: ['mcs-test-vector-secret-0001'], signWith: ['mcs-test-vector-secret-0001'], at: new Date(now.getTime() + 301_000) },
    ];
    for (const c of cases) {
      const signed = signCallback(c.signWith, c.at, 'POST', '/callbacks/ingestion/initiate', body);
      const headers = { 'x-service-timestamp': signed['X-Service-Timestamp'], 'x-service-signature': signed['X-Service-Signature'] };
      const ours = verifySignedCall({ method: 'POST', pathWithQuery: '/callbacks/ingestion/initiate', headers, rawBody: body }, c.secrets, now);
      const theirs = verifyCallback({ secrets: c.secrets, headers, method: 'POST', pathWithQuery: '/callbacks/ingestion/initiate', rawBody: body, now });
      assert.deepEqual(ours.ok ? { ok: true } : ours, theirs.ok ? { ok: true } : theirs);
    }
  });

  it('is no open relay: other apps cannot register private targets, and the simulator answers only sandbox apps', async () => {
    // The target rules are unchanged: a private or loopback callback URL is refused for any app.
    const refused = await admin(t, 'POST', '/admin/apps', {
      name: 'Relay attempt',
      contactEmail: 'dev@relay.example',
      redirectUri: REDIRECT_URI,
      kind: 'SALES_CHANNEL',
      scopes: ['listing:self'],
      callbackBaseUrl: 'http://127.0.0.1:8080/sandbox-partner/apps/1',
    });
    assert.equal(refused.statusCode, 400, refused.body);
    const patched = await admin(t, 'PATCH', `/admin/apps/${appOf('INVENTORY').appId}`, { callbackBaseUrl: 'https://10.0.0.5/callbacks' });
    assert.equal(patched.statusCode, 400, patched.body);

    // An app pointed at a sandbox app's simulator URL is signed with its own secret: the simulator refuses it.
    const other = await admin(t, 'POST', '/admin/apps', {
      name: 'Impostor',
      contactEmail: 'dev@impostor.example',
      redirectUri: REDIRECT_URI,
      kind: 'SHIPPING',
      scopes: ['sales:orders:fulfillment:self'],
      callbackBaseUrl: simulatorBaseUrl(appOf('SHIPPING').appId),
    });
    assert.equal(other.statusCode, 201, other.body);
    const otherSecret = other.json<{ callbackSigningSecret: string }>().callbackSigningSecret;
    let networkCalls = 0;
    const sender = withPartnerSimulator(t.deps, (request) => {
      networkCalls += 1;
      return Promise.resolve({ ok: false, status: null, latencyMs: 0, body: '', error: `would send to ${request.url}`, retryAfterSeconds: null, refused: true });
    });
    const options = { allowPrivate: false, connectTimeoutMs: 5000, totalTimeoutMs: 15000, maxResponseBytes: 16384, now: t.deps.clock.now() };
    const impostor = await sender({ method: 'POST', url: `${simulatorBaseUrl(appOf('SHIPPING').appId)}/events`, body: Buffer.from('{}'), deliveryId: 'impostor', signingSecrets: [otherSecret] }, options);
    assert.equal(impostor.status, 401);

    // An app the sandbox did not create is not simulated, whatever it signs with.
    const otherAppId = other.json<{ appId: number }>().appId;
    const unknown = await sender({ method: 'POST', url: `${simulatorBaseUrl(otherAppId)}/events`, body: Buffer.from('{}'), deliveryId: 'not-simulated', signingSecrets: [otherSecret] }, options);
    assert.equal(unknown.status, 404);
    assert.equal(
      (await simulatorCalls(t.deps.db.db, accountId)).some((c) => c.deliveryId === 'not-simulated'),
      false,
      'nothing recorded for an app that is not simulated',
    );
    // Neither went anywhere; any other host goes to the real sender and its target rules.
    assert.equal(networkCalls, 0);
    const elsewhere = await sender({ method: 'GET', url: 'https://partner.example/v2/storefront/status/1', body: null, deliveryId: 'elsewhere', signingSecrets: [otherSecret] }, options);
    assert.equal(networkCalls, 1);
    assert.match(elsewhere.error ?? '', /would send to https:\/\/partner\.example/);
  });

  it('has orders in every state, as the v1 API shows them', async () => {
    const bearer = { authorization: `Bearer ${sandbox.summary.sellerToken.accessToken}` };
    const states = Object.fromEntries(sandbox.orders.map((o) => [o.state, o.orderNumber]));
    assert.deepEqual(Object.keys(states).sort(), ['backordered', 'partly shipped', 'refunded', 'returned', 'shipped', 'to ship']);
    const get = async (orderNumber: string) => {
      const res = await t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer });
      assert.equal(res.statusCode, 200, res.body);
      return res.json<{ status: string; customerName: string; products: { sku: string; title: string; quantity: number; shippedQuantity: number; unitPrice: number; routing_info: { warehouseId: number; quantity: number }[] }[] }>();
    };
    const expected: Record<string, string> = {
      'to ship': 'PENDING',
      backordered: 'PENDING',
      'partly shipped': 'PARTIALLY_SHIPPED',
      shipped: 'SHIPPED',
      returned: 'RETURNED',
      refunded: 'REFUNDED',
    };
    for (const [state, status] of Object.entries(expected)) {
      const order = await get(states[state]!);
      assert.equal(order.status, status, state);
      assert.ok(order.customerName, state);
      assert.ok(order.products.every((p) => p.title && p.unitPrice > 0), `${state}: lines have titles and prices`);
    }
    // The backordered order waits for units Main does not have: none on hand, all of them routed there.
    const kettle = (await get(states.backordered!)).products[0]!;
    const main = sandbox.summary.warehouses.find((w) => w.key === 'main')!.warehouseId;
    assert.deepEqual(kettle.routing_info.map((r) => [r.warehouseId, r.quantity]), [[main, 2]]);
    const stock = await t.app.inject({ url: `/v1/inventory/SANDBOX-KETTLE`, headers: bearer });
    assert.equal(stock.statusCode, 200, stock.body);
    assert.equal(stock.json<{ totalAvailableQuantity: number }>().totalAvailableQuantity, 0);
    // The returned teapot was received back into Main: its 8 units are all there again.
    const teapot = await t.app.inject({ url: `/v1/inventory/SANDBOX-TEAPOT`, headers: bearer });
    assert.equal(teapot.json<{ totalAvailableQuantity: number }>().totalAvailableQuantity, 8);
    // The status filter finds them too.
    const list = await t.app.inject({ url: '/v1/salesOrder?status=RETURNED,REFUNDED', headers: bearer });
    assert.equal(list.statusCode, 200, list.body);
    assert.equal(list.json<{ results: unknown[] }>().results.length, 2);
  });

  it('fills the console\'s order tabs', async () => {
    const tab = async (name: string) => {
      const page = await b.get(`/console/orders?tab=${name}`);
      assert.equal(page.statusCode, 200);
      return ['SB-1001', 'SB-1002', 'SB-1003', 'SB-1004', 'SB-1005', 'SB-1006'].filter((id) => page.body.includes(id));
    };
    assert.deepEqual(await tab('to-ship'), ['SB-1001', 'SB-1002', 'SB-1003']);
    assert.deepEqual(await tab('backordered'), ['SB-1002']);
    assert.deepEqual(await tab('shipped'), ['SB-1004']);
    assert.deepEqual(await tab('returns'), ['SB-1005', 'SB-1006']);
  });

  it('has products with titles, brands and prices in the catalog', async () => {
    const page = await b.get('/console/catalog');
    assert.equal(page.statusCode, 200);
    for (const text of ['Cast-iron teapot, 800 ml', 'Gooseneck kettle, 1 l', 'Brewline', 'Stoneware mug, 350 ml, blue']) assert.ok(page.body.includes(text), text);
    assert.match(page.body, /\$39\.00/);
  });
});
