import type { DbHandle } from '../db/connect.js';
import { withTx } from '../db/tx.js';
import { enqueueJob } from '../db/outbox.js';
import { IDEMPOTENCY_SWEEP } from './handlers/idempotency-sweep.js';
import { JOB_RETENTION_SWEEP } from './handlers/job-retention-sweep.js';
import { REPORT_RETENTION_SWEEP } from './handlers/report-retention-sweep.js';
import { PERSONAL_DATA_SWEEP } from './handlers/personal-data-sweep.js';
import { WAITING_WORK_SWEEP } from './handlers/waiting-work-sweep.js';

/** A job the workers enqueue every `everyMs` (the first run when the first worker starts). */
export interface RecurringJob {
  /** Schedule name, the key of its job_schedules row; also the dedupe key of its jobs. */
  name: string;
  type: string;
  everyMs: number;
  payload?: unknown;
  maxAttempts?: number;
}

const HOUR = 60 * 60_000;

/** The service's recurring jobs. */
export const RECURRING_JOBS: RecurringJob[] = [
  { name: IDEMPOTENCY_SWEEP, type: IDEMPOTENCY_SWEEP, everyMs: HOUR, maxAttempts: 3 },
  { name: JOB_RETENTION_SWEEP, type: JOB_RETENTION_SWEEP, everyMs: HOUR, maxAttempts: 3 },
  { name: REPORT_RETENTION_SWEEP, type: REPORT_RETENTION_SWEEP, everyMs: HOUR, maxAttempts: 3 },
  { name: PERSONAL_DATA_SWEEP, type: PERSONAL_DATA_SWEEP, everyMs: HOUR, maxAttempts: 3 },
  { name: WAITING_WORK_SWEEP, type: WAITING_WORK_SWEEP, everyMs: HOUR, maxAttempts: 3 },
];

/** Creates the schedule rows that do not exist yet, due now. Safe from several workers at once. */
export async function ensureSchedules(handle: DbHandle, schedules: RecurringJob[], now: Date): Promise<void> {
  const iso = now.toISOString();
  for (const s of schedules) {
    await handle.db
      .insertInto('job_schedules')
      .values({ name: s.name, next_run_at: iso, last_job_id: null, updated_at: iso })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }
}

/**
 * Enqueues the recurring jobs that are due. Moving next_run_at forward is a conditional UPDATE (… WHERE
 * next_run_at <= now), in the same transaction as the enqueue: of several workers checking at once exactly
 * one wins each period (PostgreSQL re-checks the condition after the row lock; SQLite has one writer), so
 * runs never multiply. The dedupe key also skips a run while the previous one is still pending or running.
 * Returns the ids of the jobs enqueued.
 */
export async function enqueueDueSchedules(handle: DbHandle, schedules: RecurringJob[], now: Date): Promise<number[]> {
  const iso = now.toISOString();
  const enqueued: number[] = [];
  for (const s of schedules) {
    const id = await withTx(handle.db, async (tx) => {
      const claimed = await tx
        .updateTable('job_schedules')
        .set({ next_run_at: new Date(now.getTime() + s.everyMs).toISOString(), updated_at: iso })
        .where('name', '=', s.name)
        .where('next_run_at', '<=', iso)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return null;
      const jobId = await enqueueJob(
        tx,
        { type: s.type, payload: s.payload ?? {}, dedupeKey: `schedule:${s.name}`, ...(s.maxAttempts ? { maxAttempts: s.maxAttempts } : {}) },
        now,
      );
      if (jobId !== null) await tx.updateTable('job_schedules').set({ last_job_id: jobId }).where('name', '=', s.name).execute();
      return jobId;
    });
    if (id !== null) enqueued.push(id);
  }
  return enqueued;
}
