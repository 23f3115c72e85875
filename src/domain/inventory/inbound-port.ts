import type { DbHandle } from '../../db/connect.js';
import type { Db } from '../../db/tx.js';

/**
 * What is on the way (document 2.3 `inboundShipments[]`) comes from the inbound area, which builds on this one
 * (receipts change stock through it). So that inventory never imports inbound (DESIGN.md: no cycles between
 * areas), the inbound area implements this port (src/domain/inbound/on-the-way.ts) and the HTTP edge passes it
 * to the inventory reads.
 */

/** One open shipment's line of a SKU still expecting units in a warehouse (a v1 warehouse entry's item). */
export interface InboundOnTheWayV1 {
  inboundShipmentId: number;
  status: string;
  /** Units sent on the line (document 2.3 `quantity`). */
  quantity: number;
  /** Units of the line received so far. */
  receivedQuantity: number;
  /** YYYY-MM-DD, or null when unknown. */
  expectedDeliveryDate: string | null;
  tracking: string | null;
  carrier: string | null;
}

export interface OpenInboundLine extends InboundOnTheWayV1 {
  productId: number;
  warehouseId: number;
  warehouseName: string;
  /** The shipment's purchase order number (the console shows it; not part of the v1 record). */
  purchaseOrderNumber: string;
}

export interface InboundPort {
  /**
   * Lines of open shipments (PENDING, SHIPPED, PARTIALLY_RECEIVED) of one product with units outstanding,
   * every warehouse; oldest shipment first. The hot single-SKU read: a prepared statement.
   */
  openLinesOfProduct(handle: DbHandle, accountId: number, productId: number): Promise<OpenInboundLine[]>;
  /** The same for several products, limited to some warehouses (null: every warehouse). */
  openLinesOfProducts(db: Db, accountId: number, productIds: number[], warehouseIds: number[] | null): Promise<OpenInboundLine[]>;
}
