import { CompiledQuery } from 'kysely';
import { isPostgres } from './dialect.js';
import { NOT_WAITED_FOR, READ_AHEAD, takeAnswerAhead } from './pg-client.js';
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
  await db.executeQuery(CompiledQuery.raw(`${NOT_WAITED_FOR}${query.sql}`, [...query.parameters]));
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
  if (!db.isTransaction || !isPostgres(db)) {
    const { rows } = await db.executeQuery(query);
    return () => Promise.resolve(rows);
  }
  const ticket = (nextTicket = (nextTicket + 1) % Number.MAX_SAFE_INTEGER);
  await db.executeQuery(CompiledQuery.raw(`${READ_AHEAD}${ticket}*/${query.sql}`, [...query.parameters]));
  const answer = takeAnswerAhead(ticket);
  if (!answer) throw new Error('readAhead: the PostgreSQL client did not keep the answer (not the pool of src/db/connect.ts?)');
  const rows = answer.then((result) => result.rows as R[]);
  // A caller that fails before taking the answer must not leave an unhandled rejection; taking it still rejects.
  rows.catch(() => undefined);
  return () => rows;
}
