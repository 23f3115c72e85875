import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { connectDatabase, type DbHandle, type Dialect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrations/index.js';
import { createDeps, createLogger } from '../../src/create-deps.js';
import type { Deps } from '../../src/deps.js';
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
  /** false: the database's fast paths off (ConnectOptions.speedUps, DB_SPEEDUPS=off). */
  speedUps?: boolean;
}

/**
 * A fresh, migrated database per app: an SQLite file in a temporary directory by default, or a new database in the
 * PostgreSQL cluster named by TEST_DATABASE_URL (dropped on close), so test files can run in parallel.
 *
 * Running every migration cost about 0.25 s per app on SQLite and 0.8 s on PostgreSQL, and the suite builds
 * hundreds of apps; so the migrations run once into a template, and each app gets a copy of it: a file copy on
 * SQLite (the template is shared by the run's processes, see sqliteTemplateFile), CREATE DATABASE … TEMPLATE
 * on PostgreSQL. The copy holds exactly what migrating a fresh database gives.
 */
export async function createTestDatabase(options: { speedUps?: boolean } = {}): Promise<{ handle: DbHandle; drop(): Promise<void> }> {
  const speedUps = options.speedUps ?? true;
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    // A database file, as `serve` uses one (a read connection beside the writer, the WAL checkpoint thread);
    // TEST_SQLITE_IN_MEMORY=1 runs on one in-memory connection instead.
    if (process.env.TEST_SQLITE_IN_MEMORY) {
      const handle = connectDatabase({ databaseUrl: null, sqliteFile: ':memory:', speedUps });
      await migrateToLatest(handle.db as unknown as Kysely<unknown>, handle.dialect);
      return { handle, drop: async () => {} };
    }
    const dir = mkdtempSync(path.join(tmpdir(), 'mcs-test-'));
    const file = path.join(dir, 'test.sqlite');
    copyFileSync(await sqliteTemplateFile(), file);
    const handle = connectDatabase({ databaseUrl: null, sqliteFile: file, speedUps });
    return { handle, drop: async () => void rmSync(dir, { recursive: true, force: true }) };
  }
  const template = await postgresTemplate(url);
  const database = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin(url, (admin) => admin.query(`create database ${database} template ${template}`));
  const handle = connectDatabase({ databaseUrl: databaseUrl(url, database), sqliteFile: '', pgSchema: TEMPLATE_SCHEMA, pgPoolSize: 8, speedUps });
  return { handle, drop: () => withAdmin(url, async (admin) => void (await admin.query(`drop database if exists ${database} with (force)`))) };
}

/** The schema the tables live in inside a PostgreSQL test database (as in the template it was copied from). */
const TEMPLATE_SCHEMA = 'mcs_test';

/** A hash of the compiled (or, under tsx, source) migrations: a template made from other migrations is never used. */
function migrationsFingerprint(): string {
  const dir = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
  const hash = createHash('sha256');
  for (const name of readdirSync(dir).sort()) {
    hash.update(name);
    hash.update(readFileSync(path.join(dir, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

let sqliteTemplate: Promise<string> | null = null;

/**
 * A migrated SQLite database file to copy. run-tests.mjs names a directory the run's test processes share
 * (TEST_TEMPLATE_DIR): the first process to need the template writes it there (a temporary name, then a
 * rename, so no process copies a half-written file); without it, each process makes its own.
 */
function sqliteTemplateFile(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const shared = process.env.TEST_TEMPLATE_DIR;
    const dir = shared ?? mkdtempSync(path.join(tmpdir(), 'mcs-template-'));
    if (!shared) process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `sqlite-${migrationsFingerprint()}.sqlite`);
    if (existsSync(file)) return file;
    const work = mkdtempSync(path.join(tmpdir(), 'mcs-template-work-'));
    try {
      const handle = connectDatabase({ databaseUrl: null, sqliteFile: path.join(work, 'migrate.sqlite') });
      await migrateToLatest(handle.db as unknown as Kysely<unknown>, handle.dialect);
      // VACUUM INTO writes one self-contained file (nothing left in a WAL beside it).
      const partial = path.join(dir, `partial-${process.pid}-${randomBytes(4).toString('hex')}.sqlite`);
      await sql`vacuum into ${partial}`.execute(handle.db);
      await handle.close();
      renameSync(partial, file);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    return file;
  })();
  return sqliteTemplate;
}

let pgTemplate: Promise<string> | null = null;

/**
 * The name of a migrated PostgreSQL template database, made once per cluster and set of migrations (its name
 * carries their fingerprint): under an advisory lock, so parallel test processes wait for the first one to
 * make it; built under another name and renamed when complete, so an interrupted build is never used.
 */
function postgresTemplate(url: string): Promise<string> {
  pgTemplate ??= withAdmin(url, async (admin) => {
    const name = `mcs_template_${migrationsFingerprint()}`;
    await admin.query('select pg_advisory_lock(7270002)');
    const { rows } = await admin.query<{ n: string }>('select count(*) as n from pg_database where datname = $1', [name]);
    if (Number(rows[0]!.n) > 0) return name;
    const building = `${name}_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${building}`);
    const handle = connectDatabase({ databaseUrl: databaseUrl(url, building), sqliteFile: '', pgSchema: TEMPLATE_SCHEMA, pgPoolSize: 2 });
    try {
      await sql.raw(`create schema ${TEMPLATE_SCHEMA}`).execute(handle.db);
      await migrateToLatest(handle.db as unknown as Kysely<unknown>, handle.dialect);
    } finally {
      await handle.close();
    }
    await admin.query(`alter database ${building} rename to ${name}`);
    return name;
  });
  return pgTemplate;
}

/** TEST_DATABASE_URL pointing at another database of the same cluster. */
function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** One admin session on TEST_DATABASE_URL's database (ending it releases any advisory lock it took). */
async function withAdmin<T>(url: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
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
  const { handle, drop } = await createTestDatabase({ speedUps: options.speedUps ?? true });
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
