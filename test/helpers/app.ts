import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { connectDatabase, type DbHandle } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrations/index.js';
import { createDeps, createLogger, type Deps } from '../../src/deps.js';
import type { App } from '../../src/http/types.js';
import { systemClock, type Clock } from '../../src/lib/clock.js';
import { memoryRateLimiter } from '../../src/lib/rate-limit.js';
import { createSigner } from '../../src/lib/signer.js';

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
}

/**
 * A fresh, migrated database per app: SQLite in memory by default, or a new schema in the PostgreSQL
 * database named by TEST_DATABASE_URL (dropped on close), so test files can run in parallel.
 */
export async function createTestDatabase(): Promise<{ handle: DbHandle; drop(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const handle = connectDatabase({ databaseUrl: null, sqliteFile: ':memory:' });
    await migrateToLatest(handle.db as unknown as Kysely<unknown>, handle.dialect);
    return { handle, drop: async () => {} };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = connectDatabase({ databaseUrl: url, sqliteFile: '', pgSchema: schema, pgPoolSize: 8 });
  await migrateToLatest(handle.db as unknown as Kysely<unknown>, handle.dialect);
  return {
    handle,
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ LOG_LEVEL: 'silent' }),
    adminToken: ADMIN_TOKEN,
    rateLimitRps: 0,
    ...overrides,
  };
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { handle, drop } = await createTestDatabase();
  const config = testConfig({
    ...(options.rateLimit ? { rateLimitRps: options.rateLimit.rps, rateLimitBurst: options.rateLimit.burst } : {}),
    ...options.config,
  });
  const deps = createDeps(config, {
    db: handle,
    log: createLogger({ logLevel: process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'silent' }),
    clock: options.clock ?? systemClock,
    signer: createSigner('test-server-secret-0123456789abcdef0123456789'),
    rateLimiter: options.rateLimit ? memoryRateLimiter(options.rateLimit) : null,
  });
  const app = await buildApp(deps);
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
