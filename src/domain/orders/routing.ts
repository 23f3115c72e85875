import { sql, type Selectable } from 'kysely';
import type { OrderLineRoutesTable } from '../../db/schema.js';
import type { Tx } from '../../db/tx.js';
import type { WarehouseRow } from '../accounts/warehouses.js';
import { kitRecipe } from '../catalog/kits.js';
import { recordKitRoute, reserveKitComponents } from './kit-routing.js';
import { touchProductInventory } from '../inventory/stock-touch.js';
import { holdStockRow, mostAvailable, recordReservation, reserveStock } from '../inventory/reserved-stock.js';

/**
 * Routing (DESIGN.md "Domain model"): a line goes to the warehouse with the most available units of its
 * SKU (ties: lowest warehouse id); when none holds enough, it is split across warehouses by descending
 * availability; whatever is left goes to the account's default warehouse as a backorder.
 *
 * - Channel-fulfilled warehouses are candidates only when the order says the channel fulfils it
 *   (fba or channelWillFulfill).
 * - The default warehouse is the account's lowest-id warehouse that is not channel-fulfilled. An account
 *   without one leaves the remainder unrouted: the line keeps it as unrouted_quantity, counted as
 *   backordered, with an alert on the order until stock of the SKU routes it (route-unrouted-lines.ts).
 * - A backorder reserves nothing: the units sit on the route as backorder_quantity, so available never
 *   goes negative and available = on-hand − reserved still holds. They are shown in routing_info like
 *   any routed units, and stock arriving in that warehouse fills them (fill-backorders.ts).
 * - Each placement is a conditional reservation; when a parallel order took the units first, the
 *   candidates are read again, so the outcome is as if the orders had run one after the other.
 * - A kit (a product with components, src/domain/catalog/kits.ts) routes its own stock first (assembled
 *   kits), then builds the rest from components (kit-routing.ts), then backorders what is left.
 */

export interface RoutingPlace {
  warehouseId: number;
  reserved: number;
  backordered: number;
}

export interface LineToRoute {
  lineId: number;
  orderId: number;
  productId: number;
  quantity: number;
}

/** The route row of a placement, as every router writes it (nothing shipped or cancelled yet). */
export function routeRowOf(accountId: number, line: LineToRoute, place: RoutingPlace, assembled: number | null, iso: string): Omit<Selectable<OrderLineRoutesTable>, 'id'> {
  return {
    account_id: accountId,
    order_id: line.orderId,
    line_id: line.lineId,
    warehouse_id: place.warehouseId,
    product_id: line.productId,
    quantity: place.reserved + place.backordered,
    reserved_quantity: place.reserved,
    backorder_quantity: place.backordered,
    shipped_quantity: 0,
    cancelled_quantity: 0,
    assembled_quantity: assembled,
    routed_at: iso,
    updated_at: iso,
  };
}

/** Re-reads after a lost race are bounded; anything still unplaced then is backordered. */
const MAX_PLACEMENT_ATTEMPTS = 50;

export function defaultWarehouse(warehouses: readonly WarehouseRow[]): WarehouseRow | null {
  return [...warehouses].filter((w) => !w.channelFulfilled).sort((a, b) => a.id - b.id)[0] ?? null;
}

export function candidateWarehouses(warehouses: readonly WarehouseRow[], channelFulfils: boolean): number[] {
  return warehouses.filter((w) => channelFulfils || !w.channelFulfilled).map((w) => w.id);
}

/** Takes up to `wanted` units of the line's own SKU from the candidates, most available first; answers how many. */
async function reserveOwnStock(
  tx: Tx,
  accountId: number,
  line: LineToRoute,
  candidates: number[],
  wanted: number,
  now: Date,
  place: (warehouseId: number) => RoutingPlace,
): Promise<number> {
  let taken = 0;
  for (let attempt = 0; taken < wanted && candidates.length > 0 && attempt < MAX_PLACEMENT_ATTEMPTS; attempt++) {
    const top = await mostAvailable(tx, accountId, line.productId, candidates);
    if (!top) break;
    const take = Math.min(wanted - taken, top.available_quantity);
    if (!(await reserveStock(tx, accountId, line.productId, top.warehouse_id, take, now))) continue;
    await recordReservation(tx, accountId, line.productId, top.warehouse_id, line.lineId, take, now);
    place(top.warehouse_id).reserved += take;
    taken += take;
  }
  return taken;
}

