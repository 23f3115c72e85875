import type { Compilable } from 'kysely';
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { DbHandle } from './connect.js';
import type { Db, Tx } from './tx.js';

/**
 * Wide page reads (an order list page is ~300 rows of ~30 columns) spend more time in better-sqlite3 building
 * one object per row, property by property, than in SQLite. On SQLite outside a transaction, such a read runs
 * here as a statement in raw mode (arrays), and the rows are built in JS with one shape for every row, which
 * V8 does about twice as fast. Same SQL, same parameters, same values: only who builds the row objects
 * changes. Anything else (PostgreSQL, an open transaction, no handle) goes through Kysely as before.
 */
const CACHE_SIZE = 200;

interface RawStatement {
  statement: Statement;
  columns: string[];
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
  const entry = { statement, columns: statement.columns().map((c) => c.name) };
  cache.set(sql, entry);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return entry;
}

export async function selectRows<R>(db: Db | Tx, handle: DbHandle | undefined, query: Compilable<R>): Promise<R[]> {
  const compiled = query.compile();
  if (handle && 'sqlite' in handle.raw && !handle.raw.sqlite.inTransaction) {
    const { statement, columns } = rawStatement(handle.raw.sqlite, compiled.sql);
    const arrays = statement.all(...(compiled.parameters as unknown[])) as unknown[][];
    const rows = new Array<R>(arrays.length);
    for (let i = 0; i < arrays.length; i++) {
      const values = arrays[i]!;
      const row: Record<string, unknown> = {};
      for (let c = 0; c < columns.length; c++) row[columns[c]!] = values[c];
      rows[i] = row as R;
    }
    return rows;
  }
  return (await db.executeQuery(compiled)).rows;
}
