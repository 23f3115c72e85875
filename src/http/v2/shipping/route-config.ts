import type { AuthRequirement } from '../../plugins/auth.js';

/** Every v2 shipping route: scope sales:orders:fulfillment:self and a token of a shipping/3PL integration. */
export const SHIPPING_ROUTE_CONFIG: { auth: AuthRequirement } = {
  auth: { scopes: ['sales:orders:fulfillment:self'], binding: 'shipping' },
};

export const TAGS = ['v2 shipping'];
