import { Type } from '@sinclair/typebox';
import { CONFLICT_TYPES } from '../../domain/listings/ingestion-plan.js';
import { INGESTION_STATUSES } from '../../domain/listings/ingestion-session.js';
import { MAX_VARIANTS_PER_LISTING } from '../../domain/listings/listing-input.js';
import { Id } from '../admin/schemas.js';
import { Int64Input, Nullable, SKU_RULES, Timestamp } from './common.js';

/**
 * Ingestion shapes: the partner's v2 bodies (document 2.19, 4.7; camelCase or snake_case names, int64 as
 * string or number, unknown fields ignored) and the operator's view of sessions and plans. Required fields
 * and value rules are checked in the domain (ingestion-listing.ts) so each message names the exact field.
 */

const Int32Input = Type.Union([Type.String({ pattern: '^-?\\d+$' }), Type.Integer()]);
const Open = { additionalProperties: true } as const;

export const BeginIngestionBody = Type.Object(
  {
    expectedNumListings: Type.Optional(Int64Input),
    expected_num_listings: Type.Optional(Int64Input),
    autoApplyIngestionPlan: Type.Optional(Type.Boolean({ description: 'apply the plan as soon as it is built (default false)' })),
    auto_apply_ingestion_plan: Type.Optional(Type.Boolean()),
  },
  { ...Open, description: 'expectedNumListings: int64 ≥ 0, how many listings the channel is about to push (default 0)', examples: [{ expectedNumListings: '2', autoApplyIngestionPlan: false }] },
);

/** The production BeginIngestionResponse is empty: strict proto decoders refuse any field beyond it. */
export const BeginIngestionResponse = Type.Object({}, { additionalProperties: false, examples: [{}] });

export const EndIngestionBody = Type.Object(
  {
    actualNumListings: Type.Optional(Int64Input),
    actual_num_listings: Type.Optional(Int64Input),
  },
  { ...Open, description: 'actualNumListings: int64 ≥ 0, how many listings the channel pushed (default 0)', examples: [{ actualNumListings: '2' }] },
);

const AttributeValueInput = Type.Object(
  { id: Type.Optional(Type.String()) },
  { ...Open, description: 'attribute value (2.11): id plus exactly one value kind (textValue, numericValue, moneyValue…)' },
);

const PriceInput = Type.Object(
  {
    currencyCode: Type.Optional(Type.String({ description: 'ISO 4217, three capital letters' })),
    currency_code: Type.Optional(Type.String()),
    units: Type.Optional(Int64Input),
    nanos: Type.Optional(Int32Input),
  },
  { ...Open, description: 'google.type.Money: units (int64) + nanos (−999,999,999..999,999,999, same sign as units)' },
);

export const IngestionListingBody = Type.Object(
  {
    id: Type.Optional(Type.String({ ...SKU_RULES, description: "required: the partner's own listing id; becomes the listing (group) SKU" })),
    productTypeId: Type.Optional(Type.String()),
    product_type_id: Type.Optional(Type.String()),
    pivotAttributes: Type.Optional(Type.Array(Type.String())),
    pivot_attributes: Type.Optional(Type.Array(Type.String())),
    attributes: Type.Optional(Type.Array(AttributeValueInput, { description: 'listing product data' })),
    variants: Type.Optional(
      Type.Array(
        Type.Object(
          {
            sku: Type.Optional(Type.String({ ...SKU_RULES, description: 'required, unique within the listing; also the variant channel id' })),
            price: Type.Optional(Nullable(PriceInput)),
            attributes: Type.Optional(Type.Array(AttributeValueInput, { description: 'variant product data' })),
          },
          Open,
        ),
        { maxItems: MAX_VARIANTS_PER_LISTING, description: `1 to ${MAX_VARIANTS_PER_LISTING}` },
      ),
    ),
  },
  { ...Open, examples: [{ id: 'TEE-CLASSIC', productTypeId: 'shirt', pivotAttributes: ['color'], attributes: [{ id: 'title', textValue: 'Classic T-shirt' }], variants: [{ sku: 'TEE-CLASSIC-RED', price: { currencyCode: 'USD', units: '19', nanos: 990000000 }, attributes: [{ id: 'color', textValue: 'red' }] }] }] },
);

// ---- operator views ----

