/**
 * `npm run bench:stall`: does background work stall the service? (issue 22). Never run by `npm test`.
 *
 * Three processes: the service (bench/stall-service.ts: `serve` as `npm start` runs it — migrations, listen, the
 * inline worker on the same event loop — from src/ under tsx, measuring its own event-loop delay with
 * perf_hooks.monitorEventLoopDelay), a /healthz poller in a process of its own (bench/stall-poller.ts: GET every
 * 50 ms over loopback, one at a time; in the service process it would be held up by the same stalls), and this
 * process, which drives each workload through the HTTP API as a partner or seller would and runs the callback
 * receiver. For each workload (or phase) the measurement window opens (histogram reset, poller started), the
 * workload runs, BENCH_SETTLE_MS more pass (trailing work: cleanup, GC), and the window closes: event-loop delay
 * max and p99, the worst /healthz latency, the workload's own throughput, and the service's CPU time.
 *
 * Workloads (BENCH_SCENARIOS, comma list, in this order; default all):
 * - idle: BENCH_IDLE_SECONDS (5) of nothing, the floor of the numbers on this machine;
 * - ingestion: a channel begins an ingestion with autoApplyIngestionPlan, pushes BENCH_LISTINGS (3,000) listings
 *   of 2 variants with one request call each, ends it, and the session is polled until APPLIED. Two rows: the
 *   push (foreground API work, measured on its own) and the plan + apply from end to APPLIED (the background
 *   window the issue is about);
 * - product-import: a BENCH_LINES (100,000)-line TemplatelessProduct file, POST /v1/report (multipart) then
 *   GET /v1/report/{id} until COMPLETE;
 * - inventory-import: a BENCH_LINES-line Inventory file (sku,warehouse,quantity) over the imported catalog;
 * - product-export: a Products export to COMPLETE, then the download of its file;
 *   (the last two run the product import first, unmeasured, when it is not selected)
 * - upload-refused: a multipart POST /v1/report of a BENCH_UPLOAD_MIB (201) MiB file with the default 200 MiB
 *   limit; the status received and the time to it;
 * - callbacks: BENCH_DELIVERIES (2,000) ingestion-request callbacks (POST /admin/…/ingestion-request, 8 at a
 *   time) delivered to a receiver in this process on loopback (partner-sim, CALLBACKS_ALLOW_PRIVATE=true).
 *
 * Knobs: BENCH_LISTINGS, BENCH_LINES, BENCH_UPLOAD_MIB, BENCH_DELIVERIES, BENCH_IDLE_SECONDS (sizes above),
 * BENCH_POLL_MS (50), BENCH_STALL_RESOLUTION_MS (10: the histogram's sampling), BENCH_SETTLE_MS (1000),
 * BENCH_STALL_GAP_LOG (a file: the service appends each timer gap over BENCH_STALL_GAP_LOG_MS, 30, for bench/stall-gaps.ts),
 * BENCH_TIMEOUT_S (300: a phase still running then is cut off and recorded as a bound; the service is killed and
 * the next workloads run on a fresh database), BENCH_NODE_OPTIONS (flags for the service's node, e.g.
 * "--cpu-prof --cpu-prof-dir=bench/.tmp"), BENCH_DB (sqlite | postgres: bench/harness.ts), BENCH_OUTPUT (default
 * bench/RESULTS.md; "-" prints only), BENCH_STALL_ROLE (current, default: the "Now" table; baseline: the
 * "Today (before issue 22)" table, run on a checkout of that code; each kind keeps the other's numbers),
 * BENCH_STALL_RENDER_ONLY=1 (rewrite the section from the numbers it holds; runs nothing), BENCH_STALL_BASELINE_DIR (a
 * checkout of the code before issue 22, with node_modules: "today" is measured there first, back to back with "now").
 *
 *   npm run bench:stall
 *   BENCH_LISTINGS=300 BENCH_LINES=10000 BENCH_UPLOAD_MIB=201 BENCH_DELIVERIES=200 BENCH_OUTPUT=- npm run bench:stall
 *   BENCH_DB=postgres bash scripts/ci-postgres.sh npm run bench:stall
 *   (both, back to back) git worktree add /tmp/before <commit>; ln -s $PWD/node_modules /tmp/before/;
 *     BENCH_STALL_BASELINE_DIR=/tmp/before npm run bench:stall
 *
 * Writes the "## Stall benchmark" section of bench/RESULTS.md ("## Stall benchmark (PostgreSQL)" with BENCH_DB=postgres).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPartnerSim } from '../src/cli/partner-sim-server.js';
import { envInt, freePort, machineLines } from './common.js';
import { benchDbKind, headingSuffix, withBenchDatabase, type BenchDatabase } from './database.js';
import { runMain, selectedScenarios, writeSection } from './harness.js';
import { startPoller, startService, type Poller, type ServiceProcess } from './stall-processes.js';
import { progressLine, readData, renderSection, type Row, type RunRecord } from './stall-results.js';
import { setupAccount } from './stall-setup.js';
import * as reports from './stall-reports.js';
import * as workloads from './stall-workloads.js';
import { ADMIN_TOKEN, Cutoff, failure, MIB, type Files, type Measure, type PhaseOutcome, type Sizes, type StallContext } from './stall-workloads.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const SCENARIOS = ['idle', 'ingestion', 'product-import', 'inventory-import', 'product-export', 'upload-refused', 'callbacks'] as const;
type ScenarioName = (typeof SCENARIOS)[number];

const sizes: Sizes = {
  listings: envInt('BENCH_LISTINGS', 3000, 1),
  lines: envInt('BENCH_LINES', 100_000, 1),
  uploadMiB: envInt('BENCH_UPLOAD_MIB', 201, 1),
  deliveries: envInt('BENCH_DELIVERIES', 2000, 1),
};
const IDLE_SECONDS = envInt('BENCH_IDLE_SECONDS', 5, 1);
const POLL_MS = envInt('BENCH_POLL_MS', 50, 1);
const RESOLUTION_MS = envInt('BENCH_STALL_RESOLUTION_MS', 10, 1);
const SETTLE_MS = envInt('BENCH_SETTLE_MS', 1000, 0);
const TIMEOUT_MS = envInt('BENCH_TIMEOUT_S', 300, 1) * 1000;
const ROLE = stallRole(process.env.BENCH_STALL_ROLE);

function stallRole(raw: string | undefined): 'current' | 'baseline' {
  const role = (raw ?? '').trim() || 'current';
  if (role !== 'current' && role !== 'baseline') throw new Error(`BENCH_STALL_ROLE must be "current" or "baseline", got "${role}"`);
  return role;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The test files: written before anything is measured. */
