import type { Insertable, Updateable } from 'kysely';
import type { ProductAttributesTable, ProductsTable } from '../../db/schema.js';
import type { Db } from '../../db/tx.js';

/**
 * The product and product-attribute writes of a product import (src/domain/reports/imports/product-apply.ts
 * decides what changes; the catalog owns the tables and writes them here).
 */

/** Attribute rows per upsert statement. */
const UPSERT_SLICE = 400;

/** Writes changed columns of one product. */
export async function updateProductColumns(db: Db, accountId: number, productId: number, set: Updateable<ProductsTable>): Promise<void> {
  await db.updateTable('products').set(set).where('account_id', '=', accountId).where('id', '=', productId).execute();
}

/**
 * Inserts new products in one statement; a SKU that exists already (another writer created it since the
 * caller looked) is skipped, not an error. Answers the ids and SKUs of the rows inserted.
 */
export async function insertProductsIfAbsent(db: Db, rows: Insertable<ProductsTable>[]): Promise<{ id: number; sku: string }[]> {
  return db
    .insertInto('products')
    .values(rows)
    .onConflict((oc) => oc.columns(['account_id', 'sku']).doNothing())
    .returning(['id', 'sku'])
    .execute();
}

/** Sets attribute values (a new value or a changed one), in multi-row upserts. */
export async function upsertProductAttributes(db: Db, rows: readonly Insertable<ProductAttributesTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += UPSERT_SLICE) {
    await db
      .insertInto('product_attributes')
      .values(rows.slice(i, i + UPSERT_SLICE))
      .onConflict((oc) =>
        oc.columns(['account_id', 'product_id', 'attribute_id']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), updated_at: eb.ref('excluded.updated_at') })),
      )
      .execute();
  }
}

/** Removes one attribute from these products. */
export async function deleteProductAttribute(db: Db, accountId: number, attributeId: string, productIds: readonly number[]): Promise<void> {
  await db.deleteFrom('product_attributes').where('account_id', '=', accountId).where('attribute_id', '=', attributeId).where('product_id', 'in', productIds).execute();
}
