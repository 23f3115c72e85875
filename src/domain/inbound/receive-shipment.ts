import type { Tx } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { listAccountWarehouses } from '../accounts/warehouses.js';
import { failedPrecondition, invalidField, notFound, permissionDenied } from '../errors.js';
import { applyStockChange } from '../inventory/stock.js';
import { holdStockClosure } from '../inventory/stock-locks.js';
import { AvailableStock, type BackorderPort } from '../inventory/backorder-port.js';
import { receivedByLabel, receiveRefusal } from './access.js';
import { allocateShipping, recordLandedCost } from './landed-cost.js';
import { RECEIVABLE_STATUSES, type InboundShipmentRow } from './model.js';
import { matchReceiptLines, outstandingOf, overReceiptMessage, type ReceiptLine, type ReceiveProductInput, type ShipmentLine } from './receipt-lines.js';
import { findVisibleShipment } from './view.js';

export type { ReceiveProductInput } from './receipt-lines.js';

/** POST /v1/inbound-shipment/{id}/receive (resolutions §8): what arrived. */
export interface ReceiveShipmentInput {
  products: ReceiveProductInput[];
}

/**
 * Records units that arrived on a shipment the caller sees (404 otherwise), in the caller's transaction.
 * Answers the shipment row after the receipt. `backorders` fills the orders waiting for the stock received
 * (src/domain/fulfillment/backorder-port.ts, passed by the edges like every stock writer's).
 */
export async function receiveShipment(
  tx: Tx,
  principal: Principal,
  shipmentId: number,
  input: ReceiveShipmentInput,
  now: Date,
  backorders: BackorderPort,
): Promise<InboundShipmentRow> {
  const shipment = await findVisibleShipment(tx, principal, shipmentId);
  return receiveIntoShipment(tx, principal, shipment, input.products, now, 'products', backorders);
}

/**
 * One receipt, all or nothing (the caller's transaction):
 * 1. the warehouse rule: a warehouse controlled by an inventory or 3PL integration is received only by that
 *    integration's token (403 otherwise), like any stock change there;
 * 2. a conditional UPDATE of the shipment row while it is receivable (PENDING, SHIPPED, PARTIALLY_RECEIVED;
 *    else 400 naming its status). On PostgreSQL it also holds the row, so parallel receipts of one shipment
 *    run one after the other and each reads the lines as the previous one left them;
 * 3. each line's received_quantity rises by ONE conditional UPDATE that never passes the quantity sent, so
 *    no interleaving can receive more than was sent; a line without that many outstanding fails the call
 *    with a 400 naming it, and the transaction rolls back;
 * 4. the receipt and its lines (unit cost, shipping share) are stored;
 * 5. per product: on-hand and available rise (applyStockChange delta: the inventory timestamps move, so
 *    GET /v1/inventory and the storefront polls see it), backorders waiting in that warehouse are reserved
 *    oldest order first, and the landed cost takes the units in;
 * 6. the status becomes RECEIVED when every line is fully received, else PARTIALLY_RECEIVED.
 */
