/**
 * `npm run bench:scale-out`: several API processes on one PostgreSQL database (issue 13 item 4). Never run by
 * `npm test`. Run it against a throwaway cluster:
 *
 *   bash scripts/ci-postgres.sh npm run bench:scale-out
 *
 * It refuses to run without TEST_DATABASE_URL, and works in a database of its own that it creates in that
 * cluster and drops afterwards. Redis: REDIS_URL when set, else a redis-server it starts on a free loopback
 * port (no persistence). dist/ is built when stale (scripts/build-if-needed.mjs): the service runs as
 * operators run it, `node dist/src/main.js serve` and `node dist/src/main.js worker`.
 *
 * Seeding (once, through the service built in this process and the domain functions, as bench/orders.ts):
 * one account; warehouse "Main" mapped to a SHIPPING integration (scopes fulfillment:self, inventory:self)
 * that stocks BENCH_SKUS SKUs there through POST /v1/inventory; a SALES_CHANNEL installation with the
 * storefront "Shop One" holding BENCH_LISTINGS listings of 2 variants (bench/seed.ts); BENCH_OPEN_ORDERS open
 * 2-line orders owed by the shipping integration (one through HTTP, the rest cloned, bench/seed.ts).
 *
 * Then for N in BENCH_SCALE_PROCESSES (default "1,2,4"): N `serve` processes (WORKER=off, PORT=0, the same
 * SERVER_SECRET and ADMIN_TOKEN, REDIS_URL, RATE_LIMIT_RPS high enough never to refuse this load, so every
 * partner request still goes through the Redis limiter) plus one `worker` process, PG_POOL_SIZE sized so that
 * every pool together stays under the cluster's max_connections. A mixed partner load (bench/scale-out-load.ts,
 * one autocannon per type, connections round-robin over the N processes) runs BENCH_WARMUP seconds, then
 * BENCH_DURATION seconds measured:
 *   create      POST /v1/salesOrder (channel token), 2 lines (1 + 2 units), a new channelOrderId each
 *   ship-poll   GET /v2/shipping/need_to_ship (shipping token), first page
 *   inventory   POST /v1/inventory (shipping token), one item, delta_quantity +1 on an ordered SKU (the rows
 *               the orders reserve on: the counters take both kinds of write at once)
 *   storefront  GET …/listing/variant/inventory/updated and …/listing/product_data/updated (channel token)
 * Every API process's GET /metrics (ADMIN_TOKEN) is read before and after the measured window, and once a
 * second during it: throughput per process and route (http_requests_total), the server-side p99
 * (http_request_duration_seconds buckets), rate_limit_refusals_total, and the most queries seen waiting for
 * a pool connection (db_pool_connections{state="waiting"}). The client side gives p99 per type.
 *
 * After each step, with the processes stopped, the counters are checked (src/domain/inventory/stock.ts and
 * reserved-stock.ts keep them): for every SKU and warehouse available = max(0, on-hand − reserved); reserved
 * equals the reservation ledger (inventory_reservations) and the reserved units of the order routes
 * (order_line_routes); on-hand grew by exactly the units of the inventory updates the processes answered 2xx
 * (from /metrics), reserved by exactly 3 units per order answered 2xx, and the orders stored equal the orders
 * answered. Any difference is reported as drift (expected: none).
 *
 * Knobs (environment): BENCH_SCALE_PROCESSES ("1,2,4"), BENCH_DURATION seconds measured per step (20),
 * BENCH_WARMUP seconds (3; 0 skips), BENCH_CONNECTIONS per request type in total (8; rounded up to a multiple
 * of N), BENCH_PG_POOL_SIZE per API process at most (10), BENCH_SKUS (200), BENCH_LISTINGS (2000),
 * BENCH_OPEN_ORDERS (5000), BENCH_RATE_LIMIT_RPS (100000), BENCH_OUTPUT (default bench/RESULTS.md, where the
 * "## Scale-out (PostgreSQL)" section is replaced and everything else kept; "-" prints only).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrations/index.js';
import type { Db } from '../src/db/tx.js';
import { closeDeps, createDeps } from '../src/create-deps.js';
import type { Deps } from '../src/deps.js';
import { createAccount } from '../src/domain/accounts/accounts.js';
import { createWarehouse } from '../src/domain/accounts/warehouses.js';
import { envInt, freePort, machineLines, runInChild } from './common.js';
import { expectOk, installPartner, runMain, writeSection } from './harness.js';
import type { LoadFigures, MixedLoadJob, MixedLoadResult, MixedLoadType } from './scale-out-load.js';
import { cloneOrders, seedListings, stockMain, twoLineOrderBody } from './seed.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

const DURATION = envInt('BENCH_DURATION', 20, 1);
const WARMUP = envInt('BENCH_WARMUP', 3, 0);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 8, 1);
const MAX_POOL = envInt('BENCH_PG_POOL_SIZE', 10, 1);
const SKU_COUNT = envInt('BENCH_SKUS', 200, 10);
const LISTINGS = envInt('BENCH_LISTINGS', 2000, 10);
const OPEN_ORDERS = envInt('BENCH_OPEN_ORDERS', 5000, 2);
const RATE_LIMIT_RPS = envInt('BENCH_RATE_LIMIT_RPS', 100_000, 1);
const STOCK_PER_SKU = 1_000_000;
/** Units one created order reserves (lines of 1 and 2 units). */
const UNITS_PER_ORDER = 3;
/** Connections kept free of the service's pools: this process's own pool, psql sessions, autovacuum. */
const HEADROOM_CONNECTIONS = 10;
const BENCH_POOL = 4;
const WORKER_POOL = 4;
const TYPES = ['create', 'ship-poll', 'inventory', 'storefront'] as const;
type TypeName = (typeof TYPES)[number];
const ROUTES: Record<TypeName, string[]> = {
  create: ['/v1/salesOrder'],
  'ship-poll': ['/v2/shipping/need_to_ship'],
  inventory: ['/v1/inventory'],
  storefront: ['/v2/storefront/listing/variant/inventory/updated', '/v2/storefront/listing/product_data/updated'],
};

