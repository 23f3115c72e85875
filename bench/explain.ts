/**
 * `npm run bench:explain`: the query plans of the hot read statements, on the database BENCH_DB selects
 * (bench/harness.ts; PostgreSQL is the point: EXPLAIN (ANALYZE, BUFFERS) with the real parameters; on SQLite
 * EXPLAIN QUERY PLAN). Never run by `npm test`.
 *
 * Seeds one account with bench/seed.ts (seedOrderAccount: BENCH_OPEN_ORDERS open 2-line orders, default
 * 20,000; seedListings: BENCH_VARIANTS listing variants on the same storefront, default 20,000, 5 per listing,
 * a tenth of them drifting), runs ANALYZE, then sends each hot request once to a second instance of the
 * service whose database connections record every statement they run (PostgreSQL: each pooled client's
 * query; SQLite: each prepared statement's run), and explains every SELECT those requests ran, with the
 * parameters they ran with:
 *   need_to_ship  GET /v2/shipping/need_to_ship, first page
 *   v1-list       GET /v1/salesOrder?pageLength=100, page 1, and v1-list-2 its nextToken page
 *   pd-updated    GET /v2/storefront/listing/product_data/updated?since=…, first page
 *   drift         GET /v2/storefront/listing/variant/inventory/drift/skus
 *   sku-read      GET /v1/inventory/{SKU}, authenticated (seller token)
 * The token lookup (access_tokens) runs in each of them; every statement is explained once, under the first
 * request that ran it. A full scan of a large table (PostgreSQL "Seq Scan on t", SQLite "SCAN t") with at
 * least BENCH_LARGE_TABLE rows (default 10,000) is flagged.
 *
 *   BENCH_DB=postgres bash scripts/ci-postgres.sh npm run bench:explain
 *   BENCH_OPEN_ORDERS=2000 BENCH_VARIANTS=1000 BENCH_OUTPUT=- npm run bench:explain
 *
 * Writes the "## Query plans" section of bench/RESULTS.md ("## Query plans (PostgreSQL)" with BENCH_DB=postgres)
 * unless BENCH_OUTPUT=- (prints only).
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type pg from 'pg';
import { buildApp } from '../src/app.js';
import type { DbHandle } from '../src/db/connect.js';
import { marksOf } from '../src/db/pg-client.js';
import { closeDeps, createDeps } from '../src/create-deps.js';
import { envInt, machineLines } from './common.js';
import { runMain, withBenchService, writeSection } from './harness.js';
import { explainStatement, fullScans, type Plan } from './plans.js';
import { orderSkuName, seedListings, seedOrderAccount } from './seed.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const OPEN_ORDERS = envInt('BENCH_OPEN_ORDERS', 20_000, 2);
const VARIANTS = envInt('BENCH_VARIANTS', 20_000, 100);
const LARGE_TABLE = envInt('BENCH_LARGE_TABLE', 10_000, 1);
const PER_LISTING = 5;

interface Statement {
  sql: string;
  parameters: unknown[];
}

/** Calls with their arguments, as a recorder sees them. */
type AnyCall = (...args: unknown[]) => unknown;

/**
 * Records every statement the handle's connections run, into `sink` while it is set. Must be called before
 * the handle opens its first PostgreSQL connection (pooled clients are wrapped as they connect).
 */
function recordStatements(handle: DbHandle, sink: () => Statement[] | null): void {
  // Without the service's own marks (a read sent ahead, rows as arrays: src/db/pg-client.ts): PostgreSQL runs the rest.
  const record = (text: string, parameters: unknown[]) => sink()?.push({ sql: marksOf(text).sql, parameters });
  if ('pool' in handle.raw) {
    handle.raw.pool.on('connect', (client: pg.PoolClient) => {
      const query = (client.query as unknown as AnyCall).bind(client);
      const wrapped: AnyCall = (...args) => {
        const [first, second] = args;
        if (typeof first === 'string') record(first, Array.isArray(second) ? (second as unknown[]) : []);
        else if (first !== null && typeof first === 'object' && 'text' in first) {
          const config = first as { text: string; values?: unknown[] };
          record(config.text, config.values ?? (Array.isArray(second) ? (second as unknown[]) : []));
        }
        return query(...args);
      };
      Object.assign(client, { query: wrapped });
    });
    return;
  }
  const sqlite = handle.raw.sqlite;
  const prepare = (sqlite.prepare as unknown as AnyCall).bind(sqlite);
  Object.assign(sqlite, {
    prepare: (source: string) => {
      const statement = prepare(source) as Record<'all' | 'get' | 'run' | 'iterate', AnyCall>;
      for (const method of ['all', 'get', 'run', 'iterate'] as const) {
        const run = statement[method].bind(statement);
        Object.assign(statement, {
          [method]: (...args: unknown[]) => {
            // Kysely binds an array; src/db/prepared.ts spreads the values.
            record(source, args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args);
            return run(...args);
          },
        });
      }
      return statement;
    },
  });
}

