/**
 * Applying ingestion plans (document 3.8) in checkpointed chunks: PLANNED → APPLYING (startApply, by the
 * seller or, with autoApplyIngestionPlan, by the plan job) → APPLIED once every received listing went through
 * a chunk. A chunk is one short transaction over the next few listings in arrival order whose first statement
 * moves the session's checkpoint (apply_after_id) from where this run read it, so of two runs (a worker that
 * lost its lease, the seller's request and the job) exactly one applies each chunk, and a crash leaves a
 * chunk either whole or not at all. Each chunk re-plans its listings against the catalog as it is then, so
 * nothing acts on a stale plan; the duplicate-SKU decisions, which depend on the whole ingestion, come from
 * the plan. The applied plan is assembled from the chunks' entries at the end (finishApply).
 */
import type { Db, Tx } from '../../db/tx.js';
import { withTx } from '../../db/tx.js';
import { enqueueJob } from '../../db/outbox.js';
import { nextTurn } from '../../lib/next-turn.js';
import { inSavepoint } from '../../db/fast-paths.js';
import { conflict, isAppError, notFound } from '../errors.js';
import type { IngestionListing, IngestionVariant } from './ingestion-listing.js';
import { assemblePlan, loadPlanFacts, planListings, sessionConflicts, type PlanConflict, type PlannedListing, type PlannedVariant } from './ingestion-plan.js';
import { SESSION_STATE_COLUMNS, type IngestedRow, type IngestionSessionState } from './ingestion-session.js';
import type { VariantInput } from './model.js';
import { patchListing } from './patch.js';
import { requireStorefront } from './storefront-settings.js';
import { createListing } from './write.js';

/** The pricing attribute an ingested variant's price is stored under. */
export const PRICE_ATTRIBUTE_ID = 'price';

export const APPLY_INGESTION_JOB = 'ingestion.apply';
export interface ApplyIngestionPayload {
  sessionId: number;
}

/**
 * A chunk (one transaction) applies listings until this much time has passed (at least one), out of a page of
 * APPLY_PAGE_LISTINGS read ahead. A listing with two variants costs a few milliseconds (a few statements per
 * variant, each built by Kysely), so a chunk holds the event loop, and SQLite's one writer, about this long.
 */
export const APPLY_CHUNK_BUDGET_MS = 10;
export const APPLY_PAGE_LISTINGS = 20;

export async function loadSession(db: Db, accountId: number, sessionId: number): Promise<IngestionSessionState> {
  const row = await db.selectFrom('ingestion_sessions').select(SESSION_STATE_COLUMNS).where('account_id', '=', accountId).where('id', '=', sessionId).executeTakeFirst();
  if (!row) throw notFound(`ingestion ${sessionId} not found in this account`);
  return row;
}

function notApplicable(session: IngestionSessionState): Error {
  return notApplicableMessage(session).because('ingestion.not_applicable', { status: session.status, done: session.apply_done, total: session.apply_total ?? 0 });
}

function notApplicableMessage(session: IngestionSessionState) {
  const id = session.id;
  switch (session.status) {
    case 'APPLIED':
      return conflict(`ingestion ${id} was already applied at ${session.applied_at ?? ''}; nothing changed`);
    case 'APPLYING':
      return conflict(`ingestion ${id} is already being applied (${session.apply_done} of ${session.apply_total ?? 0} listings so far); nothing changed`);
    case 'OPEN':
      return conflict(`ingestion ${id} is still open: the channel has not called end yet, so there is no plan to apply`);
    case 'PLANNING':
      return conflict(`the plan of ingestion ${id} is still being built; try again shortly`);
    default:
      return conflict(`ingestion ${id} is ${session.status} and cannot be applied`);
  }
}

/**
 * PLANNED → APPLYING with the progress at 0 of the received listings, and the apply job queued (due at
 * `runAt`: a seller's request applies the first chunks itself and leaves the rest to the job). Anything but
 * PLANNED is a 409 and changes nothing; of two parallel starts one finds the session APPLYING.
 */
export async function startApply(tx: Tx, accountId: number, sessionId: number, now: Date, runAt: Date = now): Promise<void> {
  const iso = now.toISOString();
  const claimed = await tx
    .updateTable('ingestion_sessions')
    .set((eb) => ({ status: 'APPLYING', apply_total: eb.ref('received_count'), apply_done: 0, apply_after_id: 0, error: null, updated_at: iso }))
    .where('account_id', '=', accountId)
    .where('id', '=', sessionId)
    .where('status', '=', 'PLANNED')
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) throw notApplicable(await loadSession(tx, accountId, sessionId));
  await enqueueJob(
    tx,
    {
      type: APPLY_INGESTION_JOB,
      accountId,
      payload: { sessionId } satisfies ApplyIngestionPayload,
      runAt,
      dedupeKey: `${APPLY_INGESTION_JOB}:${sessionId}`,
    },
    now,
  );
}

function variantInput(v: IngestionVariant, planned: PlannedVariant): VariantInput {
  return {
    sku: v.sku,
    channelId: planned.channelId,
    productData: { attributes: v.attributes },
    ...(v.price ? { pricing: { attributes: [{ id: PRICE_ATTRIBUTE_ID, moneyValue: v.price }] } } : {}),
  };
}

