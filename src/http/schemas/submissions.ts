import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ERROR_SEVERITIES, ERROR_TYPES, MAX_CHANNEL_ERRORS } from '../../domain/listings/channel-errors.js';
import { STANDARD_STATUSES, V1_LISTING_STATUSES } from '../../domain/listings/variant-status.js';
import { SUBMISSION_STATUSES } from '../../domain/listings/submissions.js';
import { Nullable, SKU_RULES, Sku, Timestamp } from './common.js';
import { ProtoEnum } from './proto-enum.js';

/**
 * Shapes of the submission, channel error, channel id and variant status routes (document 2.2, 2.13, 2.14;
 * resolutions §4). v2 inputs accept camelCase and snake_case names, enum names or numbers (ProtoEnum turns
 * numbers into names and refuses unknown ones for the whole request), and null for "not set" (resolutions
 * §0); unknown fields are ignored. Handlers read whichever spelling was sent.
 */

export const MAX_SUBMISSIONS = 100;
export const MAX_VERSION_IDS = 5000;

// Nullable inputs as one schema with a type list (not a union), so a wrong type is reported once, at its path.
const nullable = <T>(schema: Record<string, unknown>, type: string, description?: string) =>
  Type.Optional(Type.Unsafe<T | null>({ ...schema, type: [type, 'null'], ...(description ? { description } : {}) }));
const Str = (description?: string) => nullable<string>({}, 'string', description);
const StrList = (description?: string, maxItems = 1000) => nullable<string[]>({ items: { type: 'string' }, maxItems }, 'array', description);
const StrMap = (description?: string) => nullable<Record<string, string>>({ additionalProperties: { type: 'string' } }, 'object', description);
const Bool = (description?: string) => nullable<boolean>({}, 'boolean', description);
const ListOf = <T extends TSchema>(items: T, maxItems: number, description?: string) =>
  nullable<Static<T>[]>({ items, maxItems }, 'array', description);

