/**
 * The database a benchmark runs on (BENCH_DB, see the top of bench/harness.ts): a fresh temporary DATA_DIR
 * always, and on PostgreSQL a fresh schema in the database of BENCH_DATABASE_URL or TEST_DATABASE_URL
 * (scripts/ci-postgres.sh), dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export type BenchDbKind = 'sqlite' | 'postgres';

/** BENCH_DB: sqlite (default) or postgres; anything else stops the run. */
export function benchDbKind(): BenchDbKind {
  const raw = (process.env.BENCH_DB ?? 'sqlite').trim().toLowerCase();
  if (raw === '' || raw === 'sqlite') return 'sqlite';
  if (raw === 'postgres' || raw === 'postgresql' || raw === 'pg') return 'postgres';
  throw new Error(`BENCH_DB must be "sqlite" or "postgres", got "${raw}"`);
}

/** The PostgreSQL server URL a BENCH_DB=postgres run uses, and where it came from. */
function postgresServerUrl(): { url: string; source: 'BENCH_DATABASE_URL' | 'TEST_DATABASE_URL' } {
  const bench = process.env.BENCH_DATABASE_URL?.trim();
  if (bench) return { url: bench, source: 'BENCH_DATABASE_URL' };
  const test = process.env.TEST_DATABASE_URL?.trim();
  if (test) return { url: test, source: 'TEST_DATABASE_URL' };
  throw new Error(
    'BENCH_DB=postgres needs a PostgreSQL server: run the benchmark under scripts/ci-postgres.sh ' +
      '(BENCH_DB=postgres bash scripts/ci-postgres.sh npm run bench:orders), or set BENCH_DATABASE_URL',
  );
}

export interface BenchDatabase {
  kind: BenchDbKind;
  /** For the results' machine lines: "embedded SQLite …" or "PostgreSQL 15.x (…)". */
  label: string;
  /** A fresh temporary directory (removed afterwards). */
  dataDir: string;
  /** DATABASE_URL for the service (search_path set to the fresh schema); null on SQLite. */
  databaseUrl: string | null;
  /** The environment a config or a spawned `serve` needs for this database: DATA_DIR, and DATABASE_URL on PostgreSQL. */
  env: Record<string, string>;
}

/** The machine-line label of a PostgreSQL run: the server's version and where the server came from. */
async function postgresLabel(client: pg.Client, source: string, url: string): Promise<string> {
  const version = (await client.query<{ server_version: string }>('show server_version')).rows[0]?.server_version ?? 'unknown version';
  const { hostname, port } = new URL(url);
  const where = source === 'TEST_DATABASE_URL' ? 'throwaway local cluster from scripts/ci-postgres.sh' : `BENCH_DATABASE_URL ${hostname}:${port}`;
  return `PostgreSQL ${version.split(' ')[0]} (${where}; a fresh schema per run; pool of PG_POOL_SIZE=10 connections)`;
}

/**
 * Runs `fn` with a fresh database of the kind BENCH_DB selects; the DATA_DIR and (on PostgreSQL) the schema
 * are removed afterwards, whether `fn` succeeds or not.
 */
export async function withBenchDatabase<T>(name: string, fn: (db: BenchDatabase) => Promise<T>): Promise<T> {
  const kind = benchDbKind();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `mcs-bench-${name}-`));
  try {
    if (kind === 'sqlite') {
      return await fn({ kind, label: 'embedded SQLite (WAL) in a temporary DATA_DIR', dataDir, databaseUrl: null, env: { DATA_DIR: dataDir } });
    }
    const server = postgresServerUrl();
    const schema = `bench_${name.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    try {
      const label = await postgresLabel(admin, server.source, server.url);
      await admin.query(`create schema ${schema}`);
      try {
        const withSchema = new URL(server.url);
        withSchema.searchParams.set('options', `-c search_path=${schema}`);
        const databaseUrl = withSchema.toString();
        process.stdout.write(`PostgreSQL: schema ${schema} on ${server.source}\n`);
        return await fn({ kind, label, dataDir, databaseUrl, env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl } });
      } finally {
        await admin.query(`drop schema if exists ${schema} cascade`);
      }
    } finally {
      await admin.end();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** " (PostgreSQL)" on a BENCH_DB=postgres run, "" otherwise: what results headings get so each database keeps its own section. */
export function headingSuffix(): string {
  return benchDbKind() === 'postgres' ? ' (PostgreSQL)' : '';
}
