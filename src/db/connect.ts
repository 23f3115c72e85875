import { startWalCheckpointer, WAL_BACKSTOP_PAGES, WAL_RELIEF_BYTES, walRelief } from './wal-checkpointer.js';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { groupCommitDialect, type GroupCommitStats } from './group-commit.js';
import { pipelinedClientClass, plainClientClass } from './pg-client.js';
import { ensurePrivateDir, ensurePrivateFile, narrowExistingFile } from '../lib/private-files.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The underlying driver objects, for the prepared-statement read path (src/db/prepared.ts). */
  raw: { sqlite: SQLite.Database; reader: SQLite.Database | null } | { pool: pg.Pool };
  /** SQLite: how many COMMITs carried how many transactions (src/db/group-commit.ts); null on PostgreSQL. */
  groupCommit: GroupCommitStats | null;
  /** Whether the fast paths are on (ConnectOptions.speedUps). */
  speedUps: boolean;
  /**
   * SQLite on disk: checkpoints the WAL in the checkpointer thread and resolves when done (true when it
   * copied every frame); a writer of a long burst awaits it between writes (src/db/wal-checkpointer.ts).
   * Absent on PostgreSQL and in memory.
   */
  walCheckpoint?: () => Promise<boolean>;
  /**
   * SQLite on disk: a background writer (an import, an ingestion apply) calls this between its chunks. Once
   * the WAL holds more than WAL_RELIEF_BYTES it waits for a checkpoint in the thread, so the WAL never reaches
   * the backstop, whose checkpoint would copy it inside some COMMIT on the event loop (60 ms seen during a
   * 100,000-line import); below that it returns at once. Absent on PostgreSQL and in memory.
   */
  relieveWal?: () => Promise<void>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** postgres:// URL; when absent the embedded SQLite database is used. */
  databaseUrl: string | null;
  /** SQLite file path, or ':memory:'. */
  sqliteFile: string;
  /** PostgreSQL schema to use (tests give each app its own). */
  pgSchema?: string;
  pgPoolSize?: number;
  /**
   * How long opening a PostgreSQL connection may take before it fails (and the request answers 503): a
   * database host that does not answer at all (failover, network cut) fails requests fast instead of
   * hanging them. Default 5 s.
   */
  pgConnectTimeoutMs?: number;
  /**
   * How long a request may wait for a free pooled connection when all are busy. Longer than the connect
   * timeout: under load, queueing for a few seconds is normal and must not turn into 503s. Default 30 s.
   */
  pgAcquireTimeoutMs?: number;
  /** Where connection errors of idle or checked-out pool clients are reported (they never crash the process). */
  onConnectionError?: (error: Error) => void;
  /**
   * The fast paths (docs/architecture.md, "The database's fast paths"), on unless false. Off: SQLite through
   * Kysely's own driver on one connection (no group commit, no statement cache, no read connection, no raw
   * rows or cached prepared reads); PostgreSQL with a plain client (every statement waited for, unnamed, rows
   * as objects). The same answers, slower: for telling whether a fast path is at fault (DB_SPEEDUPS=off).
   */
  speedUps?: boolean;
}

const DEFAULT_PG_CONNECT_TIMEOUT_MS = 5000;
const DEFAULT_PG_ACQUIRE_TIMEOUT_MS = 30_000;

function reportToStderr(error: Error) {
  process.stderr.write(`database connection error: ${error.message}\n`);
}

// pg returns int8 and numeric as strings to avoid precision loss; our int8 values (counts, sums) fit in a
// JS number, so parse them. Set once per process: it is a property of the pg module, not of a pool.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * The SQLite connection a synchronous read outside a transaction may use now, as the driver chooses one for
 * its own reads (src/db/group-commit.ts): the writer while no transaction is open on it, else the read
 * connection. null (in memory, a transaction open): go through Kysely, which waits for the writer.
 */
export function syncReadConnection(handle: DbHandle | undefined): SQLite.Database | null {
  if (!handle || !handle.speedUps || !('sqlite' in handle.raw)) return null;
  const { sqlite, reader } = handle.raw;
  return sqlite.inTransaction ? reader : sqlite;
}

function openReader(file: string): SQLite.Database {
  const reader = new SQLite(file);
  // This connection only ever reads; SQLite refuses a write on it rather than letting one slip past the writer.
  reader.pragma('query_only = ON');
  reader.pragma('busy_timeout = 5000');
  return reader;
}

