import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct SQL texts kept prepared; queries with variable IN-lists make new texts, so the cache is bounded. */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * The SQLite database as Kysely sees it, with prepared statements reused by SQL text. Kysely's SQLite
 * driver prepares every statement afresh, which costs about as much as running a short one. Reusing a
 * statement is safe here because the driver runs one statement at a time on its single connection (its
 * mutex is held for a whole transaction or stream), and SQLite re-prepares a statement itself when the
 * schema changes. Least recently used texts leave first.
 */
export function withStatementCache(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      const hit = cache.get(sql);
      if (hit) {
        // Map keeps insertion order: re-inserting moves the text to the most recently used end.
        cache.delete(sql);
        cache.set(sql, hit);
        return hit;
      }
      const statement = sqlite.prepare(sql) as unknown as SqliteStatement;
      cache.set(sql, statement);
      if (cache.size > size) cache.delete(cache.keys().next().value as string);
      return statement;
    },
  };
}
