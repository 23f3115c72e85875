import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerGetStatus } from './get-status.js';
import { registerListInventory } from './list-inventory.js';
import { registerListWarehouses } from './list-warehouses.js';
import { registerUpdateInventory } from './update-inventory.js';

/**
 * v2 inventory routes (resolutions §4), for INVENTORY and THIRD_PARTY_LOGISTICS integrations holding
 * scope inventory or inventory:self; each works only on the integration's mapped warehouses.
 */
export function registerV2InventoryRoutes(app: App, deps: Deps): void {
  registerListInventory(app, deps);
  registerUpdateInventory(app, deps);
  registerListWarehouses(app, deps);
  registerGetStatus(app, deps);
}
