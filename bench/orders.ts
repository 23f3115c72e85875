/**
 * `npm run bench:orders`: what orders cost (issue 3 item 7). Never run by `npm test`.
 *
 * Same harness as bench/run.ts: the service runs in this process as `serve` builds it (buildApp over the
 * database BENCH_DB selects, embedded SQLite by default or PostgreSQL, see bench/harness.ts; a temporary
 * DATA_DIR; rate limiting off, logging silent) on 127.0.0.1, and
 * autocannon runs in a child process (bench/load.ts). The account has a storefront ("Shop One", a
 * SALES_CHANNEL token), a SHIPPING integration mapped to the warehouse "Main", and BENCH_ORDER_SKUS SKUs
 * stocked there. Scenarios:
 *   create       POST /v1/salesOrder with the storefront token: 2-line orders on stocked SKUs, every request
 *                a new channelOrderId (bench/load.ts uniqueIds), so none is an idempotent replay
 *   need-to-ship GET /v2/shipping/need_to_ship, first page (default pageSize), with BENCH_OPEN_ORDERS open
 *                fulfillment orders for the shipping integration
 *   list-first   GET /v1/salesOrder?pageLength=100 with the storefront token (page 1 of its listing)
 *   list-deep    the nextToken URL of page DEEP_PAGE of that same listing, found by walking the chain once
 * The BENCH_OPEN_ORDERS orders are not created through HTTP: one order is created through POST
 * /v1/salesOrder as a template, and its rows (order, lines, routes, reservation ledger, fulfillment order)
 * are cloned with multi-row INSERTs in a few big transactions; the inventory counters then take the
 * clones' reservations with one conditional UPDATE per SKU, so available = on-hand − reserved holds.
 * After the runs, the create scenario's database reference runs BENCH_RUNS times in the same process and on the
 * same database: bench/order-reference.ts on SQLite, bench/order-reference-pg.ts (BENCH_CONNECTIONS clients) on
 * PostgreSQL; the section gives its orders/s and the ratio route / reference.
 *
 * Knobs (environment): BENCH_DURATION seconds per run (8), BENCH_RUNS (2), BENCH_CONNECTIONS (10),
 * BENCH_OPEN_ORDERS (100000; the deep page needs ≥ 100 × DEEP_PAGE of them), BENCH_ORDER_SKUS (200),
 * BENCH_SCENARIOS (comma list of the names above, default all), BENCH_OUTPUT (default bench/RESULTS.md,
 * where the "## Orders benchmark" section is replaced and everything else kept; "-" prints only), BENCH_DB
 * (sqlite or postgres: "## Orders benchmark (PostgreSQL)").
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Dialect } from '../src/db/connect.js';
import type { Db } from '../src/db/tx.js';
import { oneYearBefore } from '../src/domain/orders/list-orders.js';
import { envInt, machineLines, median } from './common.js';
import { runOrderReference } from './order-reference.js';
import { runOrderReferencePg } from './order-reference-pg.js';
import { expectOk, resultRows, runMain, runScenarios, selectedScenarios, targetLine, type Scenario as HarnessScenario, withBenchService, writeSection } from './harness.js';
import { explainStatement } from './plans.js';
import { ORDERS_PER_TX, orderSkuName, seedOrderAccount, twoLineOrderBody } from './seed.js';

const here = path.dirname(fileURLToPath(import.meta.url));

const PAGE_LENGTH = 100;
const DEEP_PAGE = 1000;
const DURATION = envInt('BENCH_DURATION', 8, 1);
const RUNS = envInt('BENCH_RUNS', 2, 1);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 10, 1);
const OPEN_ORDERS = envInt('BENCH_OPEN_ORDERS', 100_000, 1000);
const SKU_COUNT = envInt('BENCH_ORDER_SKUS', 200, 10);
const WARMUP_SECONDS = 2;
const DEEP_TARGET = 1.5;
const CREATE_TARGET = 1500;
const ALL_SCENARIOS = ['create', 'need-to-ship', 'list-first', 'list-deep'] as const;
type ScenarioName = (typeof ALL_SCENARIOS)[number];

type Scenario = HarnessScenario<ScenarioName>;

/** The 2-line order on stocked SKUs (`i` picks the pair). */
function orderBody(channelOrderId: string, i: number, orderTs: string): string {
  return twoLineOrderBody(channelOrderId, orderTs, orderSkuName(i % SKU_COUNT), orderSkuName((i + 1) % SKU_COUNT));
}

