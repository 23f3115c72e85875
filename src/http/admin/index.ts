import type { Deps } from '../../deps.js';
import type { App } from '../types.js';
import { registerAdminAlertRoutes } from './alerts/index.js';
import { registerAdminCallbackRoutes } from './callbacks/index.js';
import { registerCreateAccount } from './create-account.js';
import { registerCreateToken } from './create-token.js';
import { registerCreateWarehouse } from './create-warehouse.js';
import { registerAdminCustomStoreRoutes } from './custom-stores/index.js';
import { registerGetAccount } from './get-account.js';
import { registerGetApp } from './get-app.js';
import { registerUpdateAccount } from './update-account.js';
import { registerErasePersonalData } from './erase-personal-data.js';
import { registerUpdateApp } from './update-app.js';
import { registerAdminInboundReceiveRoutes } from './inbound/index.js';
import { registerAdminInventoryRuleRoutes } from './inventory-rules/index.js';
import { registerAdminImportTemplateRoutes } from './import-templates/index.js';
import { registerInstallApp } from './install-app.js';
import { registerAdminIngestionRoutes } from './ingestions/index.js';
import { registerAdminJobRoutes } from './jobs/index.js';
import { registerAdminKitRoutes } from './kits/index.js';
import { registerAdminListingRoutes } from './listings/index.js';
import { registerAdminOrderRoutes } from './orders/index.js';
import { registerAdminProductRoutes } from './products/index.js';
import { registerListAccounts } from './list-accounts.js';
import { registerListInstallations } from './list-installations.js';
import { registerListWarehouses } from './list-warehouses.js';
import { registerMapWarehouse } from './map-warehouse.js';
import { registerRegisterApp } from './register-app.js';
import { registerRevokeInstallation } from './revoke-installation.js';
import { registerRevokeToken } from './revoke-token.js';
import { registerRevokeTokenByValue } from './revoke-token-by-value.js';
import { registerRotateAppSecrets } from './rotate-app-secrets.js';
import { registerUnmapWarehouse } from './unmap-warehouse.js';
import { registerAdminUserRoutes } from './users/index.js';
import { registerAdminVendorRoutes } from './vendors/index.js';

/**
 * The operator API (DESIGN.md "Operator API"): every route declares `config: { admin: true }`, so the auth
 * hook demands ADMIN_TOKEN (or, in development without one, a loopback caller). Errors are the v1 body.
 */
export function registerAdminRoutes(app: App, deps: Deps): void {
  registerCreateAccount(app, deps);
  registerAdminInventoryRuleRoutes(app, deps);
  registerAdminUserRoutes(app, deps);
  registerListAccounts(app, deps);
  registerGetAccount(app, deps);
  registerUpdateAccount(app, deps);
  registerErasePersonalData(app, deps);
  registerCreateWarehouse(app, deps);
  registerListWarehouses(app, deps);
  registerAdminCustomStoreRoutes(app, deps);
  registerRegisterApp(app, deps);
  registerGetApp(app, deps);
  registerUpdateApp(app, deps);
  registerRotateAppSecrets(app, deps);
  registerInstallApp(app, deps);
  registerListInstallations(app, deps);
  registerRevokeInstallation(app, deps);
  registerMapWarehouse(app, deps);
  registerUnmapWarehouse(app, deps);
  registerCreateToken(app, deps);
  registerRevokeToken(app, deps);
  registerRevokeTokenByValue(app, deps);
  registerAdminJobRoutes(app, deps);
  registerAdminIngestionRoutes(app, deps);
  registerAdminOrderRoutes(app, deps);
  registerAdminKitRoutes(app, deps);
  registerAdminAlertRoutes(app, deps);
  registerAdminListingRoutes(app, deps);
  registerAdminImportTemplateRoutes(app, deps);
  registerAdminProductRoutes(app, deps);
  registerAdminVendorRoutes(app, deps);
  registerAdminInboundReceiveRoutes(app, deps);
  registerAdminCallbackRoutes(app, deps);
}
