import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { registerSellerHome } from './home.js';
import { registerSellerOrderPages } from './orders/index.js';

/** The seller's pages; each file registers one workflow's routes. */
export function registerSellerPages(scope: FastifyInstance, deps: Deps): void {
  registerSellerHome(scope, deps);
  registerSellerOrderPages(scope, deps);
}