function writeFiles(dir: string, selected: ScenarioName[]): Files {
  const sku = (i: number) => `BENCH-${String(i).padStart(6, '0')}`;
  const colors = ['red', 'green', 'blue', 'black', 'white'];
  const product = ['sku,title,brand,price,color'];
  const inventory = ['sku,warehouse,quantity'];
  for (let i = 0; i < sizes.lines; i++) {
    product.push(`${sku(i)},"Bench product ${i}, size ${i % 13}",Brand ${i % 97},${(5 + (i % 1000) / 10).toFixed(2)},${colors[i % colors.length]}`);
    inventory.push(`${sku(i)},Main,${i % 500}`);
  }
  const files: Files = { products: path.join(dir, 'products.csv'), inventory: path.join(dir, 'inventory.csv'), big: null };
  writeFileSync(files.products, `${product.join('\r\n')}\r\n`);
  writeFileSync(files.inventory, `${inventory.join('\r\n')}\r\n`);
  if (selected.includes('upload-refused')) {
    // A well-formed inventory CSV (distinct SKUs) of exactly BENCH_UPLOAD_MIB MiB; only the size is wrong.
    files.big = path.join(dir, 'too-big.csv');
    const fd = openSync(files.big, 'w');
    const total = sizes.uploadMiB * MIB;
    let written = writeSync(fd, 'sku,warehouse,quantity\r\n');
    for (let i = 0; written < total; ) {
      const lines: string[] = [];
      for (let k = 0; k < 50_000; k++, i++) lines.push(`BIG-${String(i).padStart(9, '0')},Main,1\r\n`);
      const chunk = Buffer.from(lines.join(''));
      written += writeSync(fd, chunk, 0, Math.min(chunk.length, total - written));
    }
    closeSync(fd);
  }
  return files;
}

function serviceEnv(database: BenchDatabase): Record<string, string> {
  return {
    ...database.env,
    ADMIN_TOKEN,
    SERVER_SECRET: 'bench-server-secret-0123456789abcdef0123456789',
    RATE_LIMIT_RPS: '0',
    LOG_LEVEL: 'warn',
    WORKER: 'inline',
    CALLBACKS_ALLOW_PRIVATE: 'true',
    BENCH_STALL_RESOLUTION_MS: String(RESOLUTION_MS),
    ...(process.env.BENCH_STALL_GAP_LOG === undefined ? {} : { BENCH_STALL_GAP_LOG: path.resolve(process.env.BENCH_STALL_GAP_LOG) }),
    ...(process.env.BENCH_STALL_GAP_LOG_MS === undefined ? {} : { BENCH_STALL_GAP_LOG_MS: process.env.BENCH_STALL_GAP_LOG_MS }),
  };
}

