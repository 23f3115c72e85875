import { sql } from 'kysely';
import type { Tx } from '../../db/tx.js';
import type { KitRecipeEntry } from '../catalog/kits.js';
import { touchProductInventory } from '../inventory/stock-touch.js';
import { availableUnits, reserveStock, shipReservedStock, unreserveStock } from '../inventory/reserved-stock.js';

/**
 * Kit lines (DESIGN.md: "Kits route assembled units first, then components"). Assembled kits are the kit
 * product's own stock and are routed like any SKU (routing.ts). The kits still missing are built from
 * components: each kit is placed in ONE warehouse that holds every component (componentQuantity × kits of
 * each, reserved by conditional updates in product-id order); the warehouse that can build the most goes
 * first (ties: lowest id), then the next, like the split of a single SKU; whatever no warehouse can build is
 * backordered by the caller.
 *
 * A kit route's reserved_quantity counts kits of both kinds; order_route_kit_components holds the component
 * units reserved for the component-built ones. Releasing or shipping reserved kits takes component-built
 * kits first (takeKitComponentUnits), then the kit's own (assembled) stock.
 * Component reservations are not written to the inventory_reservations ledger (one row per line and
 * warehouse, the kit's own): POST /v1/inventory pulled_ts corrections see assembled kits only.
 */

const MAX_ATTEMPTS = 50;

export interface BuiltKits {
  warehouseId: number;
  kits: number;
}

async function buildableByWarehouse(tx: Tx, accountId: number, recipe: KitRecipeEntry[], candidates: number[]) {
  const available = await availableUnits(
    tx,
    accountId,
    recipe.map((c) => c.componentProductId),
    candidates,
  );
  return candidates
    .map((w) => ({
      warehouseId: w,
      kits: Math.min(...recipe.map((c) => Math.floor((available.get(`${w}:${c.componentProductId}`) ?? 0) / c.quantity))),
    }))
    .filter((b) => b.kits > 0)
    .sort((a, b) => b.kits - a.kits || a.warehouseId - b.warehouseId);
}

/** Gives component units back to available (undoing a partial build, or a released kit). */
async function unreserve(tx: Tx, accountId: number, productId: number, warehouseId: number, units: number, now: Date) {
  if (!(await unreserveStock(tx, accountId, productId, warehouseId, units, now))) {
    throw new Error(`inventory counters of product ${productId} in warehouse ${warehouseId} do not hold ${units} reserved units`);
  }
}

/** Reserves components for up to `kits` kits; returns the kits built per warehouse. */
export async function reserveKitComponents(
  tx: Tx,
  accountId: number,
  recipe: KitRecipeEntry[],
  candidates: number[],
  kits: number,
  now: Date,
): Promise<BuiltKits[]> {
  const built = new Map<number, number>();
  let remaining = kits;
  for (let attempt = 0; remaining > 0 && candidates.length > 0 && attempt < MAX_ATTEMPTS; attempt++) {
    const top = (await buildableByWarehouse(tx, accountId, recipe, candidates))[0];
    if (!top) break;
    const take = Math.min(remaining, top.kits);
    const done: KitRecipeEntry[] = [];
    for (const c of recipe) {
      if (!(await reserveStock(tx, accountId, c.componentProductId, top.warehouseId, c.quantity * take, now))) break;
      done.push(c);
    }
    if (done.length < recipe.length) {
      // A parallel order took a component first: give back what this attempt took and read again.
      for (const c of done) await unreserve(tx, accountId, c.componentProductId, top.warehouseId, c.quantity * take, now);
      continue;
    }
    built.set(top.warehouseId, (built.get(top.warehouseId) ?? 0) + take);
    remaining -= take;
  }
  if (built.size > 0) for (const c of recipe) await touchProductInventory(tx, accountId, c.componentProductId, now);
  return [...built.entries()].map(([warehouseId, n]) => ({ warehouseId, kits: n }));
}

