import type { AuthRequirement } from '../../plugins/auth.js';

/** Every v2 storefront route: no scope enforced, but a token bound to a storefront (resolutions §2). */
export const STOREFRONT_ROUTE_CONFIG: { auth: AuthRequirement } = { auth: { binding: 'storefront' } };

export const TAGS = ['v2 storefront'];