const ConflictView = Type.Object({
  type: Type.Unsafe<(typeof CONFLICT_TYPES)[number]>({ type: 'string', enum: [...CONFLICT_TYPES] }),
  sku: Type.Optional(Type.String()),
  externalId: Type.Optional(Type.String({ description: 'the ingestion listing id' })),
  message: Type.String(),
});

const PlannedVariantView = Type.Object({
  sku: Type.String(),
  action: Type.Unsafe<'MATCH' | 'CREATE_PRODUCT'>({
    type: 'string',
    enum: ['MATCH', 'CREATE_PRODUCT'],
    description: 'MATCH: the catalog product with this SKU is used; CREATE_PRODUCT: one is created',
  }),
  productExists: Type.Boolean(),
  onListing: Type.Boolean({ description: 'already a variant of the listing updated: only its channel id is set' }),
  channelId: Type.String({ description: 'the channel id the variant gets (its SKU)' }),
});

const PlannedListingView = Type.Object({
  externalId: Type.String({ description: 'the ingestion listing id (= the listing SKU)' }),
  action: Type.Unsafe<'CREATE' | 'UPDATE' | 'SKIP'>({
    type: 'string',
    enum: ['CREATE', 'UPDATE', 'SKIP'],
    description: 'UPDATE: a listing with this SKU exists on the storefront; SKIP: nothing left to create (see conflicts)',
  }),
  listingId: Nullable(Type.Integer({ description: 'the listing updated, or created once applied' })),
  variants: Type.Array(PlannedVariantView, { description: 'the variants applied; skipped ones appear only in conflicts' }),
  conflicts: Type.Array(ConflictView),
});

const SummaryView = Type.Object({
  listings: Type.Integer(),
  listingsToCreate: Type.Integer(),
  listingsToUpdate: Type.Integer(),
  listingsSkipped: Type.Integer(),
  variants: Type.Integer(),
  variantsToAdd: Type.Integer(),
  variantsToAttach: Type.Integer(),
  variantsSkipped: Type.Integer(),
  productsToCreate: Type.Integer(),
  conflicts: Type.Integer(),
});

const PlanView = Type.Object({
  listings: Type.Array(PlannedListingView),
  conflicts: Type.Array(ConflictView, { description: "every conflict: the session's (counts) first, then each listing's" }),
  summary: SummaryView,
});

const summaryProperties = {
  ingestionId: Type.Integer(),
  storefrontId: Type.Integer(),
  status: Type.Unsafe<(typeof INGESTION_STATUSES)[number]>({
    type: 'string',
    enum: [...INGESTION_STATUSES],
    description: 'OPEN → PLANNING (after end) → PLANNED → APPLYING (in chunks; see progress) → APPLIED; FAILED (planning gave up); DISCARDED (operator)',
  }),
  expectedNumListings: Type.Integer(),
  actualNumListings: Nullable(Type.Integer({ description: 'null until end' })),
  receivedCount: Type.Integer({ description: 'distinct listing ids received' }),
  autoApplyIngestionPlan: Type.Boolean(),
  error: Nullable(Type.String({ description: 'why planning failed, or why the apply stopped (it then stays APPLYING)' })),
  summary: Nullable(SummaryView),
  progress: Nullable(
    Type.Object(
      {
        applied: Type.Integer({ description: 'channel listings applied so far' }),
        total: Type.Integer({ description: 'channel listings to apply (those received)' }),
      },
      { description: 'how far the apply got; null until it starts. APPLIED: applied = total' },
    ),
  ),
  begunAt: Timestamp,
  endedAt: Nullable(Timestamp),
  plannedAt: Nullable(Timestamp),
  appliedAt: Nullable(Timestamp),
  updatedAt: Timestamp,
};

export const IngestionSummaryView = Type.Object(summaryProperties);
export const IngestionDetailView = Type.Object({ ...summaryProperties, plan: Nullable(PlanView) });

export const IngestionList = Type.Object({
  results: Type.Array(IngestionSummaryView),
  nextCursor: Type.String({ description: '"" on the last page' }),
});

export const IngestionParams = Type.Object({ accountId: Id('account id'), ingestionId: Id('ingestionId') });

export const ListIngestionsQuery = Type.Object({
  storefrontId: Type.Optional(Id('only this storefront (SALES_CHANNEL installation id)')),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50, description: 'sessions per page (1 to 500)' })),
  cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page; repeat the same filters' })),
});
