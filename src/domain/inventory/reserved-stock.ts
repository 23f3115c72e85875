import { sql } from 'kysely';
import type { Tx } from '../../db/tx.js';

/**
 * Stock held by order lines, as the inventory area keeps it: reserved_quantity of the counters and the
 * inventory_reservations ledger (one row per line and warehouse; POST /v1/inventory reads it for pulled_ts).
 * The orders area decides what to hold and calls these. Every counter change is ONE conditional UPDATE that
 * keeps available = on-hand − reserved and never takes available below zero, so parallel orders for the
 * last units cannot oversell and parallel releases never give back more than was held.
 */

/** Moves `units` from available to reserved when at least that many are available; false otherwise. */
export async function reserveStock(tx: Tx, accountId: number, productId: number, warehouseId: number, units: number, now: Date): Promise<boolean> {
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

/** Gives reserved units back to available; false when the counters hold fewer reserved units. */
export async function unreserveStock(tx: Tx, accountId: number, productId: number, warehouseId: number, units: number, now: Date): Promise<boolean> {
  const row = await tx
    .updateTable('inventory')
    .set((eb) => ({
      available_quantity: eb('available_quantity', '+', units),
      reserved_quantity: eb('reserved_quantity', '-', units),
      updated_at: now.toISOString(),
    }))
    .where('account_id', '=', accountId)
    .where('product_id', '=', productId)
    .where('warehouse_id', '=', warehouseId)
    .where('reserved_quantity', '>=', units)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Reserved units that left the warehouse: reserved and on-hand both drop, available stays. A stock count may
 * have set on-hand below what orders hold (available floored at zero): on-hand then floors at zero too, and
 * available stays max(0, on-hand − reserved), unchanged either way. Shipped assembled kits leave the seller's
 * assembled count too (null for other SKUs stays null). False when the counters hold fewer reserved units.
 */
export async function shipReservedStock(tx: Tx, accountId: number, productId: number, warehouseId: number, units: number, now: Date): Promise<boolean> {
  const row = await tx
    .updateTable('inventory')
    .set((eb) => ({
      reserved_quantity: eb('reserved_quantity', '-', units),
      assembled_quantity: sql<number | null>`case when ${eb.ref('assembled_quantity')} >= ${units} then ${eb.ref('assembled_quantity')} - ${units} when ${eb.ref('assembled_quantity')} is null then null else 0 end`,
      onhand_quantity: sql<number>`case when ${eb.ref('onhand_quantity')} >= ${units} then ${eb.ref('onhand_quantity')} - ${units} else 0 end`,
      available_quantity: sql<number>`case when ${eb.ref('onhand_quantity')} - ${eb.ref('reserved_quantity')} > 0 then ${eb.ref('onhand_quantity')} - ${eb.ref('reserved_quantity')} else 0 end`,
      updated_at: now.toISOString(),
    }))
    .where('account_id', '=', accountId)
    .where('product_id', '=', productId)
    .where('warehouse_id', '=', warehouseId)
    .where('reserved_quantity', '>=', units)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
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
    .values({ account_id: accountId, product_id: productId, warehouse_id: warehouseId, order_line_id: lineId, quantity: units, routed_at: now.toISOString() })
    .onConflict((oc) =>
      oc.columns(['account_id', 'order_line_id', 'warehouse_id']).doUpdateSet((eb) => ({
        quantity: eb('inventory_reservations.quantity', '+', eb.ref('excluded.quantity')),
      })),
    )
    .execute();
}

/** A line's ledger row in a warehouse holds `units` fewer (released or shipped). */
export async function reduceReservation(tx: Tx, accountId: number, lineId: number, warehouseId: number, units: number): Promise<void> {
  await tx
    .updateTable('inventory_reservations')
    .set((eb) => ({ quantity: eb('quantity', '-', units) }))
    .where('account_id', '=', accountId)
    .where('order_line_id', '=', lineId)
    .where('warehouse_id', '=', warehouseId)
    .where('quantity', '>=', units)
    .execute();
}

/** The candidate warehouse holding the most available units of the product (ties: lowest id), if any. */
export async function mostAvailable(tx: Tx, accountId: number, productId: number, candidates: number[]) {
  if (candidates.length === 0) return undefined;
  return tx
    .selectFrom('inventory')
    .select(['warehouse_id', 'available_quantity'])
    .where('account_id', '=', accountId)
    .where('product_id', '=', productId)
    .where('warehouse_id', 'in', candidates)
    .where('available_quantity', '>', 0)
    .orderBy('available_quantity', 'desc')
    .orderBy('warehouse_id')
    .limit(1)
    .executeTakeFirst();
}

/** Available units (> 0) of some products in some warehouses, keyed "warehouseId:productId". */
export async function availableUnits(tx: Tx, accountId: number, productIds: number[], warehouseIds: number[]): Promise<Map<string, number>> {
  if (productIds.length === 0 || warehouseIds.length === 0) return new Map();
  const rows = await tx
    .selectFrom('inventory')
    .select(['warehouse_id', 'product_id', 'available_quantity'])
    .where('account_id', '=', accountId)
    .where('product_id', 'in', productIds)
    .where('warehouse_id', 'in', warehouseIds)
    .where('available_quantity', '>', 0)
    .execute();
  return new Map(rows.map((r) => [`${r.warehouse_id}:${r.product_id}`, r.available_quantity]));
}
