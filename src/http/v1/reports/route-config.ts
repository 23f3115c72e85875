import type { AuthRequirement } from '../../plugins/auth.js';

/** Reports and import validation need `legacy` or `report` (resolutions §7). */
export const REPORT_ROUTE_CONFIG: { auth: AuthRequirement } = { auth: { scopes: ['legacy', 'report'] } };
export const REPORT_TAGS = ['v1 reports'];
