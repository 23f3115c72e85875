import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { getSalesOrder } from '../../../domain/orders/order-actions.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { OrderNumberParams, SalesOrderV1 } from '../../schemas/sales-orders-v1.js';
import { V1_SALES_ORDER_ROUTE_CONFIG } from './route-config.js';

export function registerGetOrder(app: App, deps: Deps) {
  app.get(
    '/v1/salesOrder/:orderNumber',
    {
      config: V1_SALES_ORDER_ROUTE_CONFIG,
      schema: {
        tags: ['v1 sales orders'],
        summary: 'Get a sales order',
        description:
          'The order (document 2.10). A token with legacy, sales or sales:orders sees every order of the account; ' +
          'a storefront token otherwise sees its own storefront\'s orders; a shipping, inventory or 3PL token sees ' +
          'orders with lines routed to its warehouses, showing only those lines and the quantities routed there, ' +
          'with `routing_info[].warehouseUniqueId` in its own namespace. An order of another account (or outside ' +
          'the token\'s view) is a 404.',
        params: OrderNumberParams,
        response: v1Responses({ 200: SalesOrderV1 }, [401, 403, 404, 429]),
      },
    },
    async (request) => getSalesOrder(deps.db.db, principalOf(request), request.params.orderNumber),
  );
}
