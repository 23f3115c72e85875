import type { Db } from '../../db/tx.js';
import type { ProductRow } from '../catalog/products.js';
import { inventoryWarehouseNarrowing, warehouseUniqueIdFor, type Principal } from '../accounts/principal.js';
import { listAccountWarehouses } from '../accounts/warehouses.js';
import type { InboundPort, InboundOnTheWayV1, OpenInboundLine } from './inbound-port.js';
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
  /** Open inbound shipments with units of the SKU still on the way to this warehouse, oldest first. */
  inboundShipments: InboundOnTheWayV1[];
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

function inboundEntry(line: OpenInboundLine): InboundOnTheWayV1 {
  return {
    inboundShipmentId: line.inboundShipmentId,
    status: line.status,
    quantity: line.quantity,
    receivedQuantity: line.receivedQuantity,
    expectedDeliveryDate: line.expectedDeliveryDate,
    tracking: line.tracking,
    carrier: line.carrier,
  };
}

/**
 * One product's detailed record from its stock rows and its open inbound lines (both already limited to the
 * visible warehouses) and the names of the account's warehouses. A warehouse with units on the way but no
 * stock record yet is shown too, with nothing available, so the seller sees where stock is coming; its
 * updatedTs is the product's inventory timestamp and it does not count towards lastInventoryUpdateTs.
 */
export function assembleDetailedRecord(
  principal: Principal,
  product: ProductRow,
  stock: StockRow[],
  inbound: readonly OpenInboundLine[],
  names: ReadonlyMap<number, string>,
  narrowed: boolean,
): DetailedInventoryV1 {
  const entries: WarehouseInventoryV1[] = stock.map((r) => ({
    warehouseId: r.warehouseId,
    warehouseName: names.get(r.warehouseId) ?? '',
    warehouseUniqueId: warehouseUniqueIdFor(principal, r.warehouseId) ?? String(r.warehouseId),
    availableQuantity: r.available,
    assembledQuantity: r.assembled,
    // One bin per stock row: the row's bin holds its on-hand units.
    inventoryLocations: r.binLocation !== null && r.binLocation !== '' ? [{ binLocation: r.binLocation, quantity: r.onhand }] : [],
    updatedTs: r.updatedAt,
    inboundShipments: [],
  }));
  for (const line of inbound) {
    let entry = entries.find((e) => e.warehouseId === line.warehouseId);
    if (!entry) {
      entry = {
        warehouseId: line.warehouseId,
        warehouseName: names.get(line.warehouseId) ?? line.warehouseName,
        warehouseUniqueId: warehouseUniqueIdFor(principal, line.warehouseId) ?? String(line.warehouseId),
        availableQuantity: 0,
        assembledQuantity: null,
        inventoryLocations: [],
        updatedTs: product.inventoryUpdatedAt,
        inboundShipments: [],
      };
      entries.push(entry);
    }
    entry.inboundShipments.push(inboundEntry(line));
  }
  entries.sort((a, b) => a.warehouseId - b.warehouseId);
  return {
    SKU: product.sku,
    active: product.active,
    standardProductId: product.standardProductId,
    standardProductIdType: product.standardProductIdType,
    totalAvailableQuantity: stock.reduce((sum, r) => sum + r.available, 0),
    warehouses: entries,
    lastInventoryUpdateTs: lastUpdate(product, stock, narrowed),
  };
}

/**
 * Detailed records for products, in the order given, showing only the visible warehouses; `inbound` lists
 * what is on the way (the inbound area's port, passed in by the edge).
 */
export async function detailedRecords(
  db: Db,
  principal: Principal,
  products: ProductRow[],
  warehouseFilter: number[] | null,
  inbound: InboundPort,
): Promise<DetailedInventoryV1[]> {
  if (products.length === 0) return [];
  const visible = visibleWarehouses(principal, warehouseFilter);
  const productIds = products.map((p) => p.id);
  const [rows, warehouses, onTheWay] = await Promise.all([
    stockRowsFor(db, principal.accountId, productIds, visible),
    listAccountWarehouses(db, principal.accountId),
    inbound.openLinesOfProducts(db, principal.accountId, productIds, visible),
  ]);
  const names = new Map(warehouses.map((w) => [w.id, w.name]));
  const byProduct = new Map<number, StockRow[]>();
  for (const row of rows) {
    const list = byProduct.get(row.productId) ?? [];
    list.push(row);
    byProduct.set(row.productId, list);
  }
  const inboundByProduct = new Map<number, OpenInboundLine[]>();
  for (const line of onTheWay) {
    const list = inboundByProduct.get(line.productId) ?? [];
    list.push(line);
    inboundByProduct.set(line.productId, list);
  }
  return products.map((product) =>
    assembleDetailedRecord(principal, product, byProduct.get(product.id) ?? [], inboundByProduct.get(product.id) ?? [], names, visible !== null),
  );
}
