import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { isAppError } from '../../domain/errors.js';
import { runIngestionApply } from '../../domain/inventory/listing-writes.js';
import { APPLY_INGESTION_JOB, loadSession, recordApplyStopped, type ApplyIngestionPayload } from '../../domain/listings/ingestion-apply.js';
import { nextTurn } from '../../lib/next-turn.js';
import { errorSummary, type Job } from '../types.js';

export { APPLY_INGESTION_JOB };

function sessionOf(job: Job): { accountId: number; sessionId: number } {
  const { sessionId } = (job.payload ?? {}) as Partial<ApplyIngestionPayload>;
  if (job.accountId === null || !Number.isInteger(sessionId)) throw new Error(`malformed ${APPLY_INGESTION_JOB} job ${job.id}`);
  return { accountId: job.accountId, sessionId: sessionId! };
}

/**
 * Applies an APPLYING ingestion chunk by chunk (src/domain/listings/ingestion-apply.ts) from its checkpoint
 * to the end. A rerun (a worker that died: its lease runs out and another worker takes over) goes on from the
 * last committed chunk; a session no longer APPLYING (already applied, by the seller's request or another
 * run) ends the job at once.
 */
export async function runApplyIngestion(deps: Deps, job: Job): Promise<void> {
  const { accountId, sessionId } = sessionOf(job);
  let done: boolean;
  try {
    done = await runIngestionApply(deps.db.db, accountId, sessionId, () => deps.clock.now(), Infinity, async () => {
      await deps.db.relieveWal?.();
      await nextTurn();
    });
  } catch (error) {
    // Refused before its first listing: the plan is PLANNED again with the reason, for the seller.
    if (isAppError(error) && (await loadSession(deps.db.db, accountId, sessionId)).status === 'PLANNED') {
      deps.log.warn({ accountId, ingestionId: sessionId, err: error }, 'applying an ingestion plan was refused; left PLANNED for the seller');
      return;
    }
    throw error;
  }
  if (done) {
    const session = await loadSession(deps.db.db, accountId, sessionId);
    deps.log.info({ accountId, ingestionId: sessionId, applied: session.apply_done }, 'applied an ingestion plan');
  }
}

/** The apply gave up: the session says so (what was applied stays; retrying the job goes on from there). */
export async function applyIngestionJobDead(deps: Deps, job: Job, error: string): Promise<void> {
  const { accountId, sessionId } = sessionOf(job);
  const message = `applying stopped after ${job.attempts} attempts (job ${job.id}; the operator can retry it): ${errorSummary(error)}`;
  await withTx(deps.db.db, (tx) => recordApplyStopped(tx, accountId, sessionId, message, deps.clock.now()));
}
