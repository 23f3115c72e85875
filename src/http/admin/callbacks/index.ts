import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerDisconnect } from './disconnect.js';
import { registerGetDelivery } from './get-delivery.js';
import { registerIngestionRequest } from './ingestion-request.js';
import { registerLastStatusCheck } from './last-status-check.js';
import { registerListDeliveries } from './list-deliveries.js';
import { registerReplayDelivery } from './replay-delivery.js';
import { registerStatusCheck } from './status-check.js';

/** Storefront callback triggers and the delivery log (docs/operators/callbacks.md). */
export function registerAdminCallbackRoutes(app: App, deps: Deps): void {
  registerIngestionRequest(app, deps);
  registerStatusCheck(app, deps);
  registerLastStatusCheck(app, deps);
  registerDisconnect(app, deps);
  registerListDeliveries(app, deps);
  registerGetDelivery(app, deps);
  registerReplayDelivery(app, deps);
}
