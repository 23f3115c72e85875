import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerGetInventoryBySku } from './get-inventory-by-sku.js';
import { registerGetSimpleInventory } from './get-simple-inventory.js';
import { registerListInventory } from './list-inventory.js';
import { registerUpdateInventory } from './update-inventory.js';

/** Registers this area's operations (one file per operation beside this one). */
export function registerV1InventoryRoutes(app: App, deps: Deps): void {
  registerGetSimpleInventory(app, deps);
  registerGetInventoryBySku(app, deps);
  registerListInventory(app, deps);
  registerUpdateInventory(app, deps);
}
