import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { isAppError } from '../../domain/errors.js';
import { applyIngestionWithStock } from '../../domain/inventory/listing-writes.js';
import { markPlanningFailed, planSession, recordApplyFailure } from '../../domain/listings/ingestion-apply.js';
import { BUILD_INGESTION_PLAN, type BuildPlanPayload } from '../../domain/listings/ingestion-session.js';
import type { Job } from '../types.js';

export { BUILD_INGESTION_PLAN };

/**
 * After an ingestion's end (document 3.8): builds the plan (PLANNING → PLANNED) and, when the channel asked
 * for autoApplyIngestionPlan, applies it (→ APPLIED) in a second transaction. Idempotent: a rerun finds the
 * session past PLANNING and only finishes a pending automatic apply. An apply refused by the domain (a
 * conflict the plan could not foresee) is recorded on the session for the operator, not retried; the last
 * failed attempt at planning marks the session FAILED.
 */
export async function runBuildIngestionPlan(deps: Deps, job: Job): Promise<void> {
  const { sessionId } = (job.payload ?? {}) as Partial<BuildPlanPayload>;
  if (job.accountId === null || !Number.isInteger(sessionId)) throw new Error(`malformed ${BUILD_INGESTION_PLAN} job ${job.id}`);
  const accountId = job.accountId;
  const id = sessionId!;
  const db = deps.db.db;
  try {
    await withTx(db, (tx) => planSession(tx, accountId, id, deps.clock.now()));
  } catch (error) {
    if (job.attempts >= job.maxAttempts) {
      const message = error instanceof Error ? error.message : String(error);
      await withTx(db, (tx) => markPlanningFailed(tx, accountId, id, `the plan could not be built: ${message}`, deps.clock.now()));
    }
    throw error;
  }
  const session = await db.selectFrom('ingestion_sessions').select(['status', 'auto_apply', 'error']).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  if (!session || session.status !== 'PLANNED' || session.auto_apply !== 1 || session.error !== null) return;
  try {
    const now = deps.clock.now();
    const plan = await withTx(db, async (tx) => {
      const applied = await applyIngestionWithStock(tx, accountId, id, now);
      return applied.plan;
    });
    deps.log.info({ accountId, ingestionId: id, summary: plan.summary }, 'applied an ingestion plan automatically');
  } catch (error) {
    if (!isAppError(error)) throw error;
    await withTx(db, (tx) => recordApplyFailure(tx, accountId, id, error.message, deps.clock.now()));
    deps.log.warn({ accountId, ingestionId: id, err: error }, 'automatic apply of an ingestion plan failed; left PLANNED for the operator');
  }
}
