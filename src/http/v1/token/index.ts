import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { registerExchangeToken } from './exchange-token.js';

export function registerTokenRoutes(app: App, deps: Deps) {
  registerExchangeToken(app, deps);
}
