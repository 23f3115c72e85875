import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';
import { runJournaled } from './effect-journal.js';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;

const MAX_ATTEMPTS = 5;

/** Errors after which the whole transaction can safely run again from the start. */
export function isRetryableTxError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // SQLite: another connection holds the lock. PostgreSQL: serialization failure, deadlock.
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === '40001' || code === '40P01';
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

async function runTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(fn);
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