const skuName = (i: number) => `SCL-${String(i).padStart(4, '0')}`;
/** The identifiers POST /v1/inventory's document shape asks for with every item. */
const skuItem = (i: number) => ({ SKU: skuName(i), standardProductId: String(300000000000 + i), standardProductIdType: 'UPC' });
/** The 2-line order on stocked SKUs (`i` picks the pair). */
function orderBody(channelOrderId: string, i: number, orderTs: string): string {
  return twoLineOrderBody(channelOrderId, orderTs, skuName(i % SKU_COUNT), skuName((i + 1) % SKU_COUNT));
}

function processCounts(): number[] {
  const raw = process.env.BENCH_SCALE_PROCESSES ?? '1,2,4';
  const counts = raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (counts.length === 0 || counts.some((s) => !/^\d+$/.test(s) || Number(s) < 1)) {
    throw new Error(`BENCH_SCALE_PROCESSES must be a comma list of whole numbers ≥ 1, got "${raw}"`);
  }
  return counts.map(Number);
}

// ---------------------------------------------------------------------------------------------------------
// Child processes: redis-server, the service's processes, the load generator.

interface Started {
  child: ChildProcess;
  /** stdout and stderr so far (the last 20 000 characters), for error messages. */
  output: () => string;
  /** The first capture group of `ready` in the output. */
  match: string;
}

/** Spawns a process and waits until its output matches `ready`; its exit before that is an error. */
function startProcess(label: string, command: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp, timeoutMs = 60_000): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let settled = false;
    const timer = setTimeout(() => fail(new Error(`${label} did not start within ${timeoutMs / 1000} s:\n${output}`)), timeoutMs);
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      const m = ready.exec(output);
      if (m && !settled) {
        settled = true;
        clearTimeout(timer);
        resolve({ child, output: () => output, match: m[1] ?? '' });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (error) => fail(error));
    child.once('exit', (code, signal) => fail(new Error(`${label} exited (${code ?? signal}) before it was ready:\n${output}`)));
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves with how it ended. */
async function stopProcess(started: Started, graceMs = 15_000): Promise<string> {
  const { child } = started;
  if (child.exitCode !== null || child.signalCode !== null) return `already exited (${child.exitCode ?? child.signalCode})`;
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(String(code ?? signal))));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  const how = await exited;
  clearTimeout(timer);
  return how;
}

/** Runs the mixed load in a child process (bench/scale-out-load.ts). */
function mixedLoad(job: MixedLoadJob): Promise<MixedLoadResult> {
  return runInChild<MixedLoadJob, MixedLoadResult>('scale-out-load.ts', job);
}

// ---------------------------------------------------------------------------------------------------------
// /metrics

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

