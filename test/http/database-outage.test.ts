import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { withTx } from '../../src/db/tx.js';
import { migrateToLatest } from '../../src/db/migrations/index.js';
import { createDeps, createLogger } from '../../src/create-deps.js';
import { enqueueJob } from '../../src/db/outbox.js';
import { JobRegistry } from '../../src/jobs/registry.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { createSigner } from '../../src/lib/signer.js';
import { testConfig, type TestApp } from '../helpers/app.js';
import { seedAccount, bearer, type SeededAccount } from '../helpers/fixtures.js';
import { postgresBinDir, startPrivateCluster, type PrivateCluster } from '../helpers/pg-cluster.js';

/**
 * Resolutions §7 "Operation": while the database is unreachable API routes answer 503 (with the version's
 * body and Retry-After), /readyz 503, the process stays up and recovers by itself. Runs against a private
 * cluster this file stops and starts (never the shared one other files use).
 */
const bin = postgresBinDir();
const skip = !process.env.TEST_DATABASE_URL
  ? 'PostgreSQL only (run with scripts/ci-postgres.sh)'
  : !bin
    ? 'PostgreSQL binaries not found under /usr/lib/postgresql'
    : false;

describe('PostgreSQL outage: the service answers 503 and recovers by itself', { skip, timeout: 120_000 }, () => {
  let cluster: PrivateCluster;
  let t: TestApp;
  let seed: SeededAccount;
  let worker: JobWorker;
  const ran: number[] = [];
  const connectionErrors: string[] = [];

  before(async () => {
    cluster = await startPrivateCluster(bin as string);
    const config = testConfig({ databaseUrl: cluster.url, pgPoolSize: 4 });
    // The service log at warn: dropped connections are reported there (and must not end the process).
    const logDestination = { write: (line: string) => void connectionErrors.push(...(/database connection lost/.test(line) ? [line] : [])) };
    const deps = createDeps(config, {
      log: createLogger({ logLevel: 'warn' }, logDestination),
      signer: createSigner('test-server-secret-0123456789abcdef0123456789'),
      rateLimiter: null,
    });
    await migrateToLatest(deps.db.db as unknown as Kysely<unknown>, deps.db.dialect);
    const app = await buildApp(deps);
    t = { app, deps, close: async () => {} };
    seed = await seedAccount(t);
    const registry = new JobRegistry().register('test.outage', async (_deps, job) => void ran.push(job.id));
    worker = new JobWorker(deps, { registry, schedules: [], pollMs: 20 });
    worker.start();
  });

  after(async () => {
    await worker?.stop();
    await t?.app.close();
    await t?.deps.db.close();
    cluster?.destroy();
  });

  const getV1 = () => t.app.inject({ url: '/v1/warehouses', headers: { authorization: seed.sellerToken } });
  const postV1 = (n: number) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/inventory',
      headers: { authorization: seed.sellerToken, 'content-type': 'application/json' },
      payload: { products: [{ SKU: 'OUTAGE-1', warehouseId: seed.warehouses.main, delta_quantity: n }] },
    });
  const getV2 = () => t.app.inject({ url: '/v2/inventory', headers: bearer(seed.inventory.token) });

  async function terminateSessions(statement = 'select pg_terminate_backend(pid) from pg_stat_activity where pid <> pg_backend_pid() and datname = current_database() and backend_type = \'client backend\'') {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    try {
      return (await admin.query(statement)).rowCount ?? 0;
    } finally {
      await admin.end();
    }
  }

  it('survives pg_terminate_backend of its idle connections; the next request succeeds', async () => {
    assert.equal((await getV1()).statusCode, 200);
    assert.equal((await postV1(1)).statusCode, 200);
    assert.ok((await terminateSessions()) > 0, 'the pool held idle connections');
    // Let the dropped connections' error events arrive: without a listener they end the process.
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(connectionErrors.length > 0, 'the dropped connections were logged');
    const res = await getV1();
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await postV1(1)).statusCode, 200);
  });

  it('a connection dropped inside a transaction fails that transaction only (no crash, no unhandled rejection)', async () => {
    let release!: () => void;
    const paused = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const inside = new Promise<void>((r) => (started = r));
    const tx = withTx(t.deps.db.db, async (trx) => {
      await trx.selectFrom('accounts').select('id').execute();
      started();
      // Between two statements, the client is checked out and idle: its error event has no pool listener.
      await paused;
      return trx.selectFrom('accounts').select('id').execute();
    });
    const outcome = tx.then(
      () => 'committed',
      (error: unknown) => error,
    );
    await inside;
    await terminateSessions(
      "select pg_terminate_backend(pid) from pg_stat_activity where pid <> pg_backend_pid() and datname = current_database() and state = 'idle in transaction'",
    );
    await new Promise((r) => setTimeout(r, 200));
    release();
    const result = await outcome;
    assert.notEqual(result, 'committed');
    assert.equal((await getV1()).statusCode, 200);
  });

  it('while the database is down: 503 with the version body and Retry-After, /readyz 503; then recovers', async () => {
    cluster.stop();
    try {
      const v1 = await getV1();
      assert.equal(v1.statusCode, 503, v1.body);
      assert.equal(v1.headers['retry-after'], '5');
      const body = v1.json();
      assert.equal(body.errorCode, 503);
      assert.equal(body.referenceId, v1.headers['x-request-id']);
      assert.equal(typeof body.errorMessage, 'string');
      assert.deepEqual(body.errorMessages, [body.errorMessage]);
      assert.doesNotMatch(v1.body, /ECONNREFUSED|terminat|postgres/i, 'no internal detail');

      const write = await postV1(5);
      assert.equal(write.statusCode, 503, write.body);
      assert.equal(write.headers['retry-after'], '5');

      const v2 = await getV2();
      assert.equal(v2.statusCode, 503, v2.body);
      assert.equal(v2.headers['retry-after'], '5');
      assert.deepEqual(Object.keys(v2.json()).sort(), ['code', 'details', 'message']);
      assert.equal(v2.json().code, 14);
      assert.deepEqual(v2.json().details, []);

      const ready = await t.app.inject({ url: '/readyz' });
      assert.equal(ready.statusCode, 503);
      assert.deepEqual(ready.json(), { status: 'unavailable', database: 'postgres' });
      assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200);
      // The worker keeps polling (backing off) instead of dying.
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      cluster.start();
    }

    const ready = await t.app.inject({ url: '/readyz' });
    assert.equal(ready.statusCode, 200, ready.body);
    assert.equal((await getV1()).statusCode, 200);
    const write = await postV1(2);
    assert.equal(write.statusCode, 200, write.body);
    assert.equal(write.json().results[0].success, true);
    assert.equal((await getV2()).statusCode, 200);

    // The job worker picks up work again by itself (its backoff is at most a few seconds here).
    const jobId = await enqueueJob(t.deps.db.db, { type: 'test.outage', payload: {} }, t.deps.clock.now());
    const deadline = Date.now() + 40_000;
    while (!ran.includes(jobId as number)) {
      assert.ok(Date.now() < deadline, 'the worker ran a job after the database came back');
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});
