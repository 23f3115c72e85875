import { hasAnyScope, type Principal } from '../accounts/principal.js';
import { invalidField, permissionDenied } from '../errors.js';

/**
 * Which orders, and which of their lines, a token sees (resolutions §2). A broader scope (legacy, sales,
 * sales:orders) sees the whole account. Otherwise the token sees what its own installation owns:
 * a storefront its own orders (sales:orders:self); a shipping, inventory or 3PL integration the orders
 * with lines routed to its warehouses, with lines and quantities narrowed to those warehouses
 * (sales:orders:fulfillment:self, sales:orders:inventory:self), as if warehouseId were given.
 * A seller token without any order scope sees nothing (403).
 */
export interface OrderScope {
  /** Only this storefront's orders; null = any. */
  storefrontId: number | null;
  /** Only orders routed to these warehouses, lines narrowed to them; null = no narrowing. */
  warehouseIds: number[] | null;
}

const BROAD_SCOPES = ['legacy', 'sales', 'sales:orders'] as const;

export function orderScopeOf(principal: Principal): OrderScope {
  if (hasAnyScope(principal, BROAD_SCOPES)) return { storefrontId: null, warehouseIds: null };
  if (principal.storefrontId !== null) return { storefrontId: principal.storefrontId, warehouseIds: null };
  if (principal.integrationId !== null) {
    return { storefrontId: null, warehouseIds: principal.mappings.map((m) => m.warehouseId) };
  }
  throw permissionDenied(
    `this token sees no sales orders: it needs one of the scopes ${[...BROAD_SCOPES, 'sales:orders:self'].join(', ')}`,
  );
}

/**
 * The scope with a warehouseId filter applied (GET /v1/salesOrder): the filter must be one of the
 * account's warehouses and, for a narrowed token, one of its own.
 */
export function withWarehouseFilter(scope: OrderScope, warehouseId: number | null, accountWarehouses: readonly number[]): OrderScope {
  if (warehouseId === null) return scope;
  if (!accountWarehouses.includes(warehouseId)) throw invalidField('warehouseId', `unknown warehouse id ${warehouseId}`);
  if (scope.warehouseIds !== null && !scope.warehouseIds.includes(warehouseId)) {
    throw invalidField('warehouseId', `warehouse ${warehouseId} is not mapped to this token's integration`);
  }
  return { ...scope, warehouseIds: [warehouseId] };
}
