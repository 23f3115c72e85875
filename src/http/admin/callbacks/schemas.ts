import { Type, type TSchema } from '@sinclair/typebox';
import { CALLBACK_KINDS, DELIVERY_STATES, type CallbackKind, type DeliveryState } from '../../../domain/callbacks/deliveries.js';
import { CHECK_STATES } from '../../../domain/callbacks/status-checks.js';
import { Nullable, Timestamp, V1Error } from '../../schemas/common.js';
import { Id, adminResponses } from '../schemas.js';

/** Shapes of the callback triggers and the delivery log (docs/operators/callbacks.md). */

export const StorefrontParams = Type.Object({ accountId: Id('account id'), storefrontId: Id('storefront id (its installation id)') });
export const DeliveryParams = Type.Object({
  deliveryId: Type.String({ minLength: 1, maxLength: 64, description: 'the delivery id (a UUID, sent as X-Service-Delivery-Id)' }),
});

export const DeliveryStateSchema = Type.Unsafe<DeliveryState>({
  type: 'string',
  enum: [...DELIVERY_STATES],
  description: 'PENDING (next attempt queued), SUCCEEDED (the partner answered 200), DEAD (schedule exhausted or target refused; replayable)',
});
const KindSchema = Type.Unsafe<CallbackKind>({
  type: 'string',
  enum: [...CALLBACK_KINDS],
  description: 'INITIATE_INGESTION (POST /ingestion/initiate), STOREFRONT_STATUS (GET /v2/storefront/status/{id}), DELETE_CONFIGURATION (DELETE /v2/storefront/configuration/{id})',
});

export const DeliveryAccepted = Type.Object(
  { deliveryId: Type.String({ description: 'the delivery id; follow it at GET /admin/deliveries/{deliveryId}' }) },
  { examples: [{ deliveryId: '0b8f7a52-6a4e-4d1c-9a57-2f0e3c1d9b11' }] },
);

const EXAMPLE_DELIVERY = {
  deliveryId: '0b8f7a52-6a4e-4d1c-9a57-2f0e3c1d9b11',
  accountId: 1,
  appId: 3,
  storefrontId: 7,
  kind: 'INITIATE_INGESTION',
  method: 'POST',
  path: '/ingestion/initiate',
  body: { storefrontId: '7', skus: [], autoApplyIngestionPlan: false },
  state: 'PENDING',
  attempts: 1,
  nextAttemptAt: '2026-11-21T22:13:13.123Z',
  lastStatus: 503,
  lastError: 'HTTP 503: code 13: channel API unanswered',
  createdAt: '2026-11-21T22:13:08.000Z',
  updatedAt: '2026-11-21T22:13:08.123Z',
  deliveredAt: null,
};

const deliveryProperties = {
  deliveryId: Type.String(),
  accountId: Type.Integer(),
  appId: Type.Integer(),
  storefrontId: Nullable(Type.Integer()),
  kind: KindSchema,
  method: Type.Unsafe<'POST' | 'GET' | 'DELETE'>({ type: 'string', enum: ['POST', 'GET', 'DELETE'] }),
  path: Type.String({ description: "appended to the app's callback base URL at each attempt" }),
  body: Type.Unknown({ description: 'the JSON body (POST), else null' }),
  state: DeliveryStateSchema,
  attempts: Type.Integer({ description: 'attempts made so far (replays keep counting)' }),
  nextAttemptAt: Nullable(Timestamp),
  lastStatus: Nullable(Type.Integer({ description: 'HTTP status of the last attempt; null when no response came' })),
  lastError: Nullable(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  deliveredAt: Nullable(Timestamp),
};

export const DeliveryView = Type.Object(deliveryProperties, { examples: [EXAMPLE_DELIVERY] });

export const DeliveryAttemptView = Type.Object({
  attempt: Type.Integer(),
  outcome: Type.Unsafe<'SUCCEEDED' | 'FAILED'>({ type: 'string', enum: ['SUCCEEDED', 'FAILED'] }),
  url: Type.String({ description: 'the URL called ("" when the app had no callback base URL)' }),
  httpStatus: Nullable(Type.Integer()),
  latencyMs: Type.Integer(),
  error: Nullable(Type.String()),
  responseBody: Type.String({ description: 'the response body, at most 16 KiB' }),
  startedAt: Timestamp,
  finishedAt: Timestamp,
});

export const DeliveryDetailView = Type.Object({ ...deliveryProperties, attemptLog: Type.Array(DeliveryAttemptView, { description: 'attempts, oldest first' }) });

export const ListDeliveriesQuery = Type.Object({
  accountId: Type.Optional(Id('only deliveries of this account')),
  appId: Type.Optional(Id('only deliveries to this app')),
  storefrontId: Type.Optional(Id('only deliveries about this storefront')),
  state: Type.Optional(DeliveryStateSchema),
  kind: Type.Optional(KindSchema),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50, description: 'deliveries per page (1 to 500)' })),
  cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page; repeat the same filters' })),
});

export const DeliveryList = Type.Object(
  { results: Type.Array(DeliveryView), nextCursor: Type.String({ description: 'pass as cursor for the next page; "" on the last page' }) },
  { examples: [{ results: [EXAMPLE_DELIVERY], nextCursor: '' }] },
);

export const StatusCheckView = Type.Object(
  {
    checks: Type.Array(
      Type.Object({
        name: Type.String(),
        state: Type.Unsafe<string>({ type: 'string', enum: [...CHECK_STATES] }),
        stateShortDescription: Type.String(),
        details: Type.String(),
      }),
      { description: "the partner's checks (document 2.20)" },
    ),
    checkedAt: Timestamp,
    deliveryId: Type.String({ description: 'the delivery logging this call' }),
  },
  {
    examples: [
      {
        checks: [{ name: 'API credentials', state: 'CHECK_STATE_PASS', stateShortDescription: 'valid', details: '' }],
        checkedAt: '2026-11-21T22:13:08.456Z',
        deliveryId: '5d0c…',
      },
    ],
  },
);

export const LastStatusCheckView = StatusCheckView;

/** adminResponses plus this area's own wording, and 502 when a synchronous partner call failed. */
export function callbackResponses(success: Record<number, TSchema>, errors: (400 | 401 | 404 | 409)[], conflicts?: string, badGateway?: string) {
  const out = adminResponses(success, errors, conflicts);
  if (errors.includes(404)) out[404] = Type.Ref(V1Error, { description: 'no such account, storefront or delivery' });
  if (badGateway) out[502] = Type.Ref(V1Error, { description: badGateway });
  return out;
}
