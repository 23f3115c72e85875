import type { AuthRequirement } from '../../plugins/auth.js';

/** Reports and import validation need `legacy` or `report` (resolutions §7). */
export const REPORT_ROUTE_CONFIG: { auth: AuthRequirement } = { auth: { scopes: ['legacy', 'report'] } };
/** The routes that take a report or validation file: bodies up to UPLOAD_BODY_LIMIT_MB (src/http/plugins/uploads.ts). */
export const UPLOAD_ROUTE_CONFIG: { auth: AuthRequirement; upload: true } = { ...REPORT_ROUTE_CONFIG, upload: true };
export const REPORT_TAGS = ['v1 reports'];
