import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerCancelShipment } from './cancel-shipment.js';
import { registerCreateShipment } from './create-shipment.js';
import { registerGetShipment } from './get-shipment.js';
import { registerGetVendor } from './get-vendor.js';
import { registerListShipments } from './list-shipments.js';
import { registerListVendors } from './list-vendors.js';
import { registerReceiveShipment } from './receive-shipment.js';
import { registerShipShipment } from './ship-shipment.js';

/** v1 inbound shipments and vendors (document 4.3, 2.8; resolutions §3, §8); one file per operation. */
export function registerV1InboundRoutes(app: App, deps: Deps): void {
  registerCreateShipment(app, deps);
  registerListShipments(app, deps);
  registerGetShipment(app, deps);
  registerShipShipment(app, deps);
  registerReceiveShipment(app, deps);
  registerCancelShipment(app, deps);
  registerListVendors(app, deps);
  registerGetVendor(app, deps);
}
