import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JobWorker } from '../../src/jobs/worker.js';
import { createDelivery } from '../../src/domain/callbacks/deliveries.js';
import { setCallbackBaseUrl } from '../../src/domain/accounts/apps.js';
import { withTx } from '../../src/db/tx.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin, assertV1Error, createAccountVia, exchangeCode, tokenAccepted } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { startReceiver, type Received } from '../helpers/callback-receiver.js';
import { REDIRECT_URI } from '../helpers/fixtures.js';
import { logSink } from '../helpers/log-sink.js';

interface Delivery {
  deliveryId: string;
  accountId: number;
  appId: number;
  storefrontId: number | null;
  kind: string;
  state: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  attemptLog?: { attempt: number; outcome: string; httpStatus: number | null; error: string | null; responseBody: string; url: string }[];
}

describe('operator API: storefront callbacks and the delivery log', () => {
  let t: TestApp;
  const clock = manualClock(new Date('2026-06-01T08:00:00.000Z'));
  let secrets: string[] = [];
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let accountId: number;
  let appId: number;
  let plainAppId: number;
  const client = { id: '', secret: '' };
  const run = () => new JobWorker(t.deps, { id: 'callbacks-test', schedules: [] }).runUntilIdle();
  const delivery = async (id: string) => {
    const res = await admin(t, 'GET', `/admin/deliveries/${id}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Delivery;
  };
  const storefront = async (app = appId) => {
    const res = await admin(t, 'POST', `/admin/accounts/${accountId}/installations`, { appId: app, storefrontName: 'Shop' });
    assert.equal(res.statusCode, 201, res.body);
    const { storefrontId, code } = res.json() as { storefrontId: number; code: string };
    return { storefrontId, code };
  };
  const forStorefront = (id: number) => (r: Received) => r.url.endsWith(`/${id}`) || (r.json as { storefrontId?: string } | null)?.storefrontId === String(id);
  const fromStorefront = (id: number) => receiver.received.filter(forStorefront(id));

  before(async () => {
    t = await createTestApp({ clock });
    receiver = await startReceiver({ secrets: () => secrets, now: () => clock.now() });
    accountId = await createAccountVia(t);
    const reg = await admin(t, 'POST', '/admin/apps', {
      name: 'Channel',
      contactEmail: 'dev@partner.example',
      redirectUri: REDIRECT_URI,
      kind: 'SALES_CHANNEL',
      scopes: ['listing:self', 'sales:orders:self'],
      callbackBaseUrl: receiver.baseUrl,
    });
    assert.equal(reg.statusCode, 201, reg.body);
    const body = reg.json() as { appId: number; callbackSigningSecret: string; clientId: string; clientSecret: string };
    appId = body.appId;
    client.id = body.clientId;
    client.secret = body.clientSecret;
    secrets = [body.callbackSigningSecret];
    const plain = await admin(t, 'POST', '/admin/apps', { name: 'No callbacks', contactEmail: 'a@b.example', redirectUri: REDIRECT_URI, kind: 'SALES_CHANNEL', scopes: ['listing:self'] });
    plainAppId = (plain.json() as { appId: number }).appId;
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  it('queues the initiate-ingestion callback and delivers it signed, to the base path, with its delivery id', async () => {
    const { storefrontId } = await storefront();
    const res = await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/ingestion-request`, { skus: ['SKU-1', 'SKU-2'], autoApplyIngestionPlan: true });
    assert.equal(res.statusCode, 202, res.body);
    const { deliveryId } = res.json() as { deliveryId: string };
    assert.equal(fromStorefront(storefrontId).length, 0, 'nothing is sent before a worker runs');
    assert.equal((await delivery(deliveryId)).state, 'PENDING');
    await run();
    const [got] = fromStorefront(storefrontId);
    assert.ok(got);
    assert.equal(got.method, 'POST');
    assert.equal(got.url, '/cb/ingestion/initiate');
    assert.equal(got.verified, true);
    assert.equal(got.deliveryId, deliveryId);
    assert.deepEqual(got.json, { storefrontId: String(storefrontId), skus: ['SKU-1', 'SKU-2'], autoApplyIngestionPlan: true });
    const d = await delivery(deliveryId);
    assert.equal(d.state, 'SUCCEEDED');
    assert.equal(d.attempts, 1);
    assert.equal(d.attemptLog?.length, 1);
    assert.equal(d.attemptLog?.[0]?.httpStatus, 200);

    // Empty body: all SKUs, no automatic apply.
    const all = await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/ingestion-request`, {});
    assert.equal(all.statusCode, 202, all.body);
    await run();
    assert.deepEqual(fromStorefront(storefrontId).at(-1)?.json, { storefrontId: String(storefrontId), skus: [], autoApplyIngestionPlan: false });
  });

  it('retries a flaky partner on the schedule: fails twice, then succeeds — three attempts, one delivery id', async () => {
    const { storefrontId } = await storefront();
    let calls = 0;
    receiver.setRespond((r) => (forStorefront(storefrontId)(r) && ++calls <= 2 ? { status: 503, body: '{"code":13,"message":"channel API unanswered","details":[]}' } : { status: 200, body: '{}' }));
    const res = await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/ingestion-request`);
    const { deliveryId } = res.json() as { deliveryId: string };
    await run();
    let d = await delivery(deliveryId);
    assert.equal(d.state, 'PENDING');
    assert.equal(d.lastStatus, 503);
    assert.match(d.lastError ?? '', /code 13: channel API unanswered/);
    assert.equal(d.nextAttemptAt, new Date(clock.now().getTime() + 5_000).toISOString());
    clock.advance(4_000);
    await run();
    assert.equal(fromStorefront(storefrontId).length, 1, 'not before 5 s');
    clock.advance(1_000);
    await run();
    d = await delivery(deliveryId);
    assert.equal(d.attempts, 2);
    assert.equal(d.nextAttemptAt, new Date(clock.now().getTime() + 300_000).toISOString());
    clock.advance(300_000);
    await run();
    d = await delivery(deliveryId);
    assert.equal(d.state, 'SUCCEEDED');
    assert.equal(d.attempts, 3);
    assert.deepEqual(d.attemptLog?.map((a) => a.outcome), ['FAILED', 'FAILED', 'SUCCEEDED']);
    const got = fromStorefront(storefrontId);
    assert.equal(got.length, 3);
    assert.deepEqual(new Set(got.map((g) => g.deliveryId)), new Set([deliveryId]));
    receiver.setRespond(() => ({ status: 200, body: '{}' }));
  });

  it('honours a Retry-After on 429 longer than the scheduled delay', async () => {
    const { storefrontId } = await storefront();
    let calls = 0;
    receiver.setRespond((r) => (forStorefront(storefrontId)(r) && ++calls === 1 ? { status: 429, body: '{"code":8,"message":"slow down","details":[]}', headers: { 'retry-after': '120' } } : { status: 200, body: '{}' }));
    const { deliveryId } = (await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/ingestion-request`)).json() as { deliveryId: string };
    await run();
    assert.equal((await delivery(deliveryId)).nextAttemptAt, new Date(clock.now().getTime() + 120_000).toISOString());
    clock.advance(60_000);
    await run();
    assert.equal(fromStorefront(storefrontId).length, 1);
    clock.advance(60_000);
    await run();
    assert.equal((await delivery(deliveryId)).state, 'SUCCEEDED');
    receiver.setRespond(() => ({ status: 200, body: '{}' }));
  });

  it('ends DEAD after the whole schedule (ten attempts), and a replay sends it again with the same id', async () => {
    const { storefrontId } = await storefront();
    let failing = true;
    receiver.setRespond((r) => (failing && forStorefront(storefrontId)(r) ? { status: 500, body: 'oops' } : { status: 200, body: '{}' }));
    const { deliveryId } = (await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/ingestion-request`)).json() as { deliveryId: string };
    for (let i = 0; i < 12; i++) {
      await run();
      clock.advance(86_400_000);
    }
    let d = await delivery(deliveryId);
    assert.equal(d.state, 'DEAD');
    assert.equal(d.attempts, 10);
    assert.equal(fromStorefront(storefrontId).length, 10);
    failing = false;
    const replay = await admin(t, 'POST', `/admin/deliveries/${deliveryId}/replay`);
    assert.equal(replay.statusCode, 202, replay.body);
    assert.equal((replay.json() as Delivery).state, 'PENDING');
    assertV1Error(await admin(t, 'POST', `/admin/deliveries/${deliveryId}/replay`), 409, /PENDING already/);
    await run();
    d = await delivery(deliveryId);
    assert.equal(d.state, 'SUCCEEDED');
    assert.equal(d.attempts, 11);
    assert.equal(fromStorefront(storefrontId).at(-1)?.deliveryId, deliveryId);
    // A SUCCEEDED delivery can be replayed too (the partner lost it).
    assert.equal((await admin(t, 'POST', `/admin/deliveries/${deliveryId}/replay`)).statusCode, 202);
    await run();
    assert.equal((await delivery(deliveryId)).attempts, 12);
    receiver.setRespond(() => ({ status: 200, body: '{}' }));
  });

  it('signs with both secrets during a rotation: either one verifies', async () => {
    const { storefrontId } = await storefront();
    const rotated = await admin(t, 'POST', `/admin/apps/${appId}/rotate-secrets`, { overlapSeconds: 3600 });
    assert.equal(rotated.statusCode, 200, rotated.body);
    const fresh = (rotated.json() as { callbackSigningSecret: string }).callbackSigningSecret;
    client.secret = (rotated.json() as { clientSecret: string }).clientSecret;
    const old = secrets[0]!;
    await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/ingestion-request`);
    secrets = [old];
    await run();
    const got = fromStorefront(storefrontId)[0]!;
    assert.equal(got.signature.split(',').length, 2);
    assert.equal(got.verified, true, 'the old secret verifies');
    secrets = [fresh];
    await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/ingestion-request`);
    await run();
    assert.equal(fromStorefront(storefrontId)[1]!.verified, true, 'the new secret verifies');
    // After the overlap only the new secret signs.
    clock.advance(3_601_000);
    await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/ingestion-request`);
    await run();
    assert.equal(fromStorefront(storefrontId)[2]!.signature.split(',').length, 1);
  });

  it('checks a storefront synchronously: stores and answers the checks, or 502 with the failure; both are logged', async () => {
    const { storefrontId } = await storefront();
    receiver.setRespond((r) =>
      r.url === `/cb/v2/storefront/status/${storefrontId}`
        ? { status: 200, body: JSON.stringify({ checks: [{ name: 'credentials', state: 'CHECK_STATE_PASS', stateShortDescription: 'ok' }, { name: 'feed', state: 2 }] }) }
        : { status: 200, body: '{}' },
    );
    const res = await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/status-check`);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { checks: unknown[]; checkedAt: string; deliveryId: string };
    assert.deepEqual(body.checks, [
      { name: 'credentials', state: 'CHECK_STATE_PASS', stateShortDescription: 'ok', details: '' },
      { name: 'feed', state: 'CHECK_STATE_FAIL', stateShortDescription: '', details: '' },
    ]);
    assert.equal(body.checkedAt, clock.now().toISOString());
    const got = fromStorefront(storefrontId)[0]!;
    assert.equal(got.method, 'GET');
    assert.equal(got.body.length, 0);
    assert.equal(got.verified, true);
    assert.equal((await delivery(body.deliveryId)).state, 'SUCCEEDED');
    const stored = await t.deps.db.db.selectFrom('storefront_status_checks').selectAll().where('storefront_id', '=', storefrontId).executeTakeFirstOrThrow();
    assert.equal(stored.checked_at, body.checkedAt);
    const last = await admin(t, 'GET', `/admin/accounts/${accountId}/storefronts/${storefrontId}/status-check`);
    assert.equal(last.statusCode, 200, last.body);
    assert.deepEqual(last.json(), body);

    receiver.setRespond(() => ({ status: 500, body: '{"code":13,"message":"channel API unanswered","details":[]}' }));
    const failed = await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/status-check`);
    assertV1Error(failed, 502, /HTTP 500: code 13: channel API unanswered/);
    const dead = (await admin(t, 'GET', `/admin/deliveries?storefrontId=${storefrontId}&state=DEAD`)).json() as { results: Delivery[] };
    assert.equal(dead.results.length, 1);
    assert.equal(dead.results[0]!.kind, 'STOREFRONT_STATUS');
    // The failed check leaves the last good one in place.
    assert.deepEqual((await admin(t, 'GET', `/admin/accounts/${accountId}/storefronts/${storefrontId}/status-check`)).json(), body);
    receiver.setRespond(() => ({ status: 200, body: '{}' }));
  });

  it('disconnects a storefront: its token answers 401 at once, then the DELETE configuration arrives', async () => {
    const { storefrontId, code } = await storefront();
    const tokenRes = await exchangeCode(t, client.id, client.secret, code);
    assert.equal(tokenRes.statusCode, 200, tokenRes.body);
    const token = (tokenRes.json() as { access_token: string }).access_token;
    assert.equal(await tokenAccepted(t, token), true);
    const res = await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/disconnect`);
    assert.equal(res.statusCode, 202, res.body);
    const { deliveryId } = res.json() as { deliveryId: string };
    assert.equal(await tokenAccepted(t, token), false);
    assert.equal(fromStorefront(storefrontId).length, 0);
    await run();
    const got = fromStorefront(storefrontId)[0]!;
    assert.equal(got.method, 'DELETE');
    assert.equal(got.url, `/cb/v2/storefront/configuration/${storefrontId}`);
    assert.equal(got.verified, true);
    assert.equal(got.deliveryId, deliveryId);
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/disconnect`), 409, /disconnected/);
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/ingestion-request`), 409, /disconnected/);
  });

  it('refuses triggers for an app without a callback base URL (400) and unknown storefronts (404)', async () => {
    const { storefrontId } = await storefront(plainAppId);
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/ingestion-request`), 400, /callbackBaseUrl/);
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/status-check`), 400, /callbackBaseUrl/);
    assertV1Error(await admin(t, 'GET', `/admin/accounts/${accountId}/storefronts/${storefrontId}/status-check`), 404, /no successful status check/);
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/999999/ingestion-request`), 404);
    const other = await createAccountVia(t, 'Other');
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${other}/storefronts/${storefrontId}/status-check`), 404);
    // Disconnecting still works: nothing to send.
    const res = await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/disconnect`);
    assert.equal(res.statusCode, 202, res.body);
    assert.deepEqual(res.json(), { deliveryId: null });
  });

  it('lets a status check orphaned by a dead process be replayed once surely over; the worker then stores its checks', async () => {
    const { storefrontId } = await storefront();
    // What a process killed mid status-check leaves: the delivery row committed, no job, PENDING.
    const { deliveryId } = await withTx(t.deps.db.db, (tx) =>
      createDelivery(tx, { accountId, appId, storefrontId, kind: 'STOREFRONT_STATUS', method: 'GET', path: `/v2/storefront/status/${storefrontId}`, body: null }, clock.now(), false),
    );
    assertV1Error(await admin(t, 'POST', `/admin/deliveries/${deliveryId}/replay`), 409, /PENDING already/);
    clock.advance(61_000);
    receiver.setRespond(() => ({ status: 200, body: '{"checks":[{"name":"n","state":"CHECK_STATE_WARNING"}]}' }));
    assert.equal((await admin(t, 'POST', `/admin/deliveries/${deliveryId}/replay`)).statusCode, 202);
    await run();
    assert.equal((await delivery(deliveryId)).state, 'SUCCEEDED');
    const last = (await admin(t, 'GET', `/admin/accounts/${accountId}/storefronts/${storefrontId}/status-check`)).json() as { checks: { state: string }[]; deliveryId: string };
    assert.equal(last.deliveryId, deliveryId);
    assert.equal(last.checks[0]!.state, 'CHECK_STATE_WARNING');
    receiver.setRespond(() => ({ status: 200, body: '{}' }));
  });

  it('lists deliveries newest first with filters and keyset pages; unknown ids are 404', async () => {
    const all = (await admin(t, 'GET', `/admin/deliveries?accountId=${accountId}&appId=${appId}`)).json() as { results: Delivery[]; nextCursor: string };
    assert.ok(all.results.length >= 5);
    const seen: string[] = [];
    let cursor = '';
    do {
      const res = await admin(t, 'GET', `/admin/deliveries?accountId=${accountId}&appId=${appId}&pageSize=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json() as { results: Delivery[]; nextCursor: string };
      seen.push(...page.results.map((d) => d.deliveryId));
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, all.results.map((d) => d.deliveryId));
    const succeeded = (await admin(t, 'GET', '/admin/deliveries?state=SUCCEEDED')).json() as { results: Delivery[] };
    assert.ok(succeeded.results.every((d) => d.state === 'SUCCEEDED'));
    const byKind = (await admin(t, 'GET', `/admin/deliveries?accountId=${accountId}&appId=${appId}&kind=INITIATE_INGESTION`)).json() as { results: Delivery[] };
    assert.deepEqual(byKind.results.map((d) => d.deliveryId), all.results.filter((d) => d.kind === 'INITIATE_INGESTION').map((d) => d.deliveryId));
    assert.ok(byKind.results.length > 0);
    assertV1Error(await admin(t, 'GET', '/admin/deliveries?kind=FAX'), 400, /kind/);
    assertV1Error(await admin(t, 'GET', '/admin/deliveries/00000000-0000-4000-8000-000000000000'), 404);
    assertV1Error(await admin(t, 'GET', '/admin/deliveries/nope'), 404);
    assertV1Error(await admin(t, 'GET', '/admin/deliveries?cursor=bad'), 400, /invalid cursor/);
  });
});

