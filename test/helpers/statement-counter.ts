import Database from 'better-sqlite3';
import pg from 'pg';
import { observeRoundTrips } from '../../src/db/pg-client.js';

/**
 * Counts the statements sent to the database while `fn` runs: on PostgreSQL each pg query (BEGIN and COMMIT
 * included), on SQLite each run of a prepared better-sqlite3 statement. `roundTrips` (PostgreSQL) counts those
 * the service waited for: a BEGIN and a statement sent without waiting ride with the next one
 * (src/db/pg-client.ts). Counts every caller in the process, so run nothing else in parallel. TRACE_STATEMENTS=1
 * prints the start of each statement counted; `texts` holds each one's text (on SQLite, as prepared).
 */
export async function countStatements<T>(fn: () => Promise<T>): Promise<{ result: T; statements: number; roundTrips: number; texts: string[] }> {
  let statements = 0;
  const texts: string[] = [];
  let roundTrips = 0;
  const stopObserving = observeRoundTrips(() => {
    roundTrips += 1;
    if (process.env.TRACE_STATEMENTS === '1') console.log(`  (round trip ${roundTrips}: the next statement is waited for)`);
  });
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
      texts.push(textOf(this, args[0]));
      if (process.env.TRACE_STATEMENTS === '1') traceStatement(args[0]);
      return original.apply(this, args);
    };
  };
  wrap(clientProto, 'query');
  for (const name of ['run', 'get', 'all', 'iterate']) wrap(statementProto, name);
  try {
    const result = await fn();
    return { result, statements, roundTrips, texts };
  } finally {
    stopObserving();
    for (const [proto, name, original] of patched) proto[name] = original;
  }
}

/** A pg query's text (marks of src/db/pg-client.ts left in), or a better-sqlite3 statement's source. */
function textOf(target: unknown, first: unknown): string {
  if (typeof first === 'string') return first;
  const text = (first as { text?: unknown } | null)?.text;
  if (typeof text === 'string') return text;
  const source = (target as { source?: unknown } | null)?.source;
  return typeof source === 'string' ? source : '';
}

function traceStatement(first: unknown) {
  const text = typeof first === 'string' ? first : ((first as { text?: string } | null)?.text ?? '(a prepared statement)');
  console.log(`statement: ${text.replace(/\s+/g, ' ').slice(0, 120)}`);
}
