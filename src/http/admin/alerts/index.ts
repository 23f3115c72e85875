import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerListAlerts } from './list-alerts.js';
import { registerResolveAlert } from './resolve-alert.js';

/** The seller's fulfillment alerts under /admin/accounts/{accountId}/alerts (docs/partners/fulfillment.md). */
export function registerAdminAlertRoutes(app: App, deps: Deps): void {
  registerListAlerts(app, deps);
  registerResolveAlert(app, deps);
}
