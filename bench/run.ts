/**
 * `npm run bench`: how much of a bare Fastify route's throughput the service keeps on its hottest read,
 * and what a 50-item inventory update costs. Never run by `npm test`.
 *
 * The service runs in this process exactly as `serve` builds it (bench/harness.ts withBenchService: buildApp
 * over the database BENCH_DB selects, embedded SQLite by default or PostgreSQL, with a temporary DATA_DIR;
 * rate limiting off, logging silent) on 127.0.0.1; autocannon runs in a child
 * process (bench/load.ts). Scenarios:
 *   bare       a second, bare Fastify instance in this process answering GET /v1/inventory/:SKU with the
 *              same JSON the service returns (no auth, no database)
 *   sku-read   authenticated GET /v1/inventory/{SKU} over ~1000 SKUs stocked in two warehouses
 *   update-50  POST /v1/inventory with 50 delta_quantity items
 * Each scenario is warmed up, then measured BENCH_RUNS times (round-robin, so drift hits all alike); the
 * table reports medians and is written to bench/RESULTS.md. After them, update-50's database reference runs
 * BENCH_RUNS times on the same database: bench/inventory-reference.ts on SQLite, bench/inventory-reference-pg.ts
 * (BENCH_CONNECTIONS clients) on PostgreSQL, with the ratio route / reference.
 *
 * Knobs (environment): BENCH_DURATION seconds per run (8), BENCH_RUNS (2), BENCH_CONNECTIONS (10),
 * BENCH_SKUS (1000), BENCH_SCENARIOS (comma list of the names above, default all),
 * BENCH_OUTPUT (default bench/RESULTS.md; "-" prints only), BENCH_DB (sqlite: the "# Benchmark results" top of
 * the file; postgres: its own "## Inventory benchmark (PostgreSQL)" section).
 */
import { runInventoryReference } from './inventory-reference.js';
import { runInventoryReferencePg } from './inventory-reference-pg.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { createAccount, issueSellerToken } from '../src/domain/accounts/accounts.js';
import { SCOPES } from '../src/domain/accounts/principal.js';
import { createWarehouse } from '../src/domain/accounts/warehouses.js';
import type { LoadJob, LoadResult } from './load.js';
import { envInt, load, machineLines, median } from './common.js';
import { runMain, withBenchService, writeSection } from './harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));

const DURATION = envInt('BENCH_DURATION', 8, 1);
const RUNS = envInt('BENCH_RUNS', 2, 1);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 10, 1);
const SKU_COUNT = envInt('BENCH_SKUS', 1000, 50);
const WARMUP_SECONDS = 2;
const BATCH = 50;
const TARGET_RATIO = 0.6;
const UPDATE_TARGET_ITEMS = 20_000;
/** The heading of the PostgreSQL results (writeSection adds " (PostgreSQL)"); the SQLite ones open the file. */
const PG_HEADING = 'Inventory benchmark';
const ALL_SCENARIOS = ['bare', 'sku-read', 'update-50'] as const;
type ScenarioName = (typeof ALL_SCENARIOS)[number];

interface Scenario {
  name: ScenarioName;
  title: string;
  job: LoadJob;
}

const skuName = (i: number) => `BENCH-${String(i).padStart(5, '0')}`;

function batchBody(first: number, count: number, item: (sku: string, i: number) => Record<string, unknown>) {
  const items = Array.from({ length: count }, (_, k) => {
    const i = first + k;
    return { SKU: skuName(i), standardProductId: String(100000000000 + i), standardProductIdType: 'UPC', ...item(skuName(i), i) };
  });
  return items;
}

