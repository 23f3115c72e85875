import { inventoryWarehouseNarrowing, type Principal } from '../accounts/principal.js';
import { canUpdateInventory, type WarehouseRow } from '../accounts/warehouses.js';

/**
 * Who sees and changes which inbound shipments (resolutions §2, §7): `legacy` and `inventory` see the whole
 * account; `inventory:self` alone sees only shipments bound for the integration's mapped warehouses (any
 * other is simply not found). Receiving changes stock, so it follows the stock rule: a warehouse controlled
 * by an inventory or 3PL integration is received only by that integration's token.
 */

/** Warehouses whose shipments the caller may see: null for every warehouse of the account. */
export function inboundWarehouseNarrowing(principal: Principal): number[] | null {
  return inventoryWarehouseNarrowing(principal);
}

export function canSeeWarehouse(principal: Principal, warehouseId: number): boolean {
  const narrowing = inboundWarehouseNarrowing(principal);
  return narrowing === null || narrowing.includes(warehouseId);
}

/** Why the caller may not receive into this warehouse, or null when it may. */
export function receiveRefusal(principal: Principal, warehouse: WarehouseRow): string | null {
  if (canUpdateInventory(principal, warehouse)) return null;
  return `the inventory of warehouse ${warehouse.id} ("${warehouse.name}") is controlled by an integration; only that integration's token (scope inventory:self) may receive shipments into it`;
}

/** How a receipt records who made it. */
export function receivedByLabel(principal: Principal): string {
  if (principal.integrationId !== null) return `integration ${principal.integrationId}`;
  if (principal.tokenId === 0) return 'operator';
  return 'seller';
}
