import type { Tx } from '../../db/tx.js';
import { reserveStock, unreserveStock } from '../inventory/reserved-stock.js';

/**
 * Waiting kits built from component stock (issue 23: "component stock builds kit backorders"). It mirrors
 * how a new order builds kits (kit-routing.ts reserveKitComponents): each kit is built in ONE warehouse (the
 * route's) from the recipe the route was routed with (order_route_kit_components), componentQuantity × kits
 * of every component reserved by conditional UPDATEs in product-id order; the kits move on the route from
 * backorder_quantity to reserved_quantity, and the route's component rows hold the component units, so a
 * cancellation, shipment or re-route later treats them exactly like kits built at order time
 * (takeKitComponentUnits). assembled_quantity does not move: these kits are not the kit's own stock.
 */

/** Available units per product in one warehouse, read once and kept current by the filler's reservations. */
export class WarehouseStock {
  readonly #available = new Map<number, number>();
  constructor(
    private readonly tx: Tx,
    private readonly accountId: number,
    readonly warehouseId: number,
  ) {}

  /** (Re)reads the available units of these products here. */
  async load(productIds: readonly number[]): Promise<void> {
    const ids = [...new Set(productIds)];
    if (ids.length === 0) return;
    for (const id of ids) this.#available.set(id, 0);
    const rows = await this.tx
      .selectFrom('inventory')
      .select(['product_id', 'available_quantity'])
      .where('account_id', '=', this.accountId)
      .where('warehouse_id', '=', this.warehouseId)
      .where('product_id', 'in', ids)
      .execute();
    for (const r of rows) this.#available.set(Number(r.product_id), Number(r.available_quantity));
  }

  available(productId: number): number {
    return this.#available.get(productId) ?? 0;
  }

  take(productId: number, units: number): void {
    this.#available.set(productId, this.available(productId) - units);
  }
}

export interface RecipeLine {
  componentProductId: number;
  quantity: number;
}

/** Kits the stock here can build with this recipe. */
export function buildable(recipe: readonly RecipeLine[], stock: WarehouseStock): number {
  if (recipe.length === 0) return 0;
  return Math.min(...recipe.map((c) => Math.floor(stock.available(c.componentProductId) / c.quantity)));
}

/** The kits (catalog recipes) that have one of these products as a component, by kit product id. */
export async function kitsContaining(tx: Tx, accountId: number, componentIds: readonly number[]): Promise<Map<number, RecipeLine[]>> {
  if (componentIds.length === 0) return new Map();
  const rows = await tx
    .selectFrom('kit_components as k')
    .select(['k.kit_product_id', 'k.component_product_id', 'k.quantity'])
    .where('k.account_id', '=', accountId)
    .where('k.kit_product_id', 'in', (eb) =>
      eb.selectFrom('kit_components as c').select('c.kit_product_id').where('c.account_id', '=', accountId).where('c.component_product_id', 'in', [...componentIds]),
    )
    .orderBy('k.kit_product_id')
    .orderBy('k.component_product_id')
    .execute();
  const kits = new Map<number, RecipeLine[]>();
  for (const r of rows) {
    const recipe = kits.get(r.kit_product_id) ?? [];
    recipe.push({ componentProductId: r.component_product_id, quantity: r.quantity });
    kits.set(r.kit_product_id, recipe);
  }
  return kits;
}

/** The recipe a kit route was routed with, components in product-id order (empty for a single SKU). */
async function routeRecipe(tx: Tx, accountId: number, routeId: number) {
  return tx
    .selectFrom('order_route_kit_components')
    .select(['id', 'component_product_id', 'component_quantity'])
    .where('account_id', '=', accountId)
    .where('route_id', '=', routeId)
    .orderBy('component_product_id')
    .execute();
}

export type KitBuild = { built: number; components: number[] } | { race: true };

/**
 * Builds up to `wanted` of a waiting kit route's kits from the component stock of its warehouse. Answers the
 * kits built (0 when the stock cannot build one), or a race when a parallel change took a component or the
 * route's backorder first: then nothing changed, the component stock read here is current again, and the
 * caller reads the route again.
 */
export async function buildWaitingKits(tx: Tx, accountId: number, routeId: number, wanted: number, stock: WarehouseStock, now: Date): Promise<KitBuild> {
  const recipe = await routeRecipe(tx, accountId, routeId);
  const lines = recipe.map((c) => ({ componentProductId: c.component_product_id, quantity: c.component_quantity }));
  const kits = Math.min(wanted, buildable(lines, stock));
  if (kits <= 0) return { built: 0, components: [] };
  const warehouseId = stock.warehouseId;
  const done: RecipeLine[] = [];
  const undo = async () => {
    for (const c of done) {
      if (!(await unreserveStock(tx, accountId, c.componentProductId, warehouseId, c.quantity * kits, now))) {
        throw new Error(`inventory counters of product ${c.componentProductId} in warehouse ${warehouseId} do not hold the units just reserved`);
      }
    }
  };
  for (const c of lines) {
    if (!(await reserveStock(tx, accountId, c.componentProductId, warehouseId, c.quantity * kits, now))) break;
    done.push(c);
  }
  if (done.length < lines.length) {
    await undo();
    await stock.load(lines.map((c) => c.componentProductId));
    return { race: true };
  }
  const moved = await tx
    .updateTable('order_line_routes')
    .set((eb) => ({
      backorder_quantity: eb('backorder_quantity', '-', kits),
      reserved_quantity: eb('reserved_quantity', '+', kits),
      updated_at: now.toISOString(),
    }))
    .where('account_id', '=', accountId)
    .where('id', '=', routeId)
    .where('backorder_quantity', '>=', kits)
    .returning('id')
    .executeTakeFirst();
  if (!moved) {
    await undo();
    return { race: true };
  }
  for (const c of recipe) {
    await tx
      .updateTable('order_route_kit_components')
      .set((eb) => ({ reserved_quantity: eb('reserved_quantity', '+', c.component_quantity * kits) }))
      .where('account_id', '=', accountId)
      .where('id', '=', c.id)
      .execute();
  }
  for (const c of lines) stock.take(c.componentProductId, c.quantity * kits);
  return { built: kits, components: lines.map((c) => c.componentProductId) };
}
