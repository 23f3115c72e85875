import type { Db } from '../../db/tx.js';
import type { ProductRow } from '../catalog/products.js';
import { inventoryWarehouseNarrowing, warehouseUniqueIdFor, type Principal } from '../accounts/principal.js';
import { listAccountWarehouses } from '../accounts/warehouses.js';
import { stockRowsFor, type StockRow } from './stock.js';

/** v1 inventory records (document 2.3), built from products and their stock rows. */

export interface InventoryLocationV1 {
  binLocation: string;
  quantity: number;
}

export interface WarehouseInventoryV1 {
  warehouseId: number;
  warehouseName: string;
  warehouseUniqueId: string;
  availableQuantity: number;
  assembledQuantity: number | null;
  inventoryLocations: InventoryLocationV1[];
  updatedTs: string;
  /** Inbound shipments are not modelled yet; always empty. */
  inboundShipments: never[];
}

export interface DetailedInventoryV1 {
  SKU: string;
  active: boolean;
  standardProductId: string | null;
  standardProductIdType: string | null;
  totalAvailableQuantity: number;
  warehouses: WarehouseInventoryV1[];
  lastInventoryUpdateTs: string;
}

export interface SimpleInventoryV1 {
  SKU: string;
  standardProductId: string | null;
  active: boolean;
  standardProductIdType: string | null;
  totalAvailableQuantity: number;
  lastInventoryUpdateTs: string;
}

/**
 * The warehouses a read may show: the token's narrowing (inventory:self) intersected with an explicit
 * filter; null means every warehouse of the account.
 */
export function visibleWarehouses(principal: Principal, filter: number[] | null): number[] | null {
  const narrowing = inventoryWarehouseNarrowing(principal);
  if (narrowing === null) return filter;
  if (filter === null) return narrowing;
  return filter.filter((id) => narrowing.includes(id));
}

/**
 * The record's last update: the product's inventory timestamp for a whole-account view; for a narrowed
 * view the newest change among the warehouses shown, so a :self token does not learn when other
 * warehouses changed (the product's timestamp when none is shown).
 */
function lastUpdate(product: ProductRow, rows: StockRow[], narrowed: boolean): string {
  if (!narrowed || rows.length === 0) return product.inventoryUpdatedAt;
  return rows.reduce((latest, r) => (r.updatedAt > latest ? r.updatedAt : latest), rows[0]!.updatedAt);
}

/**
 * One product's detailed record from its stock rows (already limited to the visible warehouses) and the
 * names of the account's warehouses.
 */
export function assembleDetailedRecord(
  principal: Principal,
  product: ProductRow,
  stock: StockRow[],
  names: ReadonlyMap<number, string>,
  narrowed: boolean,
): DetailedInventoryV1 {
  return {
    SKU: product.sku,
    active: product.active,
    standardProductId: product.standardProductId,
    standardProductIdType: product.standardProductIdType,
    totalAvailableQuantity: stock.reduce((sum, r) => sum + r.available, 0),
    warehouses: stock.map((r) => ({
      warehouseId: r.warehouseId,
      warehouseName: names.get(r.warehouseId) ?? '',
      warehouseUniqueId: warehouseUniqueIdFor(principal, r.warehouseId) ?? String(r.warehouseId),
      availableQuantity: r.available,
      assembledQuantity: r.assembled,
      // One bin per stock row: the row's bin holds its on-hand units.
      inventoryLocations: r.binLocation !== null && r.binLocation !== '' ? [{ binLocation: r.binLocation, quantity: r.onhand }] : [],
      updatedTs: r.updatedAt,
      inboundShipments: [],
    })),
    lastInventoryUpdateTs: lastUpdate(product, stock, narrowed),
  };
}

/** Detailed records for products, in the order given, showing only the visible warehouses. */
export async function detailedRecords(
  db: Db,
  principal: Principal,
  products: ProductRow[],
  warehouseFilter: number[] | null,
): Promise<DetailedInventoryV1[]> {
  if (products.length === 0) return [];
  const visible = visibleWarehouses(principal, warehouseFilter);
  const [rows, warehouses] = await Promise.all([
    stockRowsFor(
      db,
      principal.accountId,
      products.map((p) => p.id),
      visible,
    ),
    listAccountWarehouses(db, principal.accountId),
  ]);
  const names = new Map(warehouses.map((w) => [w.id, w.name]));
  const byProduct = new Map<number, StockRow[]>();
  for (const row of rows) {
    const list = byProduct.get(row.productId) ?? [];
    list.push(row);
    byProduct.set(row.productId, list);
  }
  return products.map((product) =>
    assembleDetailedRecord(principal, product, byProduct.get(product.id) ?? [], names, visible !== null),
  );
}