function makeMeasure(service: ServiceProcess, poller: Poller, rows: Row[]): Measure {
  return async (spec, fn) => {
    await sleep(SETTLE_MS);
    await poller.start(`${service.base}/healthz`, POLL_MS);
    if (!(await service.reset())) throw new Error('the service did not answer the reset of its monitor');
    const started = performance.now();
    const deadline = started + TIMEOUT_MS;
    let outcome: PhaseOutcome | null = null;
    let error: string | null = null;
    let cutoff = false;
    try {
      outcome = await fn(deadline);
    } catch (e) {
      cutoff = e instanceof Cutoff;
      error = cutoff ? `still running after ${TIMEOUT_MS / 1000} s (${(e as Error).message})` : failure(e);
    }
    if (!cutoff) await sleep(SETTLE_MS);
    const loop = await service.read(cutoff ? 5000 : 120_000);
    const polls = await poller.stop(cutoff || loop === null ? 1000 : 30_000);
    const row: Row = {
      key: spec.key,
      title: spec.title,
      size: outcome?.size ?? spec.size,
      seconds: outcome ? outcome.seconds : cutoff ? TIMEOUT_MS / 1000 : null,
      units: outcome?.units ?? spec.units,
      unit: spec.unit,
      cutoff,
      error,
      detail: outcome?.detail ?? '',
      loop,
      polls,
    };
    rows.push(row);
    process.stdout.write(progressLine(row));
    return { cutoff: cutoff || loop === null, failed: error !== null };
  };
}

async function idle(measure: Measure): Promise<boolean> {
  const spec = { key: 'idle', title: 'idle (nothing running; the floor)', size: `${IDLE_SECONDS} s`, units: 0, unit: '' };
  const result = await measure(spec, async () => {
    await sleep(IDLE_SECONDS * 1000);
    return { seconds: IDLE_SECONDS, detail: 'no requests but the /healthz polls' };
  });
  return result.cutoff;
}

async function runScenario(name: ScenarioName, ctx: StallContext, files: Files, measure: Measure): Promise<boolean> {
  switch (name) {
    case 'idle':
      return idle(measure);
    case 'ingestion':
      return workloads.ingestion(ctx, sizes, measure);
    case 'product-import':
      return reports.importWorkload(ctx, 'product-import', files, sizes.lines, measure);
    case 'inventory-import':
      await reports.loadCatalog(ctx, files, TIMEOUT_MS);
      return reports.importWorkload(ctx, 'inventory-import', files, sizes.lines, measure);
    case 'product-export':
      await reports.loadCatalog(ctx, files, TIMEOUT_MS);
      return reports.exportWorkload(ctx, measure, sizes.lines + ctx.ingestedProducts);
    case 'upload-refused':
      return reports.refusedUpload(ctx, files, measure);
    case 'callbacks':
      return workloads.callbacks(ctx, sizes.deliveries, measure);
  }
}

