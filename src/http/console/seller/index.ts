import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { registerSellerApps } from './apps/index.js';
import { registerSellerHome } from './home.js';
import { registerSellerListings } from './listings/index.js';
import { registerSellerOrderPages } from './orders/index.js';
import { registerSellerUsers } from './users.js';
import { registerInventoryPages } from './inventory/index.js';
import { registerReportPages } from './reports/index.js';
import { registerCatalogPages } from './catalog/index.js';

/** The seller's pages; each file registers one workflow's routes. */
export function registerSellerPages(scope: FastifyInstance, deps: Deps): void {
  registerSellerHome(scope, deps);
  registerSellerApps(scope, deps);
  registerSellerListings(scope, deps);
  registerSellerOrderPages(scope, deps);
  registerSellerUsers(scope, deps);
  registerInventoryPages(scope, deps);
  registerReportPages(scope, deps);
  registerCatalogPages(scope, deps);
}
