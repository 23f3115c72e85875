import type { Db } from '../db/tx.js';
import { conflict, notFound } from '../domain/errors.js';
import { toJob, type Job, type JobStatus } from './types.js';

/** Operator view of the jobs (GET/POST /admin/jobs…). */

export interface JobFilters {
  status?: JobStatus;
  type?: string;
  accountId?: number;
}

export interface JobPage {
  jobs: Job[];
  /** Keyset position after the last job of the page; null on the last page. */
  nextAfterId: number | null;
}

/** Newest first (by id); `afterId` continues a listing below that id. */
export async function listJobs(db: Db, filters: JobFilters, afterId: number | null, pageSize: number): Promise<JobPage> {
  let query = db.selectFrom('jobs').selectAll();
  if (filters.status) query = query.where('status', '=', filters.status);
  if (filters.type) query = query.where('type', '=', filters.type);
  if (filters.accountId !== undefined) query = query.where('account_id', '=', filters.accountId);
  if (afterId !== null) query = query.where('id', '<', afterId);
  // One extra row tells whether another page exists without a count.
  const rows = await query.orderBy('id', 'desc').limit(pageSize + 1).execute();
  const jobs = rows.slice(0, pageSize).map(toJob);
  return { jobs, nextAfterId: rows.length > pageSize ? jobs[jobs.length - 1]!.id : null };
}

export interface JobAttempt {
  attempt: number;
  worker: string;
  outcome: 'SUCCEEDED' | 'FAILED';
  error: string | null;
  startedAt: string;
  finishedAt: string;
}

export type JobDetail = Job & { attemptLog: JobAttempt[] };

export async function getJob(db: Db, jobId: number): Promise<JobDetail> {
  const row = await db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
  if (!row) throw notFound(`job ${jobId} not found`);
  const attempts = await db.selectFrom('job_attempts').selectAll().where('job_id', '=', jobId).orderBy('id').execute();
  return {
    ...toJob(row),
    attemptLog: attempts.map((a) => ({
      attempt: a.attempt,
      worker: a.worker,
      outcome: a.outcome as JobAttempt['outcome'],
      error: a.error,
      startedAt: a.started_at,
      finishedAt: a.finished_at,
    })),
  };
}

/**
 * Puts a DEAD job back to PENDING, due now, with a fresh attempt budget (attempts 0; the attempt log
 * keeps the history, last_error stays until the next failure). Any other status: 409.
 */
export async function retryDeadJob(db: Db, jobId: number, now: Date): Promise<JobDetail> {
  const iso = now.toISOString();
  const updated = await db
    .updateTable('jobs')
    .set({ status: 'PENDING', attempts: 0, run_at: iso, finished_at: null, updated_at: iso })
    .where('id', '=', jobId)
    .where('status', '=', 'DEAD')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) {
    const current = await db.selectFrom('jobs').select('status').where('id', '=', jobId).executeTakeFirst();
    if (!current) throw notFound(`job ${jobId} not found`);
    throw conflict(`job ${jobId} is ${current.status}; only a DEAD job can be retried`).because('job.not_dead', { status: current.status });
  }
  return getJob(db, jobId);
}