function git(args: string[]): string {
  try {
    return execFileSync('git', ['--no-optional-locks', '-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

/** BENCH_STALL_RENDER_ONLY=1: rewrites the section from the numbers it holds (after a change of its layout), running nothing. */
function renderOnly(): void {
  const output = process.env.BENCH_OUTPUT ?? path.join(here, 'RESULTS.md');
  const data = readData(output, `Stall benchmark${headingSuffix()}`);
  if (!data.current && !data.baseline) throw new Error(`no stall benchmark numbers in ${output}`);
  writeSection(renderSection(data, ROLE, benchDbKind() === 'postgres'), path.join(here, 'RESULTS.md'), 'Stall benchmark', 'Stall benchmark notes');
}

/**
 * BENCH_STALL_BASELINE_DIR=<a checkout of the code before issue 22, with node_modules>: measures "today" there
 * first (these bench files copied into its bench/, BENCH_STALL_ROLE=baseline, same knobs and output), so the two
 * runs see the machine in about the same state.
 */
function measureBaselineFirst(dir: string): void {
  const output = path.resolve(process.env.BENCH_OUTPUT ?? path.join(here, 'RESULTS.md'));
  if (process.env.BENCH_OUTPUT === '-') throw new Error('BENCH_STALL_BASELINE_DIR needs a results file (BENCH_OUTPUT not "-")');
  const checkout = path.resolve(dir);
  if (!existsSync(path.join(checkout, 'src', 'server.ts')) || !existsSync(path.join(checkout, 'node_modules'))) {
    throw new Error(`BENCH_STALL_BASELINE_DIR=${checkout} is not a checkout of the service with node_modules (ln -s this checkout's)`);
  }
  for (const file of readdirSync(here).filter((f) => /^stall.*\.ts$/.test(f))) copyFileSync(path.join(here, file), path.join(checkout, 'bench', file));
  process.stdout.write(`measuring "today" in ${checkout} first…\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/stall.ts'], {
    cwd: checkout,
    stdio: 'inherit',
    env: { ...process.env, BENCH_STALL_ROLE: 'baseline', BENCH_OUTPUT: output, BENCH_STALL_BASELINE_DIR: '' },
  });
  if (result.status !== 0) throw new Error(`the baseline run in ${checkout} failed (${result.status ?? result.signal})`);
  process.stdout.write('\nnow measuring this checkout…\n');
}

async function main(): Promise<void> {
  if (process.env.BENCH_STALL_RENDER_ONLY === '1') return renderOnly();
  if (process.env.BENCH_STALL_BASELINE_DIR && ROLE === 'current') measureBaselineFirst(process.env.BENCH_STALL_BASELINE_DIR);
  const selected = selectedScenarios(SCENARIOS);
  const loadBefore = os.loadavg()[0]!;
  let loadPeak = loadBefore;
  const loadTimer = setInterval(() => (loadPeak = Math.max(loadPeak, os.loadavg()[0]!)), 5000);
  loadTimer.unref();
  const work = mkdtempSync(path.join(os.tmpdir(), 'bench-stall-'));
  const rows: Row[] = [];
  let databaseLabel = '';
  const arrivals = new Map<string, number>();
  const sim = await startPartnerSim({ secrets: ['placeholder'], basePath: '/bench', onCall: (c) => arrivals.set(c.deliveryId, performance.now()) });
  const poller = startPoller();
  const execArgv = (process.env.BENCH_NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean);
  try {
    process.stdout.write('writing the test files…\n');
    const files = writeFiles(work, selected);
    const pending = [...selected];
    // A phase cut off leaves its database behind (the service is killed mid-work): the rest run on a fresh one.
    while (pending.length > 0) {
      await withBenchDatabase('stall', async (database) => {
        databaseLabel = database.label;
        const service = await startService(serviceEnv(database), await freePort(), execArgv);
        let broken = false;
        try {
          const ctx = await setupAccount(service.base, sim, arrivals);
          const measure = makeMeasure(service, poller, rows);
          while (pending.length > 0 && !broken) {
            const name = pending.shift()!;
            process.stdout.write(`${name}…\n`);
            broken = await runScenario(name, ctx, files, measure);
          }
        } finally {
          await service.stop(broken ? 2000 : 15_000);
        }
      });
    }
  } finally {
    await poller.close();
    await sim.close();
    rmSync(work, { recursive: true, force: true });
  }

  const commit = git(['rev-parse', '--short', 'HEAD']) || 'unknown';
  // Changes to tracked files other than the results file this benchmark writes.
  const dirty = git(['status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)bench/RESULTS.md']) !== '';
  const busy = loadPeak >= os.cpus().length * 0.5;
  const record: RunRecord = {
    commit: `${commit}${dirty ? ' with uncommitted changes in the working tree' : ''}`,
    date: new Date().toISOString(),
    machine: [
      ...machineLines('service in its own process (src/main.ts serve under tsx, inline worker), /healthz poller in another, workloads driven from a third over loopback', loadBefore, {
        database: databaseLabel,
        rss: 'peak RSS of the service process per workload in the second table',
      }),
      `- Highest 1-min load average seen during the run (sampled every 5 s): ${loadPeak.toFixed(2)}` +
        (busy ? ' — **a busy machine** (other work shares the cores): the numbers are high-side; re-run on a quiet machine' : ''),
      `- Sizes: ${sizes.listings} listings × 2 variants, ${sizes.lines} lines, ${sizes.uploadMiB} MiB upload, ${sizes.deliveries} deliveries; ` +
        `/healthz every ${POLL_MS} ms; histogram resolution ${RESOLUTION_MS} ms; ${SETTLE_MS} ms settle after each phase; cut-off ${TIMEOUT_MS / 1000} s` +
        (process.env.BENCH_NODE_OPTIONS ? `; service node flags: ${process.env.BENCH_NODE_OPTIONS}` : ''),
    ],
    rows,
  };
  const output = process.env.BENCH_OUTPUT ?? path.join(here, 'RESULTS.md');
  const heading = `Stall benchmark${headingSuffix()}`;
  const data = output === '-' ? {} : readData(output, heading);
  if (ROLE === 'baseline') data.baseline = record;
  else data.current = record;
  writeSection(renderSection(data, ROLE, benchDbKind() === 'postgres'), path.join(here, 'RESULTS.md'), 'Stall benchmark', 'Stall benchmark notes');
}

runMain(main);
