import { sql, type ExpressionBuilder } from 'kysely';
import type { DbHandle } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import { withTx, type Tx } from '../db/tx.js';
import { retryDelayMs } from './backoff.js';
import { toJob, type Job } from './types.js';

/** Longest stored last_error; a stack trace beyond that helps no operator. */
const MAX_ERROR_LENGTH = 2000;

/** Due: PENDING and its run_at reached, or RUNNING with an expired lease (its worker died). */
function isDue(nowIso: string) {
  return (eb: ExpressionBuilder<Database, 'jobs'>) =>
    eb.or([
      eb.and([eb('status', '=', 'PENDING'), eb('run_at', '<=', nowIso)]),
      eb.and([eb('status', '=', 'RUNNING'), eb('lease_expires_at', '<=', nowIso)]),
    ]);
}

/**
 * Claims the next due job for `owner` until now + leaseMs, counting the attempt; null when none is due.
 * One statement, so it is atomic without a transaction. On PostgreSQL the inner SELECT takes the row
 * with FOR UPDATE SKIP LOCKED, so concurrent workers pick different rows instead of queueing on one; the
 * outer WHERE repeats the due test so a row changed meanwhile is not claimed. SQLite runs one writer at
 * a time, so the conditional UPDATE alone claims the row exactly once. `types` limits the claim to those job
 * types.
 */
export async function claimNextJob(handle: DbHandle, owner: string, now: Date, leaseMs: number, types?: readonly string[]): Promise<Job | null> {
  const nowIso = now.toISOString();
  let next = handle.db.selectFrom('jobs').select('id').where(isDue(nowIso));
  // Only these types (a worker's concurrent lanes); an empty list claims nothing.
  if (types) next = types.length === 0 ? next.where(sql<boolean>`1 = 0`) : next.where('type', 'in', types);
  next = next.orderBy('run_at').orderBy('id').limit(1);
  if (handle.dialect === 'postgres') next = next.forUpdate().skipLocked();
  const row = await handle.db
    .updateTable('jobs')
    .set({
      status: 'RUNNING',
      lease_owner: owner,
      lease_expires_at: new Date(now.getTime() + leaseMs).toISOString(),
      attempts: sql<number>`attempts + 1`,
      updated_at: nowIso,
    })
    .where('id', '=', next)
    .where(isDue(nowIso))
    .returningAll()
    .executeTakeFirst();
  return row ? toJob(row) : null;
}

/** Extends a running job's lease; false when the lease was lost (expired and taken over). */
export async function renewLease(handle: DbHandle, job: Job, owner: string, now: Date, leaseMs: number): Promise<boolean> {
  const result = await handle.db
    .updateTable('jobs')
    .set({ lease_expires_at: new Date(now.getTime() + leaseMs).toISOString(), updated_at: now.toISOString() })
    .where('id', '=', job.id)
    .where('status', '=', 'RUNNING')
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export type AttemptOutcome = { ok: true } | { ok: false; error: string };

export interface FinishResult {
  /** The state the job was left in; null when this worker no longer held the lease (nothing changed). */
  status: 'SUCCEEDED' | 'PENDING' | 'DEAD' | null;
  nextRunAt?: string;
}

/**
 * Records the end of an attempt: SUCCEEDED; or after a failure PENDING again at now + retryDelayMs(attempts),
 * or DEAD once attempts reached max_attempts. Only while this worker still holds the lease.
 */
export async function finishAttempt(
  handle: DbHandle,
  job: Job,
  owner: string,
  startedAt: Date,
  now: Date,
  outcome: AttemptOutcome,
): Promise<FinishResult> {
  return withTx(handle.db, (tx) => finishAttemptIn(tx, job, owner, startedAt, now, outcome));
}

/** finishAttempt in the caller's transaction (a handler's JobRun.succeedIn). */
export async function finishAttemptIn(
  tx: Tx,
  job: Job,
  owner: string,
  startedAt: Date,
  now: Date,
  outcome: AttemptOutcome,
): Promise<FinishResult> {
  const nowIso = now.toISOString();
  const error = outcome.ok ? null : outcome.error.slice(0, MAX_ERROR_LENGTH);
  let status: 'SUCCEEDED' | 'PENDING' | 'DEAD';
  let runAt = job.runAt;
  if (outcome.ok) status = 'SUCCEEDED';
  else if (job.attempts >= job.maxAttempts) status = 'DEAD';
  else {
    status = 'PENDING';
    runAt = new Date(now.getTime() + retryDelayMs(job.attempts)).toISOString();
  }
  const updated = await tx
    .updateTable('jobs')
    .set({
      status,
      run_at: runAt,
      lease_owner: null,
      lease_expires_at: null,
      ...(error === null ? {} : { last_error: error }),
      updated_at: nowIso,
      finished_at: status === 'PENDING' ? null : nowIso,
    })
    .where('id', '=', job.id)
    .where('status', '=', 'RUNNING')
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return { status: null };
  await tx
    .insertInto('job_attempts')
    .values({
      account_id: job.accountId,
      job_id: job.id,
      attempt: job.attempts,
      worker: owner,
      outcome: outcome.ok ? 'SUCCEEDED' : 'FAILED',
      error,
      started_at: startedAt.toISOString(),
      finished_at: nowIso,
    })
    .execute();
  return status === 'PENDING' ? { status, nextRunAt: runAt } : { status };
}
