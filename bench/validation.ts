/**
 * `npm run bench:validation`: what one request with thousands of invalid entries costs (issue 8 item 1).
 * Never run by `npm test`.
 *
 * Same harness as bench/orders.ts: the service runs in this process over the database BENCH_DB selects
 * (embedded SQLite by default, or PostgreSQL: bench/harness.ts) in a
 * temporary DATA_DIR (rate limiting off, logging silent), listening on 127.0.0.1. Each scenario sends one
 * body whose array holds BENCH_ENTRIES invalid entries (each with two or three problems, one of them a
 * value that matches no branch of a union) to one route, BENCH_RUNS times, and records the response time
 * and the longest event-loop stall while it was handled (the longest gap between the ticks of a 10 ms
 * interval timer, less the 10 ms): for that long every other request, /healthz included, waited.
 *
 * Knobs (environment): BENCH_ENTRIES (10000), BENCH_RUNS (3), BENCH_SCENARIOS (comma list, default all),
 * BENCH_OUTPUT (default bench/RESULTS.md, where the "## Validation benchmark" section is replaced and its
 * "### Validation notes" and everything else kept; "-" prints only).
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAccount } from '../src/domain/accounts/accounts.js';
import { createWarehouse } from '../src/domain/accounts/warehouses.js';
import { issueAdHocToken } from '../src/domain/accounts/oauth.js';
import { SCOPES } from '../src/domain/accounts/principal.js';
import { envInt, machineLines, median } from './common.js';
import { installPartner, runMain, selectedScenarios, withBenchService, writeSection, type BenchContext } from './harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));

const ENTRIES = envInt('BENCH_ENTRIES', 10_000, 1);
const RUNS = envInt('BENCH_RUNS', 3, 1);
const ALL_SCENARIOS = ['v2-shipments', 'v2-confirm', 'v1-order', 'v1-shipments', 'v2-inventory', 'v2-ingestion', 'admin-listing'] as const;
type ScenarioName = (typeof ALL_SCENARIOS)[number];

interface Tokens {
  seller: string;
  shipping: string;
  inventory: string;
  channel: string;
  accountId: number;
}

interface Scenario {
  name: ScenarioName;
  method: 'POST' | 'PATCH';
  path: (t: Tokens) => string;
  token: (t: Tokens) => string | null;
  body: (entries: number) => unknown;
}

const rep = <T>(n: number, make: () => T) => Array.from({ length: n }, make);

const SCENARIOS: Scenario[] = [
  {
    name: 'v2-shipments',
    method: 'POST',
    path: () => '/v2/shipping/shipments',
    token: (t) => t.shipping,
    body: (n) => ({ shipments: rep(n, () => ({ fulfillmentOrderId: {}, lines: 5, trackingNumber: 3 })) }),
  },
  {
    name: 'v2-confirm',
    method: 'POST',
    path: () => '/v2/shipping/fulfillment_orders/confirm_cancellations',
    token: (t) => t.shipping,
    body: (n) => ({ confirmations: rep(n, () => ({ fulfillmentOrderId: {}, lines: 5 })) }),
  },
  {
    name: 'v1-order',
    method: 'POST',
    path: () => '/v1/salesOrder',
    token: (t) => t.seller,
    body: (n) => ({ channelOrderId: 'BENCH-1', orderTs: '2026-01-01T00:00:00Z', products: rep(n, () => ({ quantity: 'x', unitPrice: {} })) }),
  },
  {
    name: 'v1-shipments',
    method: 'POST',
    path: () => '/v1/salesOrder/shipments',
    token: (t) => t.seller,
    body: (n) => ({ packages: rep(n, () => ({ orderNumber: {}, fulfillmentPackageId: {}, cost: {} })) }),
  },
  {
    name: 'v2-inventory',
    method: 'POST',
    path: () => '/v2/inventory',
    token: (t) => t.inventory,
    body: (n) => ({ observedTs: '2026-01-01T00:00:00Z', updates: rep(n, () => ({ sku: 5, quantity: {} })) }),
  },
  {
    name: 'v2-ingestion',
    method: 'POST',
    path: () => '/v2/storefront/listing/ingestion/request',
    token: (t) => t.channel,
    body: (n) => ({ id: 'L-1', variants: rep(n, () => ({ sku: 5, price: 7, attributes: 'x' })) }),
  },
  {
    // The operator API answers loopback callers without ADMIN_TOKEN in development.
    name: 'admin-listing',
    method: 'PATCH',
    path: (t) => `/admin/accounts/${t.accountId}/listings/1`,
    token: () => null,
    body: (n) => ({ variants: rep(n, () => ({ sku: 5, settings: 3 })) }),
  },
];

interface Measured {
  scenario: Scenario;
  bytes: number;
  status: number;
  listed: number;
  ms: number[];
  stallMs: number[];
}

/** How many problems the error body lists (v1 errorMessages or v2 field violations). */
function listedProblems(body: unknown): number {
  const b = body as { errorMessages?: unknown[]; details?: { fieldViolations?: unknown[] }[] };
  return b.errorMessages?.length ?? b.details?.[0]?.fieldViolations?.length ?? 0;
}

