import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrations/index.js';
import { withTx } from '../src/db/tx.js';
import { closeDeps, createDeps } from '../src/create-deps.js';
import type { Deps } from '../src/deps.js';
import { registerApp } from '../src/domain/accounts/apps.js';
import { installApp } from '../src/domain/accounts/installations.js';
import { warehouseWorkPort } from '../src/domain/fulfillment/warehouse-handover.js';
import type { AppKind, Scope } from '../src/domain/accounts/principal.js';
import { load, median, RssSampler, type RssSummary } from './common.js';
import { headingSuffix, withBenchDatabase, type BenchDatabase } from './database.js';
import type { LoadJob, LoadResult } from './load.js';

/**
 * Setup and run steps shared by the benchmark scripts that seed an account and drive it over HTTP.
 *
 * Which database (BENCH_DB):
 * - BENCH_DB=sqlite (default): the embedded SQLite database in a fresh temporary DATA_DIR, as `serve` uses it.
 * - BENCH_DB=postgres: a fresh schema in the PostgreSQL database named by BENCH_DATABASE_URL, or else by
 *   TEST_DATABASE_URL, which scripts/ci-postgres.sh exports for the throwaway local cluster it starts (temporary
 *   directory, free loopback port, fsync off) and removes when the command ends. That script is the one
 *   mechanism: the benchmarks never start a cluster themselves.
 *
 *     BENCH_DB=postgres bash scripts/ci-postgres.sh npm run bench:orders
 *
 *   The schema ("bench_<name>_<random>") is created before the run and dropped with everything in it after;
 *   the service reaches it through DATABASE_URL with `options=-c search_path=<schema>`, so in-process deps and
 *   spawned `serve` processes alike use it. A temporary DATA_DIR is still made (server secret, server.json).
 *
 * Results of a PostgreSQL run go to their own RESULTS.md sections ("## Orders benchmark (PostgreSQL)"),
 * so the SQLite ones are kept; every section names its database in its machine lines (machineLines).
 */

export async function expectOk(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  if (res.status !== 200 && res.status !== 201) throw new Error(`${what} answered ${res.status}: ${text.slice(0, 400)}`);
  return JSON.parse(text) as unknown;
}

