/**
 * The ingestion plan (document 3.8): what applying a session's listings would do to the storefront's
 * listings and the account's catalog, and what cannot be done. planIngestion is pure (unit-tested); the
 * facts it needs are read by loadPlanFacts.
 *
 * Per ingested listing (external id E): a listing of the storefront whose group SKU is E is UPDATEd (its
 * variants get channel ids, missing variants are added); otherwise one is CREATEd with group SKU E. Per
 * variant: the catalog product with that SKU is used (MATCH) or created (CREATE_PRODUCT). The channel id
 * of an ingested variant is its SKU: the ingestion listing carries no other channel-side variant id, and
 * the SKU is what the channel knows the variant by.
 */
import type { Db } from '../../db/tx.js';
import type { IngestionListing } from './ingestion-listing.js';
import { findProductsBySkus } from '../catalog/products.js';

export const CONFLICT_TYPES = [
  /** The variant SKU is on another listing of this storefront (or kept for a deleted one): skipped. */
  'SKU_LISTED_ELSEWHERE',
  /** Two ingested listings carry the same variant SKU: the first keeps it, later ones skip it. */
  'DUPLICATE_SKU_IN_INGESTION',
  /** Every variant of a listing to create was skipped: the listing is not created. */
  'NO_VARIANTS_LEFT',
  /** Listings received ≠ actualNumListings of end: some were lost or resent; what arrived is planned. */
  'COUNT_MISMATCH',
  /** expectedNumListings of begin ≠ actualNumListings of end (informational). */
  'EXPECTED_COUNT_MISMATCH',
  /** Applying the listing was refused (a rule the plan could not check, a change meanwhile): skipped whole. */
  'APPLY_REFUSED',
] as const;
export type ConflictType = (typeof CONFLICT_TYPES)[number];

export interface PlanConflict {
  type: ConflictType;
  sku?: string;
  externalId?: string;
  message: string;
}

export type ListingAction = 'CREATE' | 'UPDATE' | 'SKIP';
export type VariantAction = 'MATCH' | 'CREATE_PRODUCT';

export interface PlannedVariant {
  sku: string;
  action: VariantAction;
  productExists: boolean;
  /** True when the variant is already on the listing being updated (only its channel id is set). */
  onListing: boolean;
  channelId: string;
}

export interface PlannedListing {
  externalId: string;
  action: ListingAction;
  /** The listing updated; for CREATE, the listing created once applied (null before). */
  listingId: number | null;
  variants: PlannedVariant[];
  conflicts: PlanConflict[];
}

export interface PlanSummary {
  listings: number;
  listingsToCreate: number;
  listingsToUpdate: number;
  listingsSkipped: number;
  variants: number;
  variantsToAdd: number;
  variantsToAttach: number;
  variantsSkipped: number;
  productsToCreate: number;
  conflicts: number;
}

export interface IngestionPlan {
  listings: PlannedListing[];
  /** Every conflict: the session's own (counts) first, then each listing's, with its externalId. */
  conflicts: PlanConflict[];
  summary: PlanSummary;
}

export interface PlanFacts {
  /** Group SKU → listing id, for the storefront's listings named by an external id. */
  listings: ReadonlyMap<string, number>;
  /** Variant SKU → where it is listed in the storefront (listingId null: kept for a deleted listing). */
  variants: ReadonlyMap<string, { listingId: number | null; listingSku: string | null }>;
  /** SKUs of the account's catalog products. */
  products: ReadonlySet<string>;
}

export interface PlanCounts {
  expected: number;
  actual: number;
  received: number;
}

export function planIngestion(ingested: readonly IngestionListing[], counts: PlanCounts, facts: PlanFacts): IngestionPlan {
  const listings = planListings(ingested, facts, new Map());
  return assemblePlan(listings, sessionConflicts(counts), countVariants(ingested));
}

/** The session's own conflicts: the counts of begin, end and what arrived disagree. */
export function sessionConflicts(counts: PlanCounts): PlanConflict[] {
  const conflicts: PlanConflict[] = [];
  if (counts.received !== counts.actual) {
    conflicts.push({
      type: 'COUNT_MISMATCH',
      message:
        `end said ${counts.actual} listings were sent but ${counts.received} distinct listings arrived; the ones that ` +
        'arrived are planned, ask the channel to ingest again for the rest',
    });
  }
  if (counts.expected !== counts.actual) {
    conflicts.push({
      type: 'EXPECTED_COUNT_MISMATCH',
      message: `begin expected ${counts.expected} listings, end reported ${counts.actual} (informational)`,
    });
  }
  return conflicts;
}

export function countVariants(ingested: readonly IngestionListing[]): number {
  return ingested.reduce((n, l) => n + l.variants.length, 0);
}

/**
 * Plans listings in the order they arrived. `claimedBy` (variant SKU → external id that took it first) carries
 * over between calls, so a plan built page by page finds the same duplicates as one built at once.
 */
