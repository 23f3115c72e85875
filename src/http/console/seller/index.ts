import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { registerSellerHome } from './home.js';
import { registerSellerUsers } from './users.js';

/** The seller's pages; each file registers one workflow's routes. */
export function registerSellerPages(scope: FastifyInstance, deps: Deps): void {
  registerSellerHome(scope, deps);
  registerSellerUsers(scope, deps);
}
