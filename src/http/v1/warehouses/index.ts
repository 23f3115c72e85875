import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerListWarehouses } from './list-warehouses.js';

/** Registers this area's operations (one file per operation beside this one). */
export function registerWarehouseRoutes(app: App, deps: Deps): void {
  registerListWarehouses(app, deps);
}