describe('operator API: callback base URLs without CALLBACKS_ALLOW_PRIVATE', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ config: { callbacksAllowPrivate: false } });
  });
  after(async () => {
    await t.close();
  });

  it('refuses http, loopback, private and localhost callback base URLs at registration, naming the field', async () => {
    for (const callbackBaseUrl of ['http://partner.example/cb', 'https://127.0.0.1/cb', 'https://localhost/cb', 'https://[::1]/cb', 'https://192.168.1.10/cb', 'https://169.254.169.254/']) {
      const res = await admin(t, 'POST', '/admin/apps', { name: 'X', contactEmail: 'a@b.example', redirectUri: REDIRECT_URI, kind: 'SALES_CHANNEL', scopes: ['listing:self'], callbackBaseUrl });
      assertV1Error(res, 400, /callbackBaseUrl/);
    }
    const app = await admin(t, 'POST', '/admin/apps', { name: 'Z', contactEmail: 'a@b.example', redirectUri: REDIRECT_URI, kind: 'SALES_CHANNEL', scopes: ['listing:self'] });
    const zId = (app.json() as { appId: number }).appId;
    for (const url of ['http://partner.example/cb', 'https://127.0.0.1/cb', 'https://localhost/cb']) {
      await assert.rejects(setCallbackBaseUrl(t.deps.db.db, zId, url, { callbacksAllowPrivate: false }), /callbackBaseUrl/);
    }
    assert.equal((await setCallbackBaseUrl(t.deps.db.db, zId, 'https://partner.example/cb')).callbackBaseUrl, 'https://partner.example/cb');
    const ok = await admin(t, 'POST', '/admin/apps', { name: 'Y', contactEmail: 'a@b.example', redirectUri: REDIRECT_URI, kind: 'SALES_CHANNEL', scopes: ['listing:self'], callbackBaseUrl: 'https://partner.example/cb' });
    assert.equal(ok.statusCode, 201, ok.body);
  });
});

