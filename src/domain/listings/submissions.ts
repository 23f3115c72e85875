import type { Selectable } from 'kysely';
import type { Tx } from '../../db/tx.js';
import type { ListingSubmissionsTable } from '../../db/schema.js';
import { notFound } from '../errors.js';
import { stampSubmittedAt } from './attributes.js';

/**
 * Submissions (document 2.13, 4.7; resolutions §4): what the channel integration sent to the channel, per
 * (storefront, type, sku). `type` is the partner's own word ("product", "inventory", "price" …).
 *
 * The sku need not be a variant of the storefront: a channel may record a submission for a listing's group
 * SKU or for something the service does not list. Only attribute versions of the storefront's own listings
 * and variants are stamped by submittedAttributeVersionIds; ids it does not own are kept on the submission
 * and change nothing else.
 */

/** PUT status, proto enum order (index = enum number). */
export const SUBMISSION_STATUSES = ['STATUS_UNSPECIFIED', 'STATUS_SUBMITTED', 'STATUS_ACCEPTED', 'STATUS_REJECTED'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export interface SubmissionInput {
  sku: string;
  type: string;
  contentSent: string;
  contentReceived: string;
  metadata: Record<string, string>;
  successful: boolean;
  submittedAttributeVersionIds: string[];
  preparedAt: Date | null;
  submittedAt: Date | null;
  acknowledgedAt: Date | null;
}

/** The v2 Submission (2.13); unset timestamps are absent (proto3 JSON leaves unset messages out). */
export interface SubmissionView {
  submissionId: string;
  sku: string;
  contentSent: string;
  contentReceived: string;
  metadata: Record<string, string>;
  type: string;
  successful: boolean;
  submittedAttributeVersionIds: string[];
  /** Unset Timestamps are null, as the production gateway writes them (resolutions §7, third review). */
  preparedAt: string | null;
  submittedAt: string | null;
  acknowledgedAt: string | null;
}

export function toSubmissionView(row: Selectable<ListingSubmissionsTable>): SubmissionView {
  return {
    submissionId: String(row.id),
    sku: row.sku,
    contentSent: row.content_sent,
    contentReceived: row.content_received,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    type: row.type,
    successful: row.successful === 1,
    submittedAttributeVersionIds: JSON.parse(row.submitted_attribute_version_ids) as string[],
    preparedAt: row.prepared_at || null,
    submittedAt: row.submitted_at || null,
    acknowledgedAt: row.acknowledged_at || null,
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * POST /v2/storefront/listing/submission: for every (type, sku) named in the body, the storefront's
 * submissions with that type and sku are replaced by the body's entries for it (several entries for one
 * pair are all kept, in body order). Named attribute versions get submittedAt = the entry's submittedAt,
 * else now.
 */
export async function replaceSubmissions(
  tx: Tx,
  accountId: number,
  storefrontId: number,
  entries: readonly SubmissionInput[],
  now: Date,
): Promise<SubmissionView[]> {
  const nowIso = now.toISOString();
  const pairs = new Map<string, { type: string; sku: string }>();
  for (const e of entries) pairs.set(JSON.stringify([e.type, e.sku]), { type: e.type, sku: e.sku });
  // Lock each pair (in one order, so two overlapping replaces cannot deadlock) before replacing it.
  const ordered = [...pairs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, pair]) => pair);
  for (const { type, sku } of ordered) {
    await tx
      .insertInto('listing_submission_keys')
      .values({ account_id: accountId, storefront_id: storefrontId, type, sku, replaced_at: nowIso })
      .onConflict((oc) => oc.columns(['account_id', 'storefront_id', 'type', 'sku']).doUpdateSet({ replaced_at: nowIso }))
      .execute();
  }
  for (const { type, sku } of ordered) {
    await tx
      .deleteFrom('listing_submissions')
      .where('account_id', '=', accountId)
      .where('storefront_id', '=', storefrontId)
      .where('type', '=', type)
      .where('sku', '=', sku)
      .execute();
  }
  const out: SubmissionView[] = [];
  for (const e of entries) {
    const row = await tx
      .insertInto('listing_submissions')
      .values({
        account_id: accountId,
        storefront_id: storefrontId,
        sku: e.sku,
        type: e.type,
        content_sent: e.contentSent,
        content_received: e.contentReceived,
        metadata: JSON.stringify(e.metadata),
        successful: e.successful ? 1 : 0,
        status: '',
        submitted_attribute_version_ids: JSON.stringify(e.submittedAttributeVersionIds),
        prepared_at: iso(e.preparedAt),
        submitted_at: iso(e.submittedAt),
        acknowledged_at: iso(e.acknowledgedAt),
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (e.submittedAttributeVersionIds.length > 0) {
      await stampSubmittedAt(tx, accountId, storefrontId, e.submittedAttributeVersionIds, iso(e.submittedAt) ?? nowIso);
    }
    out.push(toSubmissionView(row));
  }
  return out;
}

export interface SubmissionUpdate {
  contentReceived: string | null;
  metadata: Record<string, string> | null;
  changedAt: Date | null;
  status: SubmissionStatus;
}

/**
 * PUT /v2/storefront/listing/submission/{type}/{sku}: updates the latest submission (highest id) of that
 * type and sku. Fields sent replace the stored ones (metadata as a whole map); absent ones are kept.
 * Status mapping (changedAt defaults to now):
 * - STATUS_SUBMITTED: submittedAt = changedAt when the submission had none; successful unchanged;
 * - STATUS_ACCEPTED: acknowledgedAt = changedAt and successful = true;
 * - STATUS_REJECTED: successful = false (acknowledgedAt unchanged: the channel refused the content);
 * - STATUS_UNSPECIFIED (or absent): only content/metadata change.
 */
export async function updateLatestSubmission(
  tx: Tx,
  accountId: number,
  storefrontId: number,
  type: string,
  sku: string,
  update: SubmissionUpdate,
  now: Date,
): Promise<SubmissionView> {
  const latest = await tx
    .selectFrom('listing_submissions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('storefront_id', '=', storefrontId)
    .where('type', '=', type)
    .where('sku', '=', sku)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!latest) throw notFound(`no submission of type "${type}" for sku "${sku}" on this storefront`);
  const changedAt = (update.changedAt ?? now).toISOString();
  const row = await tx
    .updateTable('listing_submissions')
    .set({
      ...(update.contentReceived !== null ? { content_received: update.contentReceived } : {}),
      ...(update.metadata !== null ? { metadata: JSON.stringify(update.metadata) } : {}),
      ...(update.status !== 'STATUS_UNSPECIFIED' ? { status: update.status } : {}),
      ...(update.status === 'STATUS_SUBMITTED' && latest.submitted_at === null ? { submitted_at: changedAt } : {}),
      ...(update.status === 'STATUS_ACCEPTED' ? { acknowledged_at: changedAt, successful: 1 } : {}),
      ...(update.status === 'STATUS_REJECTED' ? { successful: 0 } : {}),
      changed_at: changedAt,
      updated_at: now.toISOString(),
    })
    .where('account_id', '=', accountId)
    .where('id', '=', latest.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toSubmissionView(row);
}
