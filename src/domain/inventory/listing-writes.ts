import { withTx, type Db, type Tx } from '../../db/tx.js';
import { nextTurn } from '../../lib/next-turn.js';
import { isAppError } from '../errors.js';
import { APPLY_CHUNK_BUDGET_MS, APPLY_PAGE_LISTINGS, applyChunk, finishApply, loadSession, returnToPlanned, startApply } from '../listings/ingestion-apply.js';
import { readIngestedPage, type IngestedRow, type IngestionSessionState } from '../listings/ingestion-session.js';
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

/**
 * Applies an APPLYING ingestion chunk by chunk (ingestion-apply.ts), each chunk its own transaction with the
 * new variants' stock filled in it, and a turn of the event loop between chunks, until it is APPLIED (true),
 * the session is not APPLYING any more (false), or `budgetMs` has passed (false: the apply job goes on with
 * the rest). Listings are read a page ahead; a chunk that finds the checkpoint moved by another run (the
 * seller's request and the job, or a worker that lost its lease) reads the session and page again.
 */
export async function runIngestionApply(
  db: Db,
  accountId: number,
  ingestionId: number,
  now: () => Date,
  budgetMs = Infinity,
  // Between chunks: the event loop's turn, and on SQLite a wait for a checkpoint when the WAL grew (DbHandle.relieveWal).
  betweenChunks: () => Promise<void> = nextTurn,
): Promise<boolean> {
  const started = performance.now();
  let session = await loadSession(db, accountId, ingestionId);
  let rows: IngestedRow[] = [];
  for (;;) {
    if (session.status !== 'APPLYING') return session.status === 'APPLIED';
    if (rows.length === 0) rows = await readIngestedPage(db, accountId, ingestionId, session.apply_after_id, APPLY_PAGE_LISTINGS);
    if (rows.length === 0) {
      await finishApply(db, session, now);
      session = await loadSession(db, accountId, ingestionId);
      continue;
    }
    const applied = await applyChunkWithStock(db, session, rows, now);
    if (applied === 0) {
      session = await loadSession(db, accountId, ingestionId);
      rows = [];
    } else {
      session = { ...session, apply_after_id: rows[applied - 1]!.id, apply_done: session.apply_done + applied };
      rows = rows.slice(applied);
    }
    if (performance.now() - started >= budgetMs) return false;
    await betweenChunks();
  }
}

/** One chunk in its own transaction; how many listings it applied (0: another run had moved the checkpoint). */
async function applyChunkWithStock(db: Db, session: IngestionSessionState, rows: IngestedRow[], now: () => Date): Promise<number> {
  try {
    return await withTx(db, async (tx) => {
      const at = now();
      const applied = await applyChunk(tx, session, rows, at, APPLY_CHUNK_BUDGET_MS);
      if (!applied) return 0;
      await refreshVariantStock(tx, session.account_id, applied.newProductIds, at);
      return applied.applied;
    });
  } catch (error) {
    // Refused before anything was applied: the plan goes back to PLANNED with the reason (and the caller
    // hears the refusal). Later, the error fails the attempt and the job retries from the checkpoint.
    if (isAppError(error) && session.apply_after_id === 0) await withTx(db, (tx) => returnToPlanned(tx, session, error.message, now()));
    throw error;
  }
}

/**
 * The seller applies a PLANNED ingestion (operator API, console): PLANNED → APPLYING with the apply job queued
 * to start a second after `waitMs` (it finds nothing to do when the request finished the plan), then chunks
 * applied for up to `waitMs` (INGESTION_APPLY_WAIT_MS): a small plan is APPLIED when the request answers, a
 * large one is APPLYING with its progress. True when APPLIED; a 409 when the ingestion is not PLANNED.
 */
export async function applyIngestionForSeller(db: Db, accountId: number, ingestionId: number, now: () => Date, waitMs: number): Promise<boolean> {
  const at = now();
  await withTx(db, (tx) => startApply(tx, accountId, ingestionId, at, new Date(at.getTime() + waitMs + 1000)));
  return runIngestionApply(db, accountId, ingestionId, now, waitMs);
}
