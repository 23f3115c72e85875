import { sql } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import { runFixedText } from '../../db/fast-paths.js';
import type { Db } from '../../db/tx.js';
import type { StockKey } from './stock-batch.js';

/**
 * Holds, before a stock write, every stock row the write and the backorder fill after it may touch, in one
 * order (product id, then warehouse id), so writers never wait on each other in a cycle on PostgreSQL.
 *
 * Why: stock that becomes available builds waiting kits (fill-backorders.ts), so a change to one component's
 * row goes on to reserve its sibling components in the same warehouse. A change to component B then takes
 * component A while holding B, and a kit order (or a change to A) takes A then B: a deadlock, retried by
 * withTx but, under many parallel writers, sometimes past its attempts. Holding the closure first (the rows
 * themselves, the other components of every kit they are a component of, and those kits' own rows) in
 * product order makes every such writer queue in the same order instead. A key that is itself a kit brings
 * its components too: an order for the kit builds it from them. Rows that do not exist yet are not
 * held: a new row is inserted (and held) by the write itself and has no waiting kit to build.
 *
 * One statement whatever the number of keys. SQLite runs one writer at a time, so there it does nothing.
 */
export async function holdStockClosure(db: Db, accountId: number, keys: readonly StockKey[]): Promise<void> {
  if (keys.length === 0 || !isPostgres(db)) return;
  const productIds = keys.map((k) => k.productId);
  const warehouseIds = keys.map((k) => k.warehouseId);
  await holdClosureOf(
    db,
    accountId,
    sql`select distinct k.product_id, k.warehouse_id from unnest(${productIds}::bigint[], ${warehouseIds}::bigint[]) as k(product_id, warehouse_id)`,
  );
}

/**
 * holdStockClosure for writes named by SKU (POST /v1/inventory): the account's products with these SKUs in
 * the paired warehouses. SKUs not in the catalog yet are skipped (their products are created by the write).
 */
export async function holdStockClosureBySku(db: Db, accountId: number, items: readonly { sku: string; warehouseId: number }[]): Promise<void> {
  if (items.length === 0 || !isPostgres(db)) return;
  const skus = items.map((i) => i.sku);
  const warehouseIds = items.map((i) => i.warehouseId);
  await holdClosureOf(
    db,
    accountId,
    sql`select distinct p.id as product_id, k.warehouse_id
      from unnest(${skus}::text[], ${warehouseIds}::bigint[]) as k(sku, warehouse_id)
      join products p on p.account_id = ${accountId} and p.sku = k.sku`,
  );
}

async function holdClosureOf(db: Db, accountId: number, keys: ReturnType<typeof sql>): Promise<void> {
  const query = sql`
    with keys as (${keys}),
    closure as (
      select product_id, warehouse_id from keys
      union
      select sibling.component_product_id, keys.warehouse_id
      from keys
      join kit_components mine on mine.account_id = ${accountId} and mine.component_product_id = keys.product_id
      join kit_components sibling on sibling.account_id = ${accountId} and sibling.kit_product_id = mine.kit_product_id
      union
      select mine.kit_product_id, keys.warehouse_id
      from keys
      join kit_components mine on mine.account_id = ${accountId} and mine.component_product_id = keys.product_id
      union
      select part.component_product_id, keys.warehouse_id
      from keys
      join kit_components part on part.account_id = ${accountId} and part.kit_product_id = keys.product_id
    )
    select i.id
    from inventory i
    join closure c on c.product_id = i.product_id and c.warehouse_id = i.warehouse_id
    where i.account_id = ${accountId}
    order by i.product_id, i.warehouse_id
    for update of i
  `.compile(db);
  // Its text is the same whatever the keys (they go as two arrays).
  await runFixedText(db, query);
}