type Snake<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}` : S;
const snakeOf = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Both spellings of a field (resolutions §0). */
function both<K extends string, T extends TSchema>(camel: K, schema: T): { [P in K | Snake<K>]: T } {
  return { [camel]: schema, [snakeOf(camel)]: schema } as { [P in K | Snake<K>]: T };
}

/** proto3 JSON input: the camelCase name wins over its snake_case alias; null counts as absent. */
export function field<T>(body: Record<string, unknown>, camel: string): T | undefined {
  const value = body[camel] ?? body[snakeOf(camel)];
  return value === null ? undefined : (value as T | undefined);
}

/* ---- POST /v2/storefront/listing/submission ---- */

const SubmissionEntryInput = Type.Object(
  {
    ...both('submissionId', Type.Optional(Type.Unknown({ description: 'assigned by the service; ignored when sent' }))),
    sku: Type.Optional(Type.String({ ...SKU_RULES, description: 'required, non-empty; any SKU (a variant SKU or a listing group SKU)' })),
    type: Type.Optional(Type.String({ description: 'required, non-empty; your own word for the kind of submission' })),
    ...both('contentSent', Str('what was sent to the channel')),
    ...both('contentReceived', Str("the channel's answer")),
    metadata: StrMap('string → string'),
    successful: Bool(),
    ...both('submittedAttributeVersionIds', StrList('versionIds of the attribute values the submission carried; stamps their submittedAt', MAX_VERSION_IDS)),
    ...both('preparedAt', Str('RFC 3339 with a time zone')),
    ...both('submittedAt', Str('RFC 3339 with a time zone; also the submittedAt stamped on the named versions (default now)')),
    ...both('acknowledgedAt', Str('RFC 3339 with a time zone')),
  },
  { additionalProperties: true },
);
export type SubmissionEntryInput = Static<typeof SubmissionEntryInput>;

export const CreateSubmissionsBody = Type.Object(
  {
    submissions: Type.Array(SubmissionEntryInput, {
      minItems: 1,
      maxItems: MAX_SUBMISSIONS,
      description: `1 to ${MAX_SUBMISSIONS} submissions`,
    }),
  },
  { additionalProperties: true, examples: [{ submissions: [{ sku: 'TSHIRT-RED-M', type: 'product', contentSent: '{"title":"Red T-shirt"}', metadata: { feedId: 'F-991' }, successful: true, submittedAt: '2026-11-21T22:13:08Z' }] }] },
);

export const Submission = Type.Object(
  {
    submissionId: Type.String({ description: 'int64, assigned by the service' }),
    sku: Type.String(),
    contentSent: Type.String(),
    contentReceived: Type.String(),
    metadata: Type.Record(Type.String(), Type.String()),
    type: Type.String(),
    successful: Type.Boolean(),
    submittedAttributeVersionIds: Type.Array(Type.String()),
    preparedAt: Nullable(Timestamp),
    submittedAt: Nullable(Timestamp),
    acknowledgedAt: Nullable(Timestamp),
  },
  {
    description: 'document 2.13; an unset timestamp is null, as the production gateway writes it',
    examples: [
      {
        submissionId: '42',
        sku: 'TSHIRT-RED-M',
        contentSent: '{"title":"Red T-shirt"}',
        contentReceived: '',
        metadata: { feedId: 'F-991' },
        type: 'product',
        successful: true,
        submittedAttributeVersionIds: ['5f0c2a9d1e7b3c4a8d6e2f10'],
        preparedAt: null,
        submittedAt: '2026-11-21T22:13:08.123Z',
        acknowledgedAt: null,
      },
    ],
  },
);

export const SubmissionsResponse = Type.Object({ submissions: Type.Array(Submission) });

/* ---- PUT /v2/storefront/listing/submission/{type}/{sku} ---- */

export const SubmissionKeyParams = Type.Object({
  type: Type.String({ description: 'the submission type' }),
  sku: Type.String({ description: 'the submission sku (URL-encoded)' }),
});

export const UpdateSubmissionBody = Type.Object(
  {
    ...both('contentReceived', Str("the channel's answer; replaces the stored one when sent")),
    metadata: StrMap('replaces the stored map when sent'),
    ...both('changedAt', Str('RFC 3339 with a time zone; when the status changed (default now)')),
    status: ProtoEnum(SUBMISSION_STATUSES, 'status'),
  },
  { additionalProperties: true, examples: [{ contentReceived: '{"feed":"F-991","result":"accepted"}', status: 'STATUS_ACCEPTED', changedAt: '2026-11-21T22:20:00Z' }] },
);

/* ---- POST /v2/storefront/listing/variant/{sku}/errors ---- */

export const VariantSkuParams = Type.Object({ sku: Sku({ description: 'a variant SKU of your storefront (URL-encoded)' }) });

const ChannelErrorInput = Type.Object(
  {
    ...both('attributeIds', StrList('attribute ids the error is about')),
    severity: ProtoEnum(ERROR_SEVERITIES, 'severity'),
    type: ProtoEnum(ERROR_TYPES, 'type'),
    message: Str('required for TYPE_OTHER and TYPE_TOO_MANY_VALUES'),
  },
  { additionalProperties: true },
);
export type ChannelErrorInputWire = Static<typeof ChannelErrorInput>;

export const VariantErrorsBody = Type.Object(
  {
    ...both('submissionType', Str('errors replace the earlier ones of this submissionType; "" is a type too')),
    errors: ListOf(ChannelErrorInput, MAX_CHANNEL_ERRORS, `0 to ${MAX_CHANNEL_ERRORS} entries; empty or absent clears`),
  },
  { additionalProperties: true, examples: [{ submissionType: 'product', errors: [{ attributeIds: ['color'], severity: 'SEVERITY_ERROR', type: 'TYPE_INVALID_VALUE', message: '"navy" is not an accepted colour' }] }] },
);

/* ---- channel_id and status ---- */

export const ChannelIdBody = Type.Object({ ...both('channelId', Str('the channel\'s id of the variant; "" or absent clears it')) }, { additionalProperties: true, examples: [{ channelId: 'B0C1234XYZ' }] });

export const VariantStatusBody = Type.Object(
  {
    status: ProtoEnum(STANDARD_STATUSES, 'status'),
    ...both('channelStatus', Str("the channel's own status text")),
    ...both('channelId', Str('when non-empty, also sets the variant\'s channel id')),
    ...both('listingUrl', Str()),
    buyable: Bool(),
    ...both('channelListingId', Str()),
  },
  { additionalProperties: true, examples: [{ status: 'STANDARD_STATUS_PUBLISHED', channelStatus: 'Active', listingUrl: 'https://channel.example/item/B0C1234XYZ', buyable: true }] },
);

export const Empty = Type.Object({});

/* ---- POST /v1/listing/status (v1 field names) ---- */

const V1ErrorEntry = Type.Object(
  {
    severity: Str('ERROR, WARNING or NOTICE map to the v2 severity; other text is kept in the message'),
    classification: Str('optional'),
    affected_attributes: StrList(),
    error: Str('optional; other, or a v2 type word such as missing_value'),
    message: Str('required unless error is given'),
  },
  { additionalProperties: true },
);

const V1StatusFields = {
  listing_id: Type.Optional(Type.Unsafe<string | number>({ type: ['string', 'integer'], description: "the service's listing id (numeric string)" })),
  sku: Type.Optional(Type.String({ ...SKU_RULES, description: 'a variant SKU of the listing' })),
  status: Type.Optional(Type.String({ description: V1_LISTING_STATUSES.join(', ') })),
  listing_url: Type.Optional(Type.String()),
  errors: ListOf(V1ErrorEntry, MAX_CHANNEL_ERRORS),
};
export const V1StatusEntry = Type.Object(V1StatusFields, { additionalProperties: true });
export type V1StatusEntry = Static<typeof V1StatusEntry>;

export const MAX_V1_STATUSES = 100;

export const V1ListingStatusBody = Type.Object(
  {
    ...V1StatusFields,
    statuses: Type.Optional(
      Type.Array(V1StatusEntry, { minItems: 1, maxItems: MAX_V1_STATUSES, description: `1 to ${MAX_V1_STATUSES} entries, each applied on its own` }),
    ),
  },
  {
    additionalProperties: true,
    description: 'one status entry (document 2.2), or {statuses: [entries]}',
    examples: [
      { listing_id: '17', sku: 'TSHIRT-RED-M', status: 'PUBLISHED', listing_url: 'https://channel.example/item/991' },
      {
        statuses: [
          {
            listing_id: '17',
            sku: 'TSHIRT-RED-L',
            status: 'SUPPRESSED',
            listing_url: '',
            errors: [{ severity: 'ERROR', classification: 'listing', affected_attributes: ['title'], error: 'other', message: 'Title too long' }],
          },
        ],
      },
    ],
  },
);

export const V1ListingStatusResponse = Type.Object({
  results: Type.Array(
    Type.Object({
      listing_id: Type.String(),
      sku: Type.String(),
      status: Type.String(),
      success: Type.Optional(Type.Boolean({ description: 'batch form only' })),
      errorMessage: Type.Optional(Type.String({ description: 'batch form only; "" on success' })),
    }),
  ),
});
