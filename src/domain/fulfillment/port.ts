import type { FulfillmentPort } from '../orders/fulfillment-port.js';
import { pullBackFromFulfillment } from './pull-back.js';
import { prepareFulfillmentSync, syncFulfillmentOrders } from './sync.js';

/** The fulfillment side of order changes, handed to the orders area by the edges (routes and jobs). */
export const fulfillmentPort: FulfillmentPort = {
  pullBack: pullBackFromFulfillment,
  syncOrder: syncFulfillmentOrders,
  prepareSync: prepareFulfillmentSync,
};
