/**
 * Callbacks benchmark: deliveries per second to a local receiver and event-to-delivery latency, with the
 * worker inline (startWorker, as `serve` runs it with WORKER=inline) on the database BENCH_DB selects
 * (embedded SQLite by default, or a fresh PostgreSQL schema: bench/harness.ts) with a fresh DATA_DIR. The receiver is partner-sim (src/cli/partner-sim-server.ts) in the same process: it
 * verifies every call with the partner client's verifyCallback, so each delivery is signed, sent over
 * loopback HTTP, verified, answered 200 and recorded, through the real sender and delivery job.
 *
 * Scenarios (an "event" is an ingestion request committed by requestIngestion in its own transaction, as
 * the admin trigger route does):
 *
 * - drain: BENCH_CALLBACKS_QUEUED (default 2000) events queued with no worker running, then the worker starts:
 *   deliveries/s = events / (last received − worker start);
 * - burst: as many events committed back to back as BENCH_CALLBACKS_QUEUED, with the worker running: the rate
 *   and the latency from each commit to its arrival at the receiver;
 * - sustained: BENCH_CALLBACKS_SUSTAINED_RATE events/s (default 400, below the drain rate) for
 *   BENCH_CALLBACKS_SECONDS (default 10) with the worker running: latency under steady heavy load;
 * - paced: BENCH_CALLBACKS_RATE events/s (default 20) for BENCH_CALLBACKS_SECONDS with the worker running:
 *   latency when the worker is mostly idle (each commit wakes it; no poll interval to wait out).
 *
 *   npm run bench:callbacks
 *   BENCH_SCENARIOS=paced BENCH_OUTPUT=- npm run bench:callbacks
 *
 *   BENCH_DB=postgres bash scripts/ci-postgres.sh npm run bench:callbacks
 *
 * Writes the "## Callbacks" section of bench/RESULTS.md ("## Callbacks (PostgreSQL)" with BENCH_DB=postgres;
 * BENCH_OUTPUT=- prints only).
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { startPartnerSim, type PartnerSim } from '../src/cli/partner-sim-server.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrations/index.js';
import { withTx } from '../src/db/tx.js';
import { closeDeps, createDeps } from '../src/create-deps.js';
import type { Deps } from '../src/deps.js';
import { createAccount } from '../src/domain/accounts/accounts.js';
import { registerApp } from '../src/domain/accounts/apps.js';
import { installApp } from '../src/domain/accounts/installations.js';
import { warehouseWorkPort } from '../src/domain/fulfillment/warehouse-handover.js';
import { requestIngestion } from '../src/domain/callbacks/triggers.js';
import { startWorker } from '../src/jobs/worker.js';
import { envInt, machineLines, RssSampler } from './common.js';
import { withBenchDatabase } from './database.js';
import { runMain, selectedScenarios, writeSection } from './harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const SCENARIOS = ['drain', 'burst', 'sustained', 'paced'] as const;
type ScenarioName = (typeof SCENARIOS)[number];

interface Outcome {
  scenario: ScenarioName;
  title: string;
  deliveries: number;
  seconds: number;
  perSecond: number;
  /** Milliseconds from commit to arrival; null where not measured (drain). */
  p50: number | null;
  p99: number | null;
  max: number | null;
  rejected: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Waits until `count` calls arrived, or throws after `timeoutMs`. */