const isRead = (text: string) => /^\s*(select|with)\b/i.test(text);

async function main() {
  await withBenchService('explain', async (deps, base, bench) => {
    const db = deps.db.db;
    const dialect = deps.db.dialect;
    const seedStarted = performance.now();
    const account = await seedOrderAccount(deps, base, { orders: OPEN_ORDERS });
    const now = deps.clock.now();
    const seededAt = new Date(now.getTime() - 86_400_000);
    const listings = Math.ceil(VARIANTS / PER_LISTING);
    await seedListings(db, account.accountId, account.channel.installationId, account.mainId, listings, seededAt, {
      perListing: PER_LISTING,
      drifting: Math.floor(VARIANTS / 10),
    });
    await sql`analyze`.execute(db);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    process.stdout.write(`seeded ${OPEN_ORDERS} orders and ${listings * PER_LISTING} variants, analyzed, in ${seedSeconds.toFixed(1)} s\n`);

    // Table sizes, for "large".
    const sizes = new Map<string, number>();
    if (dialect === 'postgres') {
      const rows = await sql<{ relname: string; n: number }>`select relname, reltuples::bigint as n from pg_class where relkind = 'r' and relnamespace = current_schema()::regnamespace`.execute(db);
      for (const r of rows.rows) sizes.set(r.relname, Number(r.n));
    } else {
      const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db);
      for (const t of tables.rows) sizes.set(t.name, Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(t.name)}`.execute(db)).rows[0]?.n ?? 0));
    }

    // A second instance of the service whose connections record what they run.
    const captureDeps = createDeps(deps.config, { rateLimiter: null });
    let sink: Statement[] | null = null;
    recordStatements(captureDeps.db, () => sink);
    const app = await buildApp(captureDeps);
    const channel = { authorization: `Bearer ${account.channel.token}` };
    const since = encodeURIComponent(new Date(seededAt.getTime() - 1000).toISOString());
    const requests: { name: string; url: string; headers: Record<string, string> }[] = [
      { name: 'need_to_ship first page', url: '/v2/shipping/need_to_ship', headers: { authorization: `Bearer ${account.shipping.token}` } },
      { name: 'v1 order list, page 1 (pageLength 100)', url: '/v1/salesOrder?pageLength=100', headers: channel },
      { name: 'product_data/updated, first page', url: `/v2/storefront/listing/product_data/updated?since=${since}`, headers: channel },
      { name: 'drift', url: '/v2/storefront/listing/variant/inventory/drift/skus', headers: channel },
      { name: 'authenticated SKU read', url: `/v1/inventory/${orderSkuName(7)}`, headers: { authorization: `Bearer ${account.sellerToken}` } },
    ];
    const explained = new Set<string>();
    const sections: { request: string; status: number; statements: number; plans: { plan: Plan; flagged: string[]; tokenLookup: boolean }[] }[] = [];
    try {
      for (let i = 0; i < requests.length; i++) {
        const request = requests[i]!;
        const ran: Statement[] = [];
        sink = ran;
        const res = await app.inject({ method: 'GET', url: request.url, headers: request.headers });
        sink = null;
        if (res.statusCode !== 200) throw new Error(`${request.name}: GET ${request.url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
        if (request.name.startsWith('v1 order list, page 1')) {
          // The nextToken page runs the keyset variant of the list query: explain it too, right after page 1.
          const next = (JSON.parse(res.body) as { pagination?: { nextToken?: string } }).pagination?.nextToken ?? '';
          if (next !== '') {
            const url = new URL(next);
            requests.splice(i + 1, 0, { name: 'v1 order list, page 2 (nextToken)', url: `${url.pathname}${url.search}`, headers: channel });
          }
        }
        const reads = ran.filter((s) => isRead(s.sql) && !explained.has(s.sql));
        const plans = [];
        for (const statement of reads) {
          explained.add(statement.sql);
          const plan = await explainStatement(db, dialect, statement.sql, statement.parameters);
          // Plans name a table by its alias on SQLite ("SCAN fo"): resolve `"table" as "alias"` of the statement.
          const aliases = new Map([...statement.sql.matchAll(/"(\w+)" as "(\w+)"/g)].map((m) => [m[2]!, m[1]!]));
          // A derived table (`(select …) as "d"`) is the subquery's result, whose own reads are in the plan.
          const derived = new Set([...statement.sql.matchAll(/\) as "(\w+)"/g)].map((m) => m[1]!));
          const flagged = fullScans(plan)
            .filter((scan) => !derived.has(scan.table))
            .map((scan) => ({ ...scan, table: aliases.get(scan.table) ?? scan.table }))
            .filter((scan) => (sizes.get(scan.table) ?? LARGE_TABLE) >= LARGE_TABLE)
            .map((scan) => `${scan.line} on ${scan.table} (${sizes.has(scan.table) ? `${sizes.get(scan.table)!.toLocaleString('en-US')} rows` : 'size unknown'})`);
          plans.push({ plan, flagged, tokenLookup: /"access_tokens"/.test(statement.sql) });
        }
        sections.push({ request: `${request.name}: GET ${request.url.length > 90 ? `${request.url.slice(0, 90)}…` : request.url}`, status: res.statusCode, statements: ran.length, plans });
        process.stdout.write(`${request.name}: ${ran.length} statements, ${reads.length} new reads explained\n`);
      }
    } finally {
      await app.close();
      await closeDeps(captureDeps);
    }

    const flaggedAll = sections.flatMap((s) => s.plans.flatMap((p) => p.flagged.map((f) => `${s.request.split(':')[0]}: ${f}`)));
    const how = dialect === 'postgres' ? 'EXPLAIN (ANALYZE, BUFFERS), the statement run with the parameters the request used' : 'EXPLAIN QUERY PLAN with the parameters the request used';
    const lines = [
      '## Query plans',
      '',
      `Written by \`npm run bench:explain\` (bench/explain.ts) on ${new Date().toISOString()}: ${how}, after ANALYZE.`,
      '',
      ...machineLines('service in this process; each hot request sent once (Fastify inject) to a second app instance that records its statements', os.loadavg()[0]!, bench.run()),
      `- Data: one account, ${OPEN_ORDERS.toLocaleString('en-US')} open 2-line orders (bench/seed.ts seedOrderAccount) and ${(listings * PER_LISTING).toLocaleString('en-US')} ` +
        `listing variants (${PER_LISTING} per listing, a tenth drifting) on its storefront; seeding and ANALYZE took ${seedSeconds.toFixed(1)} s`,
      `- Flagged: a full scan of a table with ≥ ${LARGE_TABLE.toLocaleString('en-US')} rows. ${flaggedAll.length === 0 ? '**None.**' : `**${flaggedAll.length}:**`}`,
      ...flaggedAll.map((f) => `  - ${f}`),
      '',
    ];
    for (const s of sections) {
      lines.push(`**${s.request}** (${s.status}; ${s.statements} statements, ${s.plans.length} reads not explained above)`, '');
      for (const p of s.plans) {
        if (p.tokenLookup) lines.push('Token lookup:', '');
        if (p.flagged.length > 0) lines.push(...p.flagged.map((f) => `⚠ full scan: ${f}`), '');
        lines.push('```sql', p.plan.sql, '```', '```', ...p.plan.lines, '```', '');
      }
    }
    writeSection(lines.join('\n'), path.join(here, 'RESULTS.md'), 'Query plans', 'Query plans notes');
    if (flaggedAll.length > 0) process.stdout.write(`\n${flaggedAll.length} full scan(s) of large tables flagged\n`);
  });
}

runMain(main);
