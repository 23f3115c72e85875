import type { Db } from '../../db/tx.js';

/** What a page showing a product next to an order line needs from the catalog: its id, title and image. */
export interface CatalogDisplay {
  productId: number;
  title: string | null;
  /** The catalog's image_url as the seller typed it (any text; the page decides whether it can show it). */
  imageUrl: string | null;
}

/** The most SKUs one call reads (an order page's lines; an order has at most a few hundred). */
const MAX_SKUS = 500;

/** Catalog display facts of these SKUs (exact, as order lines carry their catalog SKU), keyed by SKU. */
export async function catalogDisplayBySkus(db: Db, accountId: number, skus: readonly string[]): Promise<Map<string, CatalogDisplay>> {
  const wanted = [...new Set(skus)].slice(0, MAX_SKUS);
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('products')
    .select(['id', 'sku', 'title', 'image_url'])
    .where('account_id', '=', accountId)
    .where('sku', 'in', wanted)
    .execute();
  return new Map(rows.map((r) => [r.sku, { productId: r.id, title: r.title, imageUrl: r.image_url }]));
}
