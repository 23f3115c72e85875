import { sql } from 'kysely';
import type { Db } from '../../db/tx.js';
import { removeProductSearch, writeProductSearch } from './product-search.js';
import { newProductRow, type ProductIdentifiers } from './products.js';

/** Rows per multi-row INSERT: far below either database's bound-parameter limit. */
const INSERT_SLICE = 250;

/**
 * Creates the products of these SKUs that the account does not have yet, in multi-row inserts (imports
 * create up to a chunk's worth at once). Bare products as findOrCreateProduct makes them: active, no
 * title, the identifiers `identifiersOf` gives (none by default). Safe under concurrency: the unique (account_id, sku) index decides and a SKU
 * another transaction created meanwhile is skipped. Returns SKU → id of the products this call created
 * (the caller reads the others with findProductsBySkus).
 */
export async function createProductsBySku(
  db: Db,
  accountId: number,
  skus: readonly string[],
  now: Date,
  identifiersOf: (sku: string) => ProductIdentifiers = () => ({}),
): Promise<Map<string, number>> {
  const created = new Map<string, number>();
  const unique = [...new Set(skus)];
  const iso = now.toISOString();
  for (let i = 0; i < unique.length; i += INSERT_SLICE) {
    const rows = await db
      .insertInto('products')
      .values(
        unique.slice(i, i + INSERT_SLICE).map((sku) => newProductRow(accountId, sku, iso, identifiersOf(sku))),
      )
      .onConflict((oc) => oc.columns(['account_id', 'sku']).doNothing())
      .returning(['id', 'sku'])
      .execute();
    for (const r of rows) created.set(r.sku, Number(r.id));
    // The catalog search finds a bare product by its SKU (product-search.ts).
    await writeProductSearch(
      db,
      accountId,
      rows.map((r) => ({ id: Number(r.id), sku: r.sku, title: null, brand: null })),
    );
  }
  return created;
}

/**
 * Deletes products that `createProductsBySku` created in the current transaction and that ended up
 * unused (every import line naming them was refused), so a refused line leaves nothing behind. The
 * caller removes their stock rows first (deleteNewStockRows).
 */
export async function deleteUnusedNewProducts(db: Db, accountId: number, productIds: readonly number[]): Promise<void> {
  await removeProductSearch(db, accountId, productIds);
  for (let i = 0; i < productIds.length; i += INSERT_SLICE) {
    await db
      .deleteFrom('products')
      .where('id', 'in', productIds.slice(i, i + INSERT_SLICE))
      // `+ 0` keeps SQLite (no statistics) on the primary key instead of an account-wide index range.
      .where(sql<number>`${sql.ref('account_id')} + 0`, '=', accountId)
      .execute();
  }
}
