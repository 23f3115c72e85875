import { sql } from 'kysely';
import { cappedCount } from '../../db/capped-count.js';
import type { Db } from '../../db/tx.js';
import { refreshLowStockGaps, writeLowStockThreshold } from '../catalog/product-low-stock-gap.js';
import { invalidArgument, notFound } from '../errors.js';

/**
 * Low stock (issue 24 item 5, migration 031): a seller sets an alert level per SKU; the SKU is "low" while the
 * units available across its sellable warehouses (every warehouse but the channel-fulfilled ones, whose stock
 * a marketplace sells for itself) are at or below it. No threshold (null) means no alert.
 *
 * An available total across warehouses cannot be indexed, so each product with a threshold keeps
 * low_stock_gap = threshold − that total, recomputed by every stock change of the product (stock-touch.ts
 * recomputes it in the statement that touches the products after each write) and when the
 * threshold is set. A SKU is low while its gap is ≥ 0; the list and the count read products_low_stock, an
 * index of the gaps, most short first: the low SKUs only, whatever the size of the catalog. The columns are
 * the catalog's (src/domain/catalog/product-low-stock-gap.ts writes them).
 */

/** ">= 0" as a literal: SQLite matches a partial index's condition against the query's own terms. */
const LOW = sql.lit(0);

/** The highest threshold a seller may set (a whole number from 0). */
export const LOW_STOCK_MAX = 1_000_000;

export interface LowStockRow {
  productId: number;
  sku: string;
  title: string | null;
  /** Units available across the sellable warehouses. */
  available: number;
  threshold: number;
  /** threshold − available: how far below (0 when exactly at the threshold). */
  shortfall: number;
}

/** Where the next page starts: after this (shortfall, product id), most short first. */
export interface LowStockCursor {
  shortfall: number;
  productId: number;
}

export interface LowStockPage {
  rows: LowStockRow[];
  next: LowStockCursor | null;
}

function lowProducts(db: Db, accountId: number) {
  return db.selectFrom('products').where('account_id', '=', accountId).where('low_stock_gap', '>=', LOW);
}

/** A page of the account's low SKUs, furthest below their threshold first (ties: product id). */
export async function listLowStock(db: Db, accountId: number, after: LowStockCursor | null, limit: number): Promise<LowStockPage> {
  let query = lowProducts(db, accountId).select(['id', 'sku', 'title', 'low_stock_threshold', 'low_stock_gap']);
  if (after !== null) {
    query = query.where((eb) => eb.or([eb('low_stock_gap', '<', after.shortfall), eb.and([eb('low_stock_gap', '=', after.shortfall), eb('id', '>', after.productId)])]));
  }
  const found = await query.orderBy('low_stock_gap', 'desc').orderBy('id').limit(limit + 1).execute();
  const rows = found.slice(0, limit).map((r) => {
    const threshold = Number(r.low_stock_threshold);
    const shortfall = Number(r.low_stock_gap);
    return { productId: r.id, sku: r.sku, title: r.title, available: threshold - shortfall, threshold, shortfall };
  });
  const last = rows[rows.length - 1];
  return { rows, next: found.length > limit && last ? { shortfall: last.shortfall, productId: last.productId } : null };
}

/** How many of the account's SKUs are low, up to COUNT_CAP + 1 (the console's home). */
export function countLowStock(db: Db, accountId: number): Promise<number> {
  return cappedCount(db, lowProducts(db, accountId).select('id'));
}

/** Sets (or with null clears) a SKU's threshold; the SKU is matched exactly. Answers the product's id. */
export async function setLowStockThreshold(db: Db, accountId: number, sku: string, threshold: number | null): Promise<number> {
  if (threshold !== null && (!Number.isInteger(threshold) || threshold < 0 || threshold > LOW_STOCK_MAX)) {
    throw invalidArgument(`The low-stock alert must be a whole number from 0 to ${LOW_STOCK_MAX.toLocaleString('en-US')}, or empty for no alert.`);
  }
  const productId = await writeLowStockThreshold(db, accountId, sku, threshold);
  if (productId === null) throw notFound(`No product has the SKU "${sku}".`);
  // A stock change recomputes the gap in the statement that touches the products (stock-touch.ts); a new
  // threshold needs it computed now, so the list never shows a stale figure.
  if (threshold !== null) await refreshLowStockGaps(db, accountId, [productId]);
  return productId;
}

/** A SKU's threshold (null: no alert); the SKU is matched exactly. */
export async function getLowStockThreshold(db: Db, accountId: number, sku: string): Promise<number | null> {
  const row = await db.selectFrom('products').select('low_stock_threshold').where('account_id', '=', accountId).where('sku', '=', sku).executeTakeFirst();
  if (!row) throw notFound(`No product has the SKU "${sku}".`);
  return row.low_stock_threshold === null ? null : Number(row.low_stock_threshold);
}

/** Whether any SKU of the account has a threshold (the low-stock list's empty state says which case it is). */
export async function hasLowStockAlerts(db: Db, accountId: number): Promise<boolean> {
  const row = await db.selectFrom('products').select('id').where('account_id', '=', accountId).where('low_stock_gap', 'is not', null).limit(1).executeTakeFirst();
  return row !== undefined;
}
