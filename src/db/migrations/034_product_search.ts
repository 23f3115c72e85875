import { sql, type Kysely } from 'kysely';
import { productSearchRows, type SearchableProduct } from '../../domain/catalog/product-search.js';
import type { MigrationContext } from './index.js';

/**
 * The console's catalog search (issue 24 item 4; src/domain/catalog/product-search.ts):
 * - product_search_terms (account_id, term, product_id): the words of each product's SKU, title and brand,
 *   matched by prefix on the primary key; byte-ordered (COLLATE "C" on PostgreSQL, SQLite's BINARY) so a
 *   prefix is one range on both databases, like sales_order_search_terms (030); (account_id, product_id, term)
 *   tests one product while the SKU index is walked, and finds a product's terms to rewrite them.
 *
 * Existing products are indexed in bounded batches: products walked by primary key (a keyset on id), each
 * batch's terms written in multi-row inserts.
 */

const BATCH = 1000;
const ROWS_PER_INSERT = 500;

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  const termType = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable('product_search_terms')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('term', termType, (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('product_search_terms_pk', ['account_id', 'term', 'product_id'])
    .$call((t) => (dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t))
    .execute();
  await db.schema.createIndex('product_search_terms_product').on('product_search_terms').columns(['account_id', 'product_id', 'term']).execute();
  await buildProductSearch(db, BATCH);
}

/** Indexes every stored product (the migration's work; the batch size apart so a test can walk several). */
export async function buildProductSearch(db: Kysely<any>, batchSize: number): Promise<void> {
  let after = 0;
  for (;;) {
    const products = (await db
      .selectFrom('products')
      .select(['id', 'account_id', 'sku', 'title', 'brand'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(batchSize)
      .execute()) as (SearchableProduct & { account_id: number })[];
    if (products.length === 0) return;
    after = Number(products[products.length - 1]!.id);
    const rows = products.flatMap((p) => productSearchRows(Number(p.account_id), [p]));
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await db
        .insertInto('product_search_terms')
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
}