/** Registers an app, installs it and exchanges the code through POST /v1/token, as a partner would. */
export async function installPartner(
  deps: Deps,
  base: string,
  accountId: number,
  kind: AppKind,
  scopes: Scope[],
  options: { name: string; warehouses?: { warehouseId: number; warehouseUniqueId: string }[]; storefrontName?: string },
) {
  const now = deps.clock.now();
  const redirectUri = 'https://partner.example/oauth/callback';
  const creds = await registerApp(deps.db.db, deps.signer, { name: options.name, contactEmail: 'dev@partner.example', redirectUri, kind, scopes }, now);
  const installed = await withTx(deps.db.db, (tx) =>
    installApp(tx, accountId, { appId: creds.appId, warehouses: options.warehouses, storefrontName: options.storefrontName }, now, warehouseWorkPort),
  );
  const res = await fetch(`${base}/v1/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: installed.code, redirect_uri: redirectUri }).toString(),
  });
  const body = (await expectOk(res, 'POST /v1/token')) as { access_token: string };
  return { installationId: installed.installationId, token: body.access_token };
}

export function chunks<T>(rows: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export interface Scenario<N extends string> {
  name: N;
  title: string;
  job: LoadJob;
}

export interface ScenarioSummary<N extends string> {
  scenario: Scenario<N>;
  rps: number;
  p50: number;
  p99: number;
  perRun: number[];
  requests: number;
  non2xx: number;
  errors: number;
}

/** Warms every scenario up, then runs them round-robin `runs` times and summarises each by its medians. */
export async function runScenarios<N extends string>(scenarios: Scenario<N>[], runs: number, warmupSeconds: number): Promise<ScenarioSummary<N>[]> {
  const results = new Map<N, LoadResult[]>(scenarios.map((s) => [s.name, []]));
  for (const s of scenarios) {
    process.stdout.write(`warming up ${s.name}…\n`);
    await load({ ...s.job, durationSeconds: warmupSeconds });
  }
  for (let run = 1; run <= runs; run++) {
    for (const s of scenarios) {
      const result = await load(s.job);
      results.get(s.name)!.push(result);
      process.stdout.write(
        `run ${run}/${runs} ${s.name.padEnd(12)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s  ` +
          `p50 ${result.latencyP50Ms} ms  p99 ${result.latencyP99Ms} ms  non-2xx ${result.non2xx}  errors ${result.errors}\n`,
      );
    }
  }
  return scenarios.map((scenario) => {
    const r = results.get(scenario.name)!;
    return {
      scenario,
      rps: median(r.map((x) => x.requestsPerSecond)),
      p50: median(r.map((x) => x.latencyP50Ms)),
      p99: median(r.map((x) => x.latencyP99Ms)),
      perRun: r.map((x) => Math.round(x.requestsPerSecond)),
      requests: r.reduce((n, x) => n + x.requests, 0),
      non2xx: r.reduce((n, x) => n + x.non2xx, 0),
      errors: r.reduce((n, x) => n + x.errors + x.timeouts, 0),
    };
  });
}

/** The results table rows of a summary. */
export function resultRows<N extends string>(summary: ScenarioSummary<N>[]): string[] {
  return [
    '| Scenario | req/s (median) | p50 latency | p99 latency | req/s per run | non-2xx / errors |',
    '|---|---:|---:|---:|---|---|',
    ...summary.map((s) => `| ${s.scenario.title} | ${Math.round(s.rps)} | ${s.p50} ms | ${s.p99} ms | ${s.perRun.join(', ')} | ${s.non2xx} / ${s.errors} |`),
  ];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Puts a generated section ("## <heading>") into RESULTS.md: it replaces the previous one up to its
 * hand-written "### <notesHeading>" (kept) or the next "## " heading, or is appended. Everything else is kept.
 */
export function mergeSection(previous: string, section: string, heading: string, notesHeading: string): string {
  const start = previous.search(new RegExp(`^## ${escapeRegExp(heading)}$`, 'm'));
  if (start < 0) return `${previous.replace(/\s*$/, '')}\n\n${section}`;
  const rest = previous.slice(start + 1);
  const nextHeading = rest.search(/^## /m);
  const inSection = nextHeading >= 0 ? rest.slice(0, nextHeading) : rest;
  // Hand-written notes (`### <notesHeading>`, or any `### ` heading, however it was named) stay: only the
  // generated part before them is replaced. Notes count only inside this section.
  const named = inSection.search(new RegExp(`^### ${escapeRegExp(notesHeading)}$`, 'm'));
  const notes = named >= 0 ? named : inSection.search(/^### /m);
  const endRel = notes >= 0 ? notes : nextHeading;
  const end = endRel >= 0 ? start + 1 + endRel : previous.length;
  return `${previous.slice(0, start)}${section}\n${previous.slice(end)}`;
}

/**
 * Prints a generated section and merges it into BENCH_OUTPUT (default bench/RESULTS.md; "-" prints only).
 * `text` opens with "## <heading>"; on BENCH_DB=postgres the heading and the notes heading get " (PostgreSQL)",
 * so the PostgreSQL results have sections of their own beside the SQLite ones.
 */
export function writeSection(text: string, defaultOutput: string, heading: string, notesHeading: string): void {
  if (!text.startsWith(`## ${heading}\n`)) throw new Error(`the section does not open with "## ${heading}"`);
  // A PostgreSQL-only benchmark (bench:scale-out) names its database in its heading already.
  const suffix = heading.endsWith(headingSuffix()) ? '' : headingSuffix();
  const section = `## ${heading}${suffix}${text.slice(`## ${heading}`.length)}`;
  process.stdout.write(`\n${section}`);
  const output = process.env.BENCH_OUTPUT ?? defaultOutput;
  if (output === '-') return;
  writeFileSync(output, mergeSection(existsSync(output) ? readFileSync(output, 'utf8') : '', section, `${heading}${suffix}`, `${notesHeading}${suffix}`));
  process.stdout.write(`\nwritten to ${path.relative(process.cwd(), output)}\n`);
}

/** Runs a benchmark's main and exits non-zero with the stack when it fails. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

/** A bold target line of RESULTS.md: what was asked, what was measured, met or not. */
export function targetLine(what: string, measured: string, met: boolean): string {
  return `**Target:** ${what}. Measured ${measured}: **${met ? 'met' : 'NOT met'}**.`;
}

/** The scenarios BENCH_SCENARIOS names (comma list; default all); an unknown name stops the run. */
export function selectedScenarios<N extends string>(all: readonly N[]): N[] {
  const selected = (process.env.BENCH_SCENARIOS ?? all.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean) as N[];
  for (const s of selected) if (!all.includes(s)) throw new Error(`unknown scenario "${s}"`);
  return selected;
}

/** What withBenchService hands a benchmark besides the deps and the base URL. */
export interface BenchContext {
  database: BenchDatabase;
  /** RSS of this process (the service's) sampled every 100 ms; call rss.markRuns() when the measured runs start. */
  rss: RssSampler;
  /** The machine-line facts of this run, for machineLines(setup, loadBefore, bench.run()). */
  run(): { database: string; rss: RssSummary };
}

/**
 * Runs `fn` against the service as `serve` builds it: buildApp over the database BENCH_DB selects (see the top
 * of this file) with a fresh temporary DATA_DIR (rate limiting off, logging silent), listening on 127.0.0.1;
 * everything is closed and removed afterwards. `overrides` adds configuration (environment names).
 */
export async function withBenchService(
  name: string,
  fn: (deps: Deps, base: string, bench: BenchContext) => Promise<void>,
  overrides: Record<string, string> = {},
): Promise<void> {
  await withBenchDatabase(name, async (database) => {
    const config = loadConfig({ ...database.env, RATE_LIMIT_RPS: '0', LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0', ...overrides });
    const deps = createDeps(config);
    const rss = new RssSampler();
    let app: Awaited<ReturnType<typeof buildApp>> | null = null;
    try {
      await migrateToLatest(deps.db.db as unknown as Kysely<unknown>, deps.db.dialect);
      app = await buildApp(deps);
      const context: BenchContext = { database, rss, run: () => ({ database: database.label, rss: rss.summary() }) };
      await fn(deps, await app.listen({ host: '127.0.0.1', port: 0 }), context);
    } finally {
      rss.stop();
      await app?.close();
      await closeDeps(deps);
    }
  });
}
