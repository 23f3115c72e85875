import { Type, type Static } from '@sinclair/typebox';
import { CPSIA_WARNING_KEYS } from '../../domain/listings/v1-view.js';
import { NO_CONTROL_CHARACTERS, Nullable, Timestamp, V1Pagination } from './common.js';

/**
 * The v1 listing shape (document 2.1, resolutions §3), field names exactly as the document gives them.
 * Which attribute feeds which field: V1_ATTRIBUTE_MAP in src/domain/listings/v1-view.ts.
 */

const Image = Type.Object({ url: Type.String(), hash: Type.String({ description: 'always "" (the service keeps no image hashes)' }) });

const Price = Nullable(Type.Number({ description: 'the pricing attribute of this id as a number; null when the variant has none' }));

export const ListingVariantV1 = Type.Object({
  sku: Type.String(),
  available_inventory: Type.Number({ description: 'inventory.totalQuantity: merchant-fulfillable plus storefront-fulfillable units' }),
  pricing: Type.Object({ current_selling_price: Price, msrp: Price, map: Price, pricing: Price }),
  primary_image: Image,
  images: Type.Array(Image),
  standard_identifier: Type.String({ description: 'identifiers upc, ean, isbn or gtin (first present), else the catalog product\'s; "" when none' }),
  standard_identifier_type: Type.String({ description: 'UPC, EAN, ISBN or GTIN; "" when none' }),
  brand: Type.String(),
  manufacturer: Type.String(),
  model_number: Type.String(),
  condition: Type.String(),
  condition_description: Type.String(),
  listing_data: Type.Array(
    Type.Object({ attribute: Type.String({ description: 'attribute id' }), value: Type.String({ description: 'the value as one line of text' }) }),
    { description: 'every other productData attribute of the variant' },
  ),
});

const CpsiaWarnings = Type.Object(
  Object.fromEntries(CPSIA_WARNING_KEYS.map((key) => [key, Type.Boolean()])),
  { description: 'all six keys; true for those named by the listing attribute cpsia_warnings' },
);

export const ListingV1Schema = Type.Object(
  {
    id: Type.String(),
    sku: Type.String({ description: 'the group SKU' }),
    title: Type.String(),
    description: Type.String(),
    tags: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
    pivot_attributes: Type.Array(Type.String()),
    primary_image: Image,
    category: Type.String(),
    cpsia_warnings: CpsiaWarnings,
    prop65: Type.Object({ required: Type.Boolean(), type: Type.String(), chemicals: Type.Array(Type.String()) }),
    variants: Type.Array(ListingVariantV1),
  },
  {
    description: 'a listing (document 2.1), a view of the v2 listing',
    examples: [
      {
        id: '12',
        sku: 'SHIRT',
        title: 'Red shirt',
        description: 'Soft cotton',
        tags: 'red, cotton',
        created_at: '2026-11-21T22:13:08.123Z',
        updated_at: '2026-11-21T22:13:08.123Z',
        pivot_attributes: ['size'],
        primary_image: { url: 'https://img.example/shirt.jpg', hash: '' },
        category: 'apparel',
        cpsia_warnings: Object.fromEntries(CPSIA_WARNING_KEYS.map((key) => [key, key === 'choking hazard small parts'])),
        prop65: { required: false, type: '', chemicals: [] },
        variants: [
          {
            sku: 'SHIRT-S',
            available_inventory: 17,
            pricing: { current_selling_price: 19.99, msrp: 25, map: null, pricing: null },
            primary_image: { url: 'https://img.example/shirt-s.jpg', hash: '' },
            images: [{ url: 'https://img.example/shirt-s.jpg', hash: '' }],
            standard_identifier: '012345678905',
            standard_identifier_type: 'UPC',
            brand: 'Acme',
            manufacturer: 'Acme',
            model_number: '',
            condition: 'New',
            condition_description: '',
            listing_data: [{ attribute: 'size', value: 'S' }],
          },
        ],
      },
    ],
  },
);

export const ListingListQueryV1 = Type.Object({
  lastUpdateTs: Type.Optional(Type.String({ description: 'RFC 3339 with a zone: listings updated strictly after it' })),
  lastUpdatedTs: Type.Optional(Type.String({ description: 'alias of lastUpdateTs' })),
  skus: Type.Optional(
    // No length limit here: a value may still hold several comma-separated SKUs.
    Type.Array(Type.String({ pattern: NO_CONTROL_CHARACTERS }), { description: "group or variant SKUs (exact), comma-separated and/or repeated (one pair of surrounding quotes, skus='A,B', is unwrapped)" }),
  ),
  pageLength: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
  nextToken: Type.Optional(Type.String({ description: 'from pagination.nextToken; overrides every other parameter, even an invalid one' })),
});
export type ListingListQueryV1 = Static<typeof ListingListQueryV1>;

export const ListingListV1 = Type.Object(
  { results: Type.Array(ListingV1Schema), pagination: V1Pagination },
  { description: 'one page of listings, oldest update first' },
);

export const ListingIdParamsV1 = Type.Object({ listingid: Type.String({ description: 'the service\'s listing id' }) });
