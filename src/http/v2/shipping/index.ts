import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerAcknowledge } from './acknowledge.js';
import { registerRaiseAlerts, registerResolveAlerts } from './alerts.js';
import { registerConfirmCancellations } from './confirm-cancellations.js';
import { registerGetFulfillmentOrder } from './get-fulfillment-order.js';
import { registerGetShippingStatus } from './get-status.js';
import { registerListNeedToCancel } from './list-need-to-cancel.js';
import { registerListNeedToShip } from './list-need-to-ship.js';
import { registerReject } from './reject.js';
import { registerShipments } from './shipments.js';

/**
 * v2 shipping routes (document 4.8; resolutions §4) for SHIPPING and THIRD_PARTY_LOGISTICS integrations
 * holding scope sales:orders:fulfillment:self; each sees only the fulfillment orders of its mapped warehouses.
 */
export function registerV2ShippingRoutes(app: App, deps: Deps): void {
  registerListNeedToShip(app, deps);
  registerListNeedToCancel(app, deps);
  registerGetFulfillmentOrder(app, deps);
  registerAcknowledge(app, deps);
  registerShipments(app, deps);
  registerConfirmCancellations(app, deps);
  registerReject(app, deps);
  registerRaiseAlerts(app, deps);
  registerResolveAlerts(app, deps);
  registerGetShippingStatus(app, deps);
}
