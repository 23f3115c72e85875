import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { registerOperatorAccounts } from './accounts.js';
import { registerOperatorApps } from './apps.js';
import { registerOperatorDeliveries } from './deliveries.js';
import { registerOperatorHome } from './home.js';
import { registerOperatorJobs } from './jobs.js';
import { registerOperatorOperators } from './operators.js';

/** The operator's pages (an operator user is signed in; ADMIN_TOKEN stays for the API). */
export function registerOperatorPages(scope: FastifyInstance, deps: Deps): void {
  registerOperatorHome(scope, deps);
  registerOperatorAccounts(scope, deps);
  registerOperatorApps(scope, deps);
  registerOperatorJobs(scope, deps);
  registerOperatorDeliveries(scope, deps);
  registerOperatorOperators(scope, deps);
}
