import type { AuthRequirement } from '../../plugins/auth.js';

/** Every v2 inventory route: scope inventory or inventory:self, and a token of an inventory/3PL integration. */
export const INVENTORY_ROUTE_CONFIG: { auth: AuthRequirement } = {
  auth: { scopes: ['inventory', 'inventory:self'], binding: 'inventory' },
};

export const TAGS = ['v2 inventory'];
