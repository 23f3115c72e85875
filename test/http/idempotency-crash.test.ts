import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { buildApp } from '../../src/app.js';
import { createDeps, createLogger } from '../../src/create-deps.js';
import type { Deps } from '../../src/deps.js';
import { ADMIN_TOKEN, createSchemaAndMigrate, testConfig, withSchemaLock, type TestApp } from '../helpers/app.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { mainCommand } from '../helpers/main-command.js';
import { REPO_ROOT } from '../helpers/repo-root.js';

/**
 * Issue 8 item 3: a process killed between an effect's commit and the storing of its response must not
 * let a retry with the same Idempotency-Key apply the effect again. The service runs as a child process;
 * a test-only preload (test/fixtures/crash-after-commit.ts) SIGKILLs it right after the first commit of the
 * keyed request. SQLite in a temporary DATA_DIR, or a fresh schema on TEST_DATABASE_URL in the PostgreSQL run.
 */
const SERVER_SECRET = 'crash-test-server-secret-0123456789abcdef0123';
const root = REPO_ROOT;

interface Service {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startService(env: NodeJS.ProcessEnv, crashAfterCommit: boolean): Promise<Service> {
  const args = mainCommand(['serve'], crashAfterCommit ? ['./test/fixtures/crash-after-commit.ts'] : []);
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in time:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, baseUrl: match[1]!, exited });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`service exited before listening (${code ?? signal}):\n${output}`));
    });
  });
}

describe('Idempotency-Key: a crash after the effect committed does not apply it twice', { timeout: 180_000 }, () => {
  const pgUrl = process.env.TEST_DATABASE_URL;
  const schema = `t_crash_${randomBytes(5).toString('hex')}`;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let deps: Deps;
  let seed: SeededAccount;
  const running: ChildProcess[] = [];

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'idem-crash-'));
    // The child reaches the test schema through the URL's search_path option.
    const databaseUrl = pgUrl ? `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}` : null;
    const config = testConfig({ dataDir, databaseUrl, pgPoolSize: 4 });
    deps = createDeps(config, { log: createLogger({ logLevel: 'silent' }), rateLimiter: null });
    await createSchemaAndMigrate(pgUrl, schema, deps.db.db as unknown as Kysely<unknown>, deps.db.dialect);
    const app = await buildApp(deps);
    const t: TestApp = { app, deps, close: async () => {} };
    seed = await seedAccount(t);
    await app.close();
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ADMIN_TOKEN,
      SERVER_SECRET,
      WORKER: 'off',
      RATE_LIMIT_RPS: '0',
      LOG_LEVEL: 'silent',
    };
  });

  after(async () => {
    for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await deps?.db.close();
    if (pgUrl) await withSchemaLock(pgUrl, 'exclusive', async (admin) => void (await admin.query(`drop schema if exists ${schema} cascade`)));
    rmSync(dataDir, { recursive: true, force: true });
  });

  const body = () => ({ products: [{ SKU: 'CRASH-1', warehouseId: seed.warehouses.main, delta_quantity: 5 }] });
  const post = (service: Service) =>
    fetch(`${service.baseUrl}/v1/inventory`, {
      method: 'POST',
      headers: { authorization: seed.sellerToken, 'content-type': 'application/json', 'idempotency-key': 'crash-key-1' },
      body: JSON.stringify(body()),
    });
  async function available(): Promise<number | undefined> {
    const row = await deps.db.db
      .selectFrom('inventory as i')
      .innerJoin('products as p', 'p.id', 'i.product_id')
      .select('i.available_quantity')
      .where('p.account_id', '=', seed.accountId)
      .where('p.sku', '=', 'CRASH-1')
      .where('i.warehouse_id', '=', seed.warehouses.main)
      .executeTakeFirst();
    return row?.available_quantity;
  }

  it('the retry after the restart answers without applying the delta again', async () => {
    const crashing = await startService(env, true);
    running.push(crashing.child);
    await assert.rejects(post(crashing), 'the process died before answering');
    assert.deepEqual(await crashing.exited, { code: null, signal: 'SIGKILL' });
    assert.equal(await available(), 5, 'the effect committed before the crash');

    const service = await startService(env, false);
    running.push(service.child);
    try {
      // Within the takeover delay the key still looks in progress (its owner might be alive and slow).
      const early = await post(service);
      assert.equal(early.status, 409, await early.text());
      // 60 s later the key may be taken over: age it instead of waiting.
      await deps.db.db
        .updateTable('idempotency_keys')
        .set({ created_at: new Date(Date.now() - 61_000).toISOString() })
        .where('idem_key', '=', 'crash-key-1')
        .execute();

      const retry = await post(service);
      const text = await retry.text();
      assert.equal(retry.status, 200, text);
      const results = (JSON.parse(text) as { results: { SKU: string; success: boolean }[] }).results;
      assert.equal(results.length, 1);
      assert.equal(results[0]!.SKU, 'CRASH-1');
      assert.equal(results[0]!.success, true);
      assert.equal(await available(), 5, 'the delta was applied exactly once');

      // From now on the stored response replays.
      const replay = await post(service);
      assert.equal(replay.status, 200);
      assert.equal(replay.headers.get('idempotency-replayed'), 'true');
      assert.equal(await replay.text(), text);
      assert.equal(await available(), 5);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  });
});
