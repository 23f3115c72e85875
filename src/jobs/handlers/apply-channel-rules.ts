import type { Deps } from '../../deps.js';
import { withTx, type Tx } from '../../db/tx.js';
import { applyChannelRulesStep } from '../../domain/inventory/variant-stock-sync.js';
import { nextTurn } from '../../lib/next-turn.js';
import { enqueueJob } from '../../db/outbox.js';
import type { Job } from '../types.js';

export const APPLY_CHANNEL_RULES = 'inventory.apply-channel-rules';

/**
 * Queues the move of a storefront's variants to its changed rules, in the transaction of the change, unless
 * one is already waiting to start (it will read the new rules). One that is running gets a new one behind
 * it: it may have read its last step before the change committed. Two runs at once only repeat work (each
 * step is idempotent and its checkpoint moves only from where it read it).
 */
export async function enqueueChannelRulesJob(tx: Tx, accountId: number, storefrontId: number, now: Date): Promise<void> {
  const payload = { storefrontId };
  const waiting = await tx
    .selectFrom('jobs')
    .select('id')
    .where('type', '=', APPLY_CHANNEL_RULES)
    .where('account_id', '=', accountId)
    .where('status', '=', 'PENDING')
    .where('payload', '=', JSON.stringify(payload))
    .executeTakeFirst();
  if (!waiting) await enqueueJob(tx, { type: APPLY_CHANNEL_RULES, accountId, payload }, now);
}

/**
 * Moves a storefront's variants to its current inventory rules (resolutions §9), step by step from the
 * checkpoint stored with the rules: each step is one short transaction of at most RULES_STEP_VARIANTS
 * variants, with a turn of the event loop after it, so a storefront of 100,000 variants never holds the
 * service. A rerun (a worker that died) goes on from the last committed step; a rule change while it runs
 * resets the checkpoint, and this run starts over from the first variant.
 */
export async function runApplyChannelRules(deps: Deps, job: Job): Promise<void> {
  const { storefrontId } = (job.payload ?? {}) as { storefrontId?: number };
  if (job.accountId === null || !Number.isInteger(storefrontId)) throw new Error(`malformed ${APPLY_CHANNEL_RULES} job ${job.id}`);
  const accountId = job.accountId;
  while (await withTx(deps.db.db, (tx) => applyChannelRulesStep(tx, accountId, storefrontId!, deps.clock.now()))) {
    await deps.db.relieveWal?.();
    await nextTurn();
  }
}
