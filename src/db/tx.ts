import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';
import { runJournaled } from './effect-journal.js';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;

const MAX_ATTEMPTS = 5;

/** Errors after which the whole transaction can safely run again from the start. */
export function isRetryableTxError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // SQLite: another connection holds the lock, or the group this transaction was committing in failed
  // (src/db/group-commit.ts). PostgreSQL: serialization failure, deadlock.
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'GROUP_COMMIT_ABORTED' || code === '40001' || code === '40P01';
}

/**
 * Runs fn in one transaction, retrying the whole callback on lock and serialization failures.
 * Transactions are opened at the edge only (a route or a job), never nested; inside fn use only tx.
 * Under a request with an Idempotency-Key the transaction also records that it committed, and a retry
 * of that request gets the recorded result back instead of running it again (src/db/effect-journal.ts).
 */
export function withTx<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return runJournaled(fn, (body) => runTransaction(db, body));
}

/** Callbacks to run once a transaction has committed, by transaction (never kept past it). */
const commitCallbacks = new WeakMap<Db, Set<() => void>>();

/**
 * Runs `callback` once the transaction `db` belongs to has committed (at once when `db` is not a
 * transaction): for signals that must not be seen before the data they announce, such as waking a job
 * worker for a job that a concurrent reader could not see yet. Not run when the transaction rolls back.
 * The same callback registered twice in one transaction runs once. Only transactions opened by withTx run
 * them. A callback must not throw; it runs after the caller's result is final.
 */
export function afterCommit(db: Db, callback: () => void): void {
  if (!db.isTransaction) {
    queueMicrotask(callback);
    return;
  }
  let callbacks = commitCallbacks.get(db);
  if (!callbacks) commitCallbacks.set(db, (callbacks = new Set()));
  callbacks.add(callback);
}

async function runTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let current: Tx | null = null;
    try {
      const result = await db.transaction().execute((tx) => {
        current = tx;
        return fn(tx);
      });
      const callbacks = commitCallbacks.get(current!);
      if (callbacks) for (const callback of callbacks) callback();
      return result;
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryableTxError(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * 2 ** attempt + Math.random() * 10));
    }
  }
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
