import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withTx } from '../../src/db/tx.js';
import { issueAdHocToken } from '../../src/domain/accounts/oauth.js';
import { DELIVER_CALLBACK } from '../../src/domain/callbacks/deliveries.js';
import { enqueueJob } from '../../src/db/outbox.js';
import { manualClock } from '../../src/lib/clock.js';
import { startMetricsServer, type MetricsServer } from '../../src/http/metrics.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { admin, adminHeaders, assertV1Error, createAccountVia } from '../helpers/admin.js';
import { startReceiver } from '../helpers/callback-receiver.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, REDIRECT_URI, seedAccount, type SeededAccount } from '../helpers/fixtures.js';

/** The value of one sample of the text format, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = new Map([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
    if (Object.entries(labels).every(([k, v]) => found.get(k) === v)) return Number(match[3]);
  }
  return undefined;
}

describe('/metrics (Prometheus, on the API port)', () => {
  const clock = manualClock(new Date('2026-07-01T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;

  const scrape = async (): Promise<string> => {
    const res = await t.app.inject({ url: '/metrics', headers: adminHeaders });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  before(async () => {
    t = await createTestApp({ clock, rateLimit: { rps: 1, burst: 2 } });
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  it('refuses a caller without the admin token, like /admin', async () => {
    assertV1Error(await t.app.inject({ url: '/metrics' }), 401);
    assertV1Error(await t.app.inject({ url: '/metrics', headers: bearer('not-the-admin-token-at-all') }), 401);
    assertV1Error(await t.app.inject({ url: '/metrics', headers: bearer(seed.sellerToken) }), 401);
  });

  it('counts requests by route template and status, never by raw URL; 404s as "unmatched"', async () => {
    for (const id of [seed.accountId, 999_999]) {
      await t.app.inject({ url: `/admin/accounts/${id}`, headers: adminHeaders });
    }
    assert.equal((await t.app.inject({ url: '/no/such/page/12345' })).statusCode, 404);
    const text = await scrape();
    const labels = { method: 'GET', route: '/admin/accounts/:accountId' };
    assert.equal(sample(text, 'http_requests_total', { ...labels, status: '200' }), 1);
    assert.equal(sample(text, 'http_requests_total', { ...labels, status: '404' }), 1);
    assert.equal(sample(text, 'http_request_duration_seconds_count', { ...labels, status: '200' }), 1);
    assert.ok(sample(text, 'http_request_duration_seconds_bucket', { ...labels, status: '200', le: '+Inf' }) === 1);
    assert.equal(sample(text, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }), 1);
    assert.doesNotMatch(text, /route="[^"]*(999999|12345)/);
    // The refused scrapes of the test before are counted too.
    assert.ok((sample(text, 'http_requests_total', { method: 'GET', route: '/metrics', status: '401' }) ?? 0) >= 3);
    // Process metrics come from prom-client's defaults, on this app's own registry.
    assert.ok(sample(text, 'process_cpu_user_seconds_total') !== undefined);
    assert.ok(sample(text, 'nodejs_eventloop_lag_seconds') !== undefined);
  });

  it('shows the job queue by type: due, scheduled, running, the oldest due age and dead jobs', async () => {
    const db = t.deps.db.db;
    const now = clock.now();
    const add = async (type: string, runAt: Date) => (await enqueueJob(db, { type, payload: {}, runAt }, now))!;
    await add('test.metrics', new Date(now.getTime() - 90_000));
    await add('test.metrics', new Date(now.getTime() - 30_000));
    await add('test.metrics', new Date(now.getTime() + 60_000));
    const running = await add('test.metrics', now);
    const dead = await add('test.other', now);
    await db.updateTable('jobs').set({ status: 'RUNNING' }).where('id', '=', running).execute();
    await db.updateTable('jobs').set({ status: 'DEAD', finished_at: now.toISOString() }).where('id', '=', dead).execute();

    const text = await scrape();
    assert.equal(sample(text, 'jobs_queue_depth', { type: 'test.metrics', status: 'due' }), 2);
    assert.equal(sample(text, 'jobs_queue_depth', { type: 'test.metrics', status: 'scheduled' }), 1);
    assert.equal(sample(text, 'jobs_queue_depth', { type: 'test.metrics', status: 'running' }), 1);
    assert.equal(sample(text, 'jobs_oldest_due_age_seconds', { type: 'test.metrics' }), 90);
    assert.equal(sample(text, 'jobs_dead', { type: 'test.other' }), 1);
    assert.equal(sample(text, 'jobs_dead', { type: 'test.metrics' }), 0);
    // The service's own types are listed at zero rather than missing.
    assert.equal(sample(text, 'jobs_dead', { type: DELIVER_CALLBACK }), 0);
    assert.equal(sample(text, 'jobs_queue_depth', { type: DELIVER_CALLBACK, status: 'due' }), 0);
  });

  it('counts callback deliveries by state (PENDING and DEAD)', async () => {
    const db = t.deps.db.db;
    const app = await db.selectFrom('apps').select('id').orderBy('id').executeTakeFirstOrThrow();
    const iso = clock.now().toISOString();
    const states = ['PENDING', 'PENDING', 'PENDING', 'DEAD', 'SUCCEEDED'];
    await db
      .insertInto('callback_deliveries')
      .values(
        states.map((state, i) => ({
          delivery_id: `metrics-${i}`,
          account_id: seed.accountId,
          app_id: app.id,
          kind: 'NUDGE',
          method: 'POST',
          path: '/nudge',
          body: '{}',
          state,
          attempts: 0,
          round_start: 0,
          created_at: iso,
          updated_at: iso,
        })),
      )
      .execute();
    const text = await scrape();
    assert.equal(sample(text, 'callback_deliveries', { state: 'PENDING' }), 3);
    assert.equal(sample(text, 'callback_deliveries', { state: 'DEAD' }), 1);
    assert.equal(sample(text, 'callback_deliveries', { state: 'SUCCEEDED' }), undefined);
  });

  it('counts requests refused by the rate limit', async () => {
    const { accessToken } = await issueAdHocToken(t.deps.db.db, seed.accountId, ['legacy'], clock.now());
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.app.inject({ url: '/v1/warehouses', headers: bearer(accessToken) })).statusCode);
    assert.deepEqual(statuses, [200, 200, 429, 429]);
    const text = await scrape();
    assert.equal(sample(text, 'rate_limit_refusals_total'), 2);
    assert.equal(sample(text, 'http_requests_total', { method: 'GET', route: '/v1/warehouses', status: '429' }), 2);
  });

  it('exports the PostgreSQL pool, and on SQLite its COMMITs and the transactions they carried instead', async () => {
    const text = await scrape();
    if (t.deps.db.dialect === 'postgres') {
      const total = sample(text, 'db_pool_connections', { state: 'total' });
      assert.ok(total !== undefined && total >= 1, text);
      assert.ok(sample(text, 'db_pool_connections', { state: 'idle' }) !== undefined);
      assert.equal(sample(text, 'db_pool_connections', { state: 'waiting' }), 0);
      assert.equal(sample(text, 'sqlite_commits_total'), undefined);
    } else {
      assert.equal(sample(text, 'db_pool_connections', { state: 'total' }), undefined);
      const commits = sample(text, 'sqlite_commits_total')!;
      const transactions = sample(text, 'sqlite_committed_transactions_total')!;
      // Ten transactions at once share COMMITs.
      await Promise.all(Array.from({ length: 10 }, () => withTx(t.deps.db.db, (tx) => issueAdHocToken(tx, seed.accountId, ['legacy'], clock.now()))));
      const after = await scrape();
      assert.equal(sample(after, 'sqlite_committed_transactions_total')! - transactions, 10);
      assert.ok(sample(after, 'sqlite_commits_total')! - commits < 10, after);
    }
  });

  it('is documented for operators, not in the partner sections of the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<string, { get?: { tags?: string[]; security?: unknown[] } }>;
    };
    const op = doc.paths['/metrics']?.get;
    assert.deepEqual(op?.tags, ['operations']);
    assert.deepEqual(op?.security, [{ operatorToken: [] }]);
  });
});

describe('/metrics on METRICS_PORT', () => {
  let t: TestApp;
  let server: MetricsServer;

  before(async () => {
    t = await createTestApp({ config: { metricsPort: 0, metricsHost: '127.0.0.1' } });
    server = await startMetricsServer(t.deps, 0, '127.0.0.1');
  });
  after(async () => {
    await server.close();
    await t.close();
  });

  it('serves the metrics there without a token, and the API port has no /metrics', async () => {
    assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200);
    const api = await t.app.inject({ url: '/metrics', headers: adminHeaders });
    assert.equal(api.statusCode, 404, api.body);

    assert.ok(server.port > 0);
    const res = await fetch(server.url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    assert.equal(sample(text, 'http_requests_total', { method: 'GET', route: '/healthz', status: '200' }), 1);
    assert.equal(sample(text, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }), 1);

    const elsewhere = await fetch(`http://127.0.0.1:${server.port}/admin/accounts`);
    assert.equal(elsewhere.status, 404);
    await elsewhere.body?.cancel();
  });
});

describe('callback_delivery_attempts_total (this process\'s worker)', () => {
  const clock = manualClock(new Date('2026-07-01T12:00:00.000Z'));
  let t: TestApp;
  let secrets: string[] = [];
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    t = await createTestApp({ clock });
    receiver = await startReceiver({ secrets: () => secrets, now: () => clock.now() });
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  it('counts a delivered callback as SUCCEEDED, and the delivery leaves the PENDING gauge', async () => {
    const accountId = await createAccountVia(t);
    const reg = await admin(t, 'POST', '/admin/apps', {
      name: 'Channel',
      contactEmail: 'dev@partner.example',
      redirectUri: REDIRECT_URI,
      kind: 'SALES_CHANNEL',
      scopes: ['listing:self'],
      callbackBaseUrl: receiver.baseUrl,
    });
    assert.equal(reg.statusCode, 201, reg.body);
    const { appId, callbackSigningSecret } = reg.json() as { appId: number; callbackSigningSecret: string };
    secrets = [callbackSigningSecret];
    const install = await admin(t, 'POST', `/admin/accounts/${accountId}/installations`, { appId, storefrontName: 'Shop' });
    const { storefrontId } = install.json() as { storefrontId: number };
    const requested = await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${storefrontId}/ingestion-request`, {});
    assert.equal(requested.statusCode, 202, requested.body);

    const before = (await admin(t, 'GET', '/metrics')).body;
    assert.equal(sample(before, 'callback_deliveries', { state: 'PENDING' }), 1);
    await new JobWorker(t.deps, { id: 'metrics-test', schedules: [] }).runUntilIdle();
    assert.equal(receiver.received.length, 1);
    const text = (await admin(t, 'GET', '/metrics')).body;
    assert.equal(sample(text, 'callback_delivery_attempts_total', { result: 'SUCCEEDED' }), 1);
    assert.equal(sample(text, 'callback_deliveries', { state: 'PENDING' }), 0);
  });
});