/**
 * Stores a kit route's recipe and the component units it holds; a route that already has them (a line routed
 * again into the same warehouse) keeps its recipe and holds the new units too.
 */
export async function recordKitRoute(tx: Tx, accountId: number, routeId: number, recipe: KitRecipeEntry[], componentKits: number) {
  await tx
    .insertInto('order_route_kit_components')
    .values(
      recipe.map((c) => ({
        account_id: accountId,
        route_id: routeId,
        component_product_id: c.componentProductId,
        component_quantity: c.quantity,
        reserved_quantity: c.quantity * componentKits,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['account_id', 'route_id', 'component_product_id']).doUpdateSet((eb) => ({
        reserved_quantity: eb('order_route_kit_components.reserved_quantity', '+', eb.ref('excluded.reserved_quantity')),
      })),
    )
    .execute();
}

export interface TakeKitUnitsInput {
  accountId: number;
  routeId: number;
  warehouseId: number;
  /** Reserved kits leaving the route's reservation. */
  kits: number;
  /** release: back to available (cancel, re-route); ship: the units left the warehouse (on-hand drops). */
  mode: 'release' | 'ship';
  /** The kits leave the route (a re-route lowers its quantity): assembled ones lower assembled_quantity. */
  leavingRoute?: boolean;
  now: Date;
}

/**
 * Called right after the route row's reserved_quantity was lowered by `kits` (so this transaction holds the
 * route row): takes component-built kits first from the route's component reservations and moves their
 * component units in inventory; returns how many kits are left to take from the kit's own stock (all of
 * them for a single SKU).
 */
export async function takeKitComponentUnits(tx: Tx, input: TakeKitUnitsInput): Promise<number> {
  const { accountId, routeId, warehouseId, kits, now } = input;
  const rows = await tx
    .selectFrom('order_route_kit_components')
    .select(['id', 'component_product_id', 'component_quantity', 'reserved_quantity'])
    .where('account_id', '=', accountId)
    .where('route_id', '=', routeId)
    .orderBy('component_product_id')
    .execute();
  if (rows.length === 0) return kits;
  const componentKits = Math.min(...rows.map((r) => Math.floor(r.reserved_quantity / r.component_quantity)));
  const fromComponents = Math.min(kits, componentKits);
  for (const r of fromComponents > 0 ? rows : []) {
    const units = r.component_quantity * fromComponents;
    const moved = await tx
      .updateTable('order_route_kit_components')
      .set((eb) => ({ reserved_quantity: eb('reserved_quantity', '-', units) }))
      .where('id', '=', r.id)
      .where('reserved_quantity', '>=', units)
      .returning('id')
      .executeTakeFirst();
    if (!moved) throw new Error(`kit route ${routeId} does not hold ${units} units of component ${r.component_product_id}`);
    if (input.mode === 'release') await unreserve(tx, accountId, r.component_product_id, warehouseId, units, now);
    else await shipReserved(tx, accountId, r.component_product_id, warehouseId, units, now);
    await touchProductInventory(tx, accountId, r.component_product_id, now);
  }
  const own = kits - fromComponents;
  if (own > 0 && input.leavingRoute) {
    await tx
      .updateTable('order_line_routes')
      .set((eb) => ({ assembled_quantity: sql<number>`case when ${eb.ref('assembled_quantity')} >= ${own} then ${eb.ref('assembled_quantity')} - ${own} else 0 end` }))
      .where('account_id', '=', accountId)
      .where('id', '=', routeId)
      .where('assembled_quantity', 'is not', null)
      .execute();
  }
  return own;
}

/** Reserved component units that left the warehouse: reserved and on-hand drop, available stays (shipments.ts). */
async function shipReserved(tx: Tx, accountId: number, productId: number, warehouseId: number, units: number, now: Date) {
  if (!(await shipReservedStock(tx, accountId, productId, warehouseId, units, now))) {
    throw new Error(`inventory counters of product ${productId} in warehouse ${warehouseId} do not hold ${units} reserved units`);
  }
}
