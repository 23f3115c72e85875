import { CompiledQuery } from 'kysely';
import { isRetryableTxError, type Db } from './tx.js';
import { sendWithoutWaiting } from './unanswered.js';
import { isDatabaseUnavailable } from './unavailable.js';

// Fixed texts: run as compiled queries (no query building per batch entry). Named apart from savepoint.ts's
// `entry` and `ahead`, so an entry may use those inside.
const SAVEPOINT = CompiledQuery.raw('savepoint batch_entry');
const ROLLBACK_TO = CompiledQuery.raw('rollback to savepoint batch_entry');
const RELEASE = CompiledQuery.raw('release savepoint batch_entry');

export type EntryResult<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs one entry of a batch that runs in ONE transaction (document 7.3 rule 2: a failed entry changes nothing
 * and the others keep their outcomes), inside a savepoint of that transaction, and answers its value or the
 * error it failed with; its writes are kept only when it succeeded.
 *
 * On PostgreSQL a statement sent without waiting (src/db/unanswered.ts) reports its failure at the next
 * statement that waits, which for an entry's last writes is the RELEASE. So the RELEASE is waited for inside
 * the same try as the entry: whichever statement reports the failure, only this entry is rolled back and the
 * transaction goes on. (savepoint.ts's inSavepoint runs its RELEASE outside its try: a failure reported there
 * would escape without the rollback, failing the whole transaction.)
 *
 * Thrown, not answered: errors after which the transaction cannot go on anyway. A deadlock or serialization
 * failure (withTx runs the whole callback again, every entry with it) and a lost database (the call fails,
 * 503), and a rollback that itself failed.
 *
 * Cost on PostgreSQL: the SAVEPOINT rides with the entry's first statement; the RELEASE is one round trip
 * (where a transaction per entry paid one for its COMMIT); a failed entry pays one for its rollback instead.
 */
export async function inEntrySavepoint<T>(tx: Db, fn: () => Promise<T>): Promise<EntryResult<T>> {
  await sendWithoutWaiting(tx, SAVEPOINT);
  try {
    const value = await fn();
    await tx.executeQuery(RELEASE);
    return { ok: true, value };
  } catch (error) {
    if (endsTransaction(error)) throw error;
    await rollBackEntry(tx, error);
    return { ok: false, error };
  }
}

/** A failure that no savepoint can contain: the whole transaction fails (and withTx may run it again). */
export function endsTransaction(error: unknown): boolean {
  return isRetryableTxError(error) || isDatabaseUnavailable(error);
}

async function rollBackEntry(tx: Db, entryError: unknown): Promise<void> {
  try {
    await tx.executeQuery(ROLLBACK_TO);
  } catch (reported) {
    if (endsTransaction(reported)) throw reported;
    // On PostgreSQL, when the entry failed in JavaScript with writes of its own still unanswered, one of
    // them may have failed too: its error is reported at this ROLLBACK TO, which PostgreSQL ran all the same.
    // Running it again tells the two apart: a rollback that really failed (no such savepoint, the connection
    // broken) fails again, and the transaction cannot go on.
    try {
      await tx.executeQuery(ROLLBACK_TO);
    } catch (failed) {
      if (endsTransaction(failed)) throw failed;
      // Both kept for the log: the entry's failure may be a statement's from before the entry (its SAVEPOINT
      // then never took effect), the rollback's says why the transaction is lost.
      throw new AggregateError([entryError, failed], 'a failed batch entry could not be rolled back to its savepoint; the transaction cannot go on');
    }
  }
  // ROLLBACK TO keeps the savepoint; it cannot fail once that succeeded, so its answer is not waited for.
  await sendWithoutWaiting(tx, RELEASE);
}