export function planListings(ingested: readonly IngestionListing[], facts: PlanFacts, claimedBy: Map<string, string>): PlannedListing[] {
  return ingested.map((listing): PlannedListing => {
    const externalId = listing.id;
    const listingId = facts.listings.get(externalId) ?? null;
    const own: PlanConflict[] = [];
    const variants: PlannedVariant[] = [];
    for (const v of listing.variants) {
      const first = claimedBy.get(v.sku);
      if (first !== undefined) {
        own.push({
          type: 'DUPLICATE_SKU_IN_INGESTION',
          sku: v.sku,
          externalId,
          message: `variant ${v.sku} was also pushed in ingestion listing ${first}, which keeps it; skipped here`,
        });
        continue;
      }
      claimedBy.set(v.sku, externalId);
      const listed = facts.variants.get(v.sku);
      const onListing = listed !== undefined && listingId !== null && listed.listingId === listingId;
      if (listed !== undefined && !onListing) {
        own.push({
          type: 'SKU_LISTED_ELSEWHERE',
          sku: v.sku,
          externalId,
          message:
            listed.listingId === null
              ? `variant ${v.sku} is kept for a deleted listing of this storefront (still live on the channel); skipped`
              : `variant ${v.sku} is already on listing ${listed.listingSku ?? ''} (id ${listed.listingId}) of this storefront; skipped`,
        });
        continue;
      }
      const productExists = facts.products.has(v.sku);
      variants.push({ sku: v.sku, action: productExists ? 'MATCH' : 'CREATE_PRODUCT', productExists, onListing, channelId: v.sku });
    }
    let action: ListingAction = listingId === null ? 'CREATE' : 'UPDATE';
    if (action === 'CREATE' && variants.length === 0) {
      action = 'SKIP';
      own.push({ type: 'NO_VARIANTS_LEFT', externalId, message: `listing ${externalId} is not created: every variant was skipped` });
    }
    return { externalId, action, listingId, variants, conflicts: own };
  });
}

/** The whole plan from its planned listings: every conflict (the session's first) and the counts. */
export function assemblePlan(listings: PlannedListing[], ownConflicts: PlanConflict[], totalVariants: number): IngestionPlan {
  const conflicts = [...ownConflicts];
  let listingsToCreate = 0;
  let listingsToUpdate = 0;
  let listingsSkipped = 0;
  let planned = 0;
  let variantsToAttach = 0;
  let productsToCreate = 0;
  for (const l of listings) {
    for (const c of l.conflicts) conflicts.push(c);
    if (l.action === 'CREATE') listingsToCreate++;
    else if (l.action === 'UPDATE') listingsToUpdate++;
    else {
      listingsSkipped++;
      continue;
    }
    for (const v of l.variants) {
      planned++;
      if (v.onListing) variantsToAttach++;
      if (!v.productExists) productsToCreate++;
    }
  }
  return {
    listings,
    conflicts,
    summary: {
      listings: listings.length,
      listingsToCreate,
      listingsToUpdate,
      listingsSkipped,
      variants: totalVariants,
      variantsToAdd: planned - variantsToAttach,
      variantsToAttach,
      variantsSkipped: totalVariants - planned,
      productsToCreate,
      conflicts: conflicts.length,
    },
  };
}

const CHUNK = 500;
function chunks<T>(values: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(values.slice(i, i + CHUNK));
  return out;
}

/** Reads what planIngestion needs, for the storefront and only the SKUs the listings name. */
export async function loadPlanFacts(db: Db, accountId: number, storefrontId: number, ingested: readonly IngestionListing[]): Promise<PlanFacts> {
  const externalIds = [...new Set(ingested.map((l) => l.id))];
  const skus = [...new Set(ingested.flatMap((l) => l.variants.map((v) => v.sku)))];
  const listings = new Map<string, number>();
  for (const part of chunks(externalIds)) {
    const rows = await db
      .selectFrom('listings')
      .select(['id', 'sku'])
      .where('account_id', '=', accountId)
      .where('storefront_id', '=', storefrontId)
      .where('sku', 'in', part)
      .execute();
    for (const r of rows) listings.set(r.sku, Number(r.id));
  }
  const variants = new Map<string, { listingId: number | null; listingSku: string | null }>();
  const products = new Set<string>();
  for (const part of chunks(skus)) {
    const rows = await db
      .selectFrom('listing_variants as v')
      .leftJoin('listings as l', (j) => j.onRef('l.id', '=', 'v.listing_id').on('l.account_id', '=', accountId))
      .select(['v.sku', 'v.listing_id', 'l.sku as listing_sku'])
      .where('v.account_id', '=', accountId)
      .where('v.storefront_id', '=', storefrontId)
      .where('v.sku', 'in', part)
      .execute();
    for (const r of rows) variants.set(r.sku, { listingId: r.listing_id === null ? null : Number(r.listing_id), listingSku: r.listing_sku });
    for (const r of await findProductsBySkus(db, accountId, part, true)) products.add(r.sku);
  }
  return { listings, variants, products };
}
