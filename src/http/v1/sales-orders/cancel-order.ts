import { Type, type Static } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { cancelOrderV1 } from '../../../domain/orders/cancel-actions.js';
import { MAX_CANCEL_LINES } from '../../../domain/orders/cancel.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { OrderNumberParams, SalesOrderV1 } from '../../schemas/sales-orders-v1.js';
import { fulfillmentPort } from '../../../domain/fulfillment/port.js';
import { V1_SALES_ORDER_ROUTE_CONFIG } from './route-config.js';

const CancelOrderBody = Type.Object({
  cancellationReason: Type.String({
    minLength: 1,
    description:
      'For Amazon, Google, Facebook, eBay and Walmart orders one of that channel\'s reasons (case-insensitive; ' +
      'stored in the channel\'s spelling); free text for other channels.',
  }),
  lineItems: Type.Optional(
    Type.Array(
      Type.Object({
        lineItemId: Type.Union([Type.String(), Type.Integer()], { description: 'the service lineItemId' }),
        quantity: Type.Integer({ minimum: 1 }),
      }),
      { minItems: 1, maxItems: MAX_CANCEL_LINES, description: 'omit to cancel every unit not shipped' },
    ),
  ),
}, { examples: [{ cancellationReason: 'Customer changed their mind', lineItems: [{ lineItemId: '311', quantity: 1 }] }] });
type CancelOrderBody = Static<typeof CancelOrderBody>;

export function registerCancelOrder(app: App, deps: Deps) {
  app.post(
    '/v1/salesOrder/cancel/:orderNumber',
    {
      config: V1_SALES_ORDER_ROUTE_CONFIG,
      schema: {
        tags: ['v1 sales orders'],
        summary: 'Cancel a sales order, whole or by line',
        description:
          'Without `lineItems` cancels every unit not shipped; with them, the given units of each line (summed ' +
          'per line). Shipped units cannot be cancelled: asking for more than a line has unshipped and ' +
          'uncancelled is a 400 and changes nothing. Reserved stock goes back to available; work already ' +
          'acknowledged by a fulfillment partner gets a cancellation request. Cancelling a CANCELLED order ' +
          'again answers 200 unchanged; an order with nothing left to cancel (shipped) is a 400. Answers the order.',
        params: OrderNumberParams,
        body: CancelOrderBody,
        response: v1Responses({ 200: SalesOrderV1 }, [400, 401, 403, 404, 409, 429]),
      },
    },
    async (request) => {
      const body: CancelOrderBody = request.body;
      const lineItems = body.lineItems?.map((l) => ({ lineItemId: String(l.lineItemId), quantity: l.quantity }));
      return withTx(deps.db.db, (tx) =>
        cancelOrderV1(
          tx,
          principalOf(request),
          request.params.orderNumber,
          { cancellationReason: body.cancellationReason, lineItems },
          deps.clock.now(),
          fulfillmentPort,
        ),
      );
    },
  );
}
