import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { registerCreateValidation } from './create-validation.js';
import { registerReadValidation } from './read-validation.js';

/** The v1 import validation routes (document 2.7, 4.2; resolutions §3, §7, §8). */
export async function registerV1ImportValidationRoutes(app: App, deps: Deps): Promise<void> {
  await registerCreateValidation(app, deps);
  registerReadValidation(app, deps);
}
