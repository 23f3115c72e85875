import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerAdminCreateVendor } from './create-vendor.js';
import { registerAdminReadVendors } from './read-vendors.js';
import { registerAdminUpdateVendor } from './update-vendor.js';

/** The seller's vendors (DESIGN.md operator API; document 2.8): partners read them at /v1/vendor. */
export function registerAdminVendorRoutes(app: App, deps: Deps): void {
  registerAdminCreateVendor(app, deps);
  registerAdminReadVendors(app, deps);
  registerAdminUpdateVendor(app, deps);
}
