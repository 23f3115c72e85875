import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrations/index.js';
import { withTx } from '../src/db/tx.js';
import { closeDeps, createDeps, type Deps } from '../src/deps.js';
import { registerApp } from '../src/domain/accounts/apps.js';
import { installApp } from '../src/domain/accounts/installations.js';
import type { AppKind, Scope } from '../src/domain/accounts/principal.js';
import { load, median } from './common.js';
import type { LoadJob, LoadResult } from './load.js';

/** Setup and run steps shared by the benchmark scripts that seed an account and drive it over HTTP. */

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
    installApp(tx, accountId, { appId: creds.appId, warehouses: options.warehouses, storefrontName: options.storefrontName }, now),
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

/**
 * Puts a generated section ("## <heading>") into RESULTS.md: it replaces the previous one up to its
 * hand-written "### <notesHeading>" (kept) or the next "## " heading, or is appended. Everything else is kept.
 */
export function mergeSection(previous: string, section: string, heading: string, notesHeading: string): string {
  const start = previous.search(new RegExp(`^## ${heading}$`, 'm'));
  if (start < 0) return `${previous.replace(/\s*$/, '')}\n\n${section}`;
  const rest = previous.slice(start + 1);
  const notes = rest.search(new RegExp(`^### ${notesHeading}$`, 'm'));
  const nextHeading = rest.search(/^## /m);
  const endRel = notes >= 0 ? notes : nextHeading;
  const end = endRel >= 0 ? start + 1 + endRel : previous.length;
  return `${previous.slice(0, start)}${section}\n${previous.slice(end)}`;
}

/** Prints a generated section and merges it into BENCH_OUTPUT (default bench/RESULTS.md; "-" prints only). */
export function writeSection(text: string, defaultOutput: string, heading: string, notesHeading: string): void {
  process.stdout.write(`\n${text}`);
  const output = process.env.BENCH_OUTPUT ?? defaultOutput;
  if (output === '-') return;
  writeFileSync(output, mergeSection(existsSync(output) ? readFileSync(output, 'utf8') : '', text, heading, notesHeading));
  process.stdout.write(`\nwritten to ${path.relative(process.cwd(), output)}\n`);
}

/** Runs a benchmark's main and exits non-zero with the stack when it fails. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
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

/**
 * Runs `fn` against the service as `serve` builds it: buildApp over an embedded SQLite database in a fresh
 * temporary DATA_DIR (rate limiting off, logging silent), listening on 127.0.0.1; everything is closed and
 * removed afterwards.
 */
export async function withBenchService(name: string, fn: (deps: Deps, base: string) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `mcs-bench-${name}-`));
  const config = loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_RPS: '0', LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0' });
  const deps = createDeps(config);
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  try {
    await migrateToLatest(deps.db.db as unknown as Kysely<unknown>, deps.db.dialect);
    app = await buildApp(deps);
    await fn(deps, await app.listen({ host: '127.0.0.1', port: 0 }));
  } finally {
    await app?.close();
    await closeDeps(deps);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
