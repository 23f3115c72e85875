import type { ConflictType, ListingAction } from '../../../../domain/listings/ingestion-plan.js';
import type { IngestionStatus } from '../../../../domain/listings/ingestion-session.js';
import type { StandardStatus } from '../../../../domain/listings/variant-status.js';
import type { RefusalSentences } from '../../refusal-sentences.js';

/** The listings pages' statuses and refusals in the seller's words (never STANDARD_STATUS_… or PLANNED). */

const VARIANT_STATUS_WORDS: Record<StandardStatus, string> = {
  STANDARD_STATUS_UNSPECIFIED: 'Not reported yet',
  STANDARD_STATUS_PUBLISHED: 'Live',
  STANDARD_STATUS_UNPUBLISHED: 'Not live',
  STANDARD_STATUS_SUPPRESSED: 'Suppressed by the channel',
  STANDARD_STATUS_RETIRED: 'Retired',
};

/** A variant's status on its channel; one this version does not know in lower-case words. */
export function variantStatusText(status: string): string {
  const known = VARIANT_STATUS_WORDS[status as StandardStatus];
  if (known) return known;
  const words = status.replace('STANDARD_STATUS_', '').replace(/_/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "Live ×2, Not reported yet ×1": a listing's variants by channel status. */
export function variantStatusesText(statuses: Record<string, number>): string {
  const parts = Object.entries(statuses).map(([s, n]) => `${variantStatusText(s)} ×${n}`);
  return parts.length === 0 ? '–' : parts.join(', ');
}

export const INGESTION_STATUS_WORDS: Record<IngestionStatus, string> = {
  OPEN: 'Receiving listings',
  PLANNING: 'Building the plan',
  PLANNED: 'Ready to review',
  APPLYING: 'Being applied',
  APPLIED: 'Applied',
  FAILED: 'Failed',
  DISCARDED: 'Discarded',
};

export const ingestionStatusText = (status: string): string => INGESTION_STATUS_WORDS[status as IngestionStatus] ?? status;

export const INGESTION_REFUSALS: RefusalSentences<'ingestion'> = {
  'ingestion.not_applicable': ({ status, done, total }) => {
    switch (status) {
      case 'APPLIED':
        return 'This plan was applied already; nothing changed.';
      case 'APPLYING':
        return `This plan is being applied already (${done} of ${total} listings so far); nothing changed. Reload the page to see how far it got.`;
      case 'OPEN':
        return 'The channel is still sending its listings, so there is no plan to apply yet. Come back once it has finished.';
      case 'PLANNING':
        return 'The plan is still being built. Reload the page in a moment and apply it then.';
      default:
        return `This plan is ${ingestionStatusText(status).toLowerCase()} and cannot be applied. Ask the channel to send its listings again.`;
    }
  },
};

const PLAN_ACTION_WORDS: Record<ListingAction, string> = { CREATE: 'New listing', UPDATE: 'Update', SKIP: 'Skipped' };

/** What applying a plan does to a channel listing. */
export const planActionText = (action: string): string => PLAN_ACTION_WORDS[action as ListingAction] ?? action;

const CONFLICT_WORDS: Record<ConflictType, string> = {
  SKU_LISTED_ELSEWHERE: 'SKU on another listing',
  DUPLICATE_SKU_IN_INGESTION: 'SKU sent twice',
  NO_VARIANTS_LEFT: 'No variant left',
  COUNT_MISMATCH: 'Listings missing or sent twice',
  EXPECTED_COUNT_MISMATCH: 'Fewer or more listings than announced',
  APPLY_REFUSED: 'Could not be applied',
};

/** A plan conflict's kind. */
export const conflictText = (type: string): string => CONFLICT_WORDS[type as ConflictType] ?? type;
