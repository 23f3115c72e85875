import type { Tx } from '../../db/tx.js';

/**
 * Stock held by order lines. The inventory counters are the inventory area's table, but their
 * reserved_quantity column is maintained here (schema.ts says so); every change is ONE conditional
 * UPDATE that keeps available = on-hand − reserved and never takes available below zero, so parallel
 * orders for the last units cannot oversell. The inventory_reservations ledger (one row per line and
 * warehouse) is what POST /v1/inventory reads for pulled_ts.
 */

/** Moves `units` from available to reserved when at least that many are available; false otherwise. */
export async function reserveUnits(
  tx: Tx,
  accountId: number,
  productId: number,
  warehouseId: number,
  units: number,
  now: Date,
): Promise<boolean> {
  const updated = await tx
    .updateTable('inventory')
    .set((eb) => ({
      available_quantity: eb('available_quantity', '-', units),
      reserved_quantity: eb('reserved_quantity', '+', units),
      updated_at: now.toISOString(),
    }))
    .where('account_id', '=', accountId)
    .where('product_id', '=', productId)
    .where('warehouse_id', '=', warehouseId)
    .where('available_quantity', '>=', units)
    .returning('id')
    .executeTakeFirst();
  return updated !== undefined;
}

/** Records a line's reservation in the ledger (one row per line and warehouse; quantities add up). */
export async function recordReservation(
  tx: Tx,
  accountId: number,
  productId: number,
  warehouseId: number,
  lineId: number,
  units: number,
  now: Date,
): Promise<void> {
  await tx
    .insertInto('inventory_reservations')
    .values({
      account_id: accountId,
      product_id: productId,
      warehouse_id: warehouseId,
      order_line_id: lineId,
      quantity: units,
      routed_at: now.toISOString(),
    })
    .onConflict((oc) =>
      oc.columns(['account_id', 'order_line_id', 'warehouse_id']).doUpdateSet((eb) => ({
        quantity: eb('inventory_reservations.quantity', '+', eb.ref('excluded.quantity')),
      })),
    )
    .execute();
}

/**
 * Routing a line changes the stock a channel can sell, so the product's inventory timestamp moves like
 * any other stock change (it orders GET /v1/inventory and feeds inventory polls).
 */
export async function touchProductInventory(tx: Tx, accountId: number, productId: number, now: Date): Promise<void> {
  const iso = now.toISOString();
  await tx
    .updateTable('products')
    .set({ inventory_updated_at: iso })
    .where('account_id', '=', accountId)
    .where('id', '=', productId)
    .where('inventory_updated_at', '<', iso)
    .execute();
}
