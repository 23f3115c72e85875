import type { AuthRequirement } from '../../plugins/auth.js';
import type { Scope } from '../../../domain/accounts/principal.js';

/** The scopes document 4.6 gives GET /v1/salesOrder; resolutions §7 requires one of them on every v1 sales order route. */
export const V1_SALES_ORDER_SCOPES: Scope[] = [
  'legacy',
  'sales',
  'sales:orders',
  'sales:orders:fulfillment:self',
  'sales:orders:inventory:self',
  'sales:orders:self',
];

/** Every v1 sales order route the document leaves unlabelled (the :self scopes narrow in the domain). */
export const V1_SALES_ORDER_ROUTE_CONFIG: { auth: AuthRequirement } = { auth: { scopes: V1_SALES_ORDER_SCOPES } };
