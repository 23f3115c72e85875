import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { registerSellerHome } from './home.js';
import { registerInventoryPages } from './inventory/index.js';
import { registerReportPages } from './reports/index.js';

/** The seller's pages; each file registers one workflow's routes. */
export function registerSellerPages(scope: FastifyInstance, deps: Deps): void {
  registerSellerHome(scope, deps);
  registerInventoryPages(scope, deps);
  registerReportPages(scope, deps);
}