async function scrape(base: string, adminToken: string): Promise<Sample[]> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${base}/metrics answered ${res.status}: ${text.slice(0, 200)}`);
  return parseMetrics(text);
}

const sum = (samples: Sample[], name: string, where: (labels: Record<string, string>) => boolean = () => true) =>
  samples.filter((s) => s.name === name && where(s.labels)).reduce((n, s) => n + s.value, 0);

/** Routes the benchmark drives (the scrapes themselves and health checks are left out of throughput). */
const isLoadRoute = (labels: Record<string, string>) => Object.values(ROUTES).some((routes) => routes.includes(labels.route ?? ''));

/**
 * p99 (ms) of the measured window from the summed http_request_duration_seconds buckets of every process,
 * interpolated inside the bucket as Prometheus's histogram_quantile does.
 */
function histogramP99(before: Sample[][], after: Sample[][]): number | null {
  const buckets = new Map<number, number>();
  const add = (samples: Sample[], sign: number) => {
    for (const s of samples) {
      if (s.name !== 'http_request_duration_seconds_bucket' || !isLoadRoute(s.labels)) continue;
      const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
      buckets.set(le, (buckets.get(le) ?? 0) + sign * s.value);
    }
  };
  for (const s of after) add(s, 1);
  for (const s of before) add(s, -1);
  const sorted = [...buckets.entries()].sort((a, b) => a[0] - b[0]);
  const total = sorted.at(-1)?.[1] ?? 0;
  if (total <= 0) return null;
  const rank = 0.99 * total;
  let lowerLe = 0;
  let lowerCount = 0;
  for (const [le, count] of sorted) {
    if (count >= rank) {
      if (le === Infinity) return lowerLe * 1000;
      return (lowerLe + ((le - lowerLe) * (rank - lowerCount)) / Math.max(count - lowerCount, 1)) * 1000;
    }
    lowerLe = le;
    lowerCount = count;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Counters

interface Counters {
  onhand: number;
  reserved: number;
  orders: number;
  /** (product, warehouse) rows breaking available = max(0, on-hand − reserved). */
  badAvailable: number;
  /** Rows whose reserved differs from the reservation ledger. */
  badLedger: number;
  /** Rows whose reserved differs from the reserved units of the order routes. */
  badRoutes: number;
  kitComponents: number;
}

async function readCounters(db: Db, accountId: number): Promise<Counters> {
  const one = async <T,>(query: RawBuilder<T>) => (await query.execute(db)).rows[0]!;
  const totals = await one<{ onhand: string | null; reserved: string | null; bad: string }>(sql`
    select sum(onhand_quantity) as onhand, sum(reserved_quantity) as reserved,
           count(*) filter (where available_quantity <> greatest(0, onhand_quantity - reserved_quantity)) as bad
    from inventory where account_id = ${accountId}`);
  // Stock rows whose reserved count differs from what `table` holds per (product, warehouse) in `column`.
  const reservedMismatches = (table: string, column: string) =>
    one<{ bad: string }>(sql`
    select count(*) as bad from inventory i
    full join (select product_id, warehouse_id, sum(${sql.ref(column)}) as q from ${sql.table(table)}
               where account_id = ${accountId} group by product_id, warehouse_id) h
      on h.product_id = i.product_id and h.warehouse_id = i.warehouse_id
    where (i.account_id = ${accountId} or i.account_id is null)
      and coalesce(i.reserved_quantity, 0) <> coalesce(h.q, 0)`);
  const ledger = await reservedMismatches('inventory_reservations', 'quantity');
  const routes = await reservedMismatches('order_line_routes', 'reserved_quantity');
  const orders = await one<{ n: string }>(sql`select count(*) as n from sales_orders where account_id = ${accountId} and channel_order_id like 'SCALE-%'`);
  const kits = await one<{ n: string }>(sql`select count(*) as n from order_route_kit_components where account_id = ${accountId}`);
  return {
    onhand: Number(totals.onhand ?? 0),
    reserved: Number(totals.reserved ?? 0),
    orders: Number(orders.n),
    badAvailable: Number(totals.bad),
    badLedger: Number(ledger.bad),
    badRoutes: Number(routes.bad),
    kitComponents: Number(kits.n),
  };
}

// ---------------------------------------------------------------------------------------------------------
// One step: N API processes + one worker under the mixed load.

interface StepResult {
  processes: number;
  poolSize: number;
  connectionsPerType: number;
  load: MixedLoadResult;
  /** Requests of the driven routes per second, per process, from /metrics. */
  metricsRpsPerProcess: number[];
  serverP99Ms: number | null;
  refusals: number;
  status429: number;
  maxPoolWaiting: number;
  maxPoolTotal: number;
  /** The largest resident memory of one API process seen in its /metrics during the step (MB). */
  maxRssMb: number;
  redisCommands: number | null;
  /** Orders and inventory updates committed whose answer the load generator no longer read (cut off at its deadline). */
  uncounted: number;
  drift: string[];
}

interface Setup {
  databaseUrl: string;
  redisUrl: string;
  serverSecret: string;
  adminToken: string;
  maxConnections: number;
  deps: Deps;
  accountId: number;
  types: Omit<MixedLoadType, 'connections'>[];
}

function serviceEnv(setup: Setup, poolSize: number, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('BENCH_') || key === 'TEST_DATABASE_URL' || key === 'METRICS_PORT') delete env[key];
  return {
    ...env,
    NODE_ENV: 'development',
    DATABASE_URL: setup.databaseUrl,
    PG_POOL_SIZE: String(poolSize),
    REDIS_URL: setup.redisUrl,
    SERVER_SECRET: setup.serverSecret,
    ADMIN_TOKEN: setup.adminToken,
    RATE_LIMIT_RPS: String(RATE_LIMIT_RPS),
    RATE_LIMIT_BURST: String(RATE_LIMIT_RPS),
    WORKER: 'off',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
  };
}

/**
 * Waits until no process has a query running or waiting (db_pool_connections total = idle, waiting 0) and
 * their request counters stand still: requests cut off by the load generator at its deadline still run to
 * their commit on the server.
 */
async function settle(urls: string[], adminToken: string): Promise<void> {
  let previous = -1;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const all = await Promise.all(urls.map((u) => scrape(u, adminToken)));
    const busy = all.reduce(
      (n, s) => n + sum(s, 'db_pool_connections', (l) => l.state === 'total') - sum(s, 'db_pool_connections', (l) => l.state === 'idle') + sum(s, 'db_pool_connections', (l) => l.state === 'waiting'),
      0,
    );
    const answered = all.reduce((n, s) => n + sum(s, 'http_requests_total', isLoadRoute), 0);
    if (busy === 0 && answered === previous) return;
    previous = answered;
    await sleep(250);
  }
  throw new Error('the API processes did not become idle within 60 s of the load');
}

async function redisCommandsProcessed(redis: Redis): Promise<number | null> {
  const m = /total_commands_processed:(\d+)/.exec(await redis.info('stats'));
  return m ? Number(m[1]) : null;
}

async function runStep(setup: Setup, redis: Redis, n: number): Promise<StepResult> {
  // Every pool together (N API processes, the worker, this process) stays under max_connections.
  const poolSize = Math.max(1, Math.min(MAX_POOL, Math.floor((setup.maxConnections - HEADROOM_CONNECTIONS - BENCH_POOL - WORKER_POOL) / n)));
  const connectionsPerType = Math.ceil(CONNECTIONS / n) * n;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mcs-bench-scale-'));
  const started: Started[] = [];
  let sampler: Promise<void> | null = null;
  let sampling = false;
  try {
    const apiEnv = serviceEnv(setup, poolSize, dataDir);
    const apis = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        startProcess(`API process ${i + 1}`, process.execPath, ['dist/src/main.js', 'serve'], apiEnv, /listening on (http:\/\/\S+) \(postgres\)/).then((s) => {
          started.push(s);
          return s;
        }),
      ),
    );
    const worker = await startProcess('worker', process.execPath, ['dist/src/main.js', 'worker'], serviceEnv(setup, WORKER_POOL, dataDir), /worker (\S+) running on postgres/);
    started.push(worker);
    const urls = apis.map((a) => a.match);
    for (const url of urls) await expectOk(await fetch(`${url}/readyz`), `GET ${url}/readyz`);
    process.stdout.write(`${n} API process(es) at ${urls.join(' ')} (PG_POOL_SIZE ${poolSize}) + worker ${worker.match}\n`);

    const job: MixedLoadJob = { urls, durationSeconds: DURATION, types: setup.types.map((t) => ({ ...t, connections: connectionsPerType })) };
    if (WARMUP > 0) {
      await mixedLoad({ ...job, durationSeconds: WARMUP });
    }
    const scrapeAll = () => Promise.all(urls.map((u) => scrape(u, setup.adminToken)));
    await settle(urls, setup.adminToken);
    const countersBefore = await readCounters(setup.deps.db.db, setup.accountId);
    const before = await scrapeAll();
    const redisBefore = await redisCommandsProcessed(redis);

    // Pool pressure is a gauge sampled at scrape time: sample it every second while the load runs.
    let maxPoolWaiting = 0;
    let maxPoolTotal = 0;
    let maxRssMb = 0;
    sampling = true;
    sampler = (async () => {
      while (sampling) {
        await sleep(1000);
        if (!sampling) break;
        for (const samples of await scrapeAll()) {
          maxPoolWaiting = Math.max(maxPoolWaiting, sum(samples, 'db_pool_connections', (l) => l.state === 'waiting'));
          maxPoolTotal = Math.max(maxPoolTotal, sum(samples, 'db_pool_connections', (l) => l.state === 'total'));
          maxRssMb = Math.max(maxRssMb, sum(samples, 'process_resident_memory_bytes', () => true) / 2 ** 20);
        }
      }
    })();
    const load = await mixedLoad(job);
    sampling = false;
    await sampler;
    sampler = null;
    await settle(urls, setup.adminToken);
    const after = await scrapeAll();
    const redisAfter = await redisCommandsProcessed(redis);
    const hows = await Promise.all(started.splice(0).map((s) => stopProcess(s)));
    if (hows.some((h) => h !== '0')) process.stdout.write(`warning: process exits: ${hows.join(', ')}\n`);

    const delta = (name: string, where: (labels: Record<string, string>) => boolean, i: number) => sum(after[i]!, name, where) - sum(before[i]!, name, where);
    const total = (name: string, where: (labels: Record<string, string>) => boolean) => urls.reduce((acc, _, i) => acc + delta(name, where, i), 0);
    const ok = (route: string) => (l: Record<string, string>) => l.route === route && l.method === 'POST' && /^2/.test(l.status ?? '');

    // The counters, with every process stopped.
    const countersAfter = await readCounters(setup.deps.db.db, setup.accountId);
    const ordersOk = total('http_requests_total', ok('/v1/salesOrder'));
    const inventoryOk = total('http_requests_total', ok('/v1/inventory'));
    const drift: string[] = [];
    if (countersAfter.badAvailable > 0) drift.push(`${countersAfter.badAvailable} stock rows with available ≠ max(0, on-hand − reserved)`);
    if (countersAfter.badLedger > 0) drift.push(`${countersAfter.badLedger} stock rows whose reserved ≠ the reservation ledger`);
    if (countersAfter.badRoutes > 0) drift.push(`${countersAfter.badRoutes} stock rows whose reserved ≠ the reserved units of the order routes`);
    if (countersAfter.kitComponents > 0) drift.push(`${countersAfter.kitComponents} kit component reservations (not expected in this load; the route check ignores them)`);
    // A request the load generator cut off at its deadline still commits on the server, but its response
    // goes to a closed socket, and Fastify's onResponse (http_requests_total) does not see it. So the
    // counters may have grown by up to that many more requests than /metrics counts: never fewer, never more.
    const cutOrders = load.byType.create?.cutOff ?? 0;
    const cutInventory = load.byType.inventory?.cutOff ?? 0;
    const within = (growth: number, counted: number, cut: number, unit: number) => growth >= counted * unit && growth <= (counted + cut) * unit && growth % unit === 0;
    const onhandGrowth = countersAfter.onhand - countersBefore.onhand;
    if (!within(onhandGrowth, inventoryOk, cutInventory, 1)) {
      drift.push(`on-hand grew by ${onhandGrowth}; ${inventoryOk} inventory updates of +1 were answered 2xx (+ up to ${cutInventory} cut off at the deadline)`);
    }
    const reservedGrowth = countersAfter.reserved - countersBefore.reserved;
    if (!within(reservedGrowth, ordersOk, cutOrders, UNITS_PER_ORDER)) {
      drift.push(`reserved grew by ${reservedGrowth}; ${ordersOk} orders of ${UNITS_PER_ORDER} units were answered 2xx (+ up to ${cutOrders} cut off)`);
    }
    const ordersStored = countersAfter.orders - countersBefore.orders;
    if (!within(ordersStored, ordersOk, cutOrders, 1)) drift.push(`${ordersStored} orders stored; ${ordersOk} answered 2xx (+ up to ${cutOrders} cut off)`);
    if (ordersStored * UNITS_PER_ORDER !== reservedGrowth) drift.push(`${ordersStored} orders stored but reserved grew by ${reservedGrowth}`);
    const uncounted = onhandGrowth - inventoryOk + ordersStored - ordersOk;

    return {
      processes: n,
      poolSize,
      connectionsPerType,
      load,
      metricsRpsPerProcess: urls.map((_, i) => delta('http_requests_total', isLoadRoute, i) / DURATION),
      serverP99Ms: histogramP99(before, after),
      refusals: total('rate_limit_refusals_total', () => true),
      status429: total('http_requests_total', (l) => l.status === '429'),
      maxPoolWaiting,
      maxRssMb,
      maxPoolTotal,
      redisCommands: redisBefore !== null && redisAfter !== null ? redisAfter - redisBefore : null,
      uncounted,
      drift,
    };
  } finally {
    sampling = false;
    if (sampler) await sampler.catch(() => undefined);
    await Promise.all(started.map((s) => stopProcess(s)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Setup and report

/** Seeds the account through the service built in this process; returns the request types of the load. */
async function seed(deps: Deps, base: string): Promise<{ accountId: number; types: Omit<MixedLoadType, 'connections'>[]; openOrders: number }> {
  const db = deps.db.db;
  const now = deps.clock.now();
  const { accountId } = await createAccount(db, { name: 'Scale-out seller' }, now);
  const main = (await createWarehouse(db, accountId, { name: 'Main' }, now)).warehouseId;
  const shipping = await installPartner(deps, base, accountId, 'SHIPPING', ['sales:orders:fulfillment:self', 'inventory:self'], {
    name: 'Bench shipper',
    warehouses: [{ warehouseId: main, warehouseUniqueId: 'SHIP-MAIN' }],
  });
  const channel = await installPartner(deps, base, accountId, 'SALES_CHANNEL', ['listing:self', 'sales:orders:self'], {
    name: 'Bench channel',
    storefrontName: 'Shop One',
  });
  const shipHeaders = { authorization: `Bearer ${shipping.token}`, 'content-type': 'application/json' };
  const channelHeaders = { authorization: `Bearer ${channel.token}`, 'content-type': 'application/json' };

  const productIds = await stockMain(db, base, shipHeaders, accountId, Array.from({ length: SKU_COUNT }, (_, i) => skuItem(i)), STOCK_PER_SKU);

  const seededAt = new Date(now.getTime() - 86_400_000);
  await seedListings(db, accountId, channel.installationId, main, LISTINGS, seededAt, { perListing: 2, drifting: 0 });

  const recentTs = new Date(now.getTime() - 3_600_000).toISOString();
  const template = (await expectOk(
    await fetch(`${base}/v1/salesOrder`, { method: 'POST', headers: channelHeaders, body: orderBody('TEMPLATE', 0, recentTs) }),
    'POST /v1/salesOrder (template)',
  )) as { orderNumber: string };
  await cloneOrders(db, accountId, Number(template.orderNumber), OPEN_ORDERS - 1, productIds, now, skuName);

  // Every request type answers 2xx once before the load.
  const shipPoll = await fetch(`${base}${ROUTES['ship-poll'][0]}`, { headers: { authorization: shipHeaders.authorization } });
  await expectOk(shipPoll, 'GET need_to_ship');
  for (const route of ROUTES.storefront) await expectOk(await fetch(`${base}${route}`, { headers: { authorization: channelHeaders.authorization } }), `GET ${route}`);
  await expectOk(
    await fetch(`${base}/v1/inventory`, { method: 'POST', headers: shipHeaders, body: JSON.stringify({ warehouseName: 'Main', items: [{ ...skuItem(0), delta_quantity: 1 }] }) }),
    'POST /v1/inventory (delta)',
  );

  const types: Omit<MixedLoadType, 'connections'>[] = [
    {
      name: 'create',
      method: 'POST',
      headers: channelHeaders,
      paths: ROUTES.create,
      bodies: Array.from({ length: SKU_COUNT }, (_, i) => orderBody('SCALE-[<id>]', i, recentTs)),
      uniqueIds: true,
      randomBodies: true,
    },
    { name: 'ship-poll', method: 'GET', headers: { authorization: shipHeaders.authorization }, paths: ROUTES['ship-poll'], bodies: null },
    {
      name: 'inventory',
      method: 'POST',
      headers: shipHeaders,
      paths: ROUTES.inventory,
      bodies: Array.from({ length: SKU_COUNT }, (_, i) => JSON.stringify({ warehouseName: 'Main', items: [{ ...skuItem(i), delta_quantity: 1 }] })),
      randomBodies: true,
    },
    { name: 'storefront', method: 'GET', headers: { authorization: channelHeaders.authorization }, paths: ROUTES.storefront, bodies: null },
  ];
  return { accountId, types, openOrders: OPEN_ORDERS };
}

async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => undefined };
  const port = await freePort();
  const started = await startProcess('redis-server', 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], process.env, /(Ready to accept connections)/, 15_000).catch(
    (error: unknown) => {
      throw new Error(`could not start redis-server (install it, or set REDIS_URL): ${error instanceof Error ? error.message : String(error)}`);
    },
  );
  return { url: `redis://127.0.0.1:${port}`, stop: async () => void (await stopProcess(started)) };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (f: LoadFigures | undefined) => (f ? `${f.latencyP99Ms} ms` : '–');

