import type { Statement } from 'better-sqlite3';
import type { Compilable } from 'kysely';
import type { DbHandle } from '../../db/connect.js';
import type { Db } from '../../db/tx.js';

/**
 * Page reads of the listing views (25 listings, 125 variants, 300 attribute values). On SQLite most of
 * their time is better-sqlite3 building each row object property by property; in raw mode it hands over
 * arrays, which this turns into objects several times faster. Only for `handle`'s own database outside any
 * transaction (a statement run now would see an open transaction's writes); otherwise the query runs
 * through Kysely as before. Statements are kept per SQL text, bounded like the shared statement cache.
 */
const CACHE_SIZE = 200;

const caches = new WeakMap<object, Map<string, { statement: Statement; columns: string[] }>>();

export async function readRows<R>(db: Db, handle: DbHandle | undefined, query: Compilable<R> & { execute(): Promise<R[]> }): Promise<R[]> {
  if (!handle || db !== handle.db || !('sqlite' in handle.raw) || handle.raw.sqlite.inTransaction) return query.execute();
  const sqlite = handle.raw.sqlite;
  const compiled = query.compile();
  let cache = caches.get(sqlite);
  if (!cache) caches.set(sqlite, (cache = new Map()));
  let entry = cache.get(compiled.sql);
  if (!entry) {
    const statement = sqlite.prepare(compiled.sql).raw(true);
    entry = { statement, columns: statement.columns().map((c) => c.name) };
    cache.set(compiled.sql, entry);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }
  const { statement, columns } = entry;
  const arrays = statement.all(...(compiled.parameters as unknown[])) as unknown[][];
  return arrays.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i];
    return row as R;
  });
}
