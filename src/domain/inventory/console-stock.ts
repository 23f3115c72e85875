import { sql } from 'kysely';
import type { Db } from '../../db/tx.js';
import { listAccountWarehouses, type WarehouseRow } from '../accounts/warehouses.js';
import { stockRowsFor, type StockRow } from './stock.js';
import { groupBy } from '../../lib/group-by.js';

/**
 * The seller console's stock table: the account's products whose SKU starts with a prefix, in SKU order,
 * each with its title, low-stock threshold and stock rows (available, on hand, reserved, assembled, bin, updated), keyset-paged on the SKU
 * (unique per account), never by offset.
 */
export interface StockSearchPage {
  products: { id: number; sku: string; title: string | null; active: boolean; lowStockThreshold: number | null; stock: StockRow[] }[];
  warehouses: WarehouseRow[];
  /** The last SKU of this page when another page follows. */
  next: string | null;
}

export async function searchStockBySkuPrefix(db: Db, accountId: number, prefix: string, afterSku: string | null, limit: number): Promise<StockSearchPage> {
  let query = db.selectFrom('products').select(['id', 'sku', 'title', 'active', 'low_stock_threshold']).where('account_id', '=', accountId);
  // substr rather than LIKE: LIKE is case-insensitive on SQLite and case-sensitive on PostgreSQL, and a SKU
  // may hold % or _; a SKU is case-sensitive everywhere else in the service.
  if (prefix !== '') query = query.where(sql<boolean>`substr(sku, 1, ${sql.lit(prefix.length)}) = ${prefix}`);
  if (afterSku !== null) query = query.where('sku', '>', afterSku);
  const rows = await query.orderBy('sku').limit(limit + 1).execute();
  const page = rows.slice(0, limit);
  const [stock, warehouses] = await Promise.all([
    stockRowsFor(
      db,
      accountId,
      page.map((p) => p.id),
      null,
    ),
    listAccountWarehouses(db, accountId),
  ]);
  const byProduct = groupBy(stock, (row) => row.productId);
  return {
    products: page.map((p) => ({
      id: p.id,
      sku: p.sku,
      title: p.title,
      active: p.active === 1,
      lowStockThreshold: p.low_stock_threshold === null ? null : Number(p.low_stock_threshold),
      stock: byProduct.get(p.id) ?? [],
    })),
    warehouses,
    next: rows.length > limit ? page[page.length - 1]!.sku : null,
  };
}
