import type { App } from './types.js';
import type { Deps } from '../deps.js';
import { registerTokenRoutes } from './v1/token/index.js';

/** Every area's routes; each area's index.ts registers its operations and their auth requirements. */
export async function registerRoutes(app: App, deps: Deps): Promise<void> {
  registerTokenRoutes(app, deps);
}
