// The service signs (its real sender and delivery job) and the partner client verifies (verifyCallback, inside
// the partner-sim server): two implementations of 5.5 that must agree, as a partner's code would see them.
import path from 'node:path';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { verifyCallback } from '@mcs/partner-client';
import { startPartnerSim, DEFAULT_CHECKS, type PartnerSim } from '../../src/cli/partner-sim-server.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin, createAccountVia } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { REDIRECT_URI } from '../helpers/fixtures.js';
import { REPO_ROOT } from '../helpers/repo-root.js';

interface Delivery {
  state: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  attemptLog?: { httpStatus: number | null; outcome: string }[];
}

describe('callbacks: the service signs, the partner client verifies (partner-sim)', () => {
  let t: TestApp;
  let sim: PartnerSim;
  let secret = '';
  let accountId: number;
  let appId: number;
  const clock = manualClock(new Date('2026-06-01T08:00:00.000Z'));
  const run = () => new JobWorker(t.deps, { id: 'cross-check', schedules: [] }).runUntilIdle();
  const delivery = async (id: string) => (await admin(t, 'GET', `/admin/deliveries/${id}`)).json() as Delivery;
  const storefront = async () => {
    const res = await admin(t, 'POST', `/admin/accounts/${accountId}/installations`, { appId, storefrontName: 'Sim shop' });
    assert.equal(res.statusCode, 201, res.body);
    return (res.json() as { storefrontId: number }).storefrontId;
  };
  const callsFor = (deliveryId: string) => sim.calls.filter((c) => c.deliveryId === deliveryId);

  before(async () => {
    t = await createTestApp({ clock });
    // Secrets are set once the app is registered (the sim refuses to start without one).
    sim = await startPartnerSim({ secrets: ['placeholder'], basePath: '/partner', now: () => clock.now() });
    accountId = await createAccountVia(t);
    const reg = await admin(t, 'POST', '/admin/apps', {
      name: 'Sim channel',
      contactEmail: 'dev@sim.example',
      redirectUri: REDIRECT_URI,
      kind: 'SALES_CHANNEL',
      scopes: ['listing:self'],
      callbackBaseUrl: sim.callbackBaseUrl,
    });
    assert.equal(reg.statusCode, 201, reg.body);
    ({ appId, callbackSigningSecret: secret } = reg.json() as { appId: number; callbackSigningSecret: string });
    sim.setSecrets([secret]);
  });
  after(async () => {
    await sim.close();
    await t.close();
  });

  it('answers a status check through the sim with its checks, verified', async () => {
    const storefrontId = await storefront();
    const res = await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/status-check`);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { checks: unknown[]; deliveryId: string };
    assert.deepEqual(body.checks, DEFAULT_CHECKS);
    const [call] = callsFor(body.deliveryId);
    assert.ok(call);
    assert.equal(call.url, `/partner/v2/storefront/status/${storefrontId}`);
    assert.equal(call.kind, 'storefront-status');
    assert.equal(call.verified, true);
  });

  it('delivers an ingestion request through the worker, verified, with its body', async () => {
    const storefrontId = await storefront();
    const res = await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/ingestion-request`, { skus: ['A-1'], autoApplyIngestionPlan: true });
    assert.equal(res.statusCode, 202, res.body);
    const { deliveryId } = res.json() as { deliveryId: string };
    await run();
    const [call] = callsFor(deliveryId);
    assert.ok(call);
    assert.equal(call.kind, 'ingestion-initiate');
    assert.equal(call.verified, true);
    assert.deepEqual(call.json, { storefrontId: String(storefrontId), skus: ['A-1'], autoApplyIngestionPlan: true });
    assert.equal((await delivery(deliveryId)).state, 'SUCCEEDED');
  });

  it('with a wrong secret in the sim: 401, retried on the schedule with the same id, then delivered', async () => {
    const storefrontId = await storefront();
    sim.setSecrets(['not-the-apps-secret']);
    try {
      const { deliveryId } = (await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/ingestion-request`)).json() as { deliveryId: string };
      await run();
      let d = await delivery(deliveryId);
      assert.equal(d.state, 'PENDING');
      assert.equal(d.lastStatus, 401);
      assert.equal(d.nextAttemptAt, new Date(clock.now().getTime() + 5_000).toISOString(), 'the first retry is 5 s later');
      assert.equal(callsFor(deliveryId)[0]?.rejection, 'signature-mismatch');
      clock.advance(5_000);
      await run();
      d = await delivery(deliveryId);
      assert.equal(d.attempts, 2);
      assert.equal(d.nextAttemptAt, new Date(clock.now().getTime() + 300_000).toISOString(), 'then 5 min');
      // The partner deploys the right secret: the next try (same delivery id, fresh signature) verifies.
      sim.setSecrets([secret]);
      clock.advance(300_000);
      await run();
      d = await delivery(deliveryId);
      assert.equal(d.state, 'SUCCEEDED');
      assert.deepEqual(d.attemptLog?.map((a) => a.httpStatus), [401, 401, 200]);
      assert.deepEqual(callsFor(deliveryId).map((c) => c.verified), [false, false, true]);
    } finally {
      sim.setSecrets([secret]);
    }
  });
});

describe('callbacks: the published test vectors verify with the partner client', () => {
  const doc = readFileSync(path.join(REPO_ROOT, 'docs/partners/callbacks.md'), 'utf8');
  const timestamp = /^Timestamp `(\d+)`/m.exec(doc)?.[1];
  const defaultSecret = /signing secret `([^`]+)` unless said/.exec(doc)?.[1];
  // | METHOD [(secret `…`)] | `path` | `body` or (none) | `v1=…` |
  const rows = [...doc.matchAll(/^\| (POST|GET|DELETE)(?: \(secret `([^`]+)`\))? \| `([^`]+)` \| (?:`([^`]*)`|\(none\)) \| `v1=([0-9a-f]{64})` \|$/gm)];

  it('finds the vectors in the partner guide', () => {
    assert.ok(timestamp && defaultSecret);
    assert.equal(rows.length, 4);
  });

  it('verifies every vector at its timestamp, and rejects it under another secret', () => {
    for (const [, method, secret, path, body, signature] of rows) {
      const input = {
        headers: { 'X-Service-Timestamp': timestamp!, 'X-Service-Signature': `v1=${signature!}` },
        method: method!,
        pathWithQuery: path!,
        rawBody: body ?? '',
        now: new Date(Number(timestamp) * 1000),
      };
      assert.deepEqual(verifyCallback({ ...input, secret: secret ?? defaultSecret! }), { ok: true, timestamp: Number(timestamp) }, `${method} ${path}`);
      assert.deepEqual(verifyCallback({ ...input, secret: 'another-secret' }), { ok: false, reason: 'signature-mismatch' });
    }
  });

  it('verifies the rotation example with either secret', () => {
    const get = rows.filter((r) => r[1] === 'GET' && r[3]!.includes('/status/'));
    assert.equal(get.length, 2);
    const header = `v1=${get.find((r) => r[2])![5]!},v1=${get.find((r) => !r[2])![5]!}`;
    for (const secret of ['mcs-test-vector-secret-0001', 'mcs-test-vector-secret-0002']) {
      const result = verifyCallback({ secret, headers: { 'x-service-timestamp': timestamp!, 'x-service-signature': header }, method: 'GET', pathWithQuery: get[0]![3]!, now: new Date(Number(timestamp) * 1000) });
      assert.equal(result.ok, true, secret);
    }
  });
});
