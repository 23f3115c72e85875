import { Type, type Static } from '@sinclair/typebox';
import { ALERT_TYPES, FULFILLMENT_ORDER_STATUSES, REJECTION_REASONS } from '../../domain/fulfillment/model.js';
import { CANCELLATION_REASONS } from '../../domain/orders/fulfillment-port.js';
import { Nullable, OptionalFreeTextInput, OptionalIdInput, OptionalNameInput, Timestamp } from './common.js';
import { ProtoEnum } from './proto-enum.js';

/**
 * v2 shipping shapes (document 2.18, 4.8; resolutions §4). Inputs accept camelCase and snake_case field
 * names (resolutions §0); the handlers pick whichever spelling was sent and check values per entry (an
 * entry failure is success false). Enums are names or numbers, read by ProtoEnum: an unknown one fails the
 * whole request, as protojson does (resolutions §7). Outputs are camelCase; int32 quantities are JSON numbers.
 */

export const MAX_BATCH = 100;
/** Lines one entry may list: more than any order has, small enough that a bad body is refused at once. */
export const MAX_ENTRY_LINES = 1000;
const batch = <T extends ReturnType<typeof Type.Object>>(item: T, what: string) =>
  Type.Array(item, { minItems: 1, maxItems: MAX_BATCH, description: `1 to ${MAX_BATCH} ${what}; each succeeds or fails on its own` });

// Ids and short values (255 characters) and free text (64 KiB), resolutions §7; null counts as absent.
const Text = OptionalIdInput;
const LongText = OptionalFreeTextInput;
const IdInput = (description: string) => Type.Optional(Type.Unsafe<string | number | null>({ type: ['string', 'number', 'null'], description }));
const LinesInput = (description: string) =>
  Type.Optional(
    Type.Union(
      [
        Type.Array(
          Type.Object(
            {
              lineItemId: IdInput('lineItemId of the fulfillment order line (a SKU is not accepted)'),
              line_item_id: IdInput('snake_case alias of lineItemId'),
              quantity: Type.Optional(Type.Unsafe<number | string | null>({ type: ['integer', 'string', 'null'], description: 'int32, at least 1' })),
            },
            { additionalProperties: true },
          ),
          { maxItems: MAX_ENTRY_LINES },
        ),
        Type.Null(),
      ],
      { description },
    ),
  );

export const Money = Type.Object({
  amount: Type.String({ description: 'decimal string with at least two decimals ("13.00", "0.00"), more only when the value has more; negative for a credit' }),
  currencyCode: Type.String({ description: 'ISO 4217' }),
});
const MoneyInput = Type.Optional(
  Type.Union([Type.Object({ amount: Type.Optional(Type.Unsafe<string | number>({ type: ['string', 'number'] })), currencyCode: Type.Optional(Type.String()), currency_code: Type.Optional(Type.String()) }, { additionalProperties: true }), Type.Null()]),
);

export const PageQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page; empty or absent for the first page' })),
    pageSize: Type.Optional(Type.Integer({ description: 'default 50 (also for 0 or negative); values above 500 are lowered to 500' })),
    page_size: Type.Optional(Type.Integer({ description: 'snake_case alias of pageSize' })),
  },
  { additionalProperties: true },
);

export const FulfillmentLine = Type.Object({
  lineItemId: Type.String({ description: 'stable; echo it back on shipments (one SKU can appear on two lines)' }),
  sku: Type.String(),
  title: Type.String({ description: 'display only' }),
  quantity: Type.Integer({ description: 'units routed to this warehouse and still owed' }),
  shippedQuantity: Type.Integer({ description: 'always 0' }),
  cancelledQuantity: Type.Integer({ description: 'always 0' }),
  unitPrice: Money,
  tax: Money,
});

export const Alert = Type.Object({
  fulfillmentOrderId: Type.String(),
  type: Type.String({ enum: [...ALERT_TYPES] }),
  message: Type.String(),
  lineItemId: Type.String({ description: '"" when the alert is about the whole order' }),
});

export const ShipTo = Type.Object({
  name: Type.String(),
  company: Type.String(),
  line1: Type.String(),
  line2: Type.String(),
  city: Type.String(),
  region: Type.String(),
  postalCode: Type.String(),
  country: Type.String(),
  phone: Type.String(),
  email: Type.String(),
});