async function main() {
  const selected = (process.env.BENCH_SCENARIOS ?? ALL_SCENARIOS.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean) as ScenarioName[];
  for (const s of selected) if (!ALL_SCENARIOS.includes(s)) throw new Error(`unknown scenario "${s}"`);

  const bare = Fastify({ logger: false });
  try {
    await withBenchService('inventory', async (deps, base, bench) => {

      // Seed: an account with two warehouses, a seller token with every scope, SKU_COUNT SKUs in both.
      const now = deps.clock.now();
      const db = deps.db.db;
      const { accountId } = await createAccount(db, { name: 'Bench seller' }, now);
      await createWarehouse(db, accountId, { name: 'Main' }, now);
      await createWarehouse(db, accountId, { name: 'Second' }, now);
      const { accessToken } = await issueSellerToken(db, accountId, [...SCOPES], now);
      const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
      for (const warehouseName of ['Main', 'Second']) {
        for (let first = 0; first < SKU_COUNT; first += BATCH) {
          const items = batchBody(first, Math.min(BATCH, SKU_COUNT - first), (_sku, i) => ({ quantity: 100 + (i % 50) }));
          const res = await fetch(`${base}/v1/inventory`, { method: 'POST', headers, body: JSON.stringify({ warehouseName, items }) });
          const body = (await res.json()) as { results?: { success: boolean; errorMessage: string }[] };
          const failed = body.results?.find((r) => !r.success);
          if (res.status !== 200 || failed) throw new Error(`seeding failed: ${res.status} ${failed?.errorMessage ?? JSON.stringify(body)}`);
        }
      }

      // The bare route answers exactly what the service answers for a SKU.
      const sample = await fetch(`${base}/v1/inventory/${skuName(0)}`, { headers });
      if (sample.status !== 200) throw new Error(`GET /v1/inventory/${skuName(0)} answered ${sample.status}`);
      const sampleBody = (await sample.json()) as unknown;
      bare.get('/v1/inventory/:SKU', async () => sampleBody);
      const bareBase = await bare.listen({ host: '127.0.0.1', port: 0 });

      const skuPaths = Array.from({ length: SKU_COUNT }, (_, i) => `/v1/inventory/${skuName(i)}`);
      const batches = Array.from({ length: Math.floor(SKU_COUNT / BATCH) }, (_, b) =>
        JSON.stringify({ warehouseName: 'Main', items: batchBody(b * BATCH, BATCH, () => ({ delta_quantity: 1 })) }),
      );
      const check = await fetch(`${base}/v1/inventory`, { method: 'POST', headers, body: batches[0]! });
      const checked = (await check.json()) as { results: { success: boolean }[] };
      if (check.status !== 200 || checked.results.length !== BATCH || !checked.results.every((r) => r.success)) {
        throw new Error(`the 50-item update does not succeed: ${check.status} ${JSON.stringify(checked).slice(0, 300)}`);
      }

      const common = { connections: CONNECTIONS, durationSeconds: DURATION };
      const defined: Scenario[] = [
        {
          name: 'bare',
          title: '(a) bare Fastify route, same JSON',
          job: { ...common, url: bareBase, method: 'GET', headers: {}, paths: skuPaths, bodies: null },
        },
        {
          name: 'sku-read',
          title: '(b) GET /v1/inventory/{SKU}, authenticated',
          job: { ...common, url: base, method: 'GET', headers: { authorization: headers.authorization }, paths: skuPaths, bodies: null },
        },
        {
          name: 'update-50',
          title: `(c) POST /v1/inventory, ${BATCH} delta items`,
          // In turn: the batches in flight name different stock rows, as in the reference below.
          job: { ...common, url: base, method: 'POST', headers, paths: ['/v1/inventory'], bodies: batches, bodiesInTurn: true },
        },
      ];
      const scenarios = defined.filter((s) => selected.includes(s.name));

      const loadBefore = os.loadavg()[0]!;
      bench.rss.markRuns();
      const runs = new Map<ScenarioName, LoadResult[]>(scenarios.map((s) => [s.name, []]));
      for (const s of scenarios) {
        process.stdout.write(`warming up ${s.name}…\n`);
        await load({ ...s.job, durationSeconds: WARMUP_SECONDS });
      }
      for (let run = 1; run <= RUNS; run++) {
        for (const s of scenarios) {
          const result = await load(s.job);
          runs.get(s.name)!.push(result);
          process.stdout.write(
            `run ${run}/${RUNS} ${s.name.padEnd(9)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s  ` +
              `p50 ${result.latencyP50Ms} ms  p99 ${result.latencyP99Ms} ms  non-2xx ${result.non2xx}  errors ${result.errors}\n`,
          );
        }
      }

      // The database floor beside the update scenario, in this run: the same batches against better-sqlite3
      // (SQLite) or against node-postgres with CONNECTIONS clients on this schema (PostgreSQL).
      const references: number[] = [];
      if (selected.includes('update-50')) {
        const main = await db.selectFrom('warehouses').select('id').where('account_id', '=', accountId).where('name', '=', 'Main').executeTakeFirstOrThrow();
        const skuBatches = Array.from({ length: Math.floor(SKU_COUNT / BATCH) }, (_, b) => Array.from({ length: BATCH }, (_, k) => skuName(b * BATCH + k)));
        const context = { accountId, warehouseId: main.id, batches: skuBatches };
        for (let run = 0; run < RUNS; run++) {
          const result =
            'sqlite' in deps.db.raw
              ? runInventoryReference(deps.db.raw.sqlite, context, DURATION)
              : await runInventoryReferencePg(bench.database.databaseUrl!, context, DURATION, CONNECTIONS);
          process.stdout.write(`run ${run + 1}/${RUNS} reference ${result.itemsPerSecond.toFixed(0).padStart(7)} items/s\n`);
          references.push(result.itemsPerSecond);
        }
      }

      const summary = scenarios.map((s) => {
        const r = runs.get(s.name)!;
        return {
          scenario: s,
          rps: median(r.map((x) => x.requestsPerSecond)),
          p50: median(r.map((x) => x.latencyP50Ms)),
          p99: median(r.map((x) => x.latencyP99Ms)),
          perRun: r.map((x) => Math.round(x.requestsPerSecond)),
          non2xx: r.reduce((n, x) => n + x.non2xx, 0),
          errors: r.reduce((n, x) => n + x.errors + x.timeouts, 0),
        };
    });
    const bareRps = summary.find((s) => s.scenario.name === 'bare')?.rps ?? null;
    const readRps = summary.find((s) => s.scenario.name === 'sku-read')?.rps ?? null;
    const ratio = (rps: number) => (bareRps ? `${((100 * rps) / bareRps).toFixed(1)} %` : 'n/a');

    const postgres = deps.db.dialect === 'postgres';
    const lines = [
      // SQLite opens the file; PostgreSQL results are a section of their own (see below).
      postgres ? `## ${PG_HEADING}` : '# Benchmark results',
      '',
      `Written by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString()}.`,
      '',
      ...machineLines('service and bare route in one process, autocannon in a child process, loopback only', loadBefore, bench.run()),
      `- Temporary DATA_DIR; rate limiting off; log level silent`,
      `- Data: one account, 2 warehouses, ${SKU_COUNT} SKUs stocked in both; reads rotate over all SKUs, updates over ${batches.length} batches of ${BATCH}, taken in turn by whichever connection sends next (the batches in flight name different rows)`,
      `- ${CONNECTIONS} connections, ${DURATION} s per run after a ${WARMUP_SECONDS} s warm-up, ${RUNS} runs per scenario (round-robin); medians`,
      '',
      '| Scenario | req/s (median) | p50 latency | p99 latency | ratio to bare | req/s per run | non-2xx / errors |',
      '|---|---:|---:|---:|---:|---|---|',
      ...summary.map(
        (s) =>
          `| ${s.scenario.title} | ${Math.round(s.rps)} | ${s.p50} ms | ${s.p99} ms | ${ratio(s.rps)} | ${s.perRun.join(', ')} | ${s.non2xx} / ${s.errors} |`,
      ),
      '',
    ];
    if (summary.some((s) => s.scenario.name === 'update-50')) {
      const u = summary.find((s) => s.scenario.name === 'update-50')!;
      const items = Math.round(u.rps * BATCH);
      lines.push(`The update scenario applies ${items} items/s (${BATCH} per request, one transaction per request, the items applied set-based: src/domain/inventory/stock-rounds.ts).`, '');
      if (references.length > 0) {
        const reference = median(references);
        const how = postgres
          ? `node-postgres (bench/inventory-reference-pg.ts: named prepared statements, ${CONNECTIONS} connections in parallel, one transaction ` +
            'per batch, one statement after another: 4 round trips an item, no HTTP)'
          : 'better-sqlite3 (bench/inventory-reference.ts: prepared statements, one connection, one transaction per batch, no HTTP)';
        lines.push(
          `(r) Reference, the same batches written directly against ${how}: **${Math.round(reference)} items/s** ` +
            `(runs: ${references.map((r) => Math.round(r)).join(', ')}). Route / reference = ${items} / ${Math.round(reference)} = ` +
            `**${(items / reference).toFixed(2)}** (the route reaches ${((100 * items) / reference).toFixed(0)} % of it).`,
          '',
        );
      }
      lines.push(`**Target:** the 50-item update applies ≥ ${UPDATE_TARGET_ITEMS.toLocaleString('en-US')} items/s. Measured ${items}: **${items >= UPDATE_TARGET_ITEMS ? 'met' : 'NOT met'}**.`, '');
    }
    if (bareRps !== null && readRps !== null) {
      const met = readRps >= TARGET_RATIO * bareRps;
      lines.push(
        `**Target:** the authenticated SKU read (b) reaches at least ${TARGET_RATIO * 100} % of the bare route's req/s. ` +
          `Measured ${ratio(readRps)}: **${met ? 'met' : 'NOT met'}**.`,
        '',
      );
    }
    const text = lines.join('\n');
    if (postgres) {
      writeSection(text, path.join(here, 'RESULTS.md'), PG_HEADING, 'Notes');
      return;
    }
    process.stdout.write(`\n${text}`);
    const output = process.env.BENCH_OUTPUT ?? path.join(here, 'RESULTS.md');
    if (output !== '-') {
      // A hand-written "## Notes" section (analysis, profiles) survives regeneration of the table.
      const previous = existsSync(output) ? readFileSync(output, 'utf8') : '';
      const notesAt = previous.search(/^## Notes$/m);
      writeFileSync(output, notesAt >= 0 ? `${text}\n${previous.slice(notesAt)}` : text);
      process.stdout.write(`\nwritten to ${path.relative(process.cwd(), output)}\n`);
    }
    });
  } finally {
    await bare.close();
  }
}

runMain(main);
