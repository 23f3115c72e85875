import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerCreateOperator } from './create-operator.js';
import { registerCreateUser } from './create-user.js';

/** Console users (DESIGN.md operator API): seller users per account and operator users. */
export function registerAdminUserRoutes(app: App, deps: Deps): void {
  registerCreateUser(app, deps);
  registerCreateOperator(app, deps);
}
