import type { Db, Tx } from '../../db/tx.js';
import { getAccount } from '../accounts/accounts.js';
import { conflict, invalidArgument, invalidField, notFound } from '../errors.js';
import { touchProductInventory } from '../orders/reservations.js';

/**
 * Kits (DESIGN.md "Domain model"): a kit is a product with components, each a product and a quantity per
 * kit. Kits are one level deep: a component may not be a kit itself and a kit may not be a component of
 * another kit (400), so routing never has to expand recursively; a kit may not contain itself (400).
 * An empty component list makes the product a single SKU again. Orders already routed keep the recipe they
 * were routed with (order_route_kit_components), so changing a kit never changes what an order holds.
 */

export interface KitComponentInput {
  sku: string;
  quantity: number;
}

export interface KitView {
  sku: string;
  components: { sku: string; quantity: number }[];
}

export interface KitRecipeEntry {
  componentProductId: number;
  sku: string;
  quantity: number;
}

async function productIdOf(db: Db, accountId: number, sku: string): Promise<number> {
  await getAccount(db, accountId);
  const row = await db.selectFrom('products').select('id').where('account_id', '=', accountId).where('sku', '=', sku).executeTakeFirst();
  if (!row) throw notFound(`product ${sku} not found`);
  return row.id;
}

/** The recipe of a kit product (empty for a single SKU), components in product-id order. */
export async function kitRecipe(db: Db, accountId: number, kitProductId: number): Promise<KitRecipeEntry[]> {
  const rows = await db
    .selectFrom('kit_components as k')
    .innerJoin('products as p', 'p.id', 'k.component_product_id')
    .select(['k.component_product_id', 'p.sku', 'k.quantity'])
    .where('k.account_id', '=', accountId)
    .where('k.kit_product_id', '=', kitProductId)
    .orderBy('k.component_product_id')
    .execute();
  return rows.map((r) => ({ componentProductId: r.component_product_id, sku: r.sku, quantity: r.quantity }));
}

export async function getKit(db: Db, accountId: number, sku: string): Promise<KitView> {
  const kitId = await productIdOf(db, accountId, sku);
  const recipe = await kitRecipe(db, accountId, kitId);
  return { sku, components: recipe.map((c) => ({ sku: c.sku, quantity: c.quantity })) };
}

/** Replaces a product's components (PUT semantics). */
export async function setKitComponents(tx: Tx, accountId: number, sku: string, components: KitComponentInput[], now: Date): Promise<KitView> {
  const kitId = await productIdOf(tx, accountId, sku);
  const seen = new Set<string>();
  for (const [i, c] of components.entries()) {
    if (seen.has(c.sku)) throw invalidField(`components[${i}].sku`, `${c.sku} is listed twice`);
    seen.add(c.sku);
    if (c.sku === sku) throw invalidField(`components[${i}].sku`, 'a kit cannot contain itself');
  }
  const ids: number[] = [];
  for (const c of components) ids.push(await productIdOf(tx, accountId, c.sku));
  if (components.length > 0) {
    const partOf = await tx.selectFrom('kit_components').select('id').where('account_id', '=', accountId).where('component_product_id', '=', kitId).executeTakeFirst();
    if (partOf) throw invalidArgument(`${sku} is a component of another kit; kits cannot be nested`);
    const nested = await tx
      .selectFrom('kit_components as k')
      .innerJoin('products as p', 'p.id', 'k.kit_product_id')
      .select('p.sku')
      .where('k.account_id', '=', accountId)
      .where('k.kit_product_id', 'in', ids)
      .executeTakeFirst();
    if (nested) throw invalidArgument(`${nested.sku} is a kit itself; kits cannot be nested`);
  }
  await tx.deleteFrom('kit_components').where('account_id', '=', accountId).where('kit_product_id', '=', kitId).execute();
  if (components.length > 0) {
    await tx
      .insertInto('kit_components')
      .values(
        components.map((c, i) => ({
          account_id: accountId,
          kit_product_id: kitId,
          component_product_id: ids[i]!,
          quantity: c.quantity,
          created_at: now.toISOString(),
        })),
      )
      .execute();
  }
  return getKit(tx, accountId, sku);
}

export interface AssembledView {
  sku: string;
  warehouseId: number;
  assembledQuantity: number;
  onhandQuantity: number;
  availableQuantity: number;
  reservedQuantity: number;
}

/**
 * The seller's count of assembled kits in a warehouse. A kit's own stock row IS its assembled kits: the
 * count sets assembled_quantity and on-hand to `quantity` (available = on-hand − reserved), so routing
 * reserves assembled kits from the kit's own available stock like any SKU. A count below the kits open
 * orders already hold there is a 409 (cancel or ship those first); a product without components is a 400.
 */
export async function setAssembledQuantity(
  tx: Tx,
  accountId: number,
  sku: string,
  warehouseId: number,
  quantity: number,
  now: Date,
): Promise<AssembledView> {
  const kitId = await productIdOf(tx, accountId, sku);
  const warehouse = await tx.selectFrom('warehouses').select('id').where('account_id', '=', accountId).where('id', '=', warehouseId).executeTakeFirst();
  if (!warehouse) throw notFound(`warehouse ${warehouseId} not found`);
  if ((await kitRecipe(tx, accountId, kitId)).length === 0) throw invalidArgument(`${sku} is not a kit (it has no components)`);
  const iso = now.toISOString();
  await tx
    .insertInto('inventory')
    .values({
      account_id: accountId,
      product_id: kitId,
      warehouse_id: warehouseId,
      available_quantity: 0,
      onhand_quantity: 0,
      reserved_quantity: 0,
      assembled_quantity: null,
      bin_location: null,
      observed_at: null,
      updated_at: iso,
    })
    .onConflict((oc) => oc.columns(['account_id', 'product_id', 'warehouse_id']).doNothing())
    .execute();
  const row = await tx
    .updateTable('inventory')
    .set((eb) => ({
      assembled_quantity: quantity,
      onhand_quantity: quantity,
      available_quantity: eb(eb.val(quantity), '-', eb.ref('reserved_quantity')),
      updated_at: iso,
    }))
    .where('account_id', '=', accountId)
    .where('product_id', '=', kitId)
    .where('warehouse_id', '=', warehouseId)
    .where('reserved_quantity', '<=', quantity)
    .returning(['assembled_quantity', 'onhand_quantity', 'available_quantity', 'reserved_quantity'])
    .executeTakeFirst();
  if (!row) throw conflict(`open orders hold more than ${quantity} assembled ${sku} kits in warehouse ${warehouseId}`);
  await touchProductInventory(tx, accountId, kitId, now);
  return {
    sku,
    warehouseId,
    assembledQuantity: row.assembled_quantity ?? quantity,
    onhandQuantity: row.onhand_quantity,
    availableQuantity: row.available_quantity,
    reservedQuantity: row.reserved_quantity,
  };
}
