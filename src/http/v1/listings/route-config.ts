import type { AuthRequirement } from '../../plugins/auth.js';

/**
 * v1 listing routes the document leaves unlabelled: `legacy` or `listing:self` (resolutions §7). POST
 * .../inventoryDetails keeps the document's own label, listing:self alone.
 */
export const V1_LISTING_ROUTE_CONFIG: { auth: AuthRequirement } = { auth: { scopes: ['legacy', 'listing:self'] } };
