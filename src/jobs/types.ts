import type { Selectable } from 'kysely';
import type { Deps } from '../deps.js';
import type { JobsTable } from '../db/schema.js';
import type { Tx } from '../db/tx.js';

export const JOB_STATUSES = ['PENDING', 'RUNNING', 'SUCCEEDED', 'DEAD'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A job as handlers and the operator see it: the payload parsed, timestamps as stored (ISO UTC). */
export interface Job {
  id: number;
  accountId: number | null;
  type: string;
  payload: unknown;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  runAt: string;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
  lastError: string | null;
  dedupeKey: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

/**
 * Does the work of one job type. Runs outside any transaction: open your own with withTx (the job is the
 * edge) and keep network I/O out of it. Throwing fails the attempt (retried with backoff, then DEAD).
 * A job may run more than once (a worker that loses its lease), so handlers must be idempotent.
 */
export type JobHandler = (deps: Deps, job: Job, run: JobRun) => Promise<void>;

/** What a handler may ask of the worker running its job. */
export interface JobRun {
  /**
   * Records the job's success in the handler's own transaction `tx`, so its last write and the job's
   * completion commit together (one transaction instead of two). Once that transaction commits, the
   * worker records nothing more for this attempt, even if the handler throws afterwards.
   */
  succeedIn(tx: Tx): Promise<void>;
}

/**
 * Called once a job is DEAD (its last attempt failed, or the worker running it died and no attempt is
 * left), with the last error: ends the job's work visibly (a report CANCELED with errorMessage) instead of
 * leaving it in progress forever. Must be idempotent; a failure is logged.
 */
export type JobDeadHandler = (deps: Deps, job: Job, error: string) => Promise<void>;

/** The message of a job's last error for a seller (the job's last_error keeps the whole stack for the operator). */
export function errorSummary(error: string): string {
  return error.split('\n')[0]!.replace(/^Error: /, '');
}

export function toJob(row: Selectable<JobsTable>): Job {
  return {
    id: row.id,
    accountId: row.account_id,
    type: row.type,
    payload: JSON.parse(row.payload) as unknown,
    status: row.status as JobStatus,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAt: row.run_at,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at,
    lastError: row.last_error,
    dedupeKey: row.dedupe_key,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}
