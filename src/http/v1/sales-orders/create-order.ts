import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { createSalesOrder } from '../../../domain/orders/create-order.js';
import { principalOf } from '../../plugins/auth.js';
import { v1Responses } from '../../schemas/common.js';
import { CreateSalesOrderBody, SalesOrderV1 } from '../../schemas/sales-orders-v1.js';
import { fulfillmentPort } from '../../../domain/fulfillment/port.js';
import { V1_SALES_ORDER_ROUTE_CONFIG } from './route-config.js';

export function registerCreateOrder(app: App, deps: Deps) {
  app.post(
    '/v1/salesOrder',
    {
      config: V1_SALES_ORDER_ROUTE_CONFIG,
      schema: {
        tags: ['v1 sales orders'],
        summary: 'Create a sales order',
        description:
          'A sales-channel (storefront) token or a seller token sends an order the channel received. A storefront\'s ' +
          'orders carry its channel (the app name) and channelLabel (the storefront name); a seller token names ' +
          '`channel` (and optionally `channelLabel`) in the body, or `integrationId`, one of its custom stores ' +
          '(GET /v1/customStores; the store\'s name becomes the channel; another account\'s or an unknown id: 404; ' +
          'with a storefront token: 400). Required: `channelOrderId`, `orderTs` (with a ' +
          'time zone), `products[]` with `requestedSku` (or `sku`) and `quantity` ≥ 1. `status` is PENDING (default) ' +
          'or PENDING_PAYMENT. Addresses need name, addressLine1, city and postalCode; countryCode is optional ' +
          '(default US) and exactly 2 characters when given.\n\n' +
          'Idempotent on `channelOrderId` per channel (per custom store for integrationId): a repeat returns the stored order unchanged (200). A new ' +
          'order answers 200 with the order (the document\'s only success status). Each line with a known SKU ' +
          'reserves stock and is routed: the warehouse with the most available units (ties: lowest id), else ' +
          'split by descending availability, any remainder backordered at the default warehouse (lowest-id ' +
          'warehouse that is not channel-fulfilled). Channel-fulfilled warehouses are used only for fba or ' +
          'channelWillFulfill orders. An unknown SKU keeps `requestedSku` with `sku` null and is not routed. A ' +
          'line without `requestedServiceLevel` shows the order\'s; a line without `title` shows the catalog ' +
          'product\'s title.',
        body: CreateSalesOrderBody,
        response: v1Responses({ 200: SalesOrderV1 }, [400, 401, 403, 404, 409, 413, 429]),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const result = await withTx(deps.db.db, (tx) => createSalesOrder(tx, principal, request.body, deps.clock.now(), fulfillmentPort));
      return result.order;
    },
  );
}
