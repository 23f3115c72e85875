import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { registerOperatorHome } from './home.js';

/** The operator's pages (an operator user is signed in; ADMIN_TOKEN stays for the API). */
export function registerOperatorPages(scope: FastifyInstance, deps: Deps): void {
  registerOperatorHome(scope, deps);
}
