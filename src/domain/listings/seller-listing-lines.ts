/**
 * Reads the seller console needs beside the listing summaries (seller-list.ts): each listing's title and
 * its variants' channel statuses and error counts, and a listing's submissions. Read-only, account-scoped.
 */
import type { Db } from '../../db/tx.js';
import { toSubmissionView, type SubmissionView } from './submissions.js';

export interface ListingLineDetails {
  /** The listing's product_data "title" text value; null when it has none. */
  title: string | null;
  /** Variant count per channel status ('' is reported as STANDARD_STATUS_UNSPECIFIED). */
  statuses: Record<string, number>;
  /** Channel errors stored on the listing's variants. */
  errorCount: number;
}

export async function listingLineDetails(db: Db, accountId: number, listingIds: readonly number[]): Promise<Map<number, ListingLineDetails>> {
  const out = new Map<number, ListingLineDetails>();
  if (listingIds.length === 0) return out;
  const ids = [...listingIds];
  for (const id of ids) out.set(id, { title: null, statuses: {}, errorCount: 0 });
  const titles = await db
    .selectFrom('listing_attributes')
    .select(['owner_id', 'value'])
    .where('account_id', '=', accountId)
    .where('owner_type', '=', 'L')
    .where('owner_id', 'in', ids)
    .where('group_name', '=', 'product_data')
    .where('attribute_id', '=', 'title')
    .execute();
  for (const t of titles) {
    const value = JSON.parse(t.value) as { textValue?: unknown };
    if (typeof value.textValue === 'string') out.get(t.owner_id)!.title = value.textValue;
  }
  const statuses = await db
    .selectFrom('listing_variants')
    .select((eb) => ['listing_id', 'status', eb.fn.countAll<number | string>().as('n')])
    .where('account_id', '=', accountId)
    .where('listing_id', 'in', ids)
    .groupBy(['listing_id', 'status'])
    .execute();
  for (const s of statuses) {
    const line = out.get(s.listing_id!)!;
    const key = s.status === '' ? 'STANDARD_STATUS_UNSPECIFIED' : s.status;
    line.statuses[key] = (line.statuses[key] ?? 0) + Number(s.n);
  }
  const errors = await db
    .selectFrom('listing_variant_errors as e')
    .innerJoin('listing_variants as v', (j) => j.onRef('v.id', '=', 'e.variant_id').onRef('v.account_id', '=', 'e.account_id'))
    .select((eb) => ['v.listing_id', eb.fn.countAll<number | string>().as('n')])
    .where('e.account_id', '=', accountId)
    .where('v.listing_id', 'in', ids)
    .groupBy('v.listing_id')
    .execute();
  for (const e of errors) out.get(e.listing_id!)!.errorCount = Number(e.n);
  return out;
}

/** Cap on the submissions a listing page shows: the newest per SKU are what a seller acts on. */
export const LISTING_SUBMISSIONS_LIMIT = 200;

/** The storefront's submissions for these SKUs (a listing's group and variant SKUs), newest first. */
export async function submissionsForSkus(db: Db, accountId: number, storefrontId: number, skus: readonly string[]): Promise<SubmissionView[]> {
  if (skus.length === 0) return [];
  const rows = await db
    .selectFrom('listing_submissions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .where('sku', 'in', [...skus])
    .orderBy('id', 'desc')
    .limit(LISTING_SUBMISSIONS_LIMIT)
    .execute();
  return rows.map(toSubmissionView);
}