function withoutDuplicates(listing: IngestionListing, duplicates: PlanConflict[] | undefined): IngestionListing {
  if (!duplicates || duplicates.length === 0) return listing;
  const skipped = new Set(duplicates.map((c) => c.sku));
  return { ...listing, variants: listing.variants.filter((v) => !skipped.has(v.sku)) };
}

/**
 * Applies one chunk in `tx`: its first statement locks the session at the checkpoint this run read (a run that
 * lost the race changes nothing and gets null), then listings of `rows` are re-planned against the current
 * catalog and created or updated one after another (catalog products created for unknown SKUs) until
 * `budgetMs` has passed, what was done is kept on each ingestion listing, and the checkpoint moves past the
 * last one applied. Returns the new catalog products, whose stock the caller fills in the same transaction
 * (listings may not import inventory).
 */
export async function applyChunk(
  tx: Tx,
  session: IngestionSessionState,
  rows: IngestedRow[],
  now: Date,
  budgetMs: number,
): Promise<{ newProductIds: number[]; applied: number } | null> {
  const started = performance.now();
  const accountId = session.account_id;
  const iso = now.toISOString();
  const locked = await tx
    .updateTable('ingestion_sessions')
    .set({ updated_at: iso })
    .where('account_id', '=', accountId)
    .where('id', '=', session.id)
    .where('status', '=', 'APPLYING')
    .where('apply_after_id', '=', session.apply_after_id)
    .executeTakeFirst();
  if (Number(locked.numUpdatedRows) !== 1) return null;
  // A storefront that went away refuses the whole chunk, not each listing in turn (the caller decides).
  await requireStorefront(tx, accountId, session.storefront_id);

  const duplicates = session.duplicates === null ? {} : (JSON.parse(session.duplicates) as Record<string, PlanConflict[]>);
  const listings = rows.map((row) => withoutDuplicates(row.listing, duplicates[row.listing.id]));
  const facts = await loadPlanFacts(tx, accountId, session.storefront_id, listings);
  const entries = planListings(listings, facts, new Map());
  const productIds: number[] = [];
  let applied = 0;
  while (applied < entries.length && (applied === 0 || performance.now() - started < budgetMs)) {
    const entry = entries[applied]!;
    const listing = listings[applied]!;
    entry.conflicts = [...(duplicates[entry.externalId] ?? []), ...entry.conflicts];
    try {
      productIds.push(...(await inSavepoint(tx, () => applyEntry(tx, session, listing, entry, now), () => true)));
    } catch (error) {
      if (!isAppError(error)) throw error;
      // Refused by the listing rules (a conflict the plan could not see): this listing is skipped, the rest go on.
      refuse(entry, error.message);
    }
    await tx
      .updateTable('ingestion_listings')
      .set({ applied_entry: JSON.stringify(entry) })
      .where('account_id', '=', accountId)
      .where('id', '=', rows[applied]!.id)
      .execute();
    applied++;
  }
  await tx
    .updateTable('ingestion_sessions')
    .set((eb) => ({ apply_after_id: rows[applied - 1]!.id, apply_done: eb('apply_done', '+', applied) }))
    .where('account_id', '=', accountId)
    .where('id', '=', session.id)
    .execute();
  return { newProductIds: productIds, applied };
}

function refuse(entry: PlannedListing, reason: string): void {
  entry.conflicts.push({
    type: 'APPLY_REFUSED',
    externalId: entry.externalId,
    message: `listing ${entry.externalId} was not applied: ${reason}; nothing of it changed`,
  });
  for (const v of entry.variants) entry.conflicts.push({ type: 'APPLY_REFUSED', sku: v.sku, externalId: entry.externalId, message: `variant ${v.sku} skipped with its listing` });
  entry.action = 'SKIP';
  entry.variants = [];
}

/** Creates or updates the listing of one planned entry; returns the catalog products created. */
async function applyEntry(tx: Tx, session: IngestionSessionState, listing: IngestionListing, entry: PlannedListing, now: Date): Promise<number[]> {
  const accountId = session.account_id;
  if (entry.action === 'SKIP') return [];
  const bySku = new Map(listing.variants.map((v) => [v.sku, v]));
  if (entry.action === 'CREATE') {
    const created = await createListing(
      tx,
      accountId,
      session.storefront_id,
      {
        sku: listing.id,
        channelListingId: listing.id,
        productData: { productTypeId: listing.productTypeId, pivotAttributes: listing.pivotAttributes, attributes: listing.attributes },
        variants: entry.variants.map((p) => variantInput(bySku.get(p.sku)!, p)),
      },
      now,
    );
    entry.listingId = created.listingId;
    return created.productIds;
  }
  const listingId = entry.listingId!;
  const variants = entry.variants.map((p) => (p.onListing ? { sku: p.sku, channelId: p.channelId } : variantInput(bySku.get(p.sku)!, p)));
  const { newProductIds } = await patchListing(tx, accountId, listingId, { variants }, now);
  // The channel's own listing id, when the listing did not know it yet.
  await tx
    .updateTable('listings')
    .set({ channel_listing_id: listing.id })
    .where('account_id', '=', accountId)
    .where('id', '=', listingId)
    .where('channel_listing_id', 'is', null)
    .execute();
  return newProductIds;
}

