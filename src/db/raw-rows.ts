import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import { syncReadConnection, type DbHandle } from './connect.js';
import type { Db, Tx } from './tx.js';
import type { Compilable, CompiledQuery } from 'kysely';
import { isPostgres } from './dialect.js';
import { ROWS_AS_ARRAYS, withMarks } from './pg-client.js';
import { rowFactory } from './row-factory.js';

/**
 * Wide page reads (an order list page is ~300 rows of ~30 columns) spend more time in better-sqlite3 building
 * one object per row, property by property, than in SQLite. On SQLite outside a transaction, such a read runs
 * here as a statement in raw mode (arrays), and the rows are built in JS by one object literal per statement
 * (200 rows of 31 columns: ~10 µs, against ~270 µs setting the properties one by one). Same SQL, same parameters, same values: only who builds the row objects
 * changes. On PostgreSQL the same holds for node-postgres's row objects: the read asks for its rows as arrays
 * and the pool's client builds them the same way (src/db/pg-client.ts). Anything else (an open SQLite
 * transaction, no handle) goes through Kysely as before.
 */
const CACHE_SIZE = 200;

interface RawStatement {
  statement: Statement;
  toRow: ((values: unknown[]) => unknown) | null;
}

const caches = new WeakMap<SqliteDatabase, Map<string, RawStatement>>();

function rawStatement(sqlite: SqliteDatabase, sql: string): RawStatement {
  let cache = caches.get(sqlite);
  if (!cache) caches.set(sqlite, (cache = new Map()));
  const hit = cache.get(sql);
  if (hit) {
    // Re-inserting keeps the most recently used texts at the end (IN-lists of other lengths are other texts).
    cache.delete(sql);
    cache.set(sql, hit);
    return hit;
  }
  // A statement of its own: the Kysely statement cache shares statements in object mode.
  const statement = sqlite.prepare(sql).raw(true);
  const entry = { statement, toRow: rowFactory(statement.columns().map((c) => c.name)) };
  cache.set(sql, entry);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return entry;
}

/** `query` is a Kysely query, or one compiled ahead (src/db/compiled.ts `bound`) so that no request builds it. */
export async function selectRows<R>(db: Db | Tx, handle: DbHandle | undefined, query: Compilable<R> | CompiledQuery<R>): Promise<R[]> {
  const compiled = 'compile' in query ? query.compile() : query;
  const sqlite = db.isTransaction ? null : syncReadConnection(handle);
  if (sqlite) {
    const { statement, toRow } = rawStatement(sqlite, compiled.sql);
    if (toRow === null) return (await db.executeQuery(compiled)).rows;
    const arrays = statement.all(...(compiled.parameters as unknown[])) as unknown[][];
    return arrays.map((values) => toRow(values) as R);
  }
  if (isPostgres(db)) return (await db.executeQuery(withMarks(compiled, ROWS_AS_ARRAYS))).rows;
  return (await db.executeQuery(compiled)).rows;
}
