import type { Tx } from '../../db/tx.js';
import { invalidField, notFound } from '../errors.js';
import { ERROR_SEVERITIES, ERROR_TYPES, MAX_CHANNEL_ERRORS, replaceVariantErrors, type ChannelErrorInput } from './channel-errors.js';
import { findStorefrontVariant } from './view.js';
import { syncHasChannelId } from './write.js';

/**
 * What the channel says about a variant (resolutions §4): its channel id and its status on the channel.
 * Neither is product data, so neither moves listings.poll_updated_at; the channel id does decide whether
 * the listing is polled by product_data/updated or by listing/new (listings.has_channel_id).
 */

/** Proto enum order (index = enum number). */
export const STANDARD_STATUSES = [
  'STANDARD_STATUS_UNSPECIFIED',
  'STANDARD_STATUS_PUBLISHED',
  'STANDARD_STATUS_UNPUBLISHED',
  'STANDARD_STATUS_SUPPRESSED',
  'STANDARD_STATUS_RETIRED',
] as const;
export type StandardStatus = (typeof STANDARD_STATUSES)[number];


async function requireVariant(tx: Tx, accountId: number, storefrontId: number, sku: string) {
  const variant = await findStorefrontVariant(tx, accountId, storefrontId, sku);
  if (!variant) throw notFound(`no variant with sku "${sku}" on this storefront`);
  return variant;
}

async function writeChannelId(tx: Tx, accountId: number, variantId: number, listingId: number | null, channelId: string, now: Date) {
  await tx
    .updateTable('listing_variants')
    .set({ channel_id: channelId, updated_at: now.toISOString() })
    .where('account_id', '=', accountId)
    .where('id', '=', variantId)
    .execute();
  if (listingId !== null) await syncHasChannelId(tx, accountId, listingId);
}

/** POST /v2/storefront/listing/variant/{sku}/channel_id: "" clears the channel id. */
export async function setVariantChannelId(tx: Tx, accountId: number, storefrontId: number, sku: string, channelId: string, now: Date): Promise<void> {
  const variant = await requireVariant(tx, accountId, storefrontId, sku);
  await writeChannelId(tx, accountId, variant.variantId, variant.listingId, channelId, now);
}

export interface VariantStatusInput {
  status: StandardStatus;
  channelStatus: string;
  channelId: string;
  listingUrl: string;
  buyable: boolean;
  channelListingId: string;
}

/**
 * POST /v2/storefront/listing/variant/{sku}/status: replaces the variant's status fields (a field left out
 * is its proto default). channelId is part of the report but only a non-empty one is written to the
 * variant's channel id: clearing it is the channel_id route's job.
 */
export async function setVariantStatus(tx: Tx, accountId: number, storefrontId: number, sku: string, input: VariantStatusInput, now: Date): Promise<void> {
  const variant = await requireVariant(tx, accountId, storefrontId, sku);
  await writeStatus(tx, accountId, variant.variantId, input, now);
  if (input.channelId !== '') await writeChannelId(tx, accountId, variant.variantId, variant.listingId, input.channelId, now);
}

