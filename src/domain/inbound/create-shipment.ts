import type { Tx } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { listAccountWarehouses } from '../accounts/warehouses.js';
import { findOrCreateProduct, findProductsBySkus } from '../catalog/products.js';
import { invalidField, invalidFields, isAppError, permissionDenied, type FieldViolation } from '../errors.js';
import { canSeeWarehouse, receiveRefusal } from './access.js';
import { costInput, deliveryDateInput, optionalShortText } from './inputs.js';
import { type InboundShipmentRow, type InboundStatus } from './model.js';
import { receiveIntoShipment } from './receive-shipment.js';
import type { BackorderPort } from '../inventory/backorder-port.js';
import { findOrCreateVendorByName, getVendor } from './vendors.js';
import { accountFilterById } from '../../db/tenancy.js';

/** One entry of `inbound_shipment_products` (document 2.5): by sku or product_id. */
export interface ShipmentProductInput {
  product_id?: number | undefined;
  sku?: string | undefined;
  quantity: number;
  unit_item_cost?: number | string | null | undefined;
  /** Units already arrived (a shipment created RECEIVED or PARTIALLY_RECEIVED); 0..quantity. */
  received_quantity?: number | undefined;
}

/** POST /v1/inbound-shipment (document 2.5 plus the documented additions). */
export interface CreateShipmentInput {
  inbound_shipment_products: ShipmentProductInput[];
  status: InboundStatus;
  vendor_name: string;
  vendor_id?: number | undefined;
  destination_warehouse_id: number;
  purchase_order_number: string;
  shipping_cost?: number | string | null | undefined;
  expected_delivery_date?: string | null | undefined;
  tracking?: string | null | undefined;
  carrier?: string | null | undefined;
  /** Unknown SKUs are refused unless the seller asks for them to be created. */
  create_new_products?: boolean | undefined;
}

interface ResolvedLine {
  productId: number;
  quantity: number;
  unitItemCost: string | null;
}

/** Products of the entries, in order; every problem at once, nothing created unless all else is valid. */
async function resolveProducts(tx: Tx, accountId: number, input: CreateShipmentInput, now: Date): Promise<ResolvedLine[]> {
  const entries = input.inbound_shipment_products;
  const violations: FieldViolation[] = [];
  const skus = [...new Set(entries.flatMap((e) => (e.sku !== undefined ? [e.sku] : [])))];
  const ids = [...new Set(entries.flatMap((e) => (e.product_id !== undefined ? [e.product_id] : [])))];
  const bySku = new Map((await findProductsBySkus(tx, accountId, skus, true)).map((p) => [p.sku, p.id]));
  const byId = new Map(
    ids.length === 0
      ? []
      : (await tx.selectFrom('products').select(['id', 'sku']).where(accountFilterById(accountId)).where('id', 'in', ids).execute()).map(
          (p) => [p.id, p.sku] as const,
        ),
  );
  const toCreate: { index: number; sku: string }[] = [];
  const resolved: (number | null)[] = [];
  const costs: (string | null)[] = [];
  entries.forEach((entry, index) => {
    const field = `inbound_shipment_products[${index}]`;
    resolved.push(null);
    costs.push(null);
    try {
      costs[index] = costInput(`${field}.unit_item_cost`, entry.unit_item_cost);
    } catch (error) {
      if (!isAppError(error)) throw error;
      violations.push(...error.violations);
    }
    if (entry.sku === undefined && entry.product_id === undefined) {
      violations.push({ field, description: 'needs sku or product_id' });
      return;
    }
    if (entry.product_id !== undefined) {
      const sku = byId.get(entry.product_id);
      if (sku === undefined) {
        violations.push({ field: `${field}.product_id`, description: `product ${entry.product_id} not found in this account` });
        return;
      }
      if (entry.sku !== undefined && entry.sku !== sku) {
        violations.push({ field: `${field}.sku`, description: `"${entry.sku}" is not the SKU of product ${entry.product_id} ("${sku}")` });
        return;
      }
      resolved[index] = entry.product_id;
      return;
    }
    const sku = entry.sku!;
    const id = bySku.get(sku);
    if (id !== undefined) resolved[index] = id;
    else if (input.create_new_products) toCreate.push({ index, sku });
    else {
      violations.push({
        field: `${field}.sku`,
        description: `"${sku}" is not in the catalog; send create_new_products: true to create it with the shipment`,
      });
    }
  });
  const seen = new Map<number, number>();
  resolved.forEach((id, index) => {
    if (id === null) return;
    const earlier = seen.get(id);
    if (earlier !== undefined) {
      violations.push({ field: `inbound_shipment_products[${index}]`, description: `names the same product as entry ${earlier}; give each SKU once` });
    } else seen.set(id, index);
  });
  const newSkus = new Map<string, number>();
  for (const { index, sku } of toCreate) {
    const earlier = newSkus.get(sku);
    if (earlier !== undefined) {
      violations.push({ field: `inbound_shipment_products[${index}]`, description: `names the same product as entry ${earlier}; give each SKU once` });
    } else newSkus.set(sku, index);
  }
  if (violations.length > 0) throw invalidFields(violations);
  for (const { index, sku } of toCreate) resolved[index] = (await findOrCreateProduct(tx, accountId, sku, {}, now)).product.id;
  return entries.map((entry, index) => ({ productId: resolved[index]!, quantity: entry.quantity, unitItemCost: costs[index] ?? null }));
}

