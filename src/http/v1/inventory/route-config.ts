import type { AuthRequirement } from '../../plugins/auth.js';

/**
 * Every v1 inventory route: `legacy`, `inventory` or `inventory:self` (document 4.5 labels GET
 * /v1/inventory/{SKU} so; resolutions §7 extends it to the unlabelled ones). inventory:self narrows
 * to the installation's mapped warehouses in the domain, not here.
 */
export const V1_INVENTORY_ROUTE_CONFIG: { auth: AuthRequirement } = {
  auth: { scopes: ['legacy', 'inventory', 'inventory:self'] },
};
