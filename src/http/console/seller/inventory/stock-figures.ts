import type { Db } from '../../../../db/tx.js';
import { inboundOnTheWay } from '../../../../domain/inbound/on-the-way.js';
import type { OpenInboundLine } from '../../../../domain/inventory/inbound-port.js';
import type { StockRow } from '../../../../domain/inventory/stock.js';
import { backorderedUnitsOf } from '../../../../domain/orders/backordered-units.js';

/**
 * What the stock pages show per SKU and warehouse, beyond the stock counters: units owed to waiting orders
 * (backordered) and units on open inbound shipments not yet received (inbound). Assembled here, at the edge,
 * because they come from three areas (inventory, orders, inbound) that do not import one another. A fixed
 * number of statements for a whole page of SKUs, never one per row.
 */

/** One open shipment bringing units of a SKU to a warehouse. */
export interface InboundShipmentUnits {
  shipmentId: number;
  purchaseOrderNumber: string;
  /** Units still expected (sent − received). */
  units: number;
  expectedDeliveryDate: string | null;
}

export interface StockFigures {
  warehouseId: number;
  /** The stock counters; null when the SKU has no stock record there yet (only backorders or inbound units). */
  stock: StockRow | null;
  backordered: number;
  inbound: InboundShipmentUnits[];
}

export interface SkuFigures {
  /** Per warehouse, in warehouse id order. */
  rows: StockFigures[];
  /** Units waiting for a warehouse: the account has none that can hold a backorder. */
  unplacedBackorder: number;
}

const inboundOf = (l: OpenInboundLine): InboundShipmentUnits => ({
  shipmentId: l.inboundShipmentId,
  purchaseOrderNumber: l.purchaseOrderNumber,
  units: l.quantity - l.receivedQuantity,
  expectedDeliveryDate: l.expectedDeliveryDate,
});

/** The figures of some products, keyed by product id (every product given has an entry). */
export async function stockFiguresOf(db: Db, accountId: number, products: readonly { id: number; sku: string; stock: readonly StockRow[] }[]): Promise<Map<number, SkuFigures>> {
  const ids = products.map((p) => p.id);
  const [backordered, inbound] = await Promise.all([backorderedUnitsOf(db, accountId, products), inboundOnTheWay.openLinesOfProducts(db, accountId, ids, null)]);
  const result = new Map<number, SkuFigures>();
  for (const p of products) {
    const rows = new Map<number, StockFigures>();
    const at = (warehouseId: number) => {
      let row = rows.get(warehouseId);
      if (!row) rows.set(warehouseId, (row = { warehouseId, stock: null, backordered: 0, inbound: [] }));
      return row;
    };
    for (const s of p.stock) at(s.warehouseId).stock = s;
    for (const [warehouseId, units] of backordered.byProduct.get(p.id) ?? []) at(warehouseId).backordered += units;
    result.set(p.id, { rows: [...rows.values()], unplacedBackorder: backordered.unplaced.get(p.id) ?? 0 });
  }
  for (const line of inbound) {
    const sku = result.get(line.productId);
    if (!sku) continue;
    let row = sku.rows.find((r) => r.warehouseId === line.warehouseId);
    if (!row) sku.rows.push((row = { warehouseId: line.warehouseId, stock: null, backordered: 0, inbound: [] }));
    row.inbound.push(inboundOf(line));
  }
  for (const sku of result.values()) sku.rows.sort((a, b) => a.warehouseId - b.warehouseId);
  return result;
}

/** Totals of a SKU across the given rows. */
export function inboundUnits(rows: readonly StockFigures[]): number {
  return rows.reduce((n, r) => n + r.inbound.reduce((m, i) => m + i.units, 0), 0);
}

export function backorderedTotal(sku: SkuFigures): number {
  return sku.rows.reduce((n, r) => n + r.backordered, 0) + sku.unplacedBackorder;
}
