import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { SPEC_CLASSIFICATIONS, SPEC_LEVELS, SPEC_TYPES, SPEC_USAGES } from '../../domain/listings/taxonomy-spec.js';
import { Timestamp } from './common.js';
import { ProtoEnum, ProtoEnumValue } from './proto-enum.js';

/**
 * Storefront taxonomy shapes (document 2.15, resolutions §4). Outputs are proto3 JSON: every field emitted
 * ("" / [] / {} / "0"), enums by name, maxUniqueItems an int64 string. Inputs accept camelCase or
 * snake_case names, enums by name or number (ProtoEnum: an unknown one is a 400 naming the field, numbers
 * become names), null for unset; the domain (taxonomy-spec.ts) checks the other values and names each bad
 * field, so the schemas here otherwise only describe and catch wrong JSON types.
 */

const ID_PATTERN_DOC = 'non-empty, at most 255 characters';

/** The production ProductType message: no field beyond it (strict proto decoders refuse unknown ones). */
export const ProductTypeV2 = Type.Object(
  {
    productTypeId: Type.String({ description: 'the channel\'s id of the product type' }),
    displayName: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false },
);

export const ProductTypeList = Type.Object({
  productTypes: Type.Array(ProductTypeV2, { description: 'every product type of the storefront, ordered by productTypeId' }),
});

// Nullable by a type list rather than a union, so that ajv names the one problem ("examples[1]: must be
// string") instead of one per branch.
const TextInput = (description: string) => Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], description }));
const ListInput = (description: string) =>
  Type.Optional(Type.Unsafe<string[] | null>({ type: ['array', 'null'], items: { type: 'string' }, description }));
const MapInput = <T extends TSchema>(values: T, description: string) =>
  Type.Optional(Type.Unsafe<Record<string, Static<T>> | null>({ type: ['object', 'null'], additionalProperties: values, description }));

const ProductTypeInput = Type.Object(
  {
    productTypeId: TextInput(`required; ${ID_PATTERN_DOC}`),
    product_type_id: TextInput('snake_case alias of productTypeId'),
    displayName: TextInput('display only'),
    display_name: TextInput('snake_case alias of displayName'),
    description: TextInput('free text'),
  },
  { additionalProperties: true },
);

/** {productType: {...}} as documented, or the product type object itself. */
export const ProductTypeBody = Type.Object(
  {
    productType: Type.Optional(ProductTypeInput),
    product_type: Type.Optional(ProductTypeInput),
    productTypeId: TextInput('when the product type is sent without the productType wrapper'),
    product_type_id: TextInput('snake_case alias of productTypeId'),
    displayName: TextInput('when sent without the wrapper'),
    display_name: TextInput('snake_case alias of displayName'),
    description: TextInput('when sent without the wrapper'),
  },
  { additionalProperties: true, examples: [{ productType: { productTypeId: 'shirt', displayName: 'Shirts' } }] },
);

const TypeEnum = (description: string) => ProtoEnum(SPEC_TYPES, description);

const ObjectFieldSpecInput = Type.Object(
  {
    type: TypeEnum('type of the sub-attribute'),
    validValues: ListInput('allowed values of an enum sub-field'),
    valid_values: ListInput('snake_case alias of validValues'),
  },
  { additionalProperties: true },
);

