import type { Tx } from '../../db/tx.js';
import { applyIngestion } from '../listings/ingestion-apply.js';
import type { ListingPatch } from '../listings/listing-input.js';
import { patchListing } from '../listings/patch.js';
import type { ListingWriteOptions } from '../listings/write.js';
import { refreshVariantStock } from './variant-stock-sync.js';

/**
 * Listing writes that add variants, with the new variants' stock copies filled in the same transaction.
 * They live in the inventory area because the stock sync reads listings (listings cannot import it back).
 * Every caller (operator API, console, the ingestion job) goes through these, so no new variant is left
 * without its stock.
 */

/** The seller's listing edit (PATCH /admin/…/listings/{id}, the console's edit form). */
export async function patchListingWithStock(
  tx: Tx,
  accountId: number,
  listingId: number,
  patch: ListingPatch,
  now: Date,
  options: ListingWriteOptions = {},
): Promise<{ newProductIds: number[] }> {
  const result = await patchListing(tx, accountId, listingId, patch, now, options);
  await refreshVariantStock(tx, accountId, result.newProductIds, now);
  return result;
}

/** Applies a PLANNED ingestion (the admin route, the console, and the job when auto-apply is on). */
export async function applyIngestionWithStock(tx: Tx, accountId: number, ingestionId: number, now: Date): ReturnType<typeof applyIngestion> {
  const applied = await applyIngestion(tx, accountId, ingestionId, now);
  await refreshVariantStock(tx, accountId, applied.newProductIds, now);
  return applied;
}
