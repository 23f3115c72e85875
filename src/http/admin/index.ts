import type { Deps } from '../../deps.js';
import type { App } from '../types.js';

/** Registers this area's operations (one file per operation beside this one). */
export function registerAdminRoutes(_app: App, _deps: Deps): void {}