const AttributeSpecInput = Type.Object(
  {
    attributeSpecId: TextInput(`${ID_PATTERN_DOC}; required unless the path names it (then it must match or be empty)`),
    attribute_spec_id: TextInput('snake_case alias of attributeSpecId'),
    displayName: TextInput('display only'),
    display_name: TextInput('snake_case alias'),
    type: TypeEnum('value type'),
    validValues: ListInput('allowed values'),
    valid_values: ListInput('snake_case alias'),
    validUnits: ListInput('allowed units'),
    valid_units: ListInput('snake_case alias'),
    objectSpec: MapInput(ProtoEnumValue(SPEC_TYPES, 'sub-attribute type'), 'sub-attribute name → type; only with TYPE_MULTI_OBJECT (else 400)'),
    object_spec: MapInput(ProtoEnumValue(SPEC_TYPES, 'sub-attribute type'), 'snake_case alias'),
    objectFieldSpecs: MapInput(ObjectFieldSpecInput, 'sub-attribute name → {type, validValues}; only with TYPE_MULTI_OBJECT (else 400)'),
    object_field_specs: MapInput(ObjectFieldSpecInput, 'snake_case alias'),
    unit: TextInput('unit'),
    level: ProtoEnum(SPEC_LEVELS, 'where the attribute is set'),
    classification: ProtoEnum(SPEC_CLASSIFICATIONS, 'attribute group'),
    usage: ProtoEnum(SPEC_USAGES, 'whether the channel requires it'),
    description: TextInput('free text'),
    examples: ListInput('example values'),
    maxUniqueItems: Type.Optional(
      Type.Unsafe<string | number | null>({
        type: ['string', 'integer', 'null'],
        description: 'int64 (string or number), >= 0; 0 or absent = no limit. Listing polls leave out attributes over it (2.14)',
      }),
    ),
    max_unique_items: Type.Optional(Type.Unsafe<string | number | null>({ type: ['string', 'integer', 'null'], description: 'snake_case alias' })),
    suggestedValues: ListInput('recommended values'),
    suggested_values: ListInput('snake_case alias'),
  },
  { additionalProperties: true, description: 'document 2.15; createdAt and updatedAt are set by the service and ignored here' },
);

export const AttributeSpecBody = Type.Object(
  {
    attributeSpec: Type.Optional(AttributeSpecInput),
    attribute_spec: Type.Optional(AttributeSpecInput),
  },
  { additionalProperties: true, examples: [{ attributeSpec: { attributeSpecId: 'color', displayName: 'Colour', type: 'TYPE_SELECT', validValues: ['red', 'blue'] } }] },
);

export const AttributeSpecV2 = Type.Object(
  {
    attributeSpecId: Type.String(),
    displayName: Type.String(),
    type: Type.String({ enum: [...SPEC_TYPES] }),
    validValues: Type.Array(Type.String()),
    validUnits: Type.Array(Type.String()),
    objectSpec: Type.Record(Type.String(), Type.String({ enum: [...SPEC_TYPES] }), { description: '{} unless TYPE_MULTI_OBJECT' }),
    objectFieldSpecs: Type.Record(
      Type.String(),
      Type.Object({ type: Type.String({ enum: [...SPEC_TYPES] }), validValues: Type.Array(Type.String()) }),
      { description: '{} unless TYPE_MULTI_OBJECT' },
    ),
    unit: Type.String(),
    level: Type.String({ enum: [...SPEC_LEVELS] }),
    classification: Type.String({ enum: [...SPEC_CLASSIFICATIONS] }),
    usage: Type.String({ enum: [...SPEC_USAGES] }),
    description: Type.String(),
    examples: Type.Array(Type.String()),
    maxUniqueItems: Type.String({ description: 'int64; "0" = no limit' }),
    suggestedValues: Type.Array(Type.String()),
    updatedAt: Timestamp,
    createdAt: Timestamp,
  },
  { description: 'document 2.15' },
);

export const AttributeSpecList = Type.Object({
  attributeSpecs: Type.Array(AttributeSpecV2, { description: 'every spec of the product type, ordered by attributeSpecId' }),
});

export const ProductTypeParams = Type.Object({
  productTypeId: Type.String({ minLength: 1, description: 'the product type (URL-encode it)' }),
});

export const AttributeSpecParams = Type.Object({
  productTypeId: Type.String({ minLength: 1, description: 'the product type (URL-encode it)' }),
  attributeSpecId: Type.String({ minLength: 1, description: 'the attribute spec (URL-encode it)' }),
});

export const Empty = Type.Object({});
