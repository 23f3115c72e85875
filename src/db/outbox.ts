import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { afterCommit } from './tx.js';
import { announcerOf } from './outbox-notify.js';

/**
 * The outbox writer. The jobs table lives in the same database as the data, so a change queues its
 * follow-up work in its own transaction. It sits in db/ rather than jobs/ so that the domain can queue work
 * without importing the worker's layer; the worker (src/jobs/) leases and runs what is queued here.
 */

export const DEFAULT_MAX_ATTEMPTS = 10;

export interface EnqueueJobInput {
  type: string;
  /** Anything JSON can carry; handlers receive it parsed. */
  payload: unknown;
  /** The account the job works for; omit for service jobs. */
  accountId?: number | null;
  /** Not before this instant (default: now). */
  runAt?: Date;
  maxAttempts?: number;
  /**
   * While a PENDING or RUNNING job has this key, enqueueing another is a no-op (returns null): e.g.
   * `order.expire:42` so that re-saving an order does not schedule its expiry twice.
   */
  dedupeKey?: string;
}

/**
 * Adds a job to the outbox. Call it with the transaction of the change that causes the job, so the job
 * exists if and only if that change commits. Returns the job id, or null when dedupeKey matched an
 * active job.
 */
export async function enqueueJob(tx: Kysely<Database>, input: EnqueueJobInput, now: Date): Promise<number | null> {
  const maxAttempts = input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error(`maxAttempts must be a positive integer, got ${maxAttempts}`);
  const payload = JSON.stringify(input.payload ?? null);
  const iso = now.toISOString();
  const row = await tx
    .insertInto('jobs')
    .values({
      account_id: input.accountId ?? null,
      type: input.type,
      payload,
      status: 'PENDING',
      attempts: 0,
      max_attempts: maxAttempts,
      run_at: (input.runAt ?? now).toISOString(),
      lease_owner: null,
      lease_expires_at: null,
      last_error: null,
      dedupe_key: input.dedupeKey ?? null,
      created_at: iso,
      updated_at: iso,
      finished_at: null,
    })
    // Only the partial unique index on dedupe_key can conflict; a plain unique violation would abort a
    // PostgreSQL transaction, DO NOTHING does not.
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  if (row) afterCommit(tx, announcerOf(input.type));
  return row?.id ?? null;
}
