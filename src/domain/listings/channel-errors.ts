import type { Db, Tx } from '../../db/tx.js';
import { invalidField, notFound } from '../errors.js';
import { applyAttributeLimits, attributeLimitsFor } from './attribute-limits.js';
import { loadAttributes, ownerKey, type AttributeGroups } from './attributes.js';
import { findStorefrontVariant } from './view.js';

/**
 * Channel errors of a variant (document 2.14, 7.3 rule 5; resolutions §4): the channel reports them per
 * (sku, submissionType) and each report replaces the previous one of that type; an empty list clears.
 */

/** Proto enum order: index = enum number (proto3 JSON input may send numbers). */
export const ERROR_SEVERITIES = ['SEVERITY_UNSPECIFIED', 'SEVERITY_NOTICE', 'SEVERITY_WARNING', 'SEVERITY_ERROR'] as const;
export type ErrorSeverity = (typeof ERROR_SEVERITIES)[number];

export const ERROR_TYPES = [
  'TYPE_UNSPECIFIED',
  'TYPE_MISSING_VALUE',
  'TYPE_INVALID_VALUE',
  'TYPE_RESTRICTED_VALUE',
  'TYPE_OTHER',
  'TYPE_TOO_MANY_VALUES',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/** Types whose entries must say what is wrong in words (7.3 rule 5). */
const MESSAGE_REQUIRED: ReadonlySet<ErrorType> = new Set(['TYPE_OTHER', 'TYPE_TOO_MANY_VALUES']);

/** The most entries one report may carry per (sku, submissionType). */
export const MAX_CHANNEL_ERRORS = 100;

/** submissionType under which the service itself reports attributes the polls leave out (2.14). */
export const ATTRIBUTE_LIMIT_SUBMISSION_TYPE = 'service_attribute_limit';

export interface ChannelErrorInput {
  attributeIds: string[];
  severity: ErrorSeverity;
  type: ErrorType;
  message: string;
}

export interface ChannelErrorView extends ChannelErrorInput {
  submissionType: string;
  createdAt: string;
}

/** An error entry as the wire carries it, enums already read as names (absent = proto default). */
export interface RawChannelError {
  attributeIds?: string[] | null;
  severity?: ErrorSeverity | null;
  type?: ErrorType | null;
  message?: string | null;
}

/** Checks a whole report before anything is stored: a bad entry fails the request, naming errors[i].<field>. */
export function readChannelErrors(path: string, raw: readonly RawChannelError[]): ChannelErrorInput[] {
  if (raw.length > MAX_CHANNEL_ERRORS) throw invalidField(path, `at most ${MAX_CHANNEL_ERRORS} entries per report`);
  return raw.map((entry, i) => {
    const at = `${path}[${i}]`;
    const severity = entry.severity ?? 'SEVERITY_UNSPECIFIED';
    const type = entry.type ?? 'TYPE_UNSPECIFIED';
    const message = entry.message ?? '';
    if (MESSAGE_REQUIRED.has(type) && message.trim() === '') {
      throw invalidField(`${at}.message`, `is required when type is ${type}`);
    }
    return { attributeIds: entry.attributeIds ?? [], severity, type, message };
  });
}

/** Replaces the variant's errors of one submissionType by `errors` (an empty list clears them). */
export async function replaceVariantErrors(
  tx: Tx,
  accountId: number,
  variantId: number,
  submissionType: string,
  errors: readonly ChannelErrorInput[],
  now: Date,
): Promise<void> {
  await tx
    .deleteFrom('listing_variant_errors')
    .where('account_id', '=', accountId)
    .where('variant_id', '=', variantId)
    .where('submission_type', '=', submissionType)
    .execute();
  if (errors.length === 0) return;
  const createdAt = now.toISOString();
  await tx
    .insertInto('listing_variant_errors')
    .values(
      errors.map((e, position) => ({
        account_id: accountId,
        variant_id: variantId,
        submission_type: submissionType,
        position,
        attribute_ids: JSON.stringify(e.attributeIds),
        severity: e.severity,
        type: e.type,
        message: e.message,
        created_at: createdAt,
      })),
    )
    .execute();
}

/** POST /v2/storefront/listing/variant/{sku}/errors: the storefront's own variant only (else 404). */
export async function recordVariantErrors(
  tx: Tx,
  accountId: number,
  storefrontId: number,
  sku: string,
  submissionType: string,
  errors: readonly ChannelErrorInput[],
  now: Date,
): Promise<void> {
  const variant = await findStorefrontVariant(tx, accountId, storefrontId, sku);
  if (!variant) throw notFound(`no variant with sku "${sku}" on this storefront`);
  await replaceVariantErrors(tx, accountId, variant.variantId, submissionType, errors, now);
}

/** Stored channel errors of the variants, by variant id, ordered by submissionType then position. */
export async function loadVariantErrors(db: Db | Tx, accountId: number, variantIds: readonly number[]): Promise<Map<number, ChannelErrorView[]>> {
  const out = new Map<number, ChannelErrorView[]>();
  if (variantIds.length === 0) return out;
  const rows = await db
    .selectFrom('listing_variant_errors')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('variant_id', 'in', [...variantIds])
    .orderBy('variant_id')
    .orderBy('submission_type')
    .orderBy('position')
    .execute();
  for (const row of rows) {
    const list = out.get(row.variant_id) ?? [];
    list.push({
      submissionType: row.submission_type,
      attributeIds: JSON.parse(row.attribute_ids) as string[],
      severity: row.severity as ErrorSeverity,
      type: row.type as ErrorType,
      message: row.message,
      createdAt: row.created_at,
    });
    out.set(row.variant_id, list);
  }
  return out;
}

/* ---- the seller's view: GET /admin/accounts/{accountId}/listings/{listingId}/errors ---- */

export interface VariantErrorReport {
  sku: string;
  channelId: string;
  status: string;
  channelStatus: string;
  listingUrl: string;
  buyable: boolean;
  channelListingId: string;
  statusUpdatedAt: string | null;
  errors: ChannelErrorView[];
}

/**
 * Every variant of the listing with its status on the channel and its errors: those the channel reported,
 * then, computed live, one TYPE_TOO_MANY_VALUES entry (submissionType "service_attribute_limit") per
 * attribute the polls leave out for exceeding its specification's maxUniqueItems. An attribute of the
 * listing's own productData is left out of every variant's submission, so it is reported on each variant.
 * Null when the account has no such listing.
 */
export async function listingErrorReport(db: Db, accountId: number, listingId: number, now: Date): Promise<{ variants: VariantErrorReport[] } | null> {
  const listing = await db
    .selectFrom('listings')
    .select(['id', 'storefront_id', 'product_type_id'])
    .where('account_id', '=', accountId)
    .where('id', '=', listingId)
    .executeTakeFirst();
  if (!listing) return null;
  const variants = await db
    .selectFrom('listing_variants')
    .select(['id', 'sku', 'channel_id', 'status', 'channel_status', 'listing_url', 'buyable', 'channel_listing_id', 'status_updated_at'])
    .where('account_id', '=', accountId)
    .where('listing_id', '=', listing.id)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const stored = await loadVariantErrors(
    db,
    accountId,
    variants.map((v) => v.id),
  );
  const limits = (await attributeLimitsFor(db, accountId, listing.storefront_id, [listing.product_type_id])).get(listing.product_type_id);
  const attributes = limits
    ? await loadAttributes(db, accountId, [{ type: 'L', id: listing.id }, ...variants.map((v) => ({ type: 'V' as const, id: v.id }))])
    : new Map<string, AttributeGroups>();
  const overLimit = (key: string): ChannelErrorView[] =>
    [...(attributes.get(key)?.values() ?? [])].flatMap((values) =>
      applyAttributeLimits(values, limits).over.map((o) => ({
        submissionType: ATTRIBUTE_LIMIT_SUBMISSION_TYPE,
        attributeIds: [o.attributeId],
        severity: 'SEVERITY_ERROR' as const,
        type: 'TYPE_TOO_MANY_VALUES' as const,
        message: `${o.attributeId} has ${o.uniqueItems} unique items; its specification allows at most ${o.maxUniqueItems}, so it is left out of what the channel is sent`,
        createdAt: now.toISOString(),
      })),
    );
  const listingLevel = overLimit(ownerKey('L', listing.id));
  return {
    variants: variants.map((v) => ({
      sku: v.sku,
      channelId: v.channel_id,
      status: v.status === '' ? 'STANDARD_STATUS_UNSPECIFIED' : v.status,
      channelStatus: v.channel_status,
      listingUrl: v.listing_url,
      buyable: v.buyable === 1,
      channelListingId: v.channel_listing_id,
      statusUpdatedAt: v.status_updated_at,
      errors: [...(stored.get(v.id) ?? []), ...listingLevel, ...overLimit(ownerKey('V', v.id))],
    })),
  };
}
