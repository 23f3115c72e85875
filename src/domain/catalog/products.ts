import { argList, compiledBySize, compiledStatement, listArgsOf } from '../../db/fast-paths.js';
import type { Insertable } from 'kysely';
import type { ProductsTable } from '../../db/schema.js';
import type { Db } from '../../db/tx.js';
import { writeProductSearch } from './product-search.js';

export const STANDARD_PRODUCT_ID_TYPES = ['UPC', 'EAN', 'ISBN', 'GTIN'] as const;
export type StandardProductIdType = (typeof STANDARD_PRODUCT_ID_TYPES)[number];

export interface ProductRow {
  id: number;
  sku: string;
  standardProductId: string | null;
  standardProductIdType: string | null;
  active: boolean;
  inventoryUpdatedAt: string;
}

export interface ProductIdentifiers {
  standardProductId?: string | null;
  standardProductIdType?: StandardProductIdType | null;
}

/** Maps a products row (or any row carrying its columns) to the domain shape. */
export function toProductRow(r: {
  id: number;
  sku: string;
  standard_product_id: string | null;
  standard_product_id_type: string | null;
  active: number;
  inventory_updated_at: string;
}): ProductRow {
  return {
    id: r.id,
    sku: r.sku,
    standardProductId: r.standard_product_id,
    standardProductIdType: r.standard_product_id_type,
    active: r.active === 1,
    inventoryUpdatedAt: r.inventory_updated_at,
  };
}

const PRODUCT_COLUMNS = ['id', 'sku', 'standard_product_id', 'standard_product_id_type', 'active', 'inventory_updated_at'] as const;

// Every stock write by SKU runs it (compiled once: src/db/compiled.ts).
const productBySku = compiledStatement<Parameters<typeof toProductRow>[0], { accountId: number; sku: string }>((db, arg) =>
  db.selectFrom('products').select(PRODUCT_COLUMNS).where('account_id', '=', arg<number>('accountId')).where('sku', '=', arg('sku')),
);

// No ORDER BY: without table statistics SQLite serves "order by id" from the (account_id, id) index and
// walks the account's whole catalog (40 ms at 50,000 products, per call of a 100-line import chunk) instead of
// seeking each SKU; the rows are sorted here instead.
const productsBySkus = compiledBySize<Parameters<typeof toProductRow>[0], Record<string, unknown>>((db, arg, n) =>
  db.selectFrom('products').select(PRODUCT_COLUMNS).where('account_id', '=', arg<number>('accountId')).where('sku', 'in', argList<string>(arg, 's', n)),
);

/** Exact (case-sensitive) SKU lookup within the account. */
export async function findProductBySku(db: Db, accountId: number, sku: string): Promise<ProductRow | null> {
  const row = await productBySku.first(db, { accountId, sku });
  return row ? toProductRow(row) : null;
}

/** SKU lookups for a list, exact or case-insensitive; the result maps each requested SKU to its products. */
export async function findProductsBySkus(
  db: Db,
  accountId: number,
  skus: string[],
  caseSensitive: boolean,
): Promise<ProductRow[]> {
  if (skus.length === 0) return [];
  const rows = caseSensitive
    ? await productsBySkus.all(db, skus.length, { accountId, ...listArgsOf('s', skus) })
    : await db
        .selectFrom('products')
        .select(PRODUCT_COLUMNS)
        .where('account_id', '=', accountId)
        .where('sku_lower', 'in', skus.map((s) => s.toLowerCase()))
        .execute();
  return rows.sort((a, b) => a.id - b.id).map(toProductRow);
}

/** A new product as every writer creates one: active, the SKU and the identifiers given, nothing else yet. */
export function newProductRow(accountId: number, sku: string, iso: string, identifiers: ProductIdentifiers = {}): Insertable<ProductsTable> {
  return {
    account_id: accountId,
    sku,
    sku_lower: sku.toLowerCase(),
    standard_product_id: identifiers.standardProductId ?? null,
    standard_product_id_type: identifiers.standardProductIdType ?? null,
    title: null,
    active: 1,
    inventory_updated_at: iso,
    created_at: iso,
    updated_at: iso,
  };
}

/**
 * The product with this SKU, created (with the identifiers given) when the account has none yet.
 * Safe under concurrency: the unique (account_id, sku) index decides, and the loser reads the winner.
 */
export async function findOrCreateProduct(
  db: Db,
  accountId: number,
  sku: string,
  identifiers: ProductIdentifiers,
  now: Date,
): Promise<{ product: ProductRow; created: boolean }> {
  const existing = await findProductBySku(db, accountId, sku);
  if (existing) return { product: existing, created: false };
  const inserted = await db
    .insertInto('products')
    .values(newProductRow(accountId, sku, now.toISOString(), identifiers))
    .onConflict((oc) => oc.columns(['account_id', 'sku']).doNothing())
    .returning(PRODUCT_COLUMNS)
    .executeTakeFirst();
  if (inserted) {
    // The catalog search finds a bare product by its SKU (product-search.ts).
    await writeProductSearch(db, accountId, [{ id: Number(inserted.id), sku: inserted.sku, title: null, brand: null }]);
    return { product: toProductRow(inserted), created: true };
  }
  const winner = await findProductBySku(db, accountId, sku);
  if (!winner) throw new Error(`product ${sku} vanished after a conflicting insert`);
  return { product: winner, created: false };
}
