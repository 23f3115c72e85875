import type { Tx } from '../../db/tx.js';
import { sellerPrincipalFor } from '../accounts/principal.js';
import { canUpdateInventory, listAccountWarehouses, type WarehouseRow } from '../accounts/warehouses.js';
import { conflict, failedPrecondition, invalidField } from '../errors.js';
import { restockUnits } from '../inventory/restock.js';
import { fillBackorders } from './fill-backorders.js';
import { findReturn, type ReturnRow } from './returns-find.js';
import { recomputeOrderStatus } from './status.js';

/**
 * Receiving a return (resolutions §6, issue 23): the units are back with the seller. They count as returned on
 * their lines (the order is RETURNED once every shipped unit is back and nothing is owed), and the seller
 * chooses what happens to them:
 * - put back in stock in one warehouse of the account whose stock the seller may change (not one an inventory
 *   or 3PL integration controls: that integration counts its own stock, so the choice is a 409 there). The
 *   units are added to on-hand and available with the inventory area's conditional UPDATE (the inventory
 *   timestamps move, so stock polls and callbacks see them), and backorders waiting in that warehouse for the
 *   SKU are filled, oldest order first, in the same transaction;
 * - or not restocked (damaged, kept by the buyer, or counted by the warehouse's next stock update): stock is
 *   unchanged. This is also what a receipt without a choice means, as before restocking existed.
 * A kit line's units go back as the kit SKU itself (an assembled kit: it came back whole), never as its
 * components, whose count the seller would otherwise have to guess.
 *
 * The receipt is claimed by one conditional UPDATE (received_ts still null), so two receipts of one return,
 * in parallel or one after the other, restock once: the second changes nothing. Receiving again with the
 * same choice answers as the first did; with another choice it is a 409 saying what was recorded. A return
 * closed before it was received (cancelled) cannot be received.
 */

export interface ReceiveReturnInput {
  /** The warehouse to put the units back into; null = not restocked. */
  restockWarehouseId: number | null;
}

export interface ReturnReceipt {
  /** True when the return had been received already: nothing changed. */
  alreadyReceived: boolean;
  restock: { warehouseId: number; warehouseName: string; units: number } | null;
  /** Units of waiting backorders the restock filled. */
  backorderUnitsFilled: number;
}

interface ReturnedItem {
  line_id: number;
  quantity: number;
  product_id: number | null;
  requested_sku: string;
}

export async function receiveReturn(tx: Tx, accountId: number, orderId: number, returnId: number, input: ReceiveReturnInput, now: Date): Promise<ReturnReceipt> {
  const found = await findReturn(tx, accountId, orderId, returnId);
  if (found.received_ts !== null) return replayOf(tx, accountId, found, input);
  if (found.cancelled === 1) throw failedPrecondition(`return ${returnId} was closed without being received; it cannot be received now`).because('order.return_closed', {});

  const items: ReturnedItem[] = await tx
    .selectFrom('sales_order_return_items as i')
    .innerJoin('sales_order_lines as l', (j) => j.onRef('l.id', '=', 'i.line_id').on('l.account_id', '=', accountId))
    .select(['i.line_id', 'i.quantity', 'l.product_id', 'l.requested_sku'])
    .where('i.account_id', '=', accountId)
    .where('i.return_id', '=', returnId)
    .orderBy('i.id')
    .execute();
  const warehouse = input.restockWarehouseId === null ? null : await restockTarget(tx, accountId, input.restockWarehouseId, items);
  const units = items.reduce((n, i) => n + i.quantity, 0);

  const iso = now.toISOString();
  const claimed = await tx
    .updateTable('sales_order_returns')
    .set({ received_ts: iso, restock_warehouse_id: warehouse?.id ?? null, restocked_quantity: warehouse === null ? 0 : units })
    .where('account_id', '=', accountId)
    .where('id', '=', returnId)
    .where('received_ts', 'is', null)
    .where('cancelled', '=', 0)
    .returning('id')
    .executeTakeFirst();
  if (!claimed) {
    // A parallel receipt or close got there first: answer as if this call came second.
    const current = await findReturn(tx, accountId, orderId, returnId);
    if (current.received_ts !== null) return replayOf(tx, accountId, current, input);
    throw failedPrecondition(`return ${returnId} was closed without being received; it cannot be received now`).because('order.return_closed', {});
  }

  for (const item of items) {
    await tx
      .updateTable('sales_order_lines')
      .set((eb) => ({ returned_quantity: eb('returned_quantity', '+', item.quantity), updated_at: iso }))
      .where('account_id', '=', accountId)
      .where('id', '=', item.line_id)
      .execute();
  }
  let filled = 0;
  if (warehouse !== null) {
    // Product-id order, so two receipts (or a receipt and an inbound shipment) lock stock rows in one order.
    const byProduct = new Map<number, number>();
    for (const item of items) byProduct.set(item.product_id!, (byProduct.get(item.product_id!) ?? 0) + item.quantity);
    for (const [productId, quantity] of [...byProduct].sort((a, b) => a[0] - b[0])) {
      await restockUnits(tx, accountId, productId, warehouse.id, quantity, now);
      const fills = await fillBackorders(tx, accountId, productId, warehouse.id, now);
      filled += fills.reduce((n, f) => n + f.units, 0);
    }
  }
  await recomputeOrderStatus(tx, accountId, orderId, now);
  return {
    alreadyReceived: false,
    restock: warehouse === null ? null : { warehouseId: warehouse.id, warehouseName: warehouse.name, units },
    backorderUnitsFilled: filled,
  };
}

