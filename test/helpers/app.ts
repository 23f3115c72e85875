import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { connectDatabase, type DbHandle, type Dialect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrations/index.js';
import { createDeps, createLogger, type Deps } from '../../src/deps.js';
import type { App } from '../../src/http/types.js';
import { systemClock, type Clock } from '../../src/lib/clock.js';
import { memoryRateLimiter } from '../../src/lib/rate-limit.js';
import type { DestinationStream } from 'pino';
import { createSigner } from '../../src/lib/signer.js';
import { installV2AnswerCheck } from './v2-answer-check.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface TestApp {
  app: App;
  deps: Deps;
  close(): Promise<void>;
}

export interface TestAppOptions {
  clock?: Clock;
  /** Turn the rate limiter on (tests run without it unless they are about it). */
  rateLimit?: { rps: number; burst: number };
  config?: Partial<Config>;
  /** Where the service log goes (at level trace), for tests that inspect what is logged. */
  logDestination?: DestinationStream;
}

/**
 * A fresh, migrated database per app: an SQLite file in a temporary directory by default, or a new schema in the PostgreSQL
 * database named by TEST_DATABASE_URL (dropped on close), so test files can run in parallel.
 */
export async function createTestDatabase(): Promise<{ handle: DbHandle; drop(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    // A database file, as `serve` uses one (a read connection beside the writer, the WAL checkpoint thread);
    // TEST_SQLITE_IN_MEMORY=1 runs on one in-memory connection instead.
    const dir = process.env.TEST_SQLITE_IN_MEMORY ? null : mkdtempSync(path.join(tmpdir(), 'mcs-test-'));
    const handle = connectDatabase({ databaseUrl: null, sqliteFile: dir ? path.join(dir, 'test.sqlite') : ':memory:' });
    await migrateToLatest(handle.db as unknown as Kysely<unknown>, handle.dialect);
    return { handle, drop: async () => void (dir && rmSync(dir, { recursive: true, force: true })) };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const handle = connectDatabase({ databaseUrl: url, sqliteFile: '', pgSchema: schema, pgPoolSize: 8 });
  await createSchemaAndMigrate(url, schema, handle.db as unknown as Kysely<unknown>, handle.dialect);
  return {
    handle,
    drop: () => withSchemaLock(url, 'exclusive', async (admin) => void (await admin.query(`drop schema ${schema} cascade`))),
  };
}

/**
 * Kysely's migrator introspects every schema of the database by name (pg_get_serial_sequence,
 * has_schema_privilege), which fails with "schema … does not exist" when a parallel test file drops its
 * schema at that moment. Migrations hold a shared advisory lock, drops an exclusive one; ending the
 * session releases it.
 */
export async function withSchemaLock<T>(url: string, mode: 'shared' | 'exclusive', fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(mode === 'shared' ? 'select pg_advisory_lock_shared(7270001)' : 'select pg_advisory_lock(7270001)');
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

/**
 * A test schema of its own for a test that builds its deps itself (a crash test whose child process shares
 * the database): created and migrated under the shared lock, like createTestDatabase's, so a parallel test
 * file dropping its schema never breaks the migrator's introspection. Without pgUrl (SQLite), only migrates.
 */
export async function createSchemaAndMigrate(pgUrl: string | null | undefined, schema: string, db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (!pgUrl) {
    await migrateToLatest(db, dialect);
    return;
  }
  await withSchemaLock(pgUrl, 'shared', async (admin) => {
    await admin.query(`create schema ${schema}`);
    await migrateToLatest(db, dialect);
  });
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ LOG_LEVEL: 'silent' }),
    adminToken: ADMIN_TOKEN,
    rateLimitRps: 0,
    // Callbacks go to local receivers in tests (resolutions §8); the refusal tests turn it off.
    callbacksAllowPrivate: true,
    ...overrides,
  };
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { handle, drop } = await createTestDatabase();
  const config = testConfig({
    ...(options.rateLimit ? { rateLimitRps: options.rateLimit.rps, rateLimitBurst: options.rateLimit.burst } : {}),
    ...options.config,
  });
  const clock = options.clock ?? systemClock;
  const deps = createDeps(config, {
    db: handle,
    log: options.logDestination
      ? createLogger({ logLevel: 'trace' }, options.logDestination)
      : createLogger({ logLevel: process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'silent' }),
    clock,
    signer: createSigner('test-server-secret-0123456789abcdef0123456789'),
    // The limiter runs on the test clock, so a manualClock makes rate-limit tests deterministic.
    rateLimiter: options.rateLimit ? memoryRateLimiter(options.rateLimit, () => clock.now().getTime()) : null,
  });
  const app = await buildApp(deps);
  installV2AnswerCheck(app);
  return {
    app,
    deps,
    close: async () => {
      await app.close();
      await deps.rateLimiter?.close();
      await handle.close();
      await drop();
    },
  };
}