export const FulfillmentOrder = Type.Object(
  {
    fulfillmentOrderId: Type.String({ description: 'the handle for every write' }),
    orderNumber: Type.String({ description: 'display and correlation only; not accepted on any write' }),
    externalOrderId: Type.String({ description: 'your id, set by acknowledge; "" before' }),
    status: Type.String({ enum: [...FULFILLMENT_ORDER_STATUSES], description: 'informational only; do not drive behaviour from it' }),
    warehouseUniqueId: Type.String(),
    orderedTs: Timestamp,
    assignedTs: Timestamp,
    lastUpdatedTs: Timestamp,
    shipByTs: Nullable({ ...Timestamp, description: 'never populated: null, as the production gateway writes an unset Timestamp' }),
    shipTo: Type.Optional(ShipTo),
    requestedServiceLevel: Type.String(),
    buyerName: Type.String(),
    giftMessage: Type.String(),
    lines: Type.Array(FulfillmentLine),
    openAlerts: Type.Array(Alert),
    shippingPrice: Money,
    shippingTax: Money,
    discount: Money,
    totalPayment: Money,
  },
  { description: 'document 2.18; shipByTs is never populated (null); shipTo is absent when no address was captured' },
);

export const NeedToShipResponse = Type.Object({
  orders: Type.Array(FulfillmentOrder),
  nextCursor: Type.String({ description: '"" on the last page' }),
});

export const NeedToCancelResponse = Type.Object({
  cancellations: Type.Array(
    Type.Object({
      fulfillmentOrderId: Type.String(),
      externalOrderId: Type.String(),
      orderNumber: Type.String(),
      warehouseUniqueId: Type.String(),
      reason: Type.String({ enum: ['CANCELLATION_REASON_UNSPECIFIED', ...CANCELLATION_REASONS] }),
      lines: Type.Array(Type.Object({ lineItemId: Type.String(), sku: Type.String(), quantity: Type.Integer() })),
      requestedTs: Timestamp,
    }),
  ),
  nextCursor: Type.String({ description: '"" on the last page' }),
});

