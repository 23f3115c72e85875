/**
 * Building an ingestion's plan (PLANNING → PLANNED) without holding the event loop or the database: the
 * received listings are read and planned a page at a time, outside any transaction, with a turn of the event
 * loop between pages; the finished plan is stored in one short transaction, only while the session is still
 * PLANNING. A run that dies halfway stored nothing and the next run starts over (planning writes nothing
 * else). The apply rebuilds each chunk against the catalog as it then is (ingestion-apply-chunks.ts).
 */
import type { Db } from '../../db/tx.js';
import { withTx } from '../../db/tx.js';
import { nextTurn } from '../../lib/next-turn.js';
import { loadSession, startApply } from './ingestion-apply.js';
import { assemblePlan, loadPlanFacts, planListings, sessionConflicts, type PlanConflict, type PlannedListing } from './ingestion-plan.js';
import { readIngestedPage } from './ingestion-session.js';

/** Listings read, planned (and later applied) per page. */
export const PLAN_PAGE_LISTINGS = 100;

/** DUPLICATE_SKU_IN_INGESTION conflicts by external id: fixed by the whole ingestion, kept for the apply. */
export type DuplicateConflicts = Record<string, PlanConflict[]>;

/**
 * Plans a PLANNING session and stores the plan (→ PLANNED). With autoApplyIngestionPlan the same
 * transaction starts the apply (→ APPLYING, its job queued). False when the session is no longer PLANNING
 * (a job run again after success, or the operator discarded it): nothing is written then.
 */
export async function planSessionInPages(db: Db, accountId: number, sessionId: number, now: () => Date): Promise<boolean> {
  const session = await loadSession(db, accountId, sessionId);
  if (session.status !== 'PLANNING') return false;
  const claimedBy = new Map<string, string>();
  const listings: PlannedListing[] = [];
  const duplicates: DuplicateConflicts = {};
  let totalVariants = 0;
  let received = 0;
  for (let afterId = 0; ; ) {
    const page = await readIngestedPage(db, accountId, sessionId, afterId, PLAN_PAGE_LISTINGS);
    if (page.length === 0) break;
    afterId = page[page.length - 1]!.id;
    const ingested = page.map((row) => row.listing);
    const facts = await loadPlanFacts(db, accountId, session.storefront_id, ingested);
    for (const entry of planListings(ingested, facts, claimedBy)) {
      listings.push(entry);
      const dup = entry.conflicts.filter((c) => c.type === 'DUPLICATE_SKU_IN_INGESTION');
      if (dup.length > 0) duplicates[entry.externalId] = dup;
    }
    for (const listing of ingested) totalVariants += listing.variants.length;
    received += page.length;
    await nextTurn();
  }
  const counts = { expected: session.expected_num_listings, actual: session.actual_num_listings ?? 0, received };
  const plan = assemblePlan(listings, sessionConflicts(counts), totalVariants);
  const planText = JSON.stringify(plan);
  await nextTurn();
  return withTx(db, async (tx) => {
    const iso = now().toISOString();
    const updated = await tx
      .updateTable('ingestion_sessions')
      .set({
        status: 'PLANNED',
        plan: planText,
        plan_summary: JSON.stringify(plan.summary),
        duplicates: JSON.stringify(duplicates),
        planned_at: iso,
        updated_at: iso,
      })
      .where('account_id', '=', accountId)
      .where('id', '=', sessionId)
      .where('status', '=', 'PLANNING')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    if (session.auto_apply === 1) await startApply(tx, accountId, sessionId, now());
    return true;
  });
}
