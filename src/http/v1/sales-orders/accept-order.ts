import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { acceptOrder } from '../../../domain/orders/order-actions.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { OrderNumberParams, SalesOrderV1 } from '../../schemas/sales-orders-v1.js';
import { V1_SALES_ORDER_ROUTE_CONFIG } from './route-config.js';

export function registerAcceptOrder(app: App, deps: Deps) {
  app.post(
    '/v1/salesOrder/accept/:orderNumber',
    {
      config: V1_SALES_ORDER_ROUTE_CONFIG,
      schema: {
        tags: ['v1 sales orders'],
        summary: 'Accept a sales order',
        description:
          'Records the channel\'s acceptance of the order (`acceptedTs`, an addition to the document shape). ' +
          'Idempotent: accepting again changes nothing. A CANCELLED order cannot be accepted (400). No body. ' +
          'Answers the order.',
        params: OrderNumberParams,
        response: v1Responses({ 200: SalesOrderV1 }, [400, 401, 403, 404, 409, 429]),
      },
    },
    async (request) =>
      withTx(deps.db.db, (tx) => acceptOrder(tx, principalOf(request), request.params.orderNumber, deps.clock.now())),
  );
}
