/**
 * Building and applying ingestion plans (document 3.8). The plan is built by the `ingestion.build_plan`
 * job after end (PLANNING → PLANNED) and applied at once when autoApplyIngestionPlan was true, else by the
 * operator (PLANNED → APPLIED). Applying rebuilds the plan from the current catalog in the applying
 * transaction, so it never acts on a stale plan, and skips every conflicting variant.
 */
import type { Tx } from '../../db/tx.js';
import { conflict, notFound } from '../errors.js';
import type { IngestionListing, IngestionVariant } from './ingestion-listing.js';
import { loadPlanFacts, planIngestion, type IngestionPlan, type PlannedVariant } from './ingestion-plan.js';
import { loadIngestedListings, type IngestionSessionRow } from './ingestion-session.js';
import type { VariantInput } from './model.js';
import { patchListing } from './patch.js';
import { createListing } from './write.js';

/** The pricing attribute an ingested variant's price is stored under. */
export const PRICE_ATTRIBUTE_ID = 'price';

export async function loadSession(tx: Tx, accountId: number, sessionId: number): Promise<IngestionSessionRow> {
  const row = await tx.selectFrom('ingestion_sessions').selectAll().where('account_id', '=', accountId).where('id', '=', sessionId).executeTakeFirst();
  if (!row) throw notFound(`ingestion ${sessionId} not found in this account`);
  return row;
}

async function buildPlan(tx: Tx, session: IngestionSessionRow): Promise<{ plan: IngestionPlan; ingested: IngestionListing[] }> {
  const ingested = await loadIngestedListings(tx, session.account_id, session.id);
  const facts = await loadPlanFacts(tx, session.account_id, session.storefront_id, ingested);
  const counts = { expected: session.expected_num_listings, actual: session.actual_num_listings ?? 0, received: ingested.length };
  return { plan: planIngestion(ingested, counts, facts), ingested };
}

/**
 * PLANNING → PLANNED with the plan stored. Returns the session afterwards, or null when it is no longer
 * PLANNING (a job run again after success, or the operator discarded it): nothing to do then.
 */
export async function planSession(tx: Tx, accountId: number, sessionId: number, now: Date): Promise<IngestionSessionRow | null> {
  const session = await loadSession(tx, accountId, sessionId);
  if (session.status !== 'PLANNING') return null;
  const { plan } = await buildPlan(tx, session);
  const iso = now.toISOString();
  const updated = await tx
    .updateTable('ingestion_sessions')
    .set({ status: 'PLANNED', plan: JSON.stringify(plan), plan_summary: JSON.stringify(plan.summary), planned_at: iso, updated_at: iso })
    .where('account_id', '=', accountId)
    .where('id', '=', sessionId)
    .where('status', '=', 'PLANNING')
    .returningAll()
    .executeTakeFirst();
  return updated ?? null;
}

function notApplicable(session: IngestionSessionRow): Error {
  const id = session.id;
  switch (session.status) {
    case 'APPLIED':
      return conflict(`ingestion ${id} was already applied at ${session.applied_at ?? ''}; nothing changed`);
    case 'OPEN':
      return conflict(`ingestion ${id} is still open: the channel has not called end yet, so there is no plan to apply`);
    case 'PLANNING':
      return conflict(`the plan of ingestion ${id} is still being built; try again shortly`);
    default:
      return conflict(`ingestion ${id} is ${session.status} and cannot be applied`);
  }
}

function variantInput(v: IngestionVariant, planned: PlannedVariant): VariantInput {
  return {
    sku: v.sku,
    channelId: planned.channelId,
    productData: { attributes: v.attributes },
    ...(v.price ? { pricing: { attributes: [{ id: PRICE_ATTRIBUTE_ID, moneyValue: v.price }] } } : {}),
  };
}

/**
 * PLANNED → APPLIED: rebuilds the plan, creates and updates the listings it names (catalog products created
 * for unknown SKUs) and stores the plan as applied (CREATE entries then carry the new listing ids). Anything
 * but PLANNED is a 409 and changes nothing. The new variants carry no stock yet: the caller refreshes the
 * returned products from the inventory area in the same transaction (listings may not import inventory).
 */
export async function applyIngestion(
  tx: Tx,
  accountId: number,
  sessionId: number,
  now: Date,
): Promise<{ plan: IngestionPlan; newProductIds: number[] }> {
  const session = await loadSession(tx, accountId, sessionId);
  if (session.status !== 'PLANNED') throw notApplicable(session);
  const iso = now.toISOString();
  // Claim first: the conditional UPDATE locks the row, so of two parallel applies one finds it APPLIED.
  const claimed = await tx
    .updateTable('ingestion_sessions')
    .set({ status: 'APPLIED', applied_at: iso, updated_at: iso, error: null })
    .where('account_id', '=', accountId)
    .where('id', '=', sessionId)
    .where('status', '=', 'PLANNED')
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) throw notApplicable(await loadSession(tx, accountId, sessionId));

  const { plan, ingested } = await buildPlan(tx, session);
  const byExternalId = new Map(ingested.map((l) => [l.id, l]));
  const productIds: number[] = [];
  for (const entry of plan.listings) {
    if (entry.action === 'SKIP') continue;
    const listing = byExternalId.get(entry.externalId)!;
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
      productIds.push(...created.productIds);
    } else {
      const listingId = entry.listingId!;
      const variants = entry.variants.map((p) => (p.onListing ? { sku: p.sku, channelId: p.channelId } : variantInput(bySku.get(p.sku)!, p)));
      const { newProductIds } = await patchListing(tx, accountId, listingId, { variants }, now);
      productIds.push(...newProductIds);
      // The channel's own listing id, when the listing did not know it yet.
      await tx
        .updateTable('listings')
        .set({ channel_listing_id: listing.id })
        .where('account_id', '=', accountId)
        .where('id', '=', listingId)
        .where('channel_listing_id', 'is', null)
        .execute();
    }
  }
  await tx
    .updateTable('ingestion_sessions')
    .set({ plan: JSON.stringify(plan), plan_summary: JSON.stringify(plan.summary) })
    .where('account_id', '=', accountId)
    .where('id', '=', sessionId)
    .execute();
  return { plan, newProductIds: productIds };
}

/** An automatic apply that failed leaves the plan PLANNED with the reason, for the operator to apply. */
export async function recordApplyFailure(tx: Tx, accountId: number, sessionId: number, message: string, now: Date): Promise<void> {
  await tx
    .updateTable('ingestion_sessions')
    .set({ error: `automatic apply failed: ${message}`, updated_at: now.toISOString() })
    .where('account_id', '=', accountId)
    .where('id', '=', sessionId)
    .where('status', '=', 'PLANNED')
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
