import { Type, type TSchema } from '@sinclair/typebox';
import { MAX_MULTI_OBJECT_DEPTH } from '../../domain/listings/attribute-input.js';
import { closedObjects } from './closed.js';
import { IdText, Nullable, Sku, Timestamp } from './common.js';

/**
 * v2 listing shapes (document 2.11–2.12). Outputs are proto3 JSON as the production gateway writes it:
 * camelCase, int64 as strings, unset Timestamps (submittedAt, a sale's startAt/endAt) null. multiObjectValue nests the value kinds (checked on input by
 * attribute-input.ts).
 */

/** The shared schema ($id) of an attribute value nested `depth` levels deep in multiObjectValue items. */
const nestedValueId = (depth: number) => `AttributeValue${depth}`;

/**
 * The value kinds of an attribute value as answered. multiObjectValue's properties are values again
 * (Attribute.Value in the production definitions), down to the depth the service accepts on input
 * (MAX_MULTI_OBJECT_DEPTH), each level a closed shared schema referenced by $id (NESTED_ATTRIBUTE_VALUES):
 * the serializer and the OpenAPI document then hold each level once instead of once per attribute group.
 */
function valueKinds(depth: number) {
  const nested: TSchema =
    depth < MAX_MULTI_OBJECT_DEPTH
      ? Type.Record(Type.String(), Type.Ref(nestedValueId(depth + 1)), { description: 'sub-attribute name → its value' })
      : Type.Record(Type.String(), Type.Object({}), { maxProperties: 0, description: `always empty: values nest at most ${MAX_MULTI_OBJECT_DEPTH} levels` });
  return {
    textValue: Type.Optional(Type.String()),
    numericValue: Type.Optional(Type.Number({ description: 'double' })),
    numericWithUnitsValue: Type.Optional(Type.Object({ numeric: Type.Number(), units: Type.String() })),
    multiTextValue: Type.Optional(Type.Object({ values: Type.Array(Type.String()) })),
    moneyValue: Type.Optional(
      Type.Object({ amount: Type.String({ description: 'decimal string with at least two decimals ("12.50"), more only when the value has more; negative for a credit' }), currencyCode: Type.String({ description: 'ISO 4217' }) }),
    ),
    multiObjectValue: Type.Optional(Type.Object({ items: Type.Array(Type.Object({ properties: nested })) })),
  };
}

/** The nested levels as shared schemas, closed, registered with the app (app.ts) before any route. */
export const NESTED_ATTRIBUTE_VALUES = Array.from({ length: MAX_MULTI_OBJECT_DEPTH }, (_, i) =>
  closedObjects(
    Type.Object(valueKinds(i + 1), {
      $id: nestedValueId(i + 1),
      description: `an attribute value nested ${i + 1} level${i === 0 ? '' : 's'} deep in multiObjectValue items: one value kind`,
    }),
  ),
);

const ValueKinds = valueKinds(0);

export const AttributeValueOut = Type.Object(
  {
    id: Type.String(),
    ...ValueKinds,
    versionId: Type.String({ description: 'changes whenever the value changes' }),
    updatedAt: Timestamp,
    submittedAt: Nullable({ ...Timestamp, description: 'when this version was last named by a submission; null before' }),
  },
  { examples: [{ id: 'title', textValue: 'Blue mug', versionId: '4f1c0a9be2d3a8c1b7e6f0a2', updatedAt: '2026-11-21T22:13:08.123Z' }] },
);

/** An attribute value sent by a seller: id and one value kind (checked by the service, with field names). */
export const AttributeInput = Type.Object(
  { id: Type.String({ minLength: 1 }) },
  {
    additionalProperties: true,
    description:
      'id plus exactly one of textValue, numericValue, numericWithUnitsValue {numeric, units}, multiTextValue {values}, ' +
      'moneyValue {amount (decimal string; a JSON number is kept as its decimal text), currencyCode}, multiObjectValue ' +
      '{items[{properties: map of value kinds}]}. versionId/updatedAt/submittedAt are assigned by the service.',
  },
);

export const AttributeGroupOut = Type.Object({
  enabled: Type.Boolean(),
  attributes: Type.Array(AttributeValueOut),
  updatedAt: Timestamp,
});

export const SaleOut = Type.Object({
  strikeThroughPrice: Type.Number(),
  salePrice: Type.Number(),
  startAt: Nullable({ ...Timestamp, description: 'null when the sale has no start' }),
  endAt: Nullable({ ...Timestamp, description: 'null when the sale has no end' }),
});

