import type { Compilable } from 'kysely';
import type { Database, Statement } from 'better-sqlite3';
import { syncReadConnection, type DbHandle } from './connect.js';
import { compileWithArgs, type ArgFn } from './compiled.js';
import { statementNameOf } from './pg-statement-names.js';

/**
 * Hot read paths (token lookup, single-SKU reads) run the same SQL thousands of times a second. Building
 * and compiling a Kysely query and re-preparing it per request costs more than the query itself, so a
 * query is built once with named arguments, and runs as a cached prepared statement:
 * - SQLite: a cached better-sqlite3 Statement, run synchronously on the connection syncReadConnection
 *   picks (the writer when no transaction is open on it, else the read connection; in memory with a
 *   transaction open, through Kysely);
 * - PostgreSQL: a named prepared statement, which pg prepares once per pooled connection.
 */
export type { ArgFn } from './compiled.js';

export interface PreparedQuery<R, A extends Record<string, unknown>> {
  all(args: A): Promise<R[]>;
  first(args: A): Promise<R | undefined>;
}

export function prepareQuery<R, A extends Record<string, unknown>>(
  handle: DbHandle,
  build: (arg: ArgFn) => Compilable<R>,
): PreparedQuery<R, A> {
  const { compiled, bind } = compileWithArgs<R, A>(build);
  const name = statementNameOf(compiled.sql);
  const statements = new Map<Database, Statement>();

  const all = async (args: A): Promise<R[]> => {
    const params = bind(args);
    if ('sqlite' in handle.raw) {
      const sqlite = syncReadConnection(handle);
      if (sqlite) {
        // Prepared once on each of the (at most two) connections reads run on.
        let statement = statements.get(sqlite);
        if (!statement) statements.set(sqlite, (statement = sqlite.prepare(compiled.sql)));
        return statement.all(...(params as unknown[])) as R[];
      }
    } else {
      const result = await handle.raw.pool.query({ ...(handle.speedUps ? { name } : {}), text: compiled.sql, values: params as unknown[] });
      return result.rows as R[];
    }
    const result = await handle.db.executeQuery<R>({ ...compiled, parameters: params });
    return result.rows;
  };
  return { all, first: async (args) => (await all(args))[0] };
}
