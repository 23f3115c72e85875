import type { Db } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';

/** Keyset position of the last row of a page: (inventory.updated_at, inventory.id). */
export interface InventoryKeyset {
  updatedAt: string;
  id: number;
}

export interface InventoryChange {
  sku: string;
  warehouseUniqueId: string;
  /** On-hand units. */
  onhand: number;
  lastUpdatedTs: string;
}

export interface InventoryChangesPage {
  items: InventoryChange[];
  /** Where the next page starts; null on the last page. */
  next: InventoryKeyset | null;
}

/**
 * GET /v2/inventory: stock rows of the integration's mapped warehouses, oldest change first, keyset on
 * (updated_at, id) so rows sharing a timestamp are never skipped (index inventory_account_updated).
 * `updatedSince` is inclusive: a partner that passes back the newest lastUpdatedTs it saw may see that
 * row again but never misses one changed in the same millisecond (at-least-once, resolutions §1).
 */
export async function listInventoryChanges(
  db: Db,
  principal: Principal,
  input: { updatedSince: Date | null; after: InventoryKeyset | null; pageSize: number },
): Promise<InventoryChangesPage> {
  const uniqueIdOf = new Map(principal.mappings.map((m) => [m.warehouseId, m.warehouseUniqueId]));
  if (uniqueIdOf.size === 0) return { items: [], next: null };
  let query = db
    .selectFrom('inventory as inv')
    .innerJoin('products as p', (j) => j.onRef('p.id', '=', 'inv.product_id').onRef('p.account_id', '=', 'inv.account_id'))
    .select(['inv.id', 'inv.warehouse_id', 'inv.onhand_quantity', 'inv.updated_at', 'p.sku'])
    .where('inv.account_id', '=', principal.accountId)
    .where('inv.warehouse_id', 'in', [...uniqueIdOf.keys()]);
  if (input.updatedSince) query = query.where('inv.updated_at', '>=', input.updatedSince.toISOString());
  const after = input.after;
  if (after) {
    query = query.where((eb) => eb(eb.refTuple('inv.updated_at', 'inv.id'), '>', eb.tuple(after.updatedAt, after.id)));
  }
  const rows = await query
    .orderBy('inv.updated_at')
    .orderBy('inv.id')
    .limit(input.pageSize + 1)
    .execute();
  const page = rows.slice(0, input.pageSize);
  const last = page[page.length - 1];
  return {
    items: page.map((r) => ({
      sku: r.sku,
      warehouseUniqueId: uniqueIdOf.get(r.warehouse_id)!,
      onhand: Number(r.onhand_quantity),
      lastUpdatedTs: r.updated_at,
    })),
    next: rows.length > input.pageSize && last ? { updatedAt: last.updated_at, id: Number(last.id) } : null,
  };
}
