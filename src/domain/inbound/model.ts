import type { Selectable } from 'kysely';
import type { InboundShipmentsTable } from '../../db/schema.js';

/**
 * Inbound shipments (document 2.5, 3.1; resolutions §3, §8): purchase orders from a vendor to one of the
 * seller's warehouses. PENDING → SHIPPED → PARTIALLY_RECEIVED → RECEIVED; receiving straight from PENDING is
 * allowed (a shipment that arrives unannounced); cancel from PENDING or SHIPPED only.
 */
export const INBOUND_STATUSES = ['PENDING', 'SHIPPED', 'RECEIVED', 'PARTIALLY_RECEIVED', 'CANCELLED'] as const;
export type InboundStatus = (typeof INBOUND_STATUSES)[number];

/** Shipments still expecting units: what the inventory record lists as on the way. */
export const OPEN_STATUSES: readonly InboundStatus[] = ['PENDING', 'SHIPPED', 'PARTIALLY_RECEIVED'];
/** Statuses a receipt may start from. */
export const RECEIVABLE_STATUSES: readonly InboundStatus[] = ['PENDING', 'SHIPPED', 'PARTIALLY_RECEIVED'];
/** Statuses a cancel may start from (resolutions §3). */
export const CANCELLABLE_STATUSES: readonly InboundStatus[] = ['PENDING', 'SHIPPED'];

export type InboundShipmentRow = Selectable<InboundShipmentsTable>;

/** Caps checked before any per-entry work (DESIGN.md availability). */
export const MAX_SHIPMENT_PRODUCTS = 500;
export const MAX_LINE_QUANTITY = 1_000_000;

/** One line of the record (snake_case like the rest of the v1 inbound shape). */
export interface InboundShipmentProductV1 {
  product_id: number;
  sku: string;
  quantity: number;
  received_quantity: number;
  unit_item_cost: number | null;
}

export interface InboundReceiptProductV1 {
  product_id: number;
  sku: string;
  quantity: number;
  unit_item_cost: number | null;
  /** The share of the shipment's shipping cost these units carry. */
  shipping_cost: number;
}

export interface InboundReceiptV1 {
  receipt_id: number;
  received_at: string;
  received_by: string;
  products: InboundReceiptProductV1[];
}

/** The record of resolutions §3, plus the documented additions (received quantities, receipts, times). */
export interface InboundShipmentV1 {
  id: number;
  status: InboundStatus;
  vendor: { vendorId: number; name: string };
  vendor_name: string;
  warehouse: { warehouseId: number; name: string; warehouseUniqueId: string | null };
  destination_warehouse_id: number;
  purchase_order_number: string;
  shipping_cost: number | null;
  expected_delivery_date: string | null;
  tracking: string | null;
  carrier: string | null;
  inbound_shipment_products: InboundShipmentProductV1[];
  receipts: InboundReceiptV1[];
  created_at: string;
  updated_at: string;
  shipped_at: string | null;
  received_at: string | null;
  cancelled_at: string | null;
}