async function writeStatus(
  tx: Tx,
  accountId: number,
  variantId: number,
  input: Omit<VariantStatusInput, 'channelId'>,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('listing_variants')
    .set({
      status: input.status,
      channel_status: input.channelStatus,
      listing_url: input.listingUrl,
      buyable: input.buyable ? 1 : 0,
      channel_listing_id: input.channelListingId,
      status_updated_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .where('account_id', '=', accountId)
    .where('id', '=', variantId)
    .execute();
}

/* ---- v1: POST /v1/listing/status (document 2.2, 3.2; resolutions §3) ---- */

export const V1_LISTING_STATUSES = ['PUBLISHED', 'UNPUBLISHED', 'SUPPRESSED'] as const;
export type V1ListingStatus = (typeof V1_LISTING_STATUSES)[number];

/** The channel errors of a v1 status report are kept under this submissionType (one report replaces the last). */
export const V1_STATUS_SUBMISSION_TYPE = 'v1_listing_status';

export interface V1ListingStatusEntry {
  listingId: string;
  sku: string;
  status: V1ListingStatus;
  listingUrl: string;
  errors: ChannelErrorInput[];
}

/** A v1 errors[] entry (2.2): classification and error are optional (change log). */
export interface V1ErrorEntry {
  severity?: string | null;
  classification?: string | null;
  affected_attributes?: string[] | null;
  error?: string | null;
  message?: string | null;
}

const words = (s: string) => s.trim().toUpperCase().replace(/[^A-Z0-9]+/g, '_');

/**
 * Maps v1 error entries onto v2 channel errors: severity text matching a v2 severity (ERROR, warning,
 * SEVERITY_NOTICE …) maps to it, anything else to SEVERITY_UNSPECIFIED; type is the v2 type the error or
 * classification text names (missing_value → TYPE_MISSING_VALUE), else TYPE_OTHER. The message is the
 * v1 message (or the error text when there is none); the classification, the error text and a severity
 * that did not map are appended in parentheses so nothing the channel said is lost.
 */
export function v1ErrorsToChannelErrors(path: string, raw: readonly V1ErrorEntry[]): ChannelErrorInput[] {
  if (raw.length > MAX_CHANNEL_ERRORS) throw invalidField(path, `at most ${MAX_CHANNEL_ERRORS} entries per report`);
  return raw.map((e, i) => {
    const message = (e.message ?? '').trim();
    const error = (e.error ?? '').trim();
    const classification = (e.classification ?? '').trim();
    const severityText = (e.severity ?? '').trim();
    if (message === '' && error === '') throw invalidField(`${path}[${i}].message`, 'is required unless error is given');
    const severity = ERROR_SEVERITIES.find((s) => severityText !== '' && (s === words(severityText) || s === `SEVERITY_${words(severityText)}`));
    const typeFrom = (text: string) =>
      ERROR_TYPES.find((t) => t !== 'TYPE_UNSPECIFIED' && text !== '' && (t === words(text) || t === `TYPE_${words(text)}`));
    const type = typeFrom(error) ?? typeFrom(classification) ?? 'TYPE_OTHER';
    const extras = [
      ...(classification !== '' ? [`classification: ${classification}`] : []),
      ...(error !== '' && message !== '' ? [`error: ${error}`] : []),
      ...(severityText !== '' && !severity ? [`severity: ${severityText}`] : []),
    ];
    const base = message !== '' ? message : error;
    return {
      attributeIds: e.affected_attributes ?? [],
      severity: severity ?? 'SEVERITY_UNSPECIFIED',
      type,
      message: extras.length > 0 ? `${base} (${extras.join('; ')})` : base,
    };
  });
}

/**
 * Records one v1 status report: the variant `sku` of listing `listingId` (the service's listing id) takes
 * status STANDARD_STATUS_<status> and listing_url from any state (3.2), and its v1 channel errors are
 * replaced by the report's. A storefront token reaches its own storefront's listings only (storefrontId);
 * other tokens the whole account (null). Unknown listing or sku → NOT_FOUND.
 */
export async function applyV1ListingStatus(
  tx: Tx,
  accountId: number,
  storefrontId: number | null,
  entry: V1ListingStatusEntry,
  now: Date,
): Promise<void> {
  const listingId = /^\d{1,10}$/.test(entry.listingId) ? Number(entry.listingId) : NaN;
  if (!Number.isSafeInteger(listingId) || listingId > 2147483647) throw notFound(`listing ${entry.listingId} not found`);
  let query = tx
    .selectFrom('listing_variants as v')
    .innerJoin('listings as l', (j) => j.onRef('l.id', '=', 'v.listing_id').onRef('l.account_id', '=', 'v.account_id'))
    .select(['v.id as variantId'])
    .where('v.account_id', '=', accountId)
    .where('l.id', '=', listingId)
    .where('v.sku', '=', entry.sku);
  if (storefrontId !== null) query = query.where('l.storefront_id', '=', storefrontId);
  const variant = await query.executeTakeFirst();
  if (!variant) throw notFound(`listing ${entry.listingId} has no variant with sku "${entry.sku}"`);
  const nowIso = now.toISOString();
  await tx
    .updateTable('listing_variants')
    .set({ status: `STANDARD_STATUS_${entry.status}`, listing_url: entry.listingUrl, status_updated_at: nowIso, updated_at: nowIso })
    .where('account_id', '=', accountId)
    .where('id', '=', variant.variantId)
    .execute();
  await replaceVariantErrors(tx, accountId, variant.variantId, V1_STATUS_SUBMISSION_TYPE, entry.errors, now);
}
