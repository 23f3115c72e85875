import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerAcceptOrder } from './accept-order.js';
import { registerCancelOrder } from './cancel-order.js';
import { registerConfirmStatus } from './confirm-status.js';
import { registerCreateOrder } from './create-order.js';
import { registerCreateShipments } from './create-shipments.js';
import { registerGetOrder } from './get-order.js';
import { registerListOrders } from './list-orders.js';
import { registerMarkPaid } from './mark-paid.js';

/** v1 sales orders (document 4.6, resolutions §3); one file per operation beside this one. */
export function registerV1SalesOrderRoutes(app: App, deps: Deps): void {
  registerCreateOrder(app, deps);
  registerGetOrder(app, deps);
  registerListOrders(app, deps);
  registerAcceptOrder(app, deps);
  registerMarkPaid(app, deps);
  registerCancelOrder(app, deps);
  registerConfirmStatus(app, deps);
  registerCreateShipments(app, deps);
}