export const GetFulfillmentOrderQuery = Type.Object(
  {
    fulfillmentOrderId: Type.Optional(Type.String()),
    fulfillment_order_id: Type.Optional(Type.String()),
    externalOrderId: Type.Optional(Type.String()),
    external_order_id: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
export const GetFulfillmentOrderResponse = FulfillmentOrder;

const FoId = IdInput('fulfillmentOrderId');
const FoIdSnake = IdInput('snake_case alias of fulfillmentOrderId');

export const AcknowledgeBody = Type.Object(
  {
    acknowledgements: batch(
      Type.Object(
        {
          fulfillmentOrderId: FoId,
          fulfillment_order_id: FoIdSnake,
          externalOrderId: Text('your id for the order; unique within your integration'),
          external_order_id: Text('snake_case alias of externalOrderId'),
        },
        { additionalProperties: true },
      ),
      'acknowledgements',
    ),
  },
  { additionalProperties: true, examples: [{ acknowledgements: [{ fulfillmentOrderId: '17', externalOrderId: 'WMS-88812' }] }] },
);
export type AcknowledgeBody = Static<typeof AcknowledgeBody>;

export const ShipmentsBody = Type.Object(
  {
    shipments: batch(
      Type.Object(
        {
          fulfillmentOrderId: FoId,
          fulfillment_order_id: FoIdSnake,
          externalShipmentId: Text('your id for the shipment: the replay key'),
          external_shipment_id: Text('snake_case alias of externalShipmentId'),
          carrier: OptionalNameInput('carrier name'),
          trackingNumber: Text('required'),
          tracking_number: Text('snake_case alias of trackingNumber'),
          trackingUrl: LongText('tracking page URL; stored with the package, not shown by any read'),
          tracking_url: LongText('snake_case alias of trackingUrl'),
          serviceLevel: OptionalNameInput('required'),
          service_level: OptionalNameInput('snake_case alias of serviceLevel'),
          shippedTs: Text('RFC 3339 with a time zone; default now'),
          shipped_ts: Text('snake_case alias of shippedTs'),
          lines: LinesInput('omit (or send []) to ship everything still owed'),
          shippingCost: MoneyInput,
          shipping_cost: MoneyInput,
          handlingCost: MoneyInput,
          handling_cost: MoneyInput,
        },
        { additionalProperties: true },
      ),
      'shipments',
    ),
  },
  { additionalProperties: true, examples: [{ shipments: [{ fulfillmentOrderId: '17', externalShipmentId: 'SHP-5521', carrier: 'UPS', trackingNumber: '1Z999AA10123456784', serviceLevel: 'Ground', shippedTs: '2026-11-21T15:00:00Z', lines: [{ lineItemId: '311', quantity: 2 }] }] }] },
);
export type ShipmentsBody = Static<typeof ShipmentsBody>;

export const ConfirmCancellationsBody = Type.Object(
  {
    confirmations: batch(
      Type.Object(
        {
          fulfillmentOrderId: FoId,
          fulfillment_order_id: FoIdSnake,
          lines: LinesInput('unsupported: any line fails the entry; omit to confirm the whole request'),
          alreadyShipped: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
          already_shipped: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
        },
        { additionalProperties: true },
      ),
      'confirmations',
    ),
  },
  { additionalProperties: true, examples: [{ confirmations: [{ fulfillmentOrderId: '17' }] }] },
);
export type ConfirmCancellationsBody = Static<typeof ConfirmCancellationsBody>;

export const RejectBody = Type.Object(
  {
    rejections: batch(
      Type.Object(
        {
          fulfillmentOrderId: FoId,
          fulfillment_order_id: FoIdSnake,
          reason: ProtoEnum(REJECTION_REASONS, 'required: REJECTION_REASON_UNSPECIFIED (or absent) fails the entry'),
          detail: LongText('free text shown to the seller with the reason; required with REJECTION_REASON_OTHER'),
          lines: LinesInput('unsupported: any line fails the entry; omit to decline the whole order'),
        },
        { additionalProperties: true },
      ),
      'rejections',
    ),
  },
  { additionalProperties: true, examples: [{ rejections: [{ fulfillmentOrderId: '17', reason: 'REJECTION_REASON_OUT_OF_STOCK', detail: '2 units short of MUG-RED' }] }] },
);
export type RejectBody = Static<typeof RejectBody>;

export const AlertsBody = Type.Object(
  {
    alerts: batch(
      Type.Object(
        {
          fulfillmentOrderId: FoId,
          fulfillment_order_id: FoIdSnake,
          type: ProtoEnum(ALERT_TYPES, 'ALERT_TYPE_UNSPECIFIED (or absent) fails the entry'),
          message: LongText('shown to the seller'),
          lineItemId: IdInput('optional: scopes the alert to one line'),
          line_item_id: IdInput('snake_case alias of lineItemId'),
        },
        { additionalProperties: true },
      ),
      'alerts',
    ),
  },
  { additionalProperties: true, examples: [{ alerts: [{ fulfillmentOrderId: '17', type: 'ALERT_TYPE_LATE_SHIPMENT', message: 'Carrier pickup missed; ships tomorrow' }] }] },
);
export type AlertsBody = Static<typeof AlertsBody>;

export const ResolveAlertsBody = Type.Object(
  {
    resolutions: batch(
      Type.Object(
        {
          fulfillmentOrderId: FoId,
          fulfillment_order_id: FoIdSnake,
          type: ProtoEnum(ALERT_TYPES, 'the type of your open alert to close; ALERT_TYPE_UNSPECIFIED (or absent) fails the entry'),
          resolution: LongText('stored with the alert and shown to the seller'),
        },
        { additionalProperties: true },
      ),
      'resolutions',
    ),
  },
  { additionalProperties: true, examples: [{ resolutions: [{ fulfillmentOrderId: '17', type: 'ALERT_TYPE_LATE_SHIPMENT', resolution: 'Picked up this morning' }] }] },
);
export type ResolveAlertsBody = Static<typeof ResolveAlertsBody>;

const baseResult = {
  fulfillmentOrderId: Type.String(),
  success: Type.Boolean(),
  errorMessage: Type.String({ description: '"" on success' }),
};

export const AcknowledgeResponse = Type.Object({
  results: Type.Array(Type.Object({ ...baseResult, alreadyAcknowledged: Type.Boolean() })),
});
export const ShipmentsResponse = Type.Object({
  results: Type.Array(Type.Object({ fulfillmentOrderId: Type.String(), externalShipmentId: Type.String(), success: Type.Boolean(), errorMessage: Type.String(), alreadyRecorded: Type.Boolean() })),
});
export const ConfirmCancellationsResponse = Type.Object({
  results: Type.Array(Type.Object({ ...baseResult, alreadyRecorded: Type.Boolean() })),
});
export const RejectResponse = Type.Object({ results: Type.Array(Type.Object(baseResult)) });
// Results answer the enum name even when the entry sent the number (resolutions §7).
const AlertTypeName = Type.String({ enum: [...ALERT_TYPES], description: 'the enum name, whatever form the entry used' });

export const AlertsResponse = Type.Object({
  results: Type.Array(Type.Object({ fulfillmentOrderId: Type.String(), type: AlertTypeName, success: Type.Boolean(), errorMessage: Type.String(), alreadyOpen: Type.Boolean() })),
});
export const ResolveAlertsResponse = Type.Object({
  results: Type.Array(Type.Object({ fulfillmentOrderId: Type.String(), type: AlertTypeName, success: Type.Boolean(), errorMessage: Type.String(), alreadyResolved: Type.Boolean() })),
});
