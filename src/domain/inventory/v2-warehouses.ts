import type { Db } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';

export interface MappedWarehouse {
  warehouseId: number;
  warehouseUniqueId: string;
  name: string;
}

/**
 * The integration's mapped warehouses with their names, in warehouse id order. Only mappings of the
 * caller's own installation count: the partner knows a warehouse only by its own warehouseUniqueId.
 */
export async function listMappedWarehouses(db: Db, principal: Principal): Promise<MappedWarehouse[]> {
  if (principal.mappings.length === 0) return [];
  const rows = await db
    .selectFrom('warehouses')
    .select(['id', 'name'])
    .where('account_id', '=', principal.accountId)
    .where(
      'id',
      'in',
      principal.mappings.map((m) => m.warehouseId),
    )
    .execute();
  const names = new Map(rows.map((r) => [r.id, r.name]));
  return principal.mappings
    .filter((m) => names.has(m.warehouseId))
    .map((m) => ({ warehouseId: m.warehouseId, warehouseUniqueId: m.warehouseUniqueId, name: names.get(m.warehouseId)! }));
}
