import type { Tx } from '../../db/tx.js';
import { reduceReservation, unreserveStock } from '../inventory/reserved-stock.js';
import { touchProductInventory } from '../inventory/stock-touch.js';
import { takeKitComponentUnits } from './kit-routing.js';

/**
 * Units a line holds on its routes. The stock they hold is the inventory area's (src/domain/inventory/
 * reserved-stock.ts); this file moves units onto and off routes and tells the inventory area what to give back.
 */

export interface ReleaseRouteUnitsInput {
  accountId: number;
  routeId: number;
  /** Units wanted; fewer are released when the route holds fewer (a parallel change took them). */
  quantity: number;
  now: Date;
  /**
   * false (default): the units become cancelled_quantity on the route (a cancellation).
   * true: they leave the route (its quantity drops) because they are placed elsewhere (a re-route).
   */
  reroute?: boolean;
}

/** Bounded re-reads after losing a race on the route row. */
const MAX_RELEASE_ATTEMPTS = 20;

/**
 * Takes up to `quantity` units off a route that are still owed (backorder first: they hold no stock, then
 * reserved units, whose stock goes back to available: inventory reserved −= n, available += n, ledger row
 * −= n). Each counter moves by ONE conditional UPDATE, so two parallel releases of the same route never
 * release more than it held: the loser re-reads and takes what is left. Returns how many were released.
 */
export async function releaseRouteUnits(tx: Tx, input: ReleaseRouteUnitsInput): Promise<number> {
  const { accountId, routeId, now } = input;
  const iso = now.toISOString();
  let released = 0;
  for (let attempt = 0; released < input.quantity && attempt < MAX_RELEASE_ATTEMPTS; attempt++) {
    const route = await tx
      .selectFrom('order_line_routes')
      .select(['id', 'line_id', 'warehouse_id', 'product_id', 'reserved_quantity', 'backorder_quantity'])
      .where('account_id', '=', accountId)
      .where('id', '=', routeId)
      .executeTakeFirst();
    if (!route) break;
    const wanted = input.quantity - released;
    const fromBackorder = Math.min(wanted, route.backorder_quantity);
    const fromReserved = Math.min(wanted - fromBackorder, route.reserved_quantity);
    const take = fromBackorder + fromReserved;
    if (take === 0) break;
    const moved = await tx
      .updateTable('order_line_routes')
      .set((eb) => ({
        backorder_quantity: eb('backorder_quantity', '-', fromBackorder),
        reserved_quantity: eb('reserved_quantity', '-', fromReserved),
        ...(input.reroute ? { quantity: eb('quantity', '-', take) } : { cancelled_quantity: eb('cancelled_quantity', '+', take) }),
        updated_at: iso,
      }))
      .where('account_id', '=', accountId)
      .where('id', '=', routeId)
      .where('backorder_quantity', '>=', fromBackorder)
      .where('reserved_quantity', '>=', fromReserved)
      .returning('id')
      .executeTakeFirst();
    if (!moved) continue;
    // A kit route gives back component-built kits first (their components); the rest is the route's own SKU.
    const ownUnits =
      fromReserved > 0
        ? await takeKitComponentUnits(tx, { accountId, routeId, warehouseId: route.warehouse_id, kits: fromReserved, mode: 'release', leavingRoute: input.reroute === true, now })
        : 0;
    if (ownUnits > 0) {
      await unreserveStock(tx, accountId, route.product_id, route.warehouse_id, ownUnits, now);
      await reduceReservation(tx, accountId, route.line_id, route.warehouse_id, ownUnits);
      await touchProductInventory(tx, accountId, route.product_id, now);
    }
    released += take;
  }
  return released;
}

/**
 * Puts `units` reserved units of a line on its route in `warehouseId` (a new route, or added to the one there):
 * the re-route of a rejected fulfillment order's units (src/domain/fulfillment/reroute.ts) and a seller's
 * re-route of a line (reroute.ts), after they reserved the stock and recorded the reservation.
 */
export async function addReservedUnitsToRoute(
  tx: Tx,
  accountId: number,
  route: { order_id: number; line_id: number; product_id: number },
  warehouseId: number,
  units: number,
  now: Date,
): Promise<void> {
  const iso = now.toISOString();
  await tx
    .insertInto('order_line_routes')
    .values({
      account_id: accountId,
      order_id: route.order_id,
      line_id: route.line_id,
      warehouse_id: warehouseId,
      product_id: route.product_id,
      quantity: units,
      reserved_quantity: units,
      backorder_quantity: 0,
      shipped_quantity: 0,
      cancelled_quantity: 0,
      assembled_quantity: null,
      routed_at: iso,
      updated_at: iso,
    })
    .onConflict((oc) =>
      oc.columns(['account_id', 'line_id', 'warehouse_id']).doUpdateSet((eb) => ({
        quantity: eb('order_line_routes.quantity', '+', eb.ref('excluded.quantity')),
        reserved_quantity: eb('order_line_routes.reserved_quantity', '+', eb.ref('excluded.reserved_quantity')),
        updated_at: iso,
      })),
    )
    .execute();
}
