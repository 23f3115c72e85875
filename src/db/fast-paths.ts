/**
 * The database's fast paths, in one place: what code above src/db may use besides plain Kysely on a `Db`/`Tx`
 * (docs/architecture.md, "The database's fast paths", says when to use each). They change how a query runs,
 * never what it answers: DB_SPEEDUPS=off runs every one of them the plain way, and
 * test/http/speedups-off.test.ts checks the hot routes answer the same either way.
 *
 * - Compiled statements: a query built once per shape and run with arguments (hot statements, any database).
 * - Prepared reads: a compiled read bound to the database handle, cached per connection (token lookups).
 * - Wide reads: a page of many rows built from arrays (selectRows) or several reads sent together.
 * - Not waiting (PostgreSQL, in a transaction): a read sent ahead, a write whose answer nobody reads, a
 *   write with its companions in one statement. On SQLite each simply runs.
 * - Savepoints: one entry's writes undone alone (inSavepoint), or writes sent ahead of the answer that decides
 *   whether they stand (savepointAhead).
 * Group commit and the statement cache (SQLite) and pipelining (PostgreSQL) need nothing from callers: they
 * sit under Kysely (src/db/connect.ts).
 */
export {
  argList,
  argRow,
  compiledBySize,
  compiledByShape,
  compiledStatement,
  everyColumn,
  fixedText,
  listArgsOf,
  rowArgsOf,
  runFixedText,
  type ArgFn,
  type CompiledStatement,
} from './compiled.js';
export { prepareQuery, type PreparedQuery } from './prepared.js';
export { selectRows } from './raw-rows.js';
export { readAhead, readTogether, sendWithoutWaiting, withOneConnection, type AnswerAhead } from './unanswered.js';
export { runEach, runWithCompanions, writeWithCompanions } from './companion-writes.js';
export { inSavepoint, savepointAhead } from './savepoint.js';