/** Pages of applied entries read at a time when the applied plan is assembled. */
const FINISH_PAGE = 500;

/**
 * APPLYING → APPLIED once no listing is left after the checkpoint `afterId`: the applied plan is assembled from
 * every listing's applied entry, a page at a time outside any transaction, and stored with the status in one
 * short transaction, only while the checkpoint is still `afterId`.
 */
export async function finishApply(db: Db, session: IngestionSessionState, now: () => Date): Promise<void> {
  const accountId = session.account_id;
  const listings: PlannedListing[] = [];
  let totalVariants = 0;
  for (let afterId = 0; ; ) {
    const rows = await db
      .selectFrom('ingestion_listings')
      .select(['id', 'applied_entry'])
      .where('account_id', '=', accountId)
      .where('session_id', '=', session.id)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(FINISH_PAGE)
      .execute();
    if (rows.length === 0) break;
    afterId = Number(rows[rows.length - 1]!.id);
    for (const row of rows) {
      if (row.applied_entry === null) continue; // arrived after the apply started: never (end closed the session)
      const entry = JSON.parse(row.applied_entry) as PlannedListing;
      listings.push(entry);
      // Every ingested variant is planned or named by exactly one skipping conflict.
      totalVariants += entry.variants.length + entry.conflicts.filter((c) => c.sku !== undefined).length;
    }
    await nextTurn();
  }
  const counts = { expected: session.expected_num_listings, actual: session.actual_num_listings ?? 0, received: session.apply_total ?? listings.length };
  const plan = assemblePlan(listings, sessionConflicts(counts), totalVariants);
  const planText = JSON.stringify(plan);
  await withTx(db, async (tx) => {
    const iso = now().toISOString();
    await tx
      .updateTable('ingestion_sessions')
      .set({ status: 'APPLIED', plan: planText, plan_summary: JSON.stringify(plan.summary), applied_at: iso, updated_at: iso })
      .where('account_id', '=', accountId)
      .where('id', '=', session.id)
      .where('status', '=', 'APPLYING')
      .where('apply_after_id', '=', session.apply_after_id)
      .execute();
  });
}

/**
 * An apply refused before its first listing (the storefront went away): APPLYING → PLANNED with the reason,
 * as if it had never started, so the seller can apply it once the cause is gone.
 */
export async function returnToPlanned(tx: Tx, session: IngestionSessionState, reason: string, now: Date): Promise<boolean> {
  const prefix = session.auto_apply === 1 ? 'automatic apply failed' : 'apply failed';
  const back = await tx
    .updateTable('ingestion_sessions')
    .set({ status: 'PLANNED', apply_total: null, error: `${prefix}: ${reason}`, updated_at: now.toISOString() })
    .where('account_id', '=', session.account_id)
    .where('id', '=', session.id)
    .where('status', '=', 'APPLYING')
    .where('apply_after_id', '=', 0)
    .executeTakeFirst();
  return Number(back.numUpdatedRows) === 1;
}

/** The apply job gave up: the session stays APPLYING (what was applied stays) with the reason, for the operator. */
export async function recordApplyStopped(tx: Tx, accountId: number, sessionId: number, message: string, now: Date): Promise<void> {
  await tx
    .updateTable('ingestion_sessions')
    .set({ error: message, updated_at: now.toISOString() })
    .where('account_id', '=', accountId)
    .where('id', '=', sessionId)
    .where('status', '=', 'APPLYING')
    .execute();
}

/** The plan job gave up (its last attempt failed): PLANNING → FAILED with the reason. */
export async function markPlanningFailed(tx: Tx, accountId: number, sessionId: number, message: string, now: Date): Promise<void> {
  await tx
    .updateTable('ingestion_sessions')
    .set({ status: 'FAILED', error: message, updated_at: now.toISOString() })
    .where('account_id', '=', accountId)
    .where('id', '=', sessionId)
    .where('status', '=', 'PLANNING')
    .execute();
}

/** OPEN, PLANNED or FAILED → DISCARDED (an open session frees the storefront for a new begin). */
export async function discardIngestion(tx: Tx, accountId: number, sessionId: number, now: Date): Promise<void> {
  const session = await loadSession(tx, accountId, sessionId);
  const iso = now.toISOString();
  const done = await tx
    .updateTable('ingestion_sessions')
    .set({ status: 'DISCARDED', open_key: null, updated_at: iso })
    .where('account_id', '=', accountId)
    .where('id', '=', sessionId)
    .where('status', 'in', ['OPEN', 'PLANNED', 'FAILED'])
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) === 0) {
    const current = await loadSession(tx, accountId, sessionId);
    throw conflict(`ingestion ${session.id} is ${current.status}; only an OPEN, PLANNED or FAILED ingestion can be discarded`);
  }
}
