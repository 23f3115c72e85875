import type { Db } from '../../db/tx.js';
import { findProductsBySkus, toProductRow, type ProductRow } from '../catalog/products.js';
import { inventoryWarehouseNarrowing, type Principal } from '../accounts/principal.js';
import { listAccountWarehouses } from '../accounts/warehouses.js';
import { invalidField } from '../errors.js';
import type { InboundPort } from './inbound-port.js';
import { detailedRecords, type DetailedInventoryV1 } from './v1-records.js';

/**
 * GET /v1/inventory (resolutions §3): SKUs by explicit list, by last inventory change, or by warehouse,
 * paged by keyset on (products.inventory_updated_at, products.id), never by offset.
 *
 * The query reads products.inventory_updated_at directly: that column is kept by this area
 * (applyStockChange moves it) and its index exists for this listing.
 */
export interface InventoryListFilter {
  activeOnly: boolean;
  /** ISO text; SKUs whose inventory changed strictly after it. Ignored when skus is set. */
  updatedAfter: string | null;
  /** Requested SKUs; when set, updatedAfter and warehouseIds are ignored. */
  skus: string[] | null;
  caseSensitive: boolean;
  warehouseIds: number[] | null;
}

/** The last row of a page: the next page starts strictly after it. */
export interface KeysetPosition {
  ts: string;
  id: number;
}

export interface InventoryListPage {
  records: DetailedInventoryV1[];
  /** Requested SKUs with no product; only reported on the first page. */
  errors: string[];
  next: KeysetPosition | null;
}

/**
 * Unknown warehouse ids are a 400 rather than a 404: they are filter values in the query string, not
 * the resource the URL names, and a 404 would read as "no such route or SKU". Other accounts' ids are
 * unknown here too, so the message never reveals that they exist.
 */
async function checkWarehouseFilter(db: Db, principal: Principal, ids: number[]): Promise<void> {
  const known = new Set((await listAccountWarehouses(db, principal.accountId)).map((w) => w.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw invalidField('warehouses', `unknown warehouse id${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`);
  }
  const narrowing = inventoryWarehouseNarrowing(principal);
  const hidden = narrowing === null ? [] : ids.filter((id) => !narrowing.includes(id));
  if (hidden.length > 0) {
    throw invalidField(
      'warehouses',
      `warehouse${hidden.length > 1 ? 's' : ''} ${hidden.join(', ')} ${hidden.length > 1 ? 'are' : 'is'} not mapped to this token's integration (scope inventory:self)`,
    );
  }
}

function missingSkus(requested: string[], found: ProductRow[], caseSensitive: boolean): string[] {
  const key = (s: string) => (caseSensitive ? s : s.toLowerCase());
  const present = new Set(found.map((p) => key(p.sku)));
  const seen = new Set<string>();
  const missing: string[] = [];
  for (const sku of requested) {
    if (present.has(key(sku)) || seen.has(key(sku))) continue;
    seen.add(key(sku));
    missing.push(sku);
  }
  return missing;
}

export async function listInventoryV1(
  db: Db,
  principal: Principal,
  filter: InventoryListFilter,
  after: KeysetPosition | null,
  pageLength: number,
  inbound: InboundPort,
): Promise<InventoryListPage> {
  const bySkus = filter.skus !== null;
  const warehouseIds = bySkus ? null : filter.warehouseIds;
  if (warehouseIds !== null) await checkWarehouseFilter(db, principal, warehouseIds);

  let query = db
    .selectFrom('products as p')
    .select(['p.id', 'p.sku', 'p.standard_product_id', 'p.standard_product_id_type', 'p.active', 'p.inventory_updated_at'])
    .where('p.account_id', '=', principal.accountId);
  if (filter.activeOnly) query = query.where('p.active', '=', 1);
  if (filter.skus !== null) {
    query = filter.caseSensitive
      ? query.where('p.sku', 'in', filter.skus)
      : query.where('p.sku_lower', 'in', filter.skus.map((s) => s.toLowerCase()));
  } else {
    if (filter.updatedAfter !== null) query = query.where('p.inventory_updated_at', '>', filter.updatedAfter);
    // checkWarehouseFilter refused ids outside the token's narrowing, so these are all visible.
    const stocked = warehouseIds;
    if (stocked !== null) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('inventory as i')
            .select('i.id')
            .where('i.account_id', '=', principal.accountId)
            .whereRef('i.product_id', '=', 'p.id')
            .where('i.warehouse_id', 'in', stocked),
        ),
      );
    }
  }
  if (after !== null) {
    query = query.where((eb) => eb(eb.refTuple('p.inventory_updated_at', 'p.id'), '>', eb.tuple(after.ts, after.id)));
  }
  const rows = await query.orderBy('p.inventory_updated_at').orderBy('p.id').limit(pageLength + 1).execute();
  const page = rows.slice(0, pageLength).map(toProductRow);
  const last = page[page.length - 1];
  const next = rows.length > pageLength && last ? { ts: last.inventoryUpdatedAt, id: last.id } : null;

  const errors =
    filter.skus !== null && after === null
      ? missingSkus(filter.skus, await findProductsBySkus(db, principal.accountId, filter.skus, filter.caseSensitive), filter.caseSensitive)
      : [];
  return { records: await detailedRecords(db, principal, page, warehouseIds, inbound), errors, next };
}
