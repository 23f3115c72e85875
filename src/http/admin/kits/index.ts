import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerSetAssembledQuantity } from './assembled.js';
import { registerKitComponentRoutes } from './kit-components.js';

/** The seller's kit catalog and assembled-kit counts under /admin (docs/partners/sales-orders.md "Kits"). */
export function registerAdminKitRoutes(app: App, deps: Deps): void {
  registerKitComponentRoutes(app, deps);
  registerSetAssembledQuantity(app, deps);
}
