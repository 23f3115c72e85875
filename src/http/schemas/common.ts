import { Type, type StringOptions, type TSchema } from '@sinclair/typebox';
import { closedObjects } from './closed.js';
import { MAX_FREE_TEXT_LENGTH, MAX_ID_LENGTH, MAX_NAME_LENGTH, MAX_SKU_LENGTH, NO_CONTROL_CHARACTERS } from '../../domain/text-limits.js';

/** v1 error body (document 7.1, resolutions §0). */
export const V1Error = Type.Object(
  {
    errorCode: Type.Integer({ description: 'repeats the HTTP status' }),
    errorMessages: Type.Array(Type.String(), { description: 'one message per problem' }),
    referenceId: Type.String({ description: 'request id; also in X-Request-Id and the service log' }),
    errorMessage: Type.Optional(Type.String({ description: 'only on 5xx' })),
  },
  {
    $id: 'V1Error',
    examples: [
      {
        errorCode: 400,
        errorMessages: ['items[0].quantity: must be >= 0'],
        referenceId: '1f0c7b8e-6a6e-4a55-9d0f-3f3c2f1a9b10',
      },
    ],
  },
);

/** v2 error body: google.rpc.Status (document 7.2, resolutions §0). */
export const V2Error = Type.Object(
  {
    code: Type.Integer({ description: 'google.rpc.Code number' }),
    message: Type.String(),
    details: Type.Array(
      Type.Object(
        {
          '@type': Type.String(),
          fieldViolations: Type.Optional(
            Type.Array(Type.Object({ field: Type.String(), description: Type.String() })),
          ),
        },
        { additionalProperties: true },
      ),
    ),
  },
  {
    $id: 'V2Error',
    examples: [
      {
        code: 3,
        message: 'updates: must NOT have more than 100 items',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [{ field: 'updates', description: 'must NOT have more than 100 items' }],
          },
        ],
      },
    ],
  },
);

const V1_DESCRIPTIONS: Record<number, string> = {
  400: 'invalid input; errorMessages lists each problem',
  401: 'missing, invalid or revoked access token',
  403: 'the token lacks a needed scope or is not allowed here',
  404: 'not found in this account',
  409: 'conflicting request (Idempotency-Key reused with another body)',
  413: 'request body too large',
  429: 'rate limited; see Retry-After',
};

const V2_DESCRIPTIONS: Record<number, string> = {
  400: 'INVALID_ARGUMENT (3) or FAILED_PRECONDITION (9)',
  401: 'UNAUTHENTICATED (16)',
  403: 'PERMISSION_DENIED (7)',
  404: 'NOT_FOUND (5)',
  409: 'ABORTED (10): Idempotency-Key reused with another body',
  413: 'body too large',
  429: 'RESOURCE_EXHAUSTED (8); see Retry-After',
};

// Any route that reads or writes the database can answer it (resolutions §7 "Operation").
const UNAVAILABLE_DESCRIPTION = 'the database is unreachable for now; retry after the Retry-After header\'s seconds';

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429;
const DEFAULT_ERRORS: ErrorStatus[] = [400, 401, 403, 429];

/** Response map for a v1 route: the success schemas plus the error statuses it can return. */
export function v1Responses(success: Record<number, TSchema>, errors: ErrorStatus[] = DEFAULT_ERRORS) {
  const out: Record<number, TSchema> = { ...success };
  for (const status of errors) out[status] = Type.Ref(V1Error, { description: V1_DESCRIPTIONS[status] });
  out[500] = Type.Ref(V1Error, { description: 'service error' });
  out[503] = Type.Ref(V1Error, { description: UNAVAILABLE_DESCRIPTION });
  return out;
}

/**
 * Response map for a v2 route: the success schemas, closed (no field beyond the production message; see
 * closed.ts), plus the error statuses it can return as google.rpc.Status.
 */
export function v2Responses(success: Record<number, TSchema>, errors: ErrorStatus[] = DEFAULT_ERRORS) {
  const out: Record<number, TSchema> = {};
  for (const [status, schema] of Object.entries(success)) out[Number(status)] = closedObjects(schema);
  for (const status of errors) out[status] = Type.Ref(V2Error, { description: V2_DESCRIPTIONS[status] });
  out[500] = Type.Ref(V2Error, { description: 'INTERNAL (13)' });
  out[503] = Type.Ref(V2Error, { description: `UNAVAILABLE (14): ${UNAVAILABLE_DESCRIPTION}` });
  return out;
}

/** RFC 3339 timestamp input; the zone is checked in the handler so the message can say what is wrong. */
export const TimestampInput = Type.String({ description: 'RFC 3339 with a time zone, e.g. 2026-11-21T22:13:08Z' });

export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-21T22:13:08.123Z'] });

/** int64 on input: a JSON string or number (resolutions §0). */
export const Int64Input = Type.Union([Type.String({ pattern: '^-?\\d+$' }), Type.Integer()]);

export const V1Pagination = Type.Object({
  hasNext: Type.Boolean(),
  nextToken: Type.String({ description: 'absolute URL of the next page; "" on the last page' }),
});

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * String limits (resolutions §7, src/domain/text-limits.ts) as schema types. Over a limit the request is a
 * 400 naming the field (src/http/validation.ts) and nothing is stored.
 */
/** NO_CONTROL_CHARACTERS: the error renderer names this rule. */
export { MAX_FREE_TEXT_LENGTH, MAX_ID_LENGTH, MAX_NAME_LENGTH, MAX_SKU_LENGTH, NO_CONTROL_CHARACTERS };

/** The SKU rules without the lower bound, for inputs whose emptiness the handler judges itself. */
export const SKU_RULES = { maxLength: MAX_SKU_LENGTH, pattern: NO_CONTROL_CHARACTERS };

/** A SKU in a body, a path or a query parameter. */
export const Sku = (options: StringOptions = {}) => Type.String({ minLength: 1, ...SKU_RULES, ...options });

/**
 * A SKU in a proto3 JSON batch entry, where null or "" count as absent and are judged per entry by the
 * handler (success false), while a value over the limits fails the whole request. One `type` list rather
 * than a union, so a problem gets one message.
 */
export const OptionalSkuInput = (description: string) =>
  Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], ...SKU_RULES, description }));

/** Length-limited strings: an id (255), a name or title (1,000), free text (64 KiB). */
export const IdText = (options: StringOptions = {}) => Type.String({ maxLength: MAX_ID_LENGTH, ...options });
export const NameText = (options: StringOptions = {}) => Type.String({ maxLength: MAX_NAME_LENGTH, ...options });
export const FreeText = (options: StringOptions = {}) => Type.String({ maxLength: MAX_FREE_TEXT_LENGTH, ...options });

/** The same limits on proto3 JSON inputs that may be null (v2 bodies). */
const nullableText = (maxLength: number) => (description: string) =>
  Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength, description }));
export const OptionalIdInput = nullableText(MAX_ID_LENGTH);
export const OptionalNameInput = nullableText(MAX_NAME_LENGTH);
export const OptionalFreeTextInput = nullableText(MAX_FREE_TEXT_LENGTH);
