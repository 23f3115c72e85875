import type { AuthRequirement } from '../../plugins/auth.js';

/**
 * Inbound shipments and vendors need `legacy`, `inventory` or `inventory:self` (resolutions §7);
 * inventory:self narrows to the integration's mapped warehouses in the domain, not here.
 */
export const INBOUND_ROUTE_CONFIG: { auth: AuthRequirement } = { auth: { scopes: ['legacy', 'inventory', 'inventory:self'] } };
export const INBOUND_TAGS = ['v1 inbound shipments'];
export const VENDOR_TAGS = ['v1 vendors'];
