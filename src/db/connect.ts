import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { ensurePrivateDir, ensurePrivateFile, narrowExistingFile } from '../lib/private-files.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The underlying driver objects, for the prepared-statement read path (src/db/prepared.ts). */
  raw: { sqlite: SQLite.Database } | { pool: pg.Pool };
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
}

// pg returns int8 and numeric as strings to avoid precision loss; our int8 values (counts, sums) fit in a
// JS number, so parse them. Set once per process: it is a property of the pg module, not of a pool.
pg.types.setTypeParser(20, (v) => Number(v));

export function connectDatabase(options: ConnectOptions): DbHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.pgPoolSize ?? 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', raw: { pool }, close: () => db.destroy() };
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
  sqlite.pragma('foreign_keys = ON');
  // Another process (a separate worker or the CLI) may hold the write lock briefly.
  sqlite.pragma('busy_timeout = 5000');
  // Without statistics SQLite's planner takes `account_id = ?` for a selective predicate and may scan a
  // whole account through an account-led index instead of using the primary key or a better index. Keep
  // sqlite_stat1 current the way SQLite recommends: analyze what needs it at open, then every hour.
  sqlite.pragma('optimize=0x10002');
  const optimizer = setInterval(() => {
    try {
      sqlite.pragma('optimize');
    } catch {
      // Busy or closing: the next round will do it.
    }
  }, 60 * 60 * 1000);
  optimizer.unref();
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db,
    dialect: 'sqlite',
    raw: { sqlite },
    close: async () => {
      clearInterval(optimizer);
      await db.destroy();
    },
  };
}
