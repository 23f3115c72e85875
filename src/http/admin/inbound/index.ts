import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerAdminGetLandedCost } from './get-landed-cost.js';
import { registerAdminReceiveShipment } from './receive-shipment.js';

/** The seller's inbound actions under /admin (DESIGN.md "Operator API": receive an inbound shipment). */
export function registerAdminInboundReceiveRoutes(app: App, deps: Deps): void {
  registerAdminReceiveShipment(app, deps);
  registerAdminGetLandedCost(app, deps);
}