function report(results: StepResult[], info: { loadBefore: number; maxConnections: number; openOrders: number; redisExternal: boolean }): string {
  const first = results[0];
  const lines = [
    '## Scale-out (PostgreSQL)',
    '',
    `Written by \`npm run bench:scale-out\` (bench/scale-out.ts) on ${new Date().toISOString()}.`,
    '',
    ...machineLines(
      `N \`node dist/src/main.js serve\` processes (WORKER=off) + 1 \`worker\` process on one PostgreSQL database (max_connections ${info.maxConnections}), ` +
        `the rate limit shared through ${info.redisExternal ? 'the Redis at REDIS_URL' : 'a local redis-server'} (RATE_LIMIT_RPS ${fmt(RATE_LIMIT_RPS)}: never refuses this load, every request still checks it), ` +
        'autocannon in one child process on the same machine, loopback only, log level warn',
      info.loadBefore,
      {
        database: `PostgreSQL (throwaway local cluster from scripts/ci-postgres.sh), max_connections ${info.maxConnections}`,
        rss: `largest API process ${Math.max(...results.map((r) => r.maxRssMb)).toFixed(0)} MB (process_resident_memory_bytes of each process's /metrics, sampled every second)`,
      },
    ),
    `- Data: one account; ${SKU_COUNT} SKUs stocked in Main by a SHIPPING integration; ${fmt(info.openOrders)} open 2-line orders owed to it; a storefront with ${fmt(LISTINGS)} listings of 2 variants`,
    `- Load per step: ${WARMUP > 0 ? `${WARMUP} s warm-up, then ` : ''}${DURATION} s measured; 4 request types at once, each with ${first ? first.connectionsPerType : CONNECTIONS} connections spread round-robin over the N processes: ` +
      'create = POST /v1/salesOrder (2 lines on a random pair of the SKUs, new channelOrderId each); ship-poll = GET /v2/shipping/need_to_ship; ' +
      'inventory = POST /v1/inventory, one delta_quantity +1 on a random one of the ordered SKUs; storefront = GET …/variant/inventory/updated and …/product_data/updated alternately',
    '- req/s and per-process split from each process\'s /metrics (http_requests_total of the driven routes); client p99 per type from autocannon; ' +
      'server p99 from the summed http_request_duration_seconds buckets; pool waiting = most queries seen waiting for a connection (db_pool_connections, sampled every second)',
    '- Drift: after each step, with the processes stopped: available = max(0, on-hand − reserved) on every stock row; reserved = the reservation ledger = the reserved units of the order routes; ' +
      `on-hand grew by the 2xx inventory updates and reserved by ${UNITS_PER_ORDER} units per 2xx order (both counted from /metrics); orders stored = orders answered 2xx`,
    '',
    '| Processes | PG_POOL_SIZE | req/s (/metrics) | per process | client p99 all | server p99 all | p99 create | p99 ship-poll | p99 inventory | p99 storefront | 429 / refusals | pool waiting (max) | non-2xx / errors | Redis cmds/s | drift |',
    '|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---|---:|---|',
    ...results.map((r) => {
      const metricsRps = r.metricsRpsPerProcess.reduce((a, b) => a + b, 0);
      return (
        `| ${r.processes} | ${r.poolSize} | ${fmt(metricsRps)} | ${r.metricsRpsPerProcess.map(fmt).join(' / ')} | ${r.load.total.latencyP99Ms} ms | ` +
        `${r.serverP99Ms === null ? '–' : `${r.serverP99Ms.toFixed(0)} ms`} | ${TYPES.map((t) => ms(r.load.byType[t])).join(' | ')} | ` +
        `${fmt(r.status429)} / ${fmt(r.refusals)} | ${r.maxPoolWaiting} (of ${r.maxPoolTotal} open) | ${fmt(r.load.total.non2xx)} / ${fmt(r.load.total.errors)} | ` +
        `${r.redisCommands === null ? '–' : fmt(r.redisCommands / DURATION)} | ${r.drift.length === 0 ? `none${r.uncounted > 0 ? ` (${r.uncounted} writes cut off at the deadline committed unanswered)` : ''}` : r.drift.join('; ')} |`
      );
    }),
    '',
    'Requests per second by type (client side, autocannon):',
    '',
    `| Processes | ${TYPES.join(' | ')} | all |`,
    `|---:|${TYPES.map(() => '---:').join('|')}|---:|`,
    ...results.map((r) => `| ${r.processes} | ${TYPES.map((t) => fmt(r.load.byType[t]?.requestsPerSecond ?? 0)).join(' | ')} | ${fmt(r.load.total.requestsPerSecond)} |`),
    '',
  ];
  const base = results[0];
  if (base && results.length > 1) {
    const baseRps = base.metricsRpsPerProcess.reduce((a, b) => a + b, 0);
    const scaling = results.map((r) => `${r.processes}: ×${(r.metricsRpsPerProcess.reduce((a, b) => a + b, 0) / baseRps).toFixed(2)}`).join(', ');
    lines.push(
      `Throughput relative to ${base.processes} process(es): ${scaling}. With ${os.cpus().length} cores shared by the API processes, the worker, PostgreSQL, Redis and the load generator, ` +
        'the curve flattens as soon as the cores are busy: more processes then only add context switches and connections. ' +
        'docs/operators/scaling.md explains how it grows with more cores and machines.',
      '',
    );
  }
  return lines.join('\n');
}

