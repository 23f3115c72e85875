import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { registerAppsPage } from './apps-page.js';
import { registerSellerCallbacks } from './callbacks.js';
import { registerInstallApp } from './install.js';
import { registerIntegrationPages } from './integration.js';
import { registerInventoryRulePages } from './inventory-rules.js';
import { registerStorefrontPages } from './storefront.js';

/**
 * Apps: the catalog and Install (5.2), installed apps, per storefront its status, ingestion and disconnect, and
 * per integration its warehouses (map, stop using) and uninstall.
 */
export function registerSellerApps(scope: FastifyInstance, deps: Deps): void {
  registerAppsPage(scope, deps);
  registerInstallApp(scope, deps);
  registerStorefrontPages(scope, deps);
  registerInventoryRulePages(scope, deps);
  registerIntegrationPages(scope, deps);
  registerSellerCallbacks(scope, deps);
}
