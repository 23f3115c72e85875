import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { buildApp } from '../../src/app.js';
import { connectDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrations/index.js';
import { createDeps, createLogger } from '../../src/create-deps.js';
import { createSigner } from '../../src/lib/signer.js';
import { testConfig, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';

/**
 * SQLite held locked by another process past the busy timeout (and withTx's retries) is the embedded
 * database's "unavailable": 503 with Retry-After, not 500, and the next request after the lock is released
 * succeeds.
 */
describe('SQLite locked by another process: 503 with Retry-After, then recovery', {
  skip: process.env.TEST_DATABASE_URL ? 'SQLite only (the PostgreSQL run covers outages in database-outage.test.ts)' : false,
}, () => {
  let dir: string;
  let t: TestApp;
  let seed: SeededAccount;
  let other: SQLite.Database;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sqlite-busy-'));
    const handle = connectDatabase({ databaseUrl: null, sqliteFile: path.join(dir, 'service.db') });
    await migrateToLatest(handle.db as unknown as Kysely<unknown>, handle.dialect);
    const deps = createDeps(testConfig({ dataDir: dir }), {
      db: handle,
      log: createLogger({ logLevel: 'silent' }),
      signer: createSigner('test-server-secret-0123456789abcdef0123456789'),
      rateLimiter: null,
    });
    t = { app: await buildApp(deps), deps, close: async () => {} };
    seed = await seedAccount(t);
    // The service waits 5 s for a lock; the test does not need to wait that long to see what follows.
    if ('sqlite' in handle.raw) handle.raw.sqlite.pragma('busy_timeout = 20');
    other = new SQLite(path.join(dir, 'service.db'));
  });
  after(async () => {
    other?.close();
    await t?.app.close();
    await t?.deps.db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const keyedWrite = () =>
    t.app.inject({
      method: 'POST',
      url: '/v2/inventory',
      headers: { ...bearer(seed.inventory.token), 'content-type': 'application/json', 'idempotency-key': 'busy-1' },
      payload: { observedTs: new Date().toISOString(), updates: [{ sku: 'BUSY-1', warehouseUniqueId: 'WH-SECOND', quantity: '3' }] },
    });

  it('answers 503 (v2 code 14, Retry-After) while the write lock is held, and succeeds once released', async () => {
    other.exec('begin exclusive');
    try {
      const busy = await keyedWrite();
      assert.equal(busy.statusCode, 503, busy.body);
      assert.equal(busy.headers['retry-after'], '5');
      assert.equal(busy.json().code, 14);
      assert.deepEqual(busy.json().details, []);
      // Reads go on (WAL): the process is fine, only writes wait.
      assert.equal((await t.app.inject({ url: '/readyz' })).statusCode, 200);
    } finally {
      other.exec('rollback');
    }
    const ok = await keyedWrite();
    assert.equal(ok.statusCode, 200, ok.body);
  });
});
