import type { CompiledQuery } from 'kysely';
import { isPostgres } from './dialect.js';
import { NOT_WAITED_FOR, readAheadMark, ROWS_AS_ARRAYS, takeAnswerAhead, withMarks } from './pg-client.js';
import type { Db } from './tx.js';

/**
 * Runs a write whose answer (rows, affected count) nobody reads, such as a rollup's increment or a lock taken
 * for its order, without waiting for PostgreSQL to answer it: it goes out at once and its answer is taken
 * with the next statement's, so it costs no round trip of its own (src/db/pg-client.ts). The transaction
 * sees it exactly as if it had been awaited: it runs in order, before whatever the caller sends next, and if
 * it fails, that next statement (or the COMMIT) fails with its error. On SQLite, and outside a transaction, it
 * simply runs.
 *
 * Only where a failure needs no handling of its own: the error surfaces at the next statement, not here.
 */
export async function sendWithoutWaiting(db: Db, query: CompiledQuery): Promise<void> {
  if (!db.isTransaction || !isPostgres(db)) {
    await db.executeQuery(query);
    return;
  }
  await db.executeQuery(withMarks(query, NOT_WAITED_FOR));
}

/** The answer of a read sent ahead: await it where the rows are needed. */
export type AnswerAhead<R> = () => Promise<R[]>;

let nextTicket = 0;

/**
 * Sends a read now and answers it later: on PostgreSQL, in a transaction, the read goes out at once and the
 * statements the caller sends next go right behind it without waiting, so reads that do not depend on each
 * other (or on a write sent after them) share one round trip. The read runs where readAhead is called, on both
 * databases, so what it sees is the same; on SQLite (and outside a transaction) it has simply run already.
 *
 * Await the answer before the transaction ends. If the read fails, the next statement sent (or the COMMIT)
 * fails with its error as well, as with sendWithoutWaiting.
 */
export async function readAhead<R>(db: Db, query: CompiledQuery<R>): Promise<AnswerAhead<R>> {
  if (!onOneConnection(db)) {
    const { rows } = await db.executeQuery(query);
    return () => Promise.resolve(rows);
  }
  const ticket = (nextTicket = (nextTicket + 1) % Number.MAX_SAFE_INTEGER);
  await db.executeQuery(withMarks(query, readAheadMark(ticket)));
  const answer = takeAnswerAhead(ticket);
  if (!answer) throw new Error('readAhead: the PostgreSQL client did not keep the answer (not the pool of src/db/connect.ts?)');
  // A caller that fails before taking the answer leaves no unhandled rejection: the client handles every answer.
  return async () => (await answer()).rows as R[];
}

/** Kysely instances bound to one pooled PostgreSQL connection outside a transaction (withOneConnection). */
const pinned = new WeakSet<Db>();

/** Whether statements sent on `db` go to one PostgreSQL connection, in order: a transaction, or withOneConnection. */
function onOneConnection(db: Db): boolean {
  return (db.isTransaction || pinned.has(db)) && isPostgres(db);
}

/**
 * Runs reads that belong together (a page, then its rows' details) on one pooled connection on PostgreSQL, so
 * readTogether can send several in one round trip; `fn` gets that connection's Kysely. Elsewhere `fn` gets `db`.
 * No transaction: each read sees the data as it is when it runs, as when they go to the pool one by one.
 */
export async function withOneConnection<T>(db: Db, fn: (db: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction || !isPostgres(db)) return fn(db);
  return db.connection().execute((connection) => {
    pinned.add(connection);
    return fn(connection);
  });
}

/**
 * Reads that do not depend on each other, each answered with its rows: on one PostgreSQL connection (a
 * transaction, or withOneConnection) all but the last are sent ahead and the last is waited for, so they take
 * one round trip; otherwise they run one after another (`run` reads one, e.g. SQLite's raw-rows path).
 */
export async function readTogether<T extends readonly CompiledQuery[]>(
  db: Db,
  queries: T,
  run: (query: CompiledQuery) => Promise<unknown[]> = async (query) => (await db.executeQuery(query)).rows,
): Promise<{ [K in keyof T]: T[K] extends CompiledQuery<infer R> ? R[] : never }> {
  type Answers = { [K in keyof T]: T[K] extends CompiledQuery<infer R> ? R[] : never };
  if (!onOneConnection(db) || queries.length < 2) {
    const answers: unknown[] = [];
    for (const query of queries) answers.push(await run(query));
    return answers as Answers;
  }
  // Wide reads: their rows built from arrays, as selectRows does (src/db/raw-rows.ts).
  const ahead: AnswerAhead<unknown>[] = [];
  for (const query of queries.slice(0, -1)) ahead.push(await readAhead(db, withMarks(query, ROWS_AS_ARRAYS)));
  const last = (await db.executeQuery(withMarks(queries[queries.length - 1]!, ROWS_AS_ARRAYS))).rows;
  const answers: unknown[] = [];
  for (const answer of ahead) answers.push(await answer());
  answers.push(last);
  return answers as Answers;
}
