import type { Deps } from '../../../../deps.js';
import type { CatalogPosition } from '../../../../domain/catalog/catalog-list.js';
import { invalidArgument, isAppError } from '../../../../domain/errors.js';
import type { StockRow } from '../../../../domain/inventory/stock.js';
import { kitsBuildable, type KitComponent } from '../../../../domain/catalog/kit-capacity.js';
import { decodeV2Cursor, encodeCursor } from '../../../pagination.js';

/**
 * The catalog list's address: the search (kept in the page links) and a signed position, bound to the
 * account like the API's cursors, so a changed or another account's link is a 400 page saying what to do.
 */

export const MAX_SEARCH = 200;

interface Cursor {
  k: string;
  /** 'a': the page after the SKU; 'b': the page before it. */
  d: 'a' | 'b';
}
const isCursor = (v: unknown): v is Cursor => {
  const c = v as Cursor;
  return typeof v === 'object' && v !== null && typeof c.k === 'string' && (c.d === 'a' || c.d === 'b');
};
const cursorRoute = (accountId: number) => `GET /console/catalog#${accountId}`;
const STALE_LINK = 'This page link is out of date or was changed. Open Catalog again to start from the first page.';

export function decodeCatalogPosition(deps: Deps, accountId: number, raw: string): CatalogPosition | null {
  try {
    const cursor = decodeV2Cursor(deps.signer, cursorRoute(accountId), raw || undefined, isCursor);
    return cursor === null ? null : { sku: cursor.k, direction: cursor.d === 'a' ? 'after' : 'before' };
  } catch (error) {
    if (isAppError(error)) throw invalidArgument(STALE_LINK);
    throw error;
  }
}

export function encodeCatalogPosition(deps: Deps, accountId: number, sku: string | null, direction: 'a' | 'b'): string | null {
  return sku === null ? null : encodeCursor(deps.signer, cursorRoute(accountId), { k: sku, d: direction } satisfies Cursor);
}

export function catalogHref(q: string, cursor: string | null = null): string {
  const params = new URLSearchParams();
  if (q !== '') params.set('q', q);
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text === '' ? '/console/catalog' : `/console/catalog?${text}`;
}

/** Stock facts of products from their stock rows: units available across warehouses, per product. */
export function availableByProduct(rows: readonly StockRow[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const r of rows) out.set(r.productId, (out.get(r.productId) ?? 0) + r.available);
  return out;
}

/** Kits the components in stock can still build, per warehouse (warehouses of the account, in their order). */
export function buildableKits(recipe: readonly KitComponent[], rows: readonly StockRow[], warehouseIds: readonly number[]) {
  const available = new Map(rows.map((r) => [`${r.warehouseId}:${r.productId}`, r.available]));
  return kitsBuildable(recipe, warehouseIds, (w, p) => available.get(`${w}:${p}`) ?? 0);
}
