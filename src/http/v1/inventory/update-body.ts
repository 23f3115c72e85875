import type { InventoryItemV1, WarehouseRef } from '../../../domain/inventory/v1-update.js';
import type { StockChange } from '../../../domain/inventory/stock.js';
import { invalidArgument, invalidFields, invalidField, type FieldViolation } from '../../../domain/errors.js';
import type { InventoryUpdateV1 } from '../../schemas/inventory-v1.js';
import { optionalTimestampParam } from '../../params.js';

/**
 * Turns either body shape of POST /v1/inventory (resolutions §3) into items for the domain. The schema
 * has checked types, identifier types and the 1..50 bounds; what it cannot express is checked here,
 * for the whole request before any item runs, so a malformed request changes nothing.
 */
export interface InventoryUpdatePlan {
  asOf: Date | null;
  items: InventoryItemV1[];
}

/** null counts as not given (see the schema). */
interface QuantityFields {
  quantity?: number | null;
  delta_quantity?: number | null;
  onhand_quantity?: number | null;
}

const MODES = ['quantity', 'delta_quantity', 'onhand_quantity'] as const;

function changeOf(item: QuantityFields, field: string, violations: FieldViolation[]): StockChange | null {
  const given = MODES.filter((m) => item[m] !== undefined && item[m] !== null);
  if (given.length !== 1) {
    violations.push({
      field,
      description:
        given.length === 0
          ? 'needs one of quantity, delta_quantity, onhand_quantity'
          : `sends ${given.join(' and ')}; send exactly one of quantity, delta_quantity, onhand_quantity`,
    });
    return null;
  }
  if (given[0] === 'quantity') return { mode: 'available', quantity: item.quantity! };
  if (given[0] === 'delta_quantity') return { mode: 'delta', delta: item.delta_quantity! };
  return { mode: 'onhand', quantity: item.onhand_quantity! };
}

export function planInventoryUpdate(body: InventoryUpdateV1): InventoryUpdatePlan {
  const documentShape = body.items !== undefined;
  if (documentShape && body.products !== undefined) {
    throw invalidArgument('send either items (with warehouseName) or products, not both');
  }
  if (!documentShape && body.products === undefined) {
    throw invalidArgument('the body needs items (with warehouseName) or products (each with warehouseId)');
  }
  if (documentShape && body.warehouseName === undefined) {
    throw invalidField('warehouseName', 'is required with items');
  }
  const asOf = documentShape
    ? optionalTimestampParam('pulled_ts', body.pulled_ts)
    : optionalTimestampParam('validAsOf', body.validAsOf);

  const violations: FieldViolation[] = [];
  const items: InventoryItemV1[] = [];
  if (body.items !== undefined) {
    const warehouse: WarehouseRef = { name: body.warehouseName! };
    body.items.forEach((item, i) => {
      const change = changeOf(item, `items[${i}]`, violations);
      if (!change) return;
      items.push({
        sku: item.SKU,
        warehouse,
        standardProductId: item.standardProductId,
        standardProductIdType: item.standardProductIdType,
        change,
        binLocation: null,
      });
    });
  } else {
    body.products!.forEach((item, i) => {
      const change = changeOf(item, `products[${i}]`, violations);
      if (!change) return;
      items.push({
        sku: item.SKU,
        warehouse: { id: item.warehouseId },
        standardProductId: item.standardProductId ?? null,
        standardProductIdType: item.standardProductIdType ?? null,
        change,
        binLocation: item.binLocation === undefined || item.binLocation === '' ? null : item.binLocation,
      });
    });
  }
  if (violations.length > 0) {
    throw invalidFields(violations);
  }
  return { asOf, items };
}
