import { Type, type TSchema } from '@sinclair/typebox';

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

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429;
const DEFAULT_ERRORS: ErrorStatus[] = [400, 401, 403, 429];

/** Response map for a v1 route: the success schemas plus the error statuses it can return. */
export function v1Responses(success: Record<number, TSchema>, errors: ErrorStatus[] = DEFAULT_ERRORS) {
  const out: Record<number, TSchema> = { ...success };
  for (const status of errors) out[status] = Type.Ref(V1Error, { description: V1_DESCRIPTIONS[status] });
  out[500] = Type.Ref(V1Error, { description: 'service error' });
  return out;
}

export function v2Responses(success: Record<number, TSchema>, errors: ErrorStatus[] = DEFAULT_ERRORS) {
  const out: Record<number, TSchema> = { ...success };
  for (const status of errors) out[status] = Type.Ref(V2Error, { description: V2_DESCRIPTIONS[status] });
  out[500] = Type.Ref(V2Error, { description: 'INTERNAL (13)' });
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