/**
 * Decides and reserves where a line's units go; returns one entry per warehouse used. Units that find no
 * place (no default warehouse) are in no entry: the caller keeps them as the line's unrouted units. A line
 * routed again (its unrouted units, once stock of its SKU arrives) adds to the routes it already has.
 */
export async function routeLine(
  tx: Tx,
  accountId: number,
  line: LineToRoute,
  candidates: number[],
  fallback: WarehouseRow | null,
  now: Date,
): Promise<RoutingPlace[]> {
  const placed = new Map<number, RoutingPlace>();
  const place = (warehouseId: number) => {
    let entry = placed.get(warehouseId);
    if (!entry) placed.set(warehouseId, (entry = { warehouseId, reserved: 0, backordered: 0 }));
    return entry;
  };
  let remaining = line.quantity;
  remaining -= await reserveOwnStock(tx, accountId, line, candidates, remaining, now, place);
  const recipe = await kitRecipe(tx, accountId, line.productId);
  const componentKits = new Map<number, number>();
  const buildKits = async (where: number[]) => {
    for (const built of await reserveKitComponents(tx, accountId, recipe, where, remaining, now)) {
      place(built.warehouseId).reserved += built.kits;
      componentKits.set(built.warehouseId, (componentKits.get(built.warehouseId) ?? 0) + built.kits);
      remaining -= built.kits;
    }
  };
  if (remaining > 0 && recipe.length > 0) await buildKits(candidates);
  if (remaining > 0 && fallback) {
    // The rest waits in the default warehouse. Its stock rows are held first (holdStockRow), so stock that a
    // parallel change adds there is either taken now or finds this backorder when it fills.
    const free = await holdStockRow(tx, accountId, line.productId, fallback.id, now);
    for (const c of recipe) await holdStockRow(tx, accountId, c.componentProductId, fallback.id, now);
    if (free > 0) remaining -= await reserveOwnStock(tx, accountId, line, [fallback.id], remaining, now, place);
    if (remaining > 0 && recipe.length > 0) await buildKits([fallback.id]);
    if (remaining > 0) place(fallback.id).backordered += remaining;
  }
  const places = [...placed.values()];
  if (places.length > 0) {
    const iso = now.toISOString();
    const routes = await tx
      .insertInto('order_line_routes')
      .values(
        // Kit routes say how many of their kits were already assembled (the kit's own stock).
        places.map((p) => routeRowOf(accountId, line, p, recipe.length > 0 ? p.reserved - (componentKits.get(p.warehouseId) ?? 0) : null, iso)),
      )
      .onConflict((oc) =>
        oc.columns(['account_id', 'line_id', 'warehouse_id']).doUpdateSet((eb) => ({
          quantity: eb('order_line_routes.quantity', '+', eb.ref('excluded.quantity')),
          reserved_quantity: eb('order_line_routes.reserved_quantity', '+', eb.ref('excluded.reserved_quantity')),
          backorder_quantity: eb('order_line_routes.backorder_quantity', '+', eb.ref('excluded.backorder_quantity')),
          assembled_quantity: sql<number | null>`case when ${eb.ref('order_line_routes.assembled_quantity')} is null then ${eb.ref('excluded.assembled_quantity')} else ${eb.ref('order_line_routes.assembled_quantity')} + coalesce(${eb.ref('excluded.assembled_quantity')}, 0) end`,
          updated_at: iso,
        })),
      )
      .returning(['id', 'warehouse_id'])
      .execute();
    if (recipe.length > 0) {
      for (const r of routes) await recordKitRoute(tx, accountId, r.id, recipe, componentKits.get(r.warehouse_id) ?? 0);
    }
  }
  if (places.some((p) => p.reserved > 0)) await touchProductInventory(tx, accountId, line.productId, now);
  return places;
}
