import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Low-stock alerts (issue 24 item 5, src/domain/inventory/low-stock.ts):
 * - products.low_stock_threshold: the seller's alert level for a SKU (units available across its sellable
 *   warehouses at or below it make the SKU "low"); null, the default for every product, means no alert.
 * - products.low_stock_gap: threshold − units available in the sellable warehouses, kept with every stock
 *   change of the product (stock-touch.ts) and when the threshold is set; null without a threshold. A SKU is
 *   low while it is ≥ 0, and the low-stock list sorts on it.
 * - products_low_stock: the low-stock list's keyset order (most short first) as an index range holding only
 *   the SKUs with a threshold, so the list and the home page's count read the low SKUs only, never the catalog. No product has a threshold before
 *   this migration, so there is nothing to fill in.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('products').addColumn('low_stock_threshold', 'integer').execute();
  await db.schema.alterTable('products').addColumn('low_stock_gap', 'integer').execute();
  await db.schema
    .createIndex('products_low_stock')
    .on('products')
    .columns(['account_id', 'low_stock_gap desc', 'id'])
    .where(sql<boolean>`low_stock_gap is not null`)
    .execute();
}
