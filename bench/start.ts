/**
 * `npm run bench:start`: cold start to ready, and the API process's memory with a big account (issue 13 item 5).
 * Never run by `npm test`.
 *
 * The service runs in its own process as `npm start` runs it (`node dist/src/main.js serve`, built first when
 * dist/ is stale; BENCH_TSX=1 runs src/main.ts under tsx instead) on the database BENCH_DB selects (bench/harness.ts:
 * embedded SQLite, or a fresh PostgreSQL schema), on a port picked beforehand. "Ready" is the first 200 on
 * GET /readyz (src/http/health.ts: the process listens and the database answers), polled every 5 ms from the
 * spawn; RSS is VmRSS / VmHWM of /proc/<pid>/status. Two cases, BENCH_START_RUNS runs each (default 5):
 *
 * - empty: a fresh DATA_DIR (and schema) per run, so every start migrates an empty database;
 * - loaded: one DATA_DIR (and schema) seeded once in this process with bench/seed.ts seedOrderAccount
 *   (BENCH_START_ORDERS open 2-line orders, default 100,000), then a fresh service process per run that,
 *   once ready, serves BENCH_START_PAGES pages of GET /v1/salesOrder?pageLength=100 (the nextToken chain) and
 *   the need_to_ship first page; its RSS and peak RSS are read after that.
 *
 * Target (issue 5): "a 100,000-order account must not raise the API process's RSS above 250 MB": the loaded
 * case's peak RSS (VmHWM, worst run) is compared with 250 MB.
 *
 *   npm run bench:start
 *   BENCH_START_ORDERS=2000 BENCH_START_RUNS=2 BENCH_OUTPUT=- npm run bench:start
 *   BENCH_DB=postgres bash scripts/ci-postgres.sh npm run bench:start
 *
 * Writes the "## Start and memory" section of bench/RESULTS.md ("… (PostgreSQL)" with BENCH_DB=postgres;
 * BENCH_OUTPUT=- prints only). BENCH_NODE_OPTIONS passes V8 flags to the service.
 */
import { execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrations/index.js';
import { closeDeps, createDeps } from '../src/create-deps.js';
import { envInt, freePort, machineLines, median, procStatusKb } from './common.js';
import { withBenchDatabase, type BenchDatabase } from './database.js';
import { expectOk, runMain, writeSection } from './harness.js';
import { seedOrderAccount } from './seed.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const RUNS = envInt('BENCH_START_RUNS', 5, 1);
const ORDERS = envInt('BENCH_START_ORDERS', 100_000, 2);
const PAGES = envInt('BENCH_START_PAGES', 10, 1);
const TARGET_MB = 250;
const SERVER_SECRET = 'bench-server-secret-0123456789abcdef0123456789';

interface Started {
  pid: number;
  base: string;
  readyMs: number;
  stop(): Promise<void>;
}

/** Spawns `serve` and polls GET /readyz until it answers 200; the time is from just before the spawn. */
async function startService(database: BenchDatabase): Promise<Started> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...database.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SERVER_SECRET,
    RATE_LIMIT_RPS: '0',
    LOG_LEVEL: 'warn',
    ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
  };
  const args = process.env.BENCH_TSX === '1' ? ['--import', 'tsx', 'src/main.ts', 'serve'] : ['dist/src/main.js', 'serve'];
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const stop = async () => {
    if (!exited) child.kill('SIGTERM');
    await exit;
  };
  const deadline = started + 120_000;
  for (;;) {
    if (exited) throw new Error(`the service exited before it was ready:\n${stderr}`);
    try {
      const res = await fetch(`${base}/readyz`);
      await res.arrayBuffer();
      if (res.status === 200) return { pid: child.pid!, base, readyMs: performance.now() - started, stop };
    } catch {
      // Not listening yet.
    }
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`the service was not ready within 120 s:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

interface Run {
  readyMs: number;
  readyRssMb: number;
  /** After serving the pages (loaded case only). */
  afterRssMb: number | null;
  peakRssMb: number;
}

const mb = (pid: number, field: 'VmRSS' | 'VmHWM') => procStatusKb(pid, field) / 1024;

async function main() {
  const loadBefore = os.loadavg()[0]!;
  if (process.env.BENCH_TSX !== '1') execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: root, stdio: 'inherit' });

  // Empty: a fresh database per run.
  const empty: Run[] = [];
  let databaseLabel = '';
  for (let run = 1; run <= RUNS; run++) {
    await withBenchDatabase('start', async (database) => {
      databaseLabel = database.label;
      const service = await startService(database);
      try {
        empty.push({ readyMs: service.readyMs, readyRssMb: mb(service.pid, 'VmRSS'), afterRssMb: null, peakRssMb: mb(service.pid, 'VmHWM') });
      } finally {
        await service.stop();
      }
      process.stdout.write(`empty run ${run}/${RUNS}: ready in ${empty.at(-1)!.readyMs.toFixed(0)} ms, RSS ${empty.at(-1)!.readyRssMb.toFixed(0)} MB\n`);
    });
  }

  // Loaded: seeded once, in this process, through the bench seeders; then fresh service processes.
  const loaded: Run[] = [];
  let seedSeconds = 0;
  await withBenchDatabase('start-loaded', async (database) => {
    const config = loadConfig({ ...database.env, SERVER_SECRET, RATE_LIMIT_RPS: '0', LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0' });
    const deps = createDeps(config);
    let account: Awaited<ReturnType<typeof seedOrderAccount>>;
    const seedStarted = performance.now();
    try {
      await migrateToLatest(deps.db.db as unknown as Kysely<unknown>, deps.db.dialect);
      const app = await buildApp(deps);
      try {
        account = await seedOrderAccount(deps, await app.listen({ host: '127.0.0.1', port: 0 }), { orders: ORDERS });
      } finally {
        await app.close();
      }
    } finally {
      await closeDeps(deps);
    }
    seedSeconds = (performance.now() - seedStarted) / 1000;
    process.stdout.write(`seeded ${ORDERS} orders in ${seedSeconds.toFixed(1)} s\n`);

    const channel = { authorization: `Bearer ${account.channel.token}` };
    for (let run = 1; run <= RUNS; run++) {
      const service = await startService(database);
      try {
        const readyRssMb = mb(service.pid, 'VmRSS');
        let pathAndQuery = '/v1/salesOrder?pageLength=100';
        for (let page = 1; page <= PAGES && pathAndQuery !== ''; page++) {
          const body = (await expectOk(await fetch(`${service.base}${pathAndQuery}`, { headers: channel }), `order list page ${page}`)) as { pagination: { nextToken: string } };
          const next = body.pagination.nextToken;
          pathAndQuery = next === '' ? '' : `${new URL(next).pathname}${new URL(next).search}`;
        }
        await expectOk(await fetch(`${service.base}/v2/shipping/need_to_ship`, { headers: { authorization: `Bearer ${account.shipping.token}` } }), 'need_to_ship');
        loaded.push({ readyMs: service.readyMs, readyRssMb, afterRssMb: mb(service.pid, 'VmRSS'), peakRssMb: mb(service.pid, 'VmHWM') });
      } finally {
        await service.stop();
      }
      const r = loaded.at(-1)!;
      process.stdout.write(`loaded run ${run}/${RUNS}: ready in ${r.readyMs.toFixed(0)} ms, RSS ${r.readyRssMb.toFixed(0)} MB; after the pages ${r.afterRssMb!.toFixed(0)} MB, peak ${r.peakRssMb.toFixed(0)} MB\n`);
    }
  });

  const worstPeak = Math.max(...loaded.map((r) => r.peakRssMb));
  const row = (title: string, runs: Run[]) => {
    const ready = runs.map((r) => r.readyMs);
    const after = runs.flatMap((r) => (r.afterRssMb === null ? [] : [r.afterRssMb]));
    return (
      `| ${title} | ${runs.length} | ${median(ready).toFixed(0)} ms | ${Math.max(...ready).toFixed(0)} ms | ${median(runs.map((r) => r.readyRssMb)).toFixed(0)} MB | ` +
      `${after.length === 0 ? '–' : `${Math.max(...after).toFixed(0)} MB`} | ${Math.max(...runs.map((r) => r.peakRssMb)).toFixed(0)} MB | ${ready.map((v) => v.toFixed(0)).join(', ')} |`
    );
  };
  const text = [
    '## Start and memory',
    '',
    `Written by \`npm run bench:start\` (bench/start.ts) on ${new Date().toISOString()}.`,
    '',
    ...machineLines(
      `service in its own process (${process.env.BENCH_TSX === '1' ? 'src/main.ts under tsx' : 'dist/src/main.js serve, as `npm start` runs it'}` +
        `${process.env.BENCH_NODE_OPTIONS ? `, NODE_OPTIONS=${process.env.BENCH_NODE_OPTIONS}` : ''}), GET /readyz polled every 5 ms from the spawn`,
      loadBefore,
      { database: databaseLabel, rss: 'of the spawned service process, from /proc/<pid>/status (VmRSS right after ready and after the pages; VmHWM = peak), in the table' },
    ),
    `- empty: a fresh DATA_DIR (and schema) per run: the start migrates an empty database`,
    `- loaded: one account with ${ORDERS.toLocaleString('en-US')} open 2-line orders (bench/seed.ts seedOrderAccount, ${seedSeconds.toFixed(1)} s), ` +
      `then per run a fresh process that serves ${PAGES} pages of GET /v1/salesOrder?pageLength=100 (nextToken chain) and the need_to_ship first page`,
    '',
    '| Database | runs | spawn → ready (median) | max | RSS at ready (median) | RSS after the pages (max) | peak RSS (VmHWM, max) | per run |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    row('empty (fresh, migrated at start)', empty),
    row(`loaded (${ORDERS.toLocaleString('en-US')} orders)`, loaded),
    '',
    `**Target (issue 5):** a ${ORDERS.toLocaleString('en-US')}-order account keeps the API process under ${TARGET_MB} MB RSS. ` +
      `Worst peak RSS of the loaded runs: ${worstPeak.toFixed(0)} MB: **${worstPeak < TARGET_MB ? 'met' : 'NOT met'}**` +
      `${ORDERS < 100_000 ? ` (only ${ORDERS.toLocaleString('en-US')} orders: not the issue's 100,000)` : ''}.`,
    '',
  ].join('\n');
  writeSection(text, path.join(here, 'RESULTS.md'), 'Start and memory', 'Start and memory notes');
}

runMain(main);
