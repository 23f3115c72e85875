import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import type { App } from '../types.js';
import { registerConsoleAssets } from './assets.js';
import { registerConsoleErrorPages } from './error-pages.js';
import { registerInvite } from './invite.js';
import { registerLogin } from './login.js';
import { registerOperatorPages } from './operator/index.js';
import { registerConsoleSecurity } from './security.js';
import { registerSellerPages } from './seller/index.js';
import { registerConsoleSessions } from './session.js';

/**
 * The seller and operator console (issue 12), served at /console from the same process and over the same
 * domain functions as the API. Its own encapsulated scope: cookies, sessions, CSRF, security headers and
 * HTML error pages apply here only; the API's bearer-token auth and JSON errors are untouched.
 */
export async function registerConsole(app: App, deps: Deps): Promise<void> {
  await app.register(
    async (scope: FastifyInstance) => {
      await scope.register(cookie);
      registerConsoleErrorPages(scope);
      registerConsoleSecurity(scope, deps);
      registerConsoleSessions(scope, deps);
      registerConsoleAssets(scope);
      registerLogin(scope, deps);
      registerInvite(scope, deps);
      registerSellerPages(scope, deps);
      registerOperatorPages(scope, deps);
    },
    { prefix: '/console' },
  );
}