export function connectDatabase(options: ConnectOptions): DbHandle {
  const speedUps = options.speedUps ?? true;
  if (options.databaseUrl) {
    const connectTimeoutMs = options.pgConnectTimeoutMs ?? DEFAULT_PG_CONNECT_TIMEOUT_MS;
    // pg-pool hands its connectionTimeoutMillis to every client too, which would bound the connect and the
    // wait for a free connection alike; the client class gets its own, shorter, connect timeout.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.pgPoolSize ?? 10,
      Client: speedUps ? pipelinedClientClass(connectTimeoutMs) : plainClientClass(connectTimeoutMs),
      connectionTimeoutMillis: Math.max(options.pgAcquireTimeoutMs ?? DEFAULT_PG_ACQUIRE_TIMEOUT_MS, connectTimeoutMs),
      // Notices a peer that vanished without closing (a failover, a dropped network) on idle connections.
      keepAlive: true,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    const onError = options.onConnectionError ?? reportToStderr;
    // An 'error' event without a listener ends the process. pg-pool listens on idle clients only and
    // re-emits on the pool; a client checked out by a transaction that is between two statements when the
    // server goes away (restart, failover, pg_terminate_backend) emits on itself. Both are reported here;
    // the query in flight, or the next one, fails with the error and the dead client leaves the pool.
    pool.on('error', onError);
    pool.on('connect', (client) => client.on('error', onError));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', raw: { pool }, groupCommit: null, speedUps, close: () => db.destroy() };
  }
  const onDisk = options.sqliteFile !== ':memory:';
  if (onDisk) {
    // SQLite creates a database 0644; an empty file made 0600 first is opened as a new database, and
    // SQLite gives the -wal and -shm files the main file's mode. Existing ones are narrowed too.
    ensurePrivateDir(path.dirname(options.sqliteFile));
    ensurePrivateFile(options.sqliteFile);
    for (const suffix of ['-wal', '-shm']) narrowExistingFile(`${options.sqliteFile}${suffix}`);
  }
  const sqlite = new SQLite(options.sqliteFile);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  // An on-disk database is checkpointed from a worker thread; this connection's own automatic checkpoint
  // (on a request's COMMIT) remains as a backstop only (src/db/wal-checkpointer.ts).
  const checkpointer = onDisk ? startWalCheckpointer(options.sqliteFile) : null;
  if (checkpointer) {
    sqlite.pragma(`wal_autocheckpoint = ${WAL_BACKSTOP_PAGES}`);
    // When the WAL starts over after a full checkpoint, its file is cut back to this size, so its size on
    // disk tells how much it holds whenever it holds more (relieveWal below).
    sqlite.pragma(`journal_size_limit = ${WAL_RELIEF_BYTES}`);
  }
  sqlite.pragma('foreign_keys = ON');
  // Every transaction runs in a savepoint (group commit, src/db/group-commit.ts), so the pages it changes are
  // copied to a statement journal, which SQLite spills to a temporary file past 64 KB: keep it in memory (it
  // lives as long as one transaction). Sorts on the read connection stay as they are.
  sqlite.pragma('temp_store = MEMORY');
  // Another process (a separate worker or the CLI) may hold the write lock briefly.
  sqlite.pragma('busy_timeout = 5000');
  // Without statistics SQLite's planner takes `account_id = ?` for a selective predicate and may scan a
  // whole account through an account-led index instead of using the primary key or a better index. Keep
  // sqlite_stat1 current the way SQLite recommends: analyze what needs it at open, then again every ten
  // minutes, every table checked (0x10000), so a database that grew from nothing since the start (a seller's
  // first import) gets its statistics within minutes rather than at the next start: without them the v1 order
  // list's first page sorted the whole account (bench:orders). A round that finds nothing to do costs
  // microseconds; one that analyzes is bounded by SQLite's own analysis limit.
  sqlite.pragma('optimize=0x10002');
  const optimizer = setInterval(() => {
    try {
      sqlite.pragma('optimize=0x10002');
    } catch {
      // Busy or closing: the next round will do it.
    }
  }, 10 * 60 * 1000);
  optimizer.unref();
  // Reads outside a transaction use a connection of their own (committed data, no wait behind the writer);
  // an in-memory database has no second connection (src/db/group-commit.ts).
  const reader = onDisk && speedUps ? openReader(options.sqliteFile) : null;
  const grouped = speedUps ? groupCommitDialect(sqlite, reader) : null;
  const db = new Kysely<Database>({ dialect: grouped ?? new SqliteDialect({ database: sqlite }) });
  return {
    db,
    dialect: 'sqlite',
    raw: { sqlite, reader },
    groupCommit: grouped?.driver.stats ?? null,
    speedUps,
    ...(checkpointer ? { walCheckpoint: () => checkpointer.checkpointNow(), relieveWal: walRelief(`${options.sqliteFile}-wal`, checkpointer) } : {}),
    close: async () => {
      clearInterval(optimizer);
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}
