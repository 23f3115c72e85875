import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/app.js';
import { bearer } from '../helpers/fixtures.js';
import { createShipment as createShipmentFrom, type ShipmentRecord } from './v1-inbound-helpers.js';

/** Shared by the inbound receiving tests (not a test file itself). */

/** The record as the receiving tests read it (one shape for every inbound test file). */
export type { Receipt, ShipmentProduct as ShipmentLine, ShipmentRecord as Shipment } from './v1-inbound-helpers.js';

export interface WarehouseEntry {
  warehouseId: number;
  warehouseName: string;
  warehouseUniqueId: string;
  availableQuantity: number;
  updatedTs: string;
  inboundShipments: {
    inboundShipmentId: number;
    status: string;
    quantity: number;
    receivedQuantity: number;
    expectedDeliveryDate: string | null;
    tracking: string | null;
    carrier: string | null;
  }[];
}

export interface InventoryRecord {
  SKU: string;
  totalAvailableQuantity: number;
  warehouses: WarehouseEntry[];
  lastInventoryUpdateTs: string;
}

/** Creates a shipment (unknown SKUs created with it) and asserts it was accepted. */
export async function createShipment(
  t: TestApp,
  token: string,
  warehouseId: number,
  products: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
): Promise<ShipmentRecord> {
  return createShipmentFrom(t, token, {
    inbound_shipment_products: products,
    status: 'SHIPPED',
    vendor_name: 'Acme Ceramics',
    destination_warehouse_id: warehouseId,
    purchase_order_number: `PO-${Math.random().toString(36).slice(2, 10)}`,
    create_new_products: true,
    ...extra,
  });
}

export function receive(t: TestApp, token: string, shipmentId: number, products: unknown, url?: string): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: url ?? `/v1/inbound-shipment/${shipmentId}/receive`,
    headers: bearer(token),
    payload: { products } as object,
  });
}

/** Receives and asserts success; answers the record. */
export async function receiveOk(t: TestApp, token: string, shipmentId: number, products: unknown): Promise<ShipmentRecord> {
  const res = await receive(t, token, shipmentId, products);
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as ShipmentRecord;
}

export async function getShipment(t: TestApp, token: string, shipmentId: number): Promise<ShipmentRecord> {
  const res = await t.app.inject({ url: `/v1/inbound-shipment/${shipmentId}`, headers: bearer(token) });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as ShipmentRecord;
}

export async function inventoryRecord(t: TestApp, token: string, sku: string): Promise<InventoryRecord> {
  const res = await t.app.inject({ url: `/v1/inventory/${encodeURIComponent(sku)}`, headers: bearer(token) });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as InventoryRecord;
}

/** The stock counters of a SKU in a warehouse, straight from the database (zeros when there is no row). */
export async function counters(t: TestApp, accountId: number, sku: string, warehouseId: number) {
  const row = await t.deps.db.db
    .selectFrom('inventory as i')
    .innerJoin('products as p', 'p.id', 'i.product_id')
    .select(['i.available_quantity', 'i.onhand_quantity', 'i.reserved_quantity'])
    .where('i.account_id', '=', accountId)
    .where('p.sku', '=', sku)
    .where('i.warehouse_id', '=', warehouseId)
    .executeTakeFirst();
  return { available: row?.available_quantity ?? 0, onhand: row?.onhand_quantity ?? 0, reserved: row?.reserved_quantity ?? 0 };
}

/** The product's landed cost counters, straight from the database. */
export async function landedCost(t: TestApp, accountId: number, sku: string) {
  return t.deps.db.db
    .selectFrom('products')
    .select(['landed_cost', 'landed_cost_units', 'landed_cost_total'])
    .where('account_id', '=', accountId)
    .where('sku', '=', sku)
    .executeTakeFirstOrThrow();
}