/**
 * Creates a shipment in the status sent (document 3.1). The destination must be a warehouse of the account
 * that the caller sees; the vendor is found by name (created when new), or by vendor_id whose name must match.
 * A shipment created RECEIVED or PARTIALLY_RECEIVED takes its arrived units in through the same receipt as
 * POST /v1/inbound-shipment/{id}/receive, in this transaction: stock, backorders, landed costs.
 */
export async function createInboundShipment(
  tx: Tx,
  principal: Principal,
  input: CreateShipmentInput,
  now: Date,
  backorders: BackorderPort,
): Promise<InboundShipmentRow> {
  const accountId = principal.accountId;
  const received = receivedAtCreate(input);
  const shippingCost = costInput('shipping_cost', input.shipping_cost);
  const expectedDelivery = deliveryDateInput('expected_delivery_date', input.expected_delivery_date) ?? null;
  const purchaseOrderNumber = input.purchase_order_number.trim();
  if (purchaseOrderNumber === '') throw invalidField('purchase_order_number', 'must not be blank');

  const warehouse = (await listAccountWarehouses(tx, accountId)).find((w) => w.id === input.destination_warehouse_id);
  if (!warehouse) throw invalidField('destination_warehouse_id', `warehouse ${input.destination_warehouse_id} not found in this account`);
  if (!canSeeWarehouse(principal, warehouse.id)) {
    throw invalidField(
      'destination_warehouse_id',
      `warehouse ${warehouse.id} is not mapped to this token's integration (scope inventory:self sees only its own warehouses)`,
    );
  }
  // Units that already arrived are a receipt: the same warehouse rule as POST /v1/inbound-shipment/{id}/receive.
  const refusal = received.some((n) => n > 0) ? receiveRefusal(principal, warehouse) : null;
  if (refusal !== null) throw permissionDenied(refusal);
  let vendor;
  if (input.vendor_id !== undefined) {
    // A body reference that names nothing is bad input (400); any other failure (the database) stays what it is.
    vendor = await getVendor(tx, accountId, input.vendor_id).catch((error: unknown) => {
      if (isAppError(error) && error.code === 'NOT_FOUND') throw invalidField('vendor_id', `vendor ${input.vendor_id} not found in this account`);
      throw error;
    });
    if (vendor.name_lower !== input.vendor_name.trim().toLowerCase()) {
      throw invalidField('vendor_name', `"${input.vendor_name}" is not the name of vendor ${vendor.id} ("${vendor.name}")`);
    }
    if (vendor.archived_at !== null) throw invalidField('vendor_id', `vendor ${vendor.id} ("${vendor.name}") is archived; restore it first`);
  } else {
    vendor = (await findOrCreateVendorByName(tx, accountId, input.vendor_name, now)).vendor;
  }
  const lines = await resolveProducts(tx, accountId, input, now);

  const iso = now.toISOString();
  const row = await tx
    .insertInto('inbound_shipments')
    .values({
      account_id: accountId,
      vendor_id: vendor.id,
      warehouse_id: warehouse.id,
      // A shipment created with units received starts PENDING and takes them in through a receipt below,
      // which sets PARTIALLY_RECEIVED or RECEIVED (checked to be the status asked for).
      status: received.some((n) => n > 0) ? 'PENDING' : input.status,
      purchase_order_number: purchaseOrderNumber,
      shipping_cost: shippingCost,
      expected_delivery_date: expectedDelivery,
      tracking: optionalShortText(input.tracking) ?? null,
      carrier: optionalShortText(input.carrier) ?? null,
      created_at: iso,
      updated_at: iso,
      shipped_at: input.status === 'SHIPPED' ? iso : null,
      received_at: null,
      cancelled_at: input.status === 'CANCELLED' ? iso : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await tx
    .insertInto('inbound_shipment_lines')
    .values(
      lines.map((l) => ({
        account_id: accountId,
        shipment_id: row.id,
        product_id: l.productId,
        quantity: l.quantity,
        unit_item_cost: l.unitItemCost,
      })),
    )
    .execute();
  if (!received.some((n) => n > 0)) return row;
  const arrived = lines.flatMap((l, index) => (received[index]! > 0 ? [{ product_id: l.productId, quantity: received[index]! }] : []));
  return receiveIntoShipment(tx, principal, row, arrived, now, 'inbound_shipment_products', backorders);
}

/**
 * Units received per entry for the status sent: RECEIVED means every unit arrived (received_quantity defaults
 * to quantity, a smaller one is refused); PARTIALLY_RECEIVED needs some units arrived but not all (default 0);
 * any other status takes none. Every problem at once.
 */
function receivedAtCreate(input: CreateShipmentInput): number[] {
  const entries = input.inbound_shipment_products;
  const violations: FieldViolation[] = [];
  const received = entries.map((entry, index) => {
    const field = `inbound_shipment_products[${index}].received_quantity`;
    const given = entry.received_quantity;
    if (given !== undefined && given > entry.quantity) {
      violations.push({ field, description: `${given} is more than the ${entry.quantity} units sent` });
      return 0;
    }
    if (input.status === 'RECEIVED') {
      if (given !== undefined && given < entry.quantity) {
        violations.push({
          field,
          description: `a RECEIVED shipment has every unit received: send ${entry.quantity} (or leave it out), or send status PARTIALLY_RECEIVED`,
        });
      }
      return entry.quantity;
    }
    if (input.status === 'PARTIALLY_RECEIVED') return given ?? 0;
    if (given !== undefined && given > 0) {
      violations.push({
        field,
        description: `a ${input.status} shipment has nothing received yet: send status PARTIALLY_RECEIVED or RECEIVED, or record the units later with POST /v1/inbound-shipment/{id}/receive`,
      });
    }
    return 0;
  });
  if (violations.length === 0 && input.status === 'PARTIALLY_RECEIVED') {
    if (received.every((n) => n === 0)) {
      violations.push({
        field: 'inbound_shipment_products',
        description: 'a PARTIALLY_RECEIVED shipment needs received_quantity of at least 1 on some product (or send status PENDING or SHIPPED)',
      });
    } else if (received.every((n, index) => n === entries[index]!.quantity)) {
      violations.push({ field: 'status', description: 'every unit of every product is received: send status RECEIVED' });
    }
  }
  if (violations.length > 0) throw invalidFields(violations);
  return received;
}