/** The listing query GET /v1/salesOrder runs for a storefront token past a keyset (src/domain/orders/list-orders.ts). */
async function explainDeepList(db: Db, dialect: Dialect, accountId: number, storefrontId: number, after: { ts: string; id: number }, windowStart: string) {
  const compiled = db
    .selectFrom('sales_orders as o')
    .selectAll('o')
    .where('o.account_id', '=', accountId)
    .where('o.storefront_id', '=', storefrontId)
    .where('o.order_ts', '>=', windowStart)
    .where((eb) => eb(eb.refTuple('o.last_updated_ts', 'o.id'), '>', eb.tuple(after.ts, after.id)))
    .orderBy('o.last_updated_ts')
    .orderBy('o.id')
    .limit(PAGE_LENGTH + 1)
    .compile();
  const plan = await explainStatement(db, dialect, compiled.sql, compiled.parameters);
  return { sql: plan.sql, plan: plan.lines };
}

async function main() {
  const selected = selectedScenarios(ALL_SCENARIOS);
  const wantsDeep = selected.includes('list-deep');
  if (wantsDeep && OPEN_ORDERS < PAGE_LENGTH * DEEP_PAGE) {
    throw new Error(`list-deep needs BENCH_OPEN_ORDERS ≥ ${PAGE_LENGTH * DEEP_PAGE}`);
  }

  await withBenchService('orders', async (deps, base, bench) => {
    const db = deps.db.db;
    const now = deps.clock.now();

    // Account, warehouse "Main" mapped to a shipping integration, a storefront, SKU_COUNT SKUs in Main, one
    // template order through HTTP and its clones by direct INSERTs (bench/seed.ts).
    const seedStarted = performance.now();
    const { accountId, shipping, channel, productIds } = await seedOrderAccount(deps, base, { orders: OPEN_ORDERS, skus: SKU_COUNT });
    const channelHeaders = { authorization: `Bearer ${channel.token}`, 'content-type': 'application/json' };
    const recentTs = new Date(now.getTime() - 3_600_000).toISOString();
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const openCount = Number(
      (
        await db
          .selectFrom('fulfillment_orders')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('account_id', '=', accountId)
          .where('installation_id', '=', shipping.installationId)
          .where('status', '=', 'NEW')
          .executeTakeFirstOrThrow()
      ).n,
    );
    process.stdout.write(`set up and seeded ${OPEN_ORDERS - 1} orders (+1 template) in ${seedSeconds.toFixed(1)} s; ${openCount} open fulfillment orders\n`);

    // The queue answers a full first page of owed orders.
    const shipHeaders = { authorization: `Bearer ${shipping.token}` };
    const queue = (await expectOk(await fetch(`${base}/v2/shipping/need_to_ship`, { headers: shipHeaders }), 'GET need_to_ship')) as {
      orders: { lines: unknown[] }[];
      nextCursor: string;
    };
    if (queue.orders.length !== 50 || queue.nextCursor === '' || queue.orders.some((o) => o.lines.length !== 2)) {
      throw new Error(`need_to_ship first page is not 50 two-line orders: ${JSON.stringify(queue).slice(0, 300)}`);
    }

    // Page 1 of the storefront's listing, and the nextToken of page DEEP_PAGE by walking the chain once.
    const firstPath = `/v1/salesOrder?pageLength=${PAGE_LENGTH}`;
    let deepPath = firstPath;
    let deepAfter: { ts: string; id: number } | null = null;
    let walkSeconds = 0;
    if (wantsDeep) {
      const walkStarted = performance.now();
      for (let page = 1; page < DEEP_PAGE; page++) {
        const body = (await expectOk(await fetch(`${base}${deepPath}`, { headers: channelHeaders }), `listing page ${page}`)) as {
          results: { orderNumber: string; lastUpdatedTs: string }[];
          pagination: { nextToken: string };
        };
        if (body.results.length !== PAGE_LENGTH || body.pagination.nextToken === '') throw new Error(`listing page ${page} is short`);
        const last = body.results[PAGE_LENGTH - 1]!;
        deepAfter = { ts: last.lastUpdatedTs, id: Number(last.orderNumber) };
        const next = new URL(body.pagination.nextToken);
        deepPath = `${next.pathname}${next.search}`;
      }
      walkSeconds = (performance.now() - walkStarted) / 1000;
      const deep = (await expectOk(await fetch(`${base}${deepPath}`, { headers: channelHeaders }), `listing page ${DEEP_PAGE}`)) as { results: unknown[] };
      if (deep.results.length !== PAGE_LENGTH) throw new Error(`listing page ${DEEP_PAGE} has ${deep.results.length} orders`);
      process.stdout.write(`walked to page ${DEEP_PAGE} in ${walkSeconds.toFixed(1)} s\n`);
    }

    // Order bodies: "[<id>]" makes each request's channelOrderId unique; the SKU pairs rotate.
    const createBodies = Array.from({ length: SKU_COUNT }, (_, i) => orderBody('BENCH-[<id>]', i, recentTs));
    const check = await fetch(`${base}/v1/salesOrder`, { method: 'POST', headers: channelHeaders, body: orderBody('CHECK', 3, recentTs) });
    await expectOk(check, 'POST /v1/salesOrder (check)');

    const common = { connections: CONNECTIONS, durationSeconds: DURATION };
    const defined: Scenario[] = [
      {
        name: 'create',
        title: '(a) POST /v1/salesOrder, 2 lines, new channelOrderId each',
        job: { ...common, url: base, method: 'POST', headers: channelHeaders, paths: ['/v1/salesOrder'], bodies: createBodies, uniqueIds: true },
      },
      {
        name: 'need-to-ship',
        title: `(b) GET /v2/shipping/need_to_ship, first page (50) of ${OPEN_ORDERS.toLocaleString('en-US')} open`,
        job: { ...common, url: base, method: 'GET', headers: shipHeaders, paths: ['/v2/shipping/need_to_ship'], bodies: null },
      },
      {
        name: 'list-first',
        title: `(c1) GET /v1/salesOrder page 1, pageLength ${PAGE_LENGTH}`,
        job: { ...common, url: base, method: 'GET', headers: { authorization: channelHeaders.authorization }, paths: [firstPath], bodies: null },
      },
      {
        name: 'list-deep',
        title: `(c2) GET /v1/salesOrder page ${DEEP_PAGE.toLocaleString('en-US')} (nextToken URL)`,
        job: { ...common, url: base, method: 'GET', headers: { authorization: channelHeaders.authorization }, paths: [deepPath], bodies: null },
      },
    ];
    const scenarios = defined.filter((s) => selected.includes(s.name));

    const loadBefore = os.loadavg()[0]!;
    bench.rss.markRuns();
    const summary = await runScenarios(scenarios, RUNS, WARMUP_SECONDS);
    const created = Number(
      (
        await db
          .selectFrom('sales_orders')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('account_id', '=', accountId)
          .where('channel_order_id', 'like', 'BENCH-%')
          .executeTakeFirstOrThrow()
      ).n,
    );

    const byName = (name: ScenarioName) => summary.find((s) => s.scenario.name === name) ?? null;

    // The database floor beside the create scenario, in this run: the same transaction against better-sqlite3
    // (SQLite) or against node-postgres with CONNECTIONS clients on this schema (PostgreSQL).
    const references: number[] = [];
    if (byName('create')) {
      const pairs = Array.from({ length: SKU_COUNT }, (_, i): [number, number] => [productIds[i]!, productIds[(i + 1) % SKU_COUNT]!]);
      const context = { accountId, storefrontId: channel.installationId, installationId: shipping.installationId, productIds: pairs };
      for (let run = 0; run < RUNS; run++) {
        const result =
          'sqlite' in deps.db.raw
            ? runOrderReference(deps.db.raw.sqlite, context, DURATION, run)
            : await runOrderReferencePg(bench.database.databaseUrl!, context, DURATION, run, CONNECTIONS);
        process.stdout.write(`run ${run + 1}/${RUNS} reference    ${result.ordersPerSecond.toFixed(0).padStart(7)} orders/s\n`);
        references.push(result.ordersPerSecond);
      }
    }

    const lines = [
      '## Orders benchmark',
      '',
      `Written by \`npm run bench:orders\` (bench/orders.ts) on ${new Date().toISOString()}.`,
      '',
      ...machineLines('service in this process, autocannon in a child process, loopback only; rate limiting off, log level silent', loadBefore, bench.run()),
      `- Data: one account, warehouse Main mapped to a SHIPPING integration, ${SKU_COUNT} SKUs stocked there; ` +
        `${OPEN_ORDERS.toLocaleString('en-US')} open 2-line orders of the storefront (one template through HTTP, the rest cloned by ` +
        `multi-row INSERTs into sales_orders, sales_order_lines, order_line_routes, inventory_reservations and fulfillment_orders in ` +
        `${Math.ceil((OPEN_ORDERS - 1) / ORDERS_PER_TX)} transactions, then one conditional inventory UPDATE per SKU): ` +
        `**setup and seeding (bench/seed.ts seedOrderAccount) took ${seedSeconds.toFixed(1)} s**; ${openCount.toLocaleString('en-US')} open fulfillment orders before the runs`,
      ...(wantsDeep ? [`- The page-${DEEP_PAGE} nextToken was found by walking the chain once (${DEEP_PAGE - 1} GETs, ${walkSeconds.toFixed(1)} s)`] : []),
      `- ${CONNECTIONS} connections, ${DURATION} s per run after a ${WARMUP_SECONDS} s warm-up, ${RUNS} runs per scenario (round-robin); medians`,
      '',
      ...resultRows(summary),
      '',
    ];
    const create = byName('create');
    if (create && references.length > 0) {
      const reference = median(references);
      const how =
        deps.db.dialect === 'postgres'
          ? `node-postgres (bench/order-reference-pg.ts: named prepared statements, ${CONNECTIONS} connections in parallel, one statement after another, ` +
            '16 round trips an order, this schema, no HTTP)'
          : 'better-sqlite3 (bench/order-reference.ts: prepared statements, one connection, this database and schema, no HTTP)';
      lines.push(
        `(r) Reference, the same order-shaped transaction written directly against ${how}: **${Math.round(reference)} orders/s** ` +
          `(runs: ${references.map((r) => Math.round(r)).join(', ')}). Route / reference = ${Math.round(create.rps)} / ${Math.round(reference)} = ` +
          `**${(create.rps / reference).toFixed(2)}** (the create route reaches ${((100 * create.rps) / reference).toFixed(0)} % of it).`,
        '',
        targetLine(`order creation ≥ ${CREATE_TARGET.toLocaleString('en-US')} orders/s`, `${Math.round(create.rps)}`, create.rps >= CREATE_TARGET),
        '',
      );
    }
    if (create) {
      lines.push(
        `The create scenario stored ${created.toLocaleString('en-US')} new orders (warm-up included), each 2 lines reserved and routed, with its fulfillment order, ` +
          'one transaction per order; the orders it adds are newer than the seeded ones, so they change neither listed page.',
        '',
      );
    }
    const polls = byName('need-to-ship');
    if (polls) {
      lines.push(
        targetLine(`need_to_ship's first page at ${OPEN_ORDERS.toLocaleString('en-US')} open ≥ 2,000 req/s with p99 < 20 ms`, `${Math.round(polls.rps)} req/s, p99 ${polls.p99} ms`, polls.rps >= 2000 && polls.p99 < 20),
        '',
      );
    }
    const first = byName('list-first');
    if (first) lines.push(targetLine(`a v1 order page of ${PAGE_LENGTH} ≥ 500 req/s`, `${Math.round(first.rps)} req/s`, first.rps >= 500), '');
    const deep = byName('list-deep');
    if (first && deep) {
      const rpsRatio = first.rps / deep.rps;
      const p50Ratio = first.p50 > 0 ? deep.p50 / first.p50 : deep.p50 === 0 ? 1 : Infinity;
      const met = rpsRatio < DEEP_TARGET && p50Ratio < DEEP_TARGET;
      lines.push(
        `**Target:** page ${DEEP_PAGE} costs less than ${DEEP_TARGET}× page 1. Measured: page 1 / page ${DEEP_PAGE} req/s = ${rpsRatio.toFixed(2)}, ` +
          `p50 page ${DEEP_PAGE} / page 1 = ${Number.isFinite(p50Ratio) ? p50Ratio.toFixed(2) : 'n/a'} (${deep.p50} ms vs ${first.p50} ms): **${met ? 'met' : 'NOT met'}**.`,
        '',
      );
      if (!met && deepAfter) {
        const windowStart = oneYearBefore(now);
        const explained = await explainDeepList(db, deps.db.dialect, accountId, channel.installationId, deepAfter, windowStart);
        lines.push(`${deps.db.dialect === 'postgres' ? 'EXPLAIN (ANALYZE, BUFFERS)' : 'EXPLAIN QUERY PLAN'} of the deep page's list query:`, '', '```', explained.sql, ...explained.plan.map((p) => `  ${p}`), '```', '');
      }
    }

    writeSection(lines.join('\n'), path.join(here, 'RESULTS.md'), 'Orders benchmark', 'Orders notes');
  });
}

runMain(main);
