import type { Db, Tx } from '../../db/tx.js';
import { getAccount } from '../accounts/accounts.js';
import { invalidArgument, invalidField, notFound } from '../errors.js';

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

export async function productIdOf(db: Db, accountId: number, sku: string): Promise<number> {
  await getAccount(db, accountId);
  const row = await db.selectFrom('products').select('id').where('account_id', '=', accountId).where('sku', '=', sku).executeTakeFirst();
  if (!row) throw notFound(`product ${sku} not found`).because('kit.unknown_sku', { sku });
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
    if (partOf) throw invalidArgument(`${sku} is a component of another kit; kits cannot be nested`).because('kit.is_a_component', { sku });
    const nested = await tx
      .selectFrom('kit_components as k')
      .innerJoin('products as p', 'p.id', 'k.kit_product_id')
      .select('p.sku')
      .where('k.account_id', '=', accountId)
      .where('k.kit_product_id', 'in', ids)
      .executeTakeFirst();
    if (nested) throw invalidArgument(`${nested.sku} is a kit itself; kits cannot be nested`).because('kit.component_is_a_kit', { sku: nested.sku });
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
