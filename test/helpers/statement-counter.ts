import Database from 'better-sqlite3';
import pg from 'pg';

/**
 * Counts the statements sent to the database while `fn` runs: on PostgreSQL each pg query (one round trip each,
 * BEGIN and COMMIT included), on SQLite each run of a prepared better-sqlite3 statement. Counts every caller in
 * the process, so run nothing else in parallel.
 */
export async function countStatements<T>(fn: () => Promise<T>): Promise<{ result: T; statements: number }> {
  let statements = 0;
  const clientProto = pg.Client.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  // better-sqlite3 keeps its Statement class off the public typings; one prepared statement reaches it.
  const probe = new Database(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  const patched: [Record<string, (...args: unknown[]) => unknown>, string, (...args: unknown[]) => unknown][] = [];
  const wrap = (proto: Record<string, (...args: unknown[]) => unknown>, name: string) => {
    const original = proto[name]!;
    patched.push([proto, name, original]);
    proto[name] = function (this: unknown, ...args: unknown[]) {
      statements += 1;
      return original.apply(this, args);
    };
  };
  wrap(clientProto, 'query');
  for (const name of ['run', 'get', 'all', 'iterate']) wrap(statementProto, name);
  try {
    const result = await fn();
    return { result, statements };
  } finally {
    for (const [proto, name, original] of patched) proto[name] = original;
  }
}
