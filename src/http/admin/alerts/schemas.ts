import { Type } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../../schemas/common.js';
import { Id } from '../schemas.js';

export const TAGS = ['admin: alerts'];

export const AlertParams = Type.Object({
  accountId: Id('account id'),
  alertId: Id('alertId from the alert list'),
});

const EXAMPLE_ALERT = {
  alertId: 7,
  fulfillmentOrderId: '12',
  orderNumber: '1042',
  warehouseId: 1,
  type: 'ALERT_TYPE_FULFILL',
  message:
    'Rejected by the shipping integration (REJECTION_REASON_OUT_OF_STOCK). No other warehouse has stock for 2 × FA ' +
    '(line 31); these units are still held in this warehouse. Re-route or cancel them.',
  lineItemId: '31',
  raisedBy: 'SERVICE',
  raisedByInstallationId: null,
  status: 'OPEN',
  resolution: null,
  createdAt: '2026-11-21T22:13:08.123Z',
  resolvedTs: null,
};

export const AlertView = Type.Object(
  {
    alertId: Nullable(Type.Integer({ description: 'null for an UNROUTABLE_LINE alert, which is not resolved by hand' })),
    fulfillmentOrderId: Nullable(
      Type.String({ description: 'the fulfillment order (document 3.3) the alert is about; null for an UNROUTABLE_LINE alert (about the order\'s line)' }),
    ),
    orderNumber: Type.String({ description: 'the sales order' }),
    warehouseId: Nullable(
      Type.Integer({
        description:
          "the fulfillment order's warehouse; for UNROUTABLE_LINE the default warehouse the line's units count as backordered in (null when the account has none)",
      }),
    ),
    type: Type.String({
      description:
        'ALERT_TYPE_FULFILL, ALERT_TYPE_LATE_SHIPMENT, ALERT_TYPE_LOST or ALERT_TYPE_OTHER; UNROUTABLE_LINE for an order line that could not be routed',
    }),
    message: Type.String(),
    lineItemId: Nullable(Type.String({ description: 'the line it concerns, when one' })),
    raisedBy: Type.Unsafe<'SERVICE' | 'INTEGRATION'>({
      type: 'string',
      enum: ['SERVICE', 'INTEGRATION'],
      description: 'SERVICE: raised for the seller by the service; INTEGRATION: raised by a shipping/3PL partner',
    }),
    raisedByInstallationId: Nullable(Type.Integer({ description: 'the partner installation; null for SERVICE' })),
    status: Type.Unsafe<'OPEN' | 'RESOLVED'>({ type: 'string', enum: ['OPEN', 'RESOLVED'] }),
    resolution: Nullable(Type.String({ description: 'text given when it was resolved' })),
    createdAt: Timestamp,
    resolvedTs: Nullable(Timestamp),
  },
  { examples: [EXAMPLE_ALERT] },
);

export const ListAlertsQuery = Type.Object({
  status: Type.Optional(
    Type.Unsafe<'OPEN' | 'RESOLVED'>({ type: 'string', enum: ['OPEN', 'RESOLVED'], description: 'only open or only resolved alerts' }),
  ),
  orderNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'only alerts about this sales order' })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50, description: 'alerts per page (1 to 500)' })),
  cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page; repeat the same filters' })),
});

const EXAMPLE_UNROUTABLE = {
  alertId: null,
  fulfillmentOrderId: null,
  orderNumber: '1043',
  warehouseId: 1,
  type: 'UNROUTABLE_LINE',
  message:
    'Line 33: 2 × "GIFT-CARD-RED" could not be sent to a warehouse: no product in your catalog has this SKU. They count as ' +
    'backordered in Main. Add a product with this SKU and put it in stock: the line is then routed like any backorder. Or cancel these units.',
  lineItemId: '33',
  raisedBy: 'SERVICE',
  raisedByInstallationId: null,
  status: 'OPEN',
  resolution: null,
  createdAt: '2026-11-21T22:20:00.000Z',
  resolvedTs: null,
};

export const AlertList = Type.Object(
  {
    results: Type.Array(AlertView, { description: 'UNROUTABLE_LINE alerts first (newest line first), then the fulfillment alerts newest first' }),
    nextCursor: Type.String({ description: 'pass as cursor for the next page; "" on the last page' }),
  },
  { examples: [{ results: [EXAMPLE_UNROUTABLE, EXAMPLE_ALERT], nextCursor: '' }] },
);

export const ResolveBody = Type.Object(
  { resolution: Type.String({ minLength: 1, maxLength: 2000, description: 'what the seller did about it' }) },
  { additionalProperties: false, examples: [{ resolution: 'Re-routed the units to East.' }] },
);

export const ResolvedAlert = Type.Object(
  {
    alert: AlertView,
    alreadyResolved: Type.Boolean({ description: 'true when it was resolved before; the earlier resolution stays' }),
  },
  { examples: [{ alert: { ...EXAMPLE_ALERT, status: 'RESOLVED', resolution: 'Re-routed the units to East.', resolvedTs: '2026-11-21T23:00:00.000Z' }, alreadyResolved: false }] },
);
