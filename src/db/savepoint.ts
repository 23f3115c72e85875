import { CompiledQuery } from 'kysely';
import { inEntrySavepoint } from './entry-savepoint.js';
import type { Db } from './tx.js';
import { sendWithoutWaiting } from './unanswered.js';

/** What inSavepoint's `fn` answered when `keep` refused it: carried out of the savepoint, which is then rolled back. */
class NotKept<T> {
  constructor(readonly result: T) {}
}

/**
 * Runs `fn` inside a savepoint of the current transaction (SQLite and PostgreSQL alike) and keeps its
 * writes only when `keep(result)` is true; otherwise they are rolled back and the transaction goes on.
 * For batch work where one entry's late failure (a conditional update that matched nothing) must undo that
 * entry's earlier writes without losing the others'. A thrown error also rolls back the savepoint, and is
 * thrown on; so is a failure of one of the entry's statements that surfaces only at the savepoint's release
 * (PostgreSQL, src/db/unanswered.ts): inEntrySavepoint (entry-savepoint.ts) waits for it inside the entry.
 */
export async function inSavepoint<T>(tx: Db, fn: () => Promise<T>, keep: (result: T) => boolean): Promise<T> {
  const outcome = await inEntrySavepoint(tx, async () => {
    const result = await fn();
    if (!keep(result)) throw new NotKept(result);
    return result;
  });
  if (outcome.ok) return outcome.value;
  if (outcome.error instanceof NotKept) return (outcome.error as NotKept<T>).result;
  throw outcome.error;
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
