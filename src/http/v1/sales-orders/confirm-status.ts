import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { confirmOrderStatus } from '../../../domain/orders/order-actions.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { ConfirmStatusBody, OrderNumberParams } from '../../schemas/sales-orders-v1.js';

export function registerConfirmStatus(app: App, deps: Deps) {
  app.post(
    '/v1/salesOrder/:orderNumber/confirmStatus',
    {
      config: { auth: { scopes: ['sales:orders:self'] } },
      schema: {
        tags: ['v1 sales orders'],
        summary: 'Confirm a status change started by the service',
        description:
          'The channel acknowledges that it received a status change the service started (document 6.2). It is ' +
          'recorded and changes no state: never use it to cancel or ship. `status` is an order status or ' +
          'PARTIALLY_CACNCELLED (spelled exactly so); `lineItems` are lineItemIds of the order (an unknown one is ' +
          'a 400). Answers the JSON string "OK".',
        params: OrderNumberParams,
        body: ConfirmStatusBody,
        response: v1Responses({ 200: Type.String({ examples: ['OK'] }) }, [400, 401, 403, 404, 409, 413, 429]),
      },
    },
    async (request, reply) => {
      const result = await withTx(deps.db.db, (tx) =>
        confirmOrderStatus(tx, principalOf(request), request.params.orderNumber, request.body, deps.clock.now()),
      );
      // Fastify sends a returned string as is (text/plain); the document's answer is a JSON string.
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(result));
    },
  );
}
