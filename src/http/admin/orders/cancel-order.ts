import { Type, type Static } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { cancelOrderUnits, MAX_CANCEL_LINES } from '../../../domain/orders/cancel.js';
import { invalidField } from '../../../domain/errors.js';
import { SalesOrderV1 } from '../../schemas/sales-orders-v1.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { changeOrder } from './operator.js';
import { LineItemId, OrderParams, TAGS, lineIdOf } from './schemas.js';
import { fulfillmentPort } from '../../../domain/fulfillment/port.js';

export const CancelOrderBody = Type.Object(
  {
    reason: Type.String({ minLength: 1, description: 'stored as the order\'s cancellationReason (free text)' }),
    lineItems: Type.Optional(
      Type.Array(Type.Object({ lineItemId: LineItemId, quantity: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }), {
        minItems: 1,
        maxItems: MAX_CANCEL_LINES,
        description: 'omit to cancel every unit not shipped',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ reason: 'customer called', lineItems: [{ lineItemId: '12', quantity: 1 }] }] },
);

export function registerAdminCancelOrder(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/orders/:orderNumber/cancel',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Cancel a sales order as the seller',
        description:
          'The seller\'s cancel: every unit not shipped, or the given units per line. Reserved stock goes back to ' +
          'available; acknowledged fulfillment work gets a CANCELLATION_REASON_MERCHANT_CANCELLED request in ' +
          'need_to_cancel. More than a line has left (or shipped units) is a 400 and changes nothing. Answers the ' +
          'order (v1 shape).',
        params: OrderParams,
        body: CancelOrderBody,
        response: adminResponses({ 200: SalesOrderV1 }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, orderNumber } = request.params;
      const body: Static<typeof CancelOrderBody> = request.body;
      const reason = body.reason.trim();
      if (reason === '') throw invalidField('reason', 'must not be empty');
      const now = deps.clock.now();
      return withTx(deps.db.db, (tx) =>
        changeOrder(tx, accountId, orderNumber, (orderId) =>
          cancelOrderUnits(tx, {
            accountId,
            orderId,
            lines: body.lineItems?.map((l) => ({ lineId: lineIdOf(l.lineItemId), quantity: l.quantity })) ?? null,
            reason,
            fulfillmentReason: 'CANCELLATION_REASON_MERCHANT_CANCELLED',
            linesField: 'lineItems',
            now,
            fulfillment: fulfillmentPort,
          }),
        ),
      );
    },
  );
}
