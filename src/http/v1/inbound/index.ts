import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerCreateShipment } from './create-shipment.js';
import { registerGetShipment } from './get-shipment.js';
import { registerReceiveShipment } from './receive-shipment.js';

/** v1 inbound shipments and vendors (document 4.3, 4.6; resolutions §3, §8); one file per operation. */
export function registerV1InboundRoutes(app: App, deps: Deps): void {
  registerCreateShipment(app, deps);
  registerGetShipment(app, deps);
  registerReceiveShipment(app, deps);
}
