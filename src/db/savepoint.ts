import { CompiledQuery } from 'kysely';
import type { Db } from './tx.js';
import { sendWithoutWaiting } from './unanswered.js';

// Fixed texts: run as compiled queries (no query building per batch entry).
const SAVEPOINT = CompiledQuery.raw('savepoint entry');
const ROLLBACK_TO = CompiledQuery.raw('rollback to savepoint entry');
const RELEASE = CompiledQuery.raw('release savepoint entry');

/**
 * Runs `fn` inside a savepoint of the current transaction (SQLite and PostgreSQL alike) and keeps its
 * writes only when `keep(result)` is true; otherwise they are rolled back and the transaction goes on.
 * For batch work where one entry's late failure (a conditional update that matched nothing) must undo that
 * entry's earlier writes without losing the others'. A thrown error also rolls back the savepoint.
 */
export async function inSavepoint<T>(tx: Db, fn: () => Promise<T>, keep: (result: T) => boolean): Promise<T> {
  await tx.executeQuery(SAVEPOINT);
  let result: T;
  try {
    result = await fn();
  } catch (error) {
    await tx.executeQuery(ROLLBACK_TO);
    await tx.executeQuery(RELEASE);
    throw error;
  }
  if (!keep(result)) await tx.executeQuery(ROLLBACK_TO);
  await tx.executeQuery(RELEASE);
  return result;
}

const AHEAD = CompiledQuery.raw('savepoint ahead');
const ROLLBACK_TO_AHEAD = CompiledQuery.raw('rollback to savepoint ahead');

/**
 * A savepoint sent without waiting (src/db/unanswered.ts) in front of writes sent before the answer that decides
 * whether they stand: undo() rolls them back and, on PostgreSQL, releases every lock they took, so the work that
 * follows takes its locks in the usual order. Otherwise it is left in place and ends with the transaction. One at
 * a time per transaction.
 */
export async function savepointAhead(tx: Db): Promise<{ undo(): Promise<void> }> {
  await sendWithoutWaiting(tx, AHEAD);
  return { undo: async () => void (await tx.executeQuery(ROLLBACK_TO_AHEAD)) };
}