describe('callbacks: secrets never reach the log', () => {
  it('logs neither the signing secret nor the signature of a failing delivery', async () => {
    const { lines, sink } = logSink();
    const t = await createTestApp({ logDestination: sink });
    const receiver = await startReceiver({ secrets: () => [], now: () => new Date() });
    try {
      const accountId = await createAccountVia(t);
      const reg = await admin(t, 'POST', '/admin/apps', { name: 'C', contactEmail: 'a@b.example', redirectUri: REDIRECT_URI, kind: 'SALES_CHANNEL', scopes: ['listing:self'], callbackBaseUrl: receiver.baseUrl });
      const { appId, callbackSigningSecret } = reg.json() as { appId: number; callbackSigningSecret: string };
      const { storefrontId } = (await admin(t, 'POST', `/admin/accounts/${accountId}/installations`, { appId })).json() as { storefrontId: number };
      await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/ingestion-request`);
      await new JobWorker(t.deps, { schedules: [] }).runUntilIdle();
      assert.equal(receiver.received.length, 1);
      assert.equal(receiver.received[0]!.verified, false, 'the receiver holds no secret: 401');
      const log = lines.join('');
      assert.ok(log.length > 0);
      assert.ok(!log.includes(callbackSigningSecret));
      assert.ok(!log.includes(receiver.received[0]!.signature.slice(3)));
    } finally {
      await receiver.close();
      await t.close();
    }
  });
});
