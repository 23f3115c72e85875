import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { buildApp } from '../../src/app.js';
import { DELIVER_CALLBACK } from '../../src/domain/callbacks/deliveries.js';
import { createDeps, createLogger } from '../../src/create-deps.js';
import type { Deps } from '../../src/deps.js';
import type { App } from '../../src/http/types.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { admin } from '../helpers/admin.js';
import { ADMIN_TOKEN, createSchemaAndMigrate, testConfig, withSchemaLock, type TestApp } from '../helpers/app.js';
import { startReceiver } from '../helpers/callback-receiver.js';
import { REDIRECT_URI } from '../helpers/fixtures.js';
import { mainCommand } from '../helpers/main-command.js';
import { REPO_ROOT } from '../helpers/repo-root.js';

/**
 * A worker SIGKILLed while a partner holds its callback open loses nothing: once the job's lease expires,
 * another worker sends the same delivery again (same X-Service-Delivery-Id) and it succeeds. The killed
 * worker is a real child process (`src/main.ts worker`); SQLite in a temporary DATA_DIR, or a fresh schema
 * on TEST_DATABASE_URL in the PostgreSQL run.
 */
const SERVER_SECRET = 'callback-crash-server-secret-0123456789abcdef';
const root = REPO_ROOT;

describe('callbacks: a worker killed mid-delivery', { timeout: 120_000 }, () => {
  const pgUrl = process.env.TEST_DATABASE_URL;
  const schema = `t_cbcrash_${randomBytes(5).toString('hex')}`;
  let dataDir: string;
  let deps: Deps;
  let app: App;
  let child: ChildProcess | null = null;
  let databaseUrl: string | null;

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'callback-crash-'));
    databaseUrl = pgUrl ? `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}` : null;
    // The same SERVER_SECRET as the child: both must unseal the app's signing secret.
    deps = createDeps(testConfig({ dataDir, databaseUrl, pgPoolSize: 4, serverSecret: SERVER_SECRET }), { log: createLogger({ logLevel: 'silent' }), rateLimiter: null });
    await createSchemaAndMigrate(pgUrl, schema, deps.db.db as unknown as Kysely<unknown>, deps.db.dialect);
    app = await buildApp(deps);
  });

  after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await app?.close();
    await deps?.db.close();
    if (pgUrl) await withSchemaLock(pgUrl, 'exclusive', async (a) => void (await a.query(`drop schema if exists ${schema} cascade`)));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('retries the same delivery after the lease expires, and it arrives again with the same id', async () => {
    const t: TestApp = { app, deps, close: async () => {} };
    let secret = '';
    const receiver = await startReceiver({ secrets: () => [secret], now: () => new Date() });
    try {
      let arrived: () => void = () => {};
      const firstArrived = new Promise<void>((resolve) => (arrived = resolve));
      // The first call is held open (the partner is slow) and the worker is killed meanwhile.
      receiver.setRespond((_r, index) => {
        if (index === 0) {
          arrived();
          return { status: 200, body: '{}', hold: true };
        }
        return { status: 200, body: '{}' };
      });
      const accountId = ((await admin(t, 'POST', '/admin/accounts', { name: 'Crash' })).json() as { accountId: number }).accountId;
      const reg = await admin(t, 'POST', '/admin/apps', {
        name: 'Channel', contactEmail: 'dev@partner.example', redirectUri: REDIRECT_URI, kind: 'SALES_CHANNEL', scopes: ['listing:self'], callbackBaseUrl: receiver.baseUrl,
      });
      assert.equal(reg.statusCode, 201, reg.body);
      const { appId, callbackSigningSecret } = reg.json() as { appId: number; callbackSigningSecret: string };
      secret = callbackSigningSecret;
      const installed = (await admin(t, 'POST', `/admin/accounts/${accountId}/installations`, { appId })).json() as { storefrontId: number };
      const res = await admin(t, 'POST', `/admin/accounts/${accountId}/storefronts/${installed.storefrontId}/ingestion-request`);
      assert.equal(res.statusCode, 202, res.body);
      const { deliveryId } = res.json() as { deliveryId: string };

      child = spawn(process.execPath, mainCommand(['worker']), {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATA_DIR: dataDir,
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
          ADMIN_TOKEN,
          SERVER_SECRET,
          RATE_LIMIT_RPS: '0',
          LOG_LEVEL: 'silent',
          CALLBACKS_ALLOW_PRIVATE: 'true',
        },
        stdio: 'ignore',
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child!.once('exit', (_code, signal) => resolve(signal)));
      await firstArrived;
      child.kill('SIGKILL');
      assert.equal(await exited, 'SIGKILL');

      const job = await deps.db.db.selectFrom('jobs').selectAll().where('type', '=', DELIVER_CALLBACK).executeTakeFirstOrThrow();
      assert.equal(job.status, 'RUNNING', 'the dead worker still holds the lease');
      const pending = await deps.db.db.selectFrom('callback_deliveries').selectAll().where('delivery_id', '=', deliveryId).executeTakeFirstOrThrow();
      assert.equal(pending.state, 'PENDING');
      assert.equal(pending.attempts, 0, 'the interrupted attempt was never recorded');

      // The lease runs out (set in the past rather than waiting five minutes); another worker takes over.
      await deps.db.db.updateTable('jobs').set({ lease_expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', job.id).execute();
      await new JobWorker(deps, { id: 'after-crash', schedules: [] }).runUntilIdle();

      const done = await deps.db.db.selectFrom('callback_deliveries').selectAll().where('delivery_id', '=', deliveryId).executeTakeFirstOrThrow();
      assert.equal(done.state, 'SUCCEEDED', done.last_error ?? '');
      assert.equal(done.attempts, 1);
      assert.equal(receiver.received.length, 2);
      assert.deepEqual(receiver.received.map((r) => [r.deliveryId, r.verified]), [[deliveryId, true], [deliveryId, true]]);
      const finished = await deps.db.db.selectFrom('jobs').select(['status', 'attempts']).where('id', '=', job.id).executeTakeFirstOrThrow();
      assert.deepEqual(finished, { status: 'SUCCEEDED', attempts: 2 });
    } finally {
      await receiver.close();
    }
  });
});
