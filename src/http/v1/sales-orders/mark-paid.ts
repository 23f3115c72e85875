import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { markOrderPaid } from '../../../domain/orders/order-actions.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { OrderNumberParams, SalesOrderV1 } from '../../schemas/sales-orders-v1.js';
import { V1_SALES_ORDER_ROUTE_CONFIG } from './route-config.js';

export function registerMarkPaid(app: App, deps: Deps) {
  app.post(
    '/v1/salesOrder/markPaid/:orderNumber',
    {
      config: V1_SALES_ORDER_ROUTE_CONFIG,
      schema: {
        tags: ['v1 sales orders'],
        summary: 'Mark a sales order paid',
        description:
          'PENDING_PAYMENT → PENDING (the order and its lines; the reservations stay). An order already PENDING ' +
          'answers 200 unchanged; any other status is a 400. No body. Answers the order.',
        params: OrderNumberParams,
        response: v1Responses({ 200: SalesOrderV1 }, [400, 401, 403, 404, 409, 429]),
      },
    },
    async (request) =>
      withTx(deps.db.db, (tx) => markOrderPaid(tx, principalOf(request), request.params.orderNumber, deps.clock.now())),
  );
}
