import { Type, type TOptional, type TUnsafe } from '@sinclair/typebox';
import type { FuncKeywordDefinition, SchemaValidateFunction } from 'ajv';
import { enumByNameOrNumber } from '../../lib/proto-enum.js';

/**
 * Proto enums in v2 request bodies (resolutions §0, §7 "v2 encoding"). proto3 JSON accepts an enum by its
 * name or by its number, and protojson refuses the whole message when either is unknown. One schema type
 * does all of it at validation time, so no handler ever sees a number:
 *
 * - `ProtoEnum(values, …)` marks a field with the `x-proto-enum` keyword, `values` listing the enum in proto
 *   order (index = number, UNSPECIFIED = 0);
 * - the keyword (registered on the body validator) rewrites a number to its name and `null` (proto3: unset)
 *   to the UNSPECIFIED name, and fails validation for an unknown name or number — a 400 INVALID_ARGUMENT for
 *   the whole request that names the field, before anything is changed.
 *
 * An absent field stays absent: the handler reads it as the UNSPECIFIED name (`values[0]`). Whether
 * UNSPECIFIED itself is acceptable stays the route's decision (document 7.3 rule 4 refuses it per entry).
 */

export const PROTO_ENUM_KEYWORD = 'x-proto-enum';

const validateProtoEnum: SchemaValidateFunction = (schema: readonly string[], data: unknown, _parentSchema, dataCxt) => {
  // Any other JSON type (and a fraction) is the `type` keyword's to report, once.
  if (data !== null && typeof data !== 'string' && !(typeof data === 'number' && Number.isInteger(data))) return true;
  const name = data === null ? schema[0] : enumByNameOrNumber(schema, data);
  if (name === undefined) {
    validateProtoEnum.errors = [
      {
        keyword: PROTO_ENUM_KEYWORD,
        message: `must be one of ${schema.join(', ')} (or its number, 0 to ${schema.length - 1})`,
        params: { allowedValues: schema },
      },
    ];
    return false;
  }
  // Enums are always a property (or a map value, or an array item), never the whole body.
  if (dataCxt && data !== name) dataCxt.parentData[dataCxt.parentDataProperty] = name;
  return true;
};

export const protoEnumKeyword: FuncKeywordDefinition = {
  keyword: PROTO_ENUM_KEYWORD,
  schemaType: 'array',
  modifying: true,
  errors: true,
  validate: validateProtoEnum,
};

/**
 * A proto enum value in a v2 request body (a map value, say). The static type is the name union: by the
 * time a handler runs, the keyword has replaced any number (or null) by its name.
 */
export function ProtoEnumValue<T extends string>(values: readonly T[], description: string): TUnsafe<T> {
  return Type.Unsafe<T>({
    type: ['string', 'integer', 'null'],
    [PROTO_ENUM_KEYWORD]: [...values],
    description:
      `${description}. One of ${values.join(', ')}, or its number in that order (0 to ${values.length - 1}); ` +
      'an unknown name or number fails the whole request (400).',
  });
}

/** An optional proto enum field of a v2 request body; absent means the UNSPECIFIED name (`values[0]`). */
export function ProtoEnum<T extends string>(values: readonly T[], description: string): TOptional<TUnsafe<T>> {
  return Type.Optional(ProtoEnumValue(values, description));
}
