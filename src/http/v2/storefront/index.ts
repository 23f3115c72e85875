import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerGetStorefrontOrder } from './get-order.js';
import { registerListShippedOrders } from './list-shipped-orders.js';
import { registerStorefrontCancelOrder } from './orders/cancel-order.js';

/**
 * v2 storefront routes (document 4.7, resolutions §4) for sales-channel tokens: no scope is enforced, the
 * token must be bound to a storefront, and every route acts for that storefront only.
 */
export function registerV2StorefrontRoutes(app: App, deps: Deps): void {
  registerListShippedOrders(app, deps);
  registerGetStorefrontOrder(app, deps);
  registerStorefrontCancelOrder(app, deps);
}
