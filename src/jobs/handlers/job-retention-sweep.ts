import type { Deps } from '../../deps.js';
import { withTx, type Db } from '../../db/tx.js';
import { nextTurn } from '../../lib/next-turn.js';

export const JOB_RETENTION_SWEEP = 'jobs.retention-sweep';

/**
 * Jobs per batch: each batch is its own short transaction (500 jobs with their attempts took 13 ms on SQLite),
 * followed by a turn of the event loop, so the API beside the worker never waits long.
 */
const BATCH = 250;

/**
 * Deletes SUCCEEDED jobs (and their attempt rows) that finished at or before `cutoff`. DEAD jobs are kept:
 * they are what an operator has to look at (and may retry); PENDING and RUNNING ones are work. Returns how
 * many jobs went.
 */
export async function deleteFinishedJobs(db: Db, cutoff: Date): Promise<number> {
  const cutoffIso = cutoff.toISOString();
  let total = 0;
  for (;;) {
    const deleted = await withTx(db, async (tx) => {
      const ids = (
        await tx
          .selectFrom('jobs')
          .select('id')
          .where('status', '=', 'SUCCEEDED')
          .where('finished_at', '<=', cutoffIso)
          .orderBy('finished_at')
          .limit(BATCH)
          .execute()
      ).map((r) => r.id);
      if (ids.length === 0) return 0;
      await tx.deleteFrom('job_attempts').where('job_id', 'in', ids).execute();
      const result = await tx.deleteFrom('jobs').where('id', 'in', ids).where('status', '=', 'SUCCEEDED').executeTakeFirst();
      return Number(result.numDeletedRows);
    });
    total += deleted;
    await nextTurn();
    if (deleted < BATCH) return total;
  }
}

/** The recurring run: keeps JOB_RETENTION_DAYS days of finished jobs (0 keeps them all). */
export async function sweepFinishedJobs(deps: Deps): Promise<void> {
  const days = deps.config.jobRetentionDays;
  if (days === 0) return;
  const cutoff = new Date(deps.clock.now().getTime() - days * 86_400_000);
  const deleted = await deleteFinishedJobs(deps.db.db, cutoff);
  if (deleted > 0) deps.log.info({ deleted, retentionDays: days }, 'deleted finished jobs past their retention');
}
