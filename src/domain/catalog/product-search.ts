import type { Db } from '../../db/tx.js';
import { MAX_TERM_LENGTH, searchWords } from '../search-terms.js';

/**
 * The seller's catalog search (console, issue 24 item 4). Every product's searchable words are terms in
 * product_search_terms (account_id, term, product_id; migration 034), the same shape and word rules as the
 * orders' (order-search.ts): a search word matches a term it starts ("mug" finds "Coffee Mugs", "abc-1" finds
 * SKU ABC-100), read as a range on the primary key, so a search costs a few index ranges.
 *
 * The words of a product: its SKU's (and, for a SKU of several words, those run together: "abc100"), its
 * title's and its brand's. Every writer of those columns writes the terms in its own transaction:
 * - bare products created by SKU (stock and order imports, ingestion, the API's stock writers):
 *   createProductsBySku and findOrCreateProduct index the SKU;
 * - product imports and the console's product form (one writer, product-apply.ts): new products with their
 *   title and brand, and an existing product's terms rewritten when its title or brand changed;
 * - products removed again (deleteUnusedNewProducts) take their terms with them.
 */

const MAX_TERMS = 128;

export interface SearchableProduct {
  id: number;
  sku: string;
  title: string | null;
  brand: string | null;
}

/** A product's terms (distinct, at most MAX_TERMS). */
export function productSearchTerms(product: Omit<SearchableProduct, 'id'>): string[] {
  const terms = new Set<string>();
  const skuWords = searchWords(product.sku);
  for (const w of skuWords) terms.add(w);
  if (skuWords.length > 1) terms.add(skuWords.join('').slice(0, MAX_TERM_LENGTH));
  for (const text of [product.title, product.brand]) if (text) for (const w of searchWords(text)) terms.add(w);
  return [...terms].slice(0, MAX_TERMS);
}

export interface ProductTermRow {
  account_id: number;
  term: string;
  product_id: number;
}

/** The term rows of many products (writers, the migration's backfill, the benchmarks' seeding). */
export function productSearchRows(accountId: number, products: readonly SearchableProduct[]): ProductTermRow[] {
  return products.flatMap((p) => productSearchTerms(p).map((term) => ({ account_id: accountId, term, product_id: Number(p.id) })));
}

/** Rows per multi-row INSERT (3 parameters each, far below either database's limit). */
const ROWS_PER_INSERT = 500;

/** Adds the terms of products (new ones, or ones whose terms were just removed). */
export async function writeProductSearch(db: Db, accountId: number, products: readonly SearchableProduct[]): Promise<void> {
  const rows = productSearchRows(accountId, products);
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await db
      .insertInto('product_search_terms')
      .values(rows.slice(i, i + ROWS_PER_INSERT))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** Removes the terms of products (deleted ones, or ones about to be indexed again). */
export async function removeProductSearch(db: Db, accountId: number, productIds: readonly number[]): Promise<void> {
  for (let i = 0; i < productIds.length; i += ROWS_PER_INSERT) {
    await db
      .deleteFrom('product_search_terms')
      .where('account_id', '=', accountId)
      .where('product_id', 'in', productIds.slice(i, i + ROWS_PER_INSERT))
      .execute();
  }
}

/** Rewrites products' terms from what they hold now (after their title or brand changed). */
export async function rebuildProductSearch(db: Db, accountId: number, productIds: readonly number[]): Promise<void> {
  if (productIds.length === 0) return;
  await removeProductSearch(db, accountId, productIds);
  for (let i = 0; i < productIds.length; i += ROWS_PER_INSERT) {
    const products = await db
      .selectFrom('products')
      .select(['id', 'sku', 'title', 'brand'])
      .where('account_id', '=', accountId)
      .where('id', 'in', productIds.slice(i, i + ROWS_PER_INSERT))
      .execute();
    await writeProductSearch(db, accountId, products);
  }
}