/**
 * The warehouse the seller chose, checked before anything changes: one of the account's (an unknown id, or
 * another account's, is a 400 like any bad field), whose stock the seller may change (409 otherwise), and
 * every returned line must be a catalog SKU (a line the catalog does not know has no stock to add to).
 */
async function restockTarget(tx: Tx, accountId: number, warehouseId: number, items: ReturnedItem[]): Promise<WarehouseRow> {
  const warehouse = (await listAccountWarehouses(tx, accountId)).find((w) => w.id === warehouseId);
  if (!warehouse) throw invalidField('restockWarehouseId', `unknown warehouse id ${warehouseId}`).because('order.restock_unknown_warehouse', {});
  if (!canUpdateInventory(sellerPrincipalFor(accountId), warehouse)) {
    throw conflict(
      `restockWarehouseId: the stock of warehouse ${warehouse.id} ("${warehouse.name}") is controlled by an integration ` +
        `(installation ${warehouse.controlledBy}); only that integration may change it. Restock into another warehouse, ` +
        'or receive the return without restocking and let the integration count the units',
    ).because('order.restock_controlled_by_app', { warehouse: warehouse.name });
  }
  const unknown = items.find((i) => i.product_id === null);
  if (unknown) {
    throw invalidField(
      'restockWarehouseId',
      `line item ${unknown.line_id} (SKU "${unknown.requested_sku}") is not in the catalog, so its units cannot go back in stock; receive the return without restocking`,
    ).because('order.restock_not_in_catalog', { sku: unknown.requested_sku });
  }
  return warehouse;
}

/** A return received already: the same choice again changes nothing; another choice is a 409 saying what was recorded. */
async function replayOf(tx: Tx, accountId: number, found: ReturnRow, input: ReceiveReturnInput): Promise<ReturnReceipt> {
  const recorded = found.restock_warehouse_id;
  const warehouse = recorded === null ? undefined : (await listAccountWarehouses(tx, accountId)).find((w) => w.id === recorded);
  const what =
    recorded === null
      ? 'its units were not put back in stock'
      : `its ${found.restocked_quantity} units were put back in stock in warehouse ${recorded}${warehouse ? ` ("${warehouse.name}")` : ''}`;
  if (recorded !== input.restockWarehouseId) {
    throw conflict(`return ${found.id} was already received at ${found.received_ts} and ${what}; receiving it again changes nothing`).because(
      'order.return_received_otherwise',
      { restockedIn: recorded === null ? null : (warehouse?.name ?? null) },
    );
  }
  return {
    alreadyReceived: true,
    restock: recorded === null ? null : { warehouseId: recorded, warehouseName: warehouse?.name ?? `warehouse ${recorded}`, units: found.restocked_quantity },
    backorderUnitsFilled: 0,
  };
}