/** Watches the event loop through a 10 ms interval timer; stop() answers the longest stall seen. */
function watchEventLoop(): { stop(): Promise<number> } {
  const tickMs = 10;
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - tickMs);
    last = now;
  }, tickMs);
  return {
    async stop() {
      // One more tick, so a stall that lasted until the response arrived is counted.
      await new Promise((resolve) => setTimeout(resolve, tickMs * 2));
      clearInterval(timer);
      return Math.max(0, longest);
    },
  };
}

async function measure(base: string, tokens: Tokens, scenario: Scenario): Promise<Measured> {
  const payload = JSON.stringify(scenario.body(ENTRIES));
  const token = scenario.token(tokens);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const out: Measured = { scenario, bytes: Buffer.byteLength(payload), status: 0, listed: 0, ms: [], stallMs: [] };
  for (let run = 1; run <= RUNS; run++) {
    const loop = watchEventLoop();
    const start = performance.now();
    const res = await fetch(`${base}${scenario.path(tokens)}`, { method: scenario.method, headers, body: payload });
    const body = (await res.json()) as unknown;
    const ms = performance.now() - start;
    const stall = await loop.stop();
    out.status = res.status;
    out.listed = listedProblems(body);
    out.ms.push(ms);
    out.stallMs.push(stall);
    process.stdout.write(`run ${run}/${RUNS} ${scenario.name.padEnd(14)} ${res.status} ${ms.toFixed(0).padStart(7)} ms  stall ${stall.toFixed(0)} ms\n`);
  }
  return out;
}

async function main() {
  const selected = new Set(selectedScenarios(ALL_SCENARIOS));
  const loadBefore = os.loadavg()[0]!;
  const results: Measured[] = [];
  let run: ReturnType<BenchContext['run']> | null = null;
  await withBenchService('validation', async (deps, base, bench) => {
    const now = deps.clock.now();
    const { accountId } = await createAccount(deps.db.db, { name: 'Bench seller' }, now);
    const main = (await createWarehouse(deps.db.db, accountId, { name: 'Main' }, now)).warehouseId;
    const second = (await createWarehouse(deps.db.db, accountId, { name: 'Second' }, now)).warehouseId;
    const { accessToken: seller } = await issueAdHocToken(deps.db.db, accountId, [...SCOPES], now);
    const shipping = await installPartner(deps, base, accountId, 'SHIPPING', ['sales:orders:fulfillment:self'], {
      name: 'Bench 3PL',
      warehouses: [{ warehouseId: main, warehouseUniqueId: 'SHIP-MAIN' }],
    });
    const inventory = await installPartner(deps, base, accountId, 'INVENTORY', ['inventory:self'], {
      name: 'Bench inventory',
      warehouses: [{ warehouseId: second, warehouseUniqueId: 'WH-SECOND' }],
    });
    const channel = await installPartner(deps, base, accountId, 'SALES_CHANNEL', ['listing:self'], { name: 'Bench channel', storefrontName: 'Bench store' });
    const tokens: Tokens = { seller, shipping: shipping.token, inventory: inventory.token, channel: channel.token, accountId };
    bench.rss.markRuns();
    for (const scenario of SCENARIOS) if (selected.has(scenario.name)) results.push(await measure(base, tokens, scenario));
    run = bench.run();
  });
  if (run === null) throw new Error('the benchmark did not run');

  const text = [
    '## Validation benchmark',
    '',
    `Written by \`npm run bench:validation\` (bench/validation.ts) on ${new Date().toISOString()}.`,
    '',
    ...machineLines('service in this process, requests over loopback (fetch)', loadBefore, run),
    `- One request per run with ${ENTRIES.toLocaleString('en-US')} invalid entries (2–3 problems each), ${RUNS} runs per route; medians`,
    '- "Stall" is the longest event-loop delay while the request was handled: every other request (/healthz too) waited that long',
    '',
    '| Route | body | status | problems listed | response time (median) | stall (median) | per run |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...results.map((r) => {
      const s = r.scenario;
      return (
        `| ${s.method} ${s.path({ seller: '', shipping: '', inventory: '', channel: '', accountId: 1 }).replace('/accounts/1/', '/accounts/{id}/')} | ` +
        `${(r.bytes / 1024).toFixed(0)} KiB | ${r.status} | ${r.listed} | ${median(r.ms).toFixed(0)} ms | ${median(r.stallMs).toFixed(0)} ms | ` +
        `${r.ms.map((m) => m.toFixed(0)).join(', ')} ms |`
      );
    }),
    '',
  ].join('\n');
  writeSection(text, path.join(here, 'RESULTS.md'), 'Validation benchmark', 'Validation notes');
}

runMain(main);