async function main() {
  const testUrl = process.env.TEST_DATABASE_URL;
  if (!testUrl) {
    process.stderr.write(
      'bench:scale-out needs a PostgreSQL cluster it may create a database in (TEST_DATABASE_URL). Run it as\n' +
        '  bash scripts/ci-postgres.sh npm run bench:scale-out\n' +
        'which starts a throwaway cluster and sets TEST_DATABASE_URL for the command.\n',
    );
    process.exit(2);
  }
  const counts = processCounts();
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: root, stdio: 'inherit' });

  // A database of our own in that cluster, dropped afterwards.
  const dbName = `mcs_scale_out_${Date.now()}`;
  const admin = new pg.Client({ connectionString: testUrl });
  await admin.connect();
  const maxConnections = Number((await admin.query<{ max_connections: string }>('show max_connections')).rows[0]!.max_connections);
  await admin.query(`create database ${dbName}`);
  const dbUrl = new URL(testUrl);
  dbUrl.pathname = `/${dbName}`;
  const databaseUrl = dbUrl.toString();

  const redisExternal = Boolean(process.env.REDIS_URL);
  const redisServer = await startRedis();
  const redis = new Redis(redisServer.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mcs-bench-scale-seed-'));
  const serverSecret = randomBytes(32).toString('hex');
  const adminToken = randomBytes(16).toString('hex');
  const config = loadConfig({ DATABASE_URL: databaseUrl, PG_POOL_SIZE: String(BENCH_POOL), DATA_DIR: dataDir, SERVER_SECRET: serverSecret, RATE_LIMIT_RPS: '0', LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0' });
  const deps = createDeps(config);
  try {
    await migrateToLatest(deps.db.db as unknown as Kysely<unknown>, deps.db.dialect);
    const app = await buildApp(deps);
    const seedStarted = performance.now();
    let seeded: Awaited<ReturnType<typeof seed>>;
    try {
      seeded = await seed(deps, await app.listen({ host: '127.0.0.1', port: 0 }));
    } finally {
      await app.close();
    }
    process.stdout.write(`seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s (database ${dbName}, max_connections ${maxConnections}, Redis ${redisServer.url})\n`);

    const setup: Setup = { databaseUrl, redisUrl: redisServer.url, serverSecret, adminToken, maxConnections, deps, accountId: seeded.accountId, types: seeded.types };
    const loadBefore = os.loadavg()[0]!;
    const results: StepResult[] = [];
    for (const n of counts) {
      const r = await runStep(setup, redis, n);
      results.push(r);
      const rps = r.metricsRpsPerProcess.reduce((a, b) => a + b, 0);
      process.stdout.write(
        `${n} process(es): ${fmt(rps)} req/s (/metrics; client ${fmt(r.load.total.requestsPerSecond)}), client p99 ${r.load.total.latencyP99Ms} ms, ` +
          `${TYPES.map((t) => `${t} ${fmt(r.load.byType[t]?.requestsPerSecond ?? 0)}/s p99 ${ms(r.load.byType[t])}`).join(', ')}; ` +
          `429s ${r.status429}, pool waiting max ${r.maxPoolWaiting}, non-2xx ${r.load.total.non2xx}, errors ${r.load.total.errors}; drift: ${r.drift.length === 0 ? 'none' : r.drift.join('; ')}\n`,
      );
    }
    writeSection(report(results, { loadBefore, maxConnections, openOrders: seeded.openOrders, redisExternal }), path.join(here, 'RESULTS.md'), 'Scale-out (PostgreSQL)', 'Scale-out notes');
    const drifted = results.filter((r) => r.drift.length > 0);
    if (drifted.length > 0) throw new Error(`counters drifted with ${drifted.map((r) => r.processes).join(', ')} process(es)`);
  } finally {
    await closeDeps(deps);
    redis.disconnect();
    await redisServer.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await admin.query(`drop database if exists ${dbName} with (force)`).catch((error: unknown) => process.stderr.write(`could not drop ${dbName}: ${String(error)}\n`));
    await admin.end();
  }
}

runMain(main);
