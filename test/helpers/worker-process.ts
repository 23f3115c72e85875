import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { buildApp } from '../../src/app.js';
import { createDeps, createLogger } from '../../src/create-deps.js';
import type { Deps } from '../../src/deps.js';
import type { App } from '../../src/http/types.js';
import { ADMIN_TOKEN, createSchemaAndMigrate, testConfig, withSchemaLock } from './app.js';
import { seedAccount, type SeededAccount } from './fixtures.js';
import { mainCommand } from './main-command.js';
import { REPO_ROOT } from './repo-root.js';

/**
 * A real worker process (`src/main.ts worker`) for crash tests: with `crashAfterChunks`, the test-only
 * preload test/fixtures/crash-after-chunks.ts kills it with SIGKILL right after that many chunk commits
 * (`chunkStatement`: the checkpoint statement that marks a chunk; default a report import's).
 */
export interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
  /** Everything it printed so far. */
  output(): string;
}

const root = REPO_ROOT;

export function startWorkerProcess(
  env: NodeJS.ProcessEnv,
  args: string[],
  crash: { afterChunks: number; chunkStatement?: string } | null,
): WorkerProcess {
  const preload = crash ? ['./test/fixtures/crash-after-chunks.ts'] : [];
  const crashEnv = crash
    ? { CRASH_AFTER_CHUNKS: String(crash.afterChunks), ...(crash.chunkStatement ? { CRASH_CHUNK_STATEMENT: crash.chunkStatement } : {}) }
    : {};
  const child = spawn(process.execPath, mainCommand(['worker', ...args], preload), {
    cwd: root,
    env: { ...env, ...crashEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, output })),
  );
  return { child, exited, output: () => output };
}

/** Waits for the process to end, killing it (and failing) after `ms`. */
export async function exitWithin(worker: WorkerProcess, ms: number) {
  const timer = setTimeout(() => worker.child.kill('SIGKILL'), ms);
  try {
    return await worker.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `check` every 200 ms until it returns a value other than undefined, or fails after `ms`. */
export async function waitFor<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Waits until job `jobId` has a second attempt (a new worker took it over from a dead one) and returns how long
 * that took; fails after `ms`.
 */
export async function takenOverWithin(deps: Deps, jobId: number, ms: number): Promise<number> {
  const started = Date.now();
  await waitFor(`job ${jobId} to be taken over`, ms, async () => {
    const row = await deps.db.db.selectFrom('jobs').select('attempts').where('id', '=', jobId).executeTakeFirstOrThrow();
    return row.attempts >= 2 ? true : undefined;
  });
  return Date.now() - started;
}

/** The service a crash test's worker processes share: the test's own app on the same database, and their env. */
export interface CrashTestService {
  deps: Deps;
  app: App;
  seed: SeededAccount;
  /** The worker processes' environment (DATA_DIR or DATABASE_URL reaching the same database). */
  env: NodeJS.ProcessEnv;
  /** Starts a worker process that the cleanup kills if the test left it running. */
  startWorker(args: string[], crash: { afterChunks: number; chunkStatement?: string } | null): WorkerProcess;
  close(): Promise<void>;
}

/**
 * Sets up a crash test's database: SQLite in a temporary DATA_DIR, or a fresh schema on TEST_DATABASE_URL in
 * the PostgreSQL run (the children reach it through the URL's search_path option), with a seeded account.
 */
export async function crashTestService(name: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<CrashTestService> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  const schema = `t_${name}_${randomBytes(5).toString('hex')}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  const databaseUrl = pgUrl ? `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}` : null;
  const deps = createDeps(testConfig({ dataDir, databaseUrl, pgPoolSize: 4 }), { log: createLogger({ logLevel: 'silent' }), rateLimiter: null });
  await createSchemaAndMigrate(pgUrl, schema, deps.db.db as unknown as Kysely<unknown>, deps.db.dialect);
  const app = await buildApp(deps);
  const seed = await seedAccount({ app, deps, close: async () => {} });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ADMIN_TOKEN,
    SERVER_SECRET: `${name}-crash-test-server-secret-0123456789abcdef`,
    RATE_LIMIT_RPS: '0',
    LOG_LEVEL: 'silent',
    ...extraEnv,
  };
  const running: ChildProcess[] = [];
  return {
    deps,
    app,
    seed,
    env,
    startWorker(args, crash) {
      const worker = startWorkerProcess(env, args, crash);
      running.push(worker.child);
      return worker;
    },
    async close() {
      for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await app.close();
      await deps.db.close();
      if (pgUrl) await withSchemaLock(pgUrl, 'exclusive', async (admin) => void (await admin.query(`drop schema if exists ${schema} cascade`)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