export const VariantV2 = Type.Object(
  {
    sku: Type.String(),
    channelId: Type.String(),
    settings: Type.Record(Type.String(), Type.String(), { description: 'storefront settings merged with the variant’s own (the variant wins)' }),
    inventory: Type.Object({
      enabled: Type.Boolean(),
      totalQuantity: Type.String({ description: 'int64: merchant-fulfillable + storefront-fulfillable' }),
      merchantFulfillableQuantity: Type.String({ description: 'int64: available in the seller’s own warehouses' }),
      merchantFulfillableWarehouseQuantities: Type.Array(Type.Object({ warehouseId: Type.String(), quantity: Type.String() })),
      storefrontFulfillableQuantity: Type.String({ description: 'int64: available in channel-fulfilled warehouses' }),
      updatedAt: Timestamp,
      updatedExternallyAt: Nullable({ ...Timestamp, description: 'always null: no system but the service sets these quantities' }),
    }),
    identifiers: AttributeGroupOut,
    productData: AttributeGroupOut,
    logistics: AttributeGroupOut,
    pricing: Type.Object({ ...AttributeGroupOut.properties, sales: Type.Array(SaleOut) }),
  },
  { description: 'a variant (document 2.12)' },
);

export const ListingV2 = Type.Object(
  {
    id: Type.String({ description: 'the service’s listing id' }),
    sku: Type.String({ description: 'the group SKU of the whole listing' }),
    productData: Type.Object({
      enabled: Type.Boolean(),
      categoryId: Type.String(),
      productTypeId: Type.String(),
      pivotAttributes: Type.Array(Type.String()),
      attributes: Type.Array(AttributeValueOut),
      updatedAt: Timestamp,
      swatchImageAttributeId: Type.Array(Type.String()),
      standaloneVariants: Type.Boolean({ description: 'the seller asks for each variant to be listed on its own (default false)' }),
      baseListingSku: Type.String({ description: 'the SKU of the listing this one is based on, as the seller set it ("" = none)' }),
      retireBaseParent: Type.Boolean({ description: 'the seller asks for the base listing\'s parent to be retired (default false)' }),
    }),
    variants: Type.Array(VariantV2),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { description: 'a listing (document 2.12)' },
);

/** A page of a listing poll (product_data/updated, listing/new). */
export const ListingPage = Type.Object({
  listings: Type.Array(ListingV2),
  nextPageCursor: Type.String({ description: '"" on the last page' }),
});

/** A page of a variant poll (variant/inventory/updated, variant/pricing/updated). */
export const VariantPage = Type.Object({
  variants: Type.Array(VariantV2),
  nextPageCursor: Type.String({ description: '"" on the last page' }),
});

/** Seller input for a variant (admin create and edit). */
export const VariantInputSchema = Type.Object(
  {
    sku: Sku({ description: 'catalog SKU (created in the catalog when new)' }),
    channelId: Type.Optional(IdText()),
    settings: Type.Optional(Type.Record(Type.String(), Type.String())),
    productData: Type.Optional(
      Type.Object({ enabled: Type.Optional(Type.Boolean()), attributes: Type.Optional(Type.Array(AttributeInput)) }, { additionalProperties: true }),
    ),
    identifiers: Type.Optional(Type.Object({ attributes: Type.Optional(Type.Array(AttributeInput)) }, { additionalProperties: true })),
    logistics: Type.Optional(Type.Object({ attributes: Type.Optional(Type.Array(AttributeInput)) }, { additionalProperties: true })),
    pricing: Type.Optional(
      Type.Object(
        {
          attributes: Type.Optional(Type.Array(AttributeInput)),
          sales: Type.Optional(
            Type.Array(
              Type.Object({
                strikeThroughPrice: Type.Optional(Type.Number({ minimum: 0 })),
                salePrice: Type.Number({ minimum: 0 }),
                startAt: Type.Optional(Type.Union([Type.String(), Type.Null()])),
                endAt: Type.Optional(Type.Union([Type.String(), Type.Null()])),
              }),
            ),
          ),
        },
        { additionalProperties: true },
      ),
    ),
    inventory: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean()) })),
  },
  { additionalProperties: true },
);

export const ListingProductDataInput = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    categoryId: Type.Optional(Type.String()),
    productTypeId: Type.Optional(Type.String()),
    pivotAttributes: Type.Optional(Type.Array(Type.String())),
    swatchImageAttributeId: Type.Optional(Type.Array(Type.String())),
    standaloneVariants: Type.Optional(Type.Boolean({ description: 'default false; snake_case standalone_variants accepted' })),
    baseListingSku: Type.Optional(Type.String({ maxLength: 255, description: 'default ""; snake_case base_listing_sku accepted' })),
    retireBaseParent: Type.Optional(Type.Boolean({ description: 'default false; snake_case retire_base_parent accepted' })),
    attributes: Type.Optional(Type.Array(AttributeInput)),
  },
  { additionalProperties: true },
);
