import { Type, type Static } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { recordRefund } from '../../../domain/orders/returns-refund.js';
import { SalesOrderV1 } from '../../schemas/sales-orders-v1.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { changeOrder } from './operator.js';
import { LineItemId, OrderParams, TAGS, lineIdOf } from './schemas.js';

export const RecordRefundBody = Type.Object(
  {
    lineItemId: Type.Optional(LineItemId),
    amount: Type.String({ pattern: '^\\d+(\\.\\d+)?$', description: 'decimal string greater than zero, e.g. "12.50"' }),
    reason: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false, examples: [{ lineItemId: '12', amount: '12.50', reason: 'damaged in transit' }] },
);

export function registerAdminRecordRefund(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/orders/:orderNumber/refunds',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Record a refund',
        description:
          'With lineItemId: adds the amount to the line\'s refund and sets its refundReason. Without: adds it to ' +
          'the order-level refund. The order\'s accounting.refund shows its refund total (order-level plus every ' +
          'line\'s refund). The order becomes REFUNDED only once no unit is owed and that total reaches the order\'s ' +
          'total (accounting.payment, else the lines\' quantity × unitPrice); a line likewise against its own total. ' +
          'A partial refund, or one on an order still owing units, leaves the status as it was. Answers the order.',
        params: OrderParams,
        body: RecordRefundBody,
        response: adminResponses({ 200: SalesOrderV1 }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, orderNumber } = request.params;
      const body: Static<typeof RecordRefundBody> = request.body;
      const now = deps.clock.now();
      const input = { amount: body.amount, reason: body.reason, lineId: body.lineItemId === undefined ? undefined : lineIdOf(body.lineItemId) };
      return withTx(deps.db.db, (tx) => changeOrder(tx, accountId, orderNumber, (orderId) => recordRefund(tx, accountId, orderId, input, now)));
    },
  );
}
