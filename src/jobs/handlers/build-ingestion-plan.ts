import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { markPlanningFailed } from '../../domain/listings/ingestion-apply.js';
import { planSessionInPages } from '../../domain/listings/ingestion-planning.js';
import { BUILD_INGESTION_PLAN, type BuildPlanPayload } from '../../domain/listings/ingestion-session.js';
import type { Job } from '../types.js';

export { BUILD_INGESTION_PLAN };

/**
 * After an ingestion's end (document 3.8): builds the plan page by page (PLANNING → PLANNED); when the
 * channel asked for autoApplyIngestionPlan, the transaction that stores the plan also starts the apply
 * (→ APPLYING) and queues the `ingestion.apply` job, which applies it in chunks. Idempotent: a rerun finds the
 * session past PLANNING and does nothing. The last failed attempt at planning marks the session FAILED.
 */
export async function runBuildIngestionPlan(deps: Deps, job: Job): Promise<void> {
  const { sessionId } = (job.payload ?? {}) as Partial<BuildPlanPayload>;
  if (job.accountId === null || !Number.isInteger(sessionId)) throw new Error(`malformed ${BUILD_INGESTION_PLAN} job ${job.id}`);
  const accountId = job.accountId;
  const id = sessionId!;
  try {
    await planSessionInPages(deps.db.db, accountId, id, () => deps.clock.now());
  } catch (error) {
    if (job.attempts >= job.maxAttempts) {
      const message = error instanceof Error ? error.message : String(error);
      await withTx(deps.db.db, (tx) => markPlanningFailed(tx, accountId, id, `the plan could not be built: ${message}`, deps.clock.now()));
    }
    throw error;
  }
}
