import { OVERVIEW_CAP } from '../../../domain/operations/overview.js';
import type { AppKind } from '../../../domain/accounts/principal.js';
import type { CallbackKind, DeliveryState } from '../../../domain/callbacks/deliveries.js';
import { DELIVER_CALLBACK } from '../../../domain/callbacks/deliveries.js';
import { APPLY_INGESTION_JOB } from '../../../domain/listings/ingestion-apply.js';
import { BUILD_INGESTION_PLAN } from '../../../domain/listings/ingestion-session.js';
import { EXPIRE_UNPAID_ORDER } from '../../../domain/orders/expiry.js';
import { RUN_REPORT_JOB } from '../../../domain/reports/model.js';
import { RUN_IMPORT_VALIDATION_JOB } from '../../../domain/reports/validation/model.js';
import type { SellerRole } from '../../../domain/users/users.js';
import { IDEMPOTENCY_SWEEP } from '../../../jobs/handlers/idempotency-sweep.js';
import { JOB_RETENTION_SWEEP } from '../../../jobs/handlers/job-retention-sweep.js';
import { REPORT_RETENTION_SWEEP } from '../../../jobs/handlers/report-retention-sweep.js';
import { defaultJobRegistry } from '../../../jobs/registry.js';
import type { JobStatus } from '../../../jobs/types.js';
import type { RefusalSentences } from '../refusal-sentences.js';
import type { EventType } from '../../../domain/callbacks/nudges.js';

/** The operator pages' words for the service's states and kinds (the API's enum names stay in the API). */

export const JOB_STATUS_WORDS: Record<JobStatus, string> = {
  PENDING: 'Waiting',
  RUNNING: 'Running',
  SUCCEEDED: 'Done',
  DEAD: 'Gave up',
};

export const DELIVERY_STATE_WORDS: Record<DeliveryState, string> = {
  PENDING: 'Sending',
  SUCCEEDED: 'Delivered',
  DEAD: 'Gave up',
};

export const CALLBACK_KIND_WORDS: Record<CallbackKind, string> = {
  INITIATE_INGESTION: 'Ingestion request',
  STOREFRONT_STATUS: 'Status check',
  DELETE_CONFIGURATION: 'Disconnect',
  NUDGE: 'Event nudge',
};

export const ATTEMPT_OUTCOME_WORDS: Record<string, string> = { SUCCEEDED: 'Succeeded', FAILED: 'Failed' };

export const APP_KIND_WORDS: Record<AppKind, string> = {
  SALES_CHANNEL: 'Sales channel',
  SHIPPING: 'Shipping',
  INVENTORY: 'Inventory',
  THIRD_PARTY_LOGISTICS: '3PL (third-party logistics)',
  SELLER: 'Seller tool',
};

export const ROLE_WORDS: Record<SellerRole, string> = { OWNER: 'Owner', STAFF: 'Staff' };

/** The nudges an app may subscribe to (docs/partners/callback-nudges.md), each with what it tells the partner. */
export const EVENT_TYPE_WORDS: Record<EventType, string> = {
  FULFILLMENT_ORDER_CHANGED: 'An order to ship changed (shipping and 3PL apps)',
  CANCELLATION_REQUESTED: 'An order to ship must be cancelled (shipping and 3PL apps)',
  ORDER_SHIPPED: "An order from the app's storefront shipped (sales channels)",
  LISTING_PRODUCT_DATA_CHANGED: "A listing's product data changed (sales channels)",
  VARIANT_INVENTORY_CHANGED: 'The stock a storefront should show changed (sales channels)',
};

/** Console users' refusals, said alike on the seller's Users page and the operator's. */
export const USER_REFUSALS: RefusalSentences<'user'> = {
  'user.email_taken': ({ email }) => `${email} already has a console user (emails are unique across all accounts). Invite another address, or ask that person to sign in.`,
};

/** The operator pages' refusals in words. */
export const JOB_REFUSALS: RefusalSentences<'job'> = {
  'job.not_dead': ({ status }) =>
    `This job is ${(JOB_STATUS_WORDS[status as JobStatus] ?? status).toLowerCase()}, so there is nothing to retry: only a job that gave up can be run again.`,
};

const JOB_TYPE_WORDS: Record<string, string> = {
  [DELIVER_CALLBACK]: 'Callback delivery',
  [RUN_REPORT_JOB]: 'Report',
  [RUN_IMPORT_VALIDATION_JOB]: 'Import validation',
  [BUILD_INGESTION_PLAN]: 'Ingestion plan build',
  [APPLY_INGESTION_JOB]: 'Ingestion plan apply',
  [EXPIRE_UNPAID_ORDER]: 'Unpaid order expiry',
  [IDEMPOTENCY_SWEEP]: 'Idempotency keys clean-up',
  [JOB_RETENTION_SWEEP]: 'Finished jobs clean-up',
  [REPORT_RETENTION_SWEEP]: 'Old reports clean-up',
};

/** A job type in words; a type this service does not know (an old or foreign job) as it is stored. */
export function jobTypeWords(type: string): string {
  return JOB_TYPE_WORDS[type] ?? type;
}

/** The job types the service runs (its registry), in words, by name; built once. */
let jobTypeOptions: [string, string][] | undefined;
export function jobTypeChoices(): [string, string][] {
  jobTypeOptions ??= defaultJobRegistry()
    .types()
    .map((t): [string, string] => [t, jobTypeWords(t)])
    .sort((a, b) => a[1].localeCompare(b[1]));
  return jobTypeOptions;
}

/** A capped count as people read it: 1,234, or "10,000+" past the cap. */
export function countWords(n: number, cap = OVERVIEW_CAP): string {
  return n > cap ? `${cap.toLocaleString('en-US')}+` : n.toLocaleString('en-US');
}

/** A duration in seconds as "45 s", "12 min", "3 h 5 min", "2 days 4 h". */
export function ageWords(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 === 0 ? `${h} h` : `${h} h ${min % 60} min`;
  const d = Math.floor(h / 24);
  return h % 24 === 0 ? `${d} day${d === 1 ? '' : 's'}` : `${d} day${d === 1 ? '' : 's'} ${h % 24} h`;
}