async function arrivals(sim: PartnerSim, count: number, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (sim.calls.length < count) {
    if (performance.now() > deadline) throw new Error(`only ${sim.calls.length} of ${count} deliveries arrived in ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

interface Setup {
  deps: Deps;
  sim: PartnerSim;
  accountId: number;
  storefrontId: number;
  /** Commit time (performance.now()) of each event, by delivery id. */
  committed: Map<string, number>;
  /** Arrival time at the receiver, by delivery id. */
  arrived: Map<string, number>;
}

async function event(s: Setup, i: number): Promise<void> {
  const { deliveryId } = await withTx(s.deps.db.db, (tx) => requestIngestion(tx, s.accountId, s.storefrontId, { skus: [`BENCH-${i}`] }, s.deps.clock.now()));
  s.committed.set(deliveryId, performance.now());
}

function latencies(s: Setup, from: number): { p50: number; p99: number; max: number } {
  const values = [...s.arrived.entries()].filter(([id]) => (s.committed.get(id) ?? -1) >= from).map(([id, at]) => at - s.committed.get(id)!);
  values.sort((a, b) => a - b);
  return { p50: percentile(values, 50), p99: percentile(values, 99), max: values.at(-1)! };
}

async function scenario(s: Setup, name: ScenarioName, queued: number, rates: { sustained: number; paced: number }, seconds: number): Promise<Outcome> {
  const before = s.sim.calls.length;
  const rejectedBefore = s.sim.calls.filter((c) => !c.verified).length;
  const rejected = () => s.sim.calls.filter((c) => !c.verified).length - rejectedBefore;
  if (name === 'drain') {
    for (let i = 0; i < queued; i++) await event(s, i);
    const started = performance.now();
    const worker = startWorker(s.deps);
    try {
      await arrivals(s.sim, before + queued, 600_000);
    } finally {
      await worker.stop();
    }
    const elapsed = (Math.max(...[...s.arrived.values()]) - started) / 1000;
    return { scenario: name, title: `drain: ${queued} queued events, then the worker starts`, deliveries: queued, seconds: elapsed, perSecond: queued / elapsed, p50: null, p99: null, max: null, rejected: rejected() };
  }
  const worker = startWorker(s.deps);
  try {
    // Let the worker reach its idle poll before the first event, as a running server's worker would be.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const started = performance.now();
    let count = 0;
    if (name === 'burst') {
      for (; count < queued; count++) await event(s, count);
    } else {
      const rate = name === 'sustained' ? rates.sustained : rates.paced;
      const gapMs = 1000 / rate;
      for (; count < rate * seconds; count++) {
        await event(s, count);
        const next = started + (count + 1) * gapMs;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
      }
    }
    await arrivals(s.sim, before + count, 600_000);
    const last = Math.max(...[...s.arrived.values()]);
    const elapsed = (last - started) / 1000;
    const title =
      name === 'burst' ? `burst: ${count} events committed back to back, worker running` : `${name}: ${count / seconds} events/s for ${seconds} s, worker running`;
    return { scenario: name, title, deliveries: count, seconds: elapsed, perSecond: count / elapsed, ...latencies(s, started), rejected: rejected() };
  } finally {
    await worker.stop();
  }
}

async function main(): Promise<void> {
  const queued = envInt('BENCH_CALLBACKS_QUEUED', 2000, 1);
  const rates = { sustained: envInt('BENCH_CALLBACKS_SUSTAINED_RATE', 400, 1), paced: envInt('BENCH_CALLBACKS_RATE', 20, 1) };
  const seconds = envInt('BENCH_CALLBACKS_SECONDS', 10, 1);
  const selected = selectedScenarios(SCENARIOS);
  const loadBefore = os.loadavg()[0]!;
  const outcomes: Outcome[] = [];
  const run = await withBenchDatabase('callbacks', async (database) => {
    // Local receiver on plain http: the sandbox setting that allows it (CALLBACKS_ALLOW_PRIVATE).
    const config = loadConfig({ ...database.env, RATE_LIMIT_RPS: '0', LOG_LEVEL: 'silent', CALLBACKS_ALLOW_PRIVATE: 'true' });
    const deps = createDeps(config, { rateLimiter: null });
    const arrived = new Map<string, number>();
    let sim: PartnerSim | null = null;
    const rss = new RssSampler();
    try {
      await migrateToLatest(deps.db.db as unknown as Kysely<unknown>, deps.db.dialect);
      sim = await startPartnerSim({ secrets: ['placeholder'], basePath: '/bench', onCall: (call) => arrived.set(call.deliveryId, performance.now()) });
      const now = deps.clock.now();
      const account = await createAccount(deps.db.db, { name: 'Bench callbacks' }, now);
      const app = await registerApp(
        deps.db.db,
        deps.signer,
        { name: 'Bench channel', contactEmail: 'dev@bench.example', redirectUri: 'https://bench.example/oauth', kind: 'SALES_CHANNEL', scopes: ['listing:self'], callbackBaseUrl: sim.callbackBaseUrl },
        now,
        { callbacksAllowPrivate: true },
      );
      sim.setSecrets([app.callbackSigningSecret]);
      const installed = await withTx(deps.db.db, (tx) => installApp(tx, account.accountId, { appId: app.appId, storefrontName: 'Bench shop' }, now, warehouseWorkPort));
      const setup: Setup = { deps, sim, accountId: account.accountId, storefrontId: installed.storefrontId!, committed: new Map(), arrived };
      rss.markRuns();
      for (const name of selected) {
        const outcome = await scenario(setup, name, queued, rates, seconds);
        process.stdout.write(`${outcome.title}: ${outcome.perSecond.toFixed(0)} deliveries/s, p50 ${outcome.p50?.toFixed(0) ?? '–'} ms, p99 ${outcome.p99?.toFixed(0) ?? '–'} ms\n`);
        outcomes.push(outcome);
      }
      return { database: database.label, rss: rss.summary() };
    } finally {
      rss.stop();
      await sim?.close();
      await closeDeps(deps);
    }
  });

  const ms = (v: number | null) => (v === null ? '–' : `${v.toFixed(0)} ms`);
  const text = [
    '## Callbacks',
    '',
    '`npm run bench:callbacks` (bench/callbacks.ts): ingestion-request callbacks through the real outbox, delivery job and sender',
    '(signed, loopback HTTP) to partner-sim in the same process (verifies each call with the partner client), the worker',
    'inline with its default settings (WORKER_CALLBACK_CONCURRENCY=8 delivery lanes beside the main loop, woken by each',
    'commit that queues a delivery), a temporary DATA_DIR (the database is named below).',
    '',
    ...machineLines('one process: service domain code, inline worker and receiver', loadBefore, run),
    '- latency = from the event\'s commit (requestIngestion in its own transaction) to its arrival at the receiver',
    '- targets (issue 11): ≥ 500 deliveries/s and p50 < 1 s on SQLite',
    '',
    '| Scenario | deliveries | seconds | deliveries/s | p50 | p99 | max | rejected |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...outcomes.map((o) => `| ${o.title} | ${o.deliveries} | ${o.seconds.toFixed(2)} | ${o.perSecond.toFixed(0)} | ${ms(o.p50)} | ${ms(o.p99)} | ${ms(o.max)} | ${o.rejected} |`),
    '',
  ].join('\n');
  writeSection(text, path.join(here, 'RESULTS.md'), 'Callbacks', 'Callbacks notes');
}

runMain(main);
