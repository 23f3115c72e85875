import { Type, type Static } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { requestReturn } from '../../../domain/orders/returns.js';
import { SalesOrderV1 } from '../../schemas/sales-orders-v1.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { changeOrder } from './operator.js';
import { LineItemId, OrderParams, TAGS, lineIdOf } from './schemas.js';

export const RequestReturnBody = Type.Object(
  {
    channelReturnId: Type.Optional(Type.String({ maxLength: 200, description: 'the channel\'s return id; a repeat on the same order is a replay' })),
    items: Type.Array(
      Type.Object(
        {
          lineItemId: LineItemId,
          quantity: Type.Integer({ minimum: 1 }),
          refundAmount: Type.Optional(Type.Union([Type.String(), Type.Number()], { description: 'decimal; shown on the return item' })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 500 },
    ),
  },
  { additionalProperties: false, examples: [{ channelReturnId: 'R-1', items: [{ lineItemId: '12', quantity: 1, refundAmount: '9.99' }] }] },
);

export function registerAdminRequestReturn(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/orders/:orderNumber/returns',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Record a return request',
        description:
          'Records a return of shipped units (more than a line shipped, counting its other returns, is a 400). ' +
          'The order lists the return in returnOrders (originalQuantity is the line\'s ordered quantity). It becomes ' +
          'RETURN_REQUESTED once no unit is owed; while units are owed its status stays as it was (a fully shipped ' +
          'line shows RETURN_REQUESTED). The same channelReturnId again changes nothing. Answers the order (v1 shape).',
        params: OrderParams,
        body: RequestReturnBody,
        response: adminResponses({ 200: SalesOrderV1 }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, orderNumber } = request.params;
      const body: Static<typeof RequestReturnBody> = request.body;
      const now = deps.clock.now();
      const items = body.items.map((i) => ({ lineId: lineIdOf(i.lineItemId), quantity: i.quantity, refundAmount: i.refundAmount }));
      return withTx(deps.db.db, (tx) =>
        changeOrder(tx, accountId, orderNumber, (orderId) =>
          requestReturn(tx, accountId, orderId, { channelReturnId: body.channelReturnId, items }, now),
        ),
      );
    },
  );
}
