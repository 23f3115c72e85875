import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerAdminCancelOrder } from './cancel-order.js';
import { registerAdminCloseReturn } from './close-return.js';
import { registerAdminReceiveReturn } from './receive-return.js';
import { registerAdminRecordRefund } from './record-refund.js';
import { registerAdminRequestReturn } from './request-return.js';
import { registerAdminRerouteLine } from './reroute-line.js';

/** The seller's order actions under /admin/accounts/{accountId}/orders/{orderNumber} (DESIGN.md "Operator API"). */
export function registerAdminOrderRoutes(app: App, deps: Deps): void {
  registerAdminCancelOrder(app, deps);
  registerAdminRerouteLine(app, deps);
  registerAdminRequestReturn(app, deps);
  registerAdminReceiveReturn(app, deps);
  registerAdminCloseReturn(app, deps);
  registerAdminRecordRefund(app, deps);
}