export async function receiveIntoShipment(
  tx: Tx,
  principal: Principal,
  shipment: InboundShipmentRow,
  entries: readonly ReceiveProductInput[],
  now: Date,
  fieldPrefix: string,
  backorders: BackorderPort,
): Promise<InboundShipmentRow> {
  const accountId = principal.accountId;
  const iso = now.toISOString();
  const warehouse = (await listAccountWarehouses(tx, accountId)).find((w) => w.id === shipment.warehouse_id);
  if (!warehouse) throw notFound(`warehouse ${shipment.warehouse_id} of inbound shipment ${shipment.id} not found`);
  const refusal = receiveRefusal(principal, warehouse);
  if (refusal !== null) throw permissionDenied(refusal).because('inbound.controlled_by_app', { warehouse: warehouse.name });

  const held = await tx
    .updateTable('inbound_shipments')
    .set({ updated_at: iso })
    .where('account_id', '=', accountId)
    .where('id', '=', shipment.id)
    .where('status', 'in', [...RECEIVABLE_STATUSES])
    .returningAll()
    .executeTakeFirst();
  if (!held) {
    const current = await tx
      .selectFrom('inbound_shipments')
      .select('status')
      .where('account_id', '=', accountId)
      .where('id', '=', shipment.id)
      .executeTakeFirstOrThrow();
    throw failedPrecondition(
      `inbound shipment ${shipment.id} is ${current.status}; only a ${RECEIVABLE_STATUSES.join(', ')} shipment can be received`,
    ).because('inbound.not_receivable', { status: current.status });
  }

  const lines = await shipmentLines(tx, accountId, shipment.id);
  const receipt = matchReceiptLines(shipment.id, lines, entries, fieldPrefix);
  for (const r of receipt) await addReceived(tx, accountId, r);

  const shares = allocateShipping({
    shippingCost: held.shipping_cost,
    shipmentUnits: lines.reduce((n, l) => n + l.quantity, 0),
    receivedBefore: lines.reduce((n, l) => n + l.received_quantity, 0),
    allocatedBefore: await allocatedShipping(tx, accountId, shipment.id),
    lineUnits: receipt.map((r) => r.units),
  });
  const receiptRow = await tx
    .insertInto('inbound_receipts')
    .values({ account_id: accountId, shipment_id: shipment.id, received_by: receivedByLabel(principal), received_at: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx
    .insertInto('inbound_receipt_lines')
    .values(
      receipt.map((r, i) => ({
        account_id: accountId,
        receipt_id: receiptRow.id,
        shipment_line_id: r.line.id,
        product_id: r.line.product_id,
        quantity: r.units,
        unit_item_cost: r.unitItemCost,
        shipping_cost: shares[i]!,
      })),
    )
    .execute();

  // Product-id order, so two receipts touching the same products lock their stock rows in the same order.
  const byProduct = receipt.map((r, i) => ({ r, share: shares[i]! })).sort((a, b) => a.r.line.product_id - b.r.line.product_id);
  await holdStockClosure(tx, accountId, byProduct.map(({ r }) => ({ productId: r.line.product_id, warehouseId: shipment.warehouse_id })));
  const available = new AvailableStock();
  for (const { r, share } of byProduct) {
    const productId = r.line.product_id;
    const stocked = await applyStockChange(tx, accountId, productId, shipment.warehouse_id, { mode: 'delta', delta: r.units }, now);
    if (!stocked.ok) throw new Error(`receiving ${r.units} units of product ${productId} failed: ${stocked.message}`);
    available.note(productId, shipment.warehouse_id, stocked.row.available);
    await recordLandedCost(tx, accountId, productId, { units: r.units, unitItemCost: r.unitItemCost, shippingShare: share });
  }
  // The orders waiting for these SKUs get them, oldest first: backorders in this warehouse, kits built from
  // the components received, and lines that waited for their SKU to be known (as any stock change does).
  await available.release(tx, accountId, now, backorders);

  const receivedNow = new Map(receipt.map((r) => [r.line.id, r.units]));
  const complete = lines.every((l) => l.received_quantity + (receivedNow.get(l.id) ?? 0) >= l.quantity);
  return tx
    .updateTable('inbound_shipments')
    .set(complete ? { status: 'RECEIVED', received_at: iso, updated_at: iso } : { status: 'PARTIALLY_RECEIVED', updated_at: iso })
    .where('account_id', '=', accountId)
    .where('id', '=', shipment.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The shipment's lines with their SKUs, as they are now (read after the shipment row is held). */
function shipmentLines(tx: Tx, accountId: number, shipmentId: number): Promise<ShipmentLine[]> {
  return tx
    .selectFrom('inbound_shipment_lines as l')
    .innerJoin('products as p', (j) => j.onRef('p.id', '=', 'l.product_id').on('p.account_id', '=', accountId))
    .select(['l.id', 'l.product_id', 'p.sku', 'l.quantity', 'l.received_quantity', 'l.unit_item_cost'])
    .where('l.account_id', '=', accountId)
    .where('l.shipment_id', '=', shipmentId)
    .orderBy('l.id')
    .execute();
}

/** received_quantity += units, only while it stays within the quantity sent; a 400 otherwise. */
async function addReceived(tx: Tx, accountId: number, r: ReceiptLine): Promise<void> {
  const units = r.units;
  const updated = await tx
    .updateTable('inbound_shipment_lines')
    .set((eb) => ({ received_quantity: eb('received_quantity', '+', units) }))
    .where('account_id', '=', accountId)
    .where('id', '=', r.line.id)
    .where((eb) => eb(eb('received_quantity', '+', units), '<=', eb.ref('quantity')))
    .returning('id')
    .executeTakeFirst();
  if (updated) return;
  const now = await tx
    .selectFrom('inbound_shipment_lines')
    .select(['quantity', 'received_quantity'])
    .where('account_id', '=', accountId)
    .where('id', '=', r.line.id)
    .executeTakeFirstOrThrow();
  const line = { ...r.line, ...now };
  throw invalidField(`${r.field}.quantity`, outstandingOf(line) < units ? overReceiptMessage(line, units) : `line "${line.sku}" changed meanwhile; send the receipt again`).because(
    'inbound.over_receipt',
    { lines: [{ sku: line.sku, left: outstandingOf(line), asked: units }] },
  );
}

/** The shipping shares earlier receipts of the shipment carried. */
async function allocatedShipping(tx: Tx, accountId: number, shipmentId: number): Promise<string[]> {
  const rows = await tx
    .selectFrom('inbound_receipt_lines as rl')
    .innerJoin('inbound_receipts as r', 'r.id', 'rl.receipt_id')
    .select('rl.shipping_cost')
    .where('r.account_id', '=', accountId)
    .where('r.shipment_id', '=', shipmentId)
    .where('rl.account_id', '=', accountId)
    .execute();
  return rows.map((r) => r.shipping_cost);
}
