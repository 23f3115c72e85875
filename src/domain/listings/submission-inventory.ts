import { sql } from 'kysely';
import type { Tx } from '../../db/tx.js';
import { invalidField, notFound } from '../errors.js';

/**
 * Recording the inventory level a submission sent (document 4.4 inventoryDetails, 4.7
 * submission/{submissionId}/inventory; resolutions §3: one record for both). It is stored on the
 * submission and feeds the drift query through the variant with the submission's SKU: a successful send
 * becomes the last quantity sent (drifting recomputed against the intended quantity, and an earlier
 * failure no longer backs the variant off); a failed one stamps last_failed_at, which failureBackoff
 * measures. A variant that no longer exists leaves the record on the submission only.
 */

/** Largest quantity the integer columns hold on both databases. */
export const MAX_INVENTORY_LEVEL = 2_147_483_647;

export interface SubmissionInventoryInput {
  inventoryLevelSent: number;
  successful: boolean;
}

/**
 * Whose submissions the caller may record on: a storefront token only its own storefront's; a token
 * without a storefront (a seller's, v1 only) any of the account's.
 */
export type SubmissionScope = { storefrontId: number | null };

/** Parses a submission id from a path: digits only (else 400); beyond the id range it cannot exist (404). */
export function parseSubmissionId(field: string, raw: string): number {
  if (!/^\d+$/.test(raw)) throw invalidField(field, `"${raw}" is not a submission id (an integer)`);
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id > MAX_INVENTORY_LEVEL || id === 0) throw notFound(`submission ${raw} not found`);
  return id;
}

export function checkInventoryLevel(field: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw invalidField(field, `must be a whole number of at least 0, got ${value}`);
  if (value > MAX_INVENTORY_LEVEL) throw invalidField(field, `must be at most ${MAX_INVENTORY_LEVEL}, got ${value}`);
  return value;
}

export async function recordSubmissionInventory(
  tx: Tx,
  accountId: number,
  scope: SubmissionScope,
  submissionId: number,
  input: SubmissionInventoryInput,
  now: Date,
): Promise<void> {
  const level = checkInventoryLevel('inventoryLevelSent', input.inventoryLevelSent);
  const iso = now.toISOString();
  let query = tx
    .updateTable('listing_submissions')
    .set({ inventory_level_sent: level, inventory_successful: input.successful ? 1 : 0, inventory_recorded_at: iso, updated_at: iso })
    .where('account_id', '=', accountId)
    .where('id', '=', submissionId);
  if (scope.storefrontId !== null) query = query.where('storefront_id', '=', scope.storefrontId);
  const submission = await query.returning(['storefront_id', 'sku']).executeTakeFirst();
  if (!submission) throw notFound(`submission ${submissionId} not found`);

  const variant = tx
    .updateTable('listing_variants')
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', Number(submission.storefront_id))
    .where('sku', '=', submission.sku);
  if (input.successful) {
    await variant
      .set((eb) => ({
        last_sent_quantity: level,
        last_sent_at: iso,
        last_failed_at: null,
        drifting: sql<number>`case when ${eb.ref('merchant_quantity')} + ${eb.ref('storefront_quantity')} <> ${level} then 1 else 0 end`,
      }))
      .execute();
  } else {
    await variant.set({ last_failed_at: iso }).execute();
  }
}
