import { compiledStatement, readAhead } from '../../db/fast-paths.js';
import type { Db } from '../../db/tx.js';
import { isUniqueViolation } from '../../db/tx.js';
import { alreadyExists } from '../errors.js';
import { getAccount, requireName } from './accounts.js';
import { inventoryWarehouseNarrowing, type Principal } from './principal.js';

export interface WarehouseRow {
  id: number;
  name: string;
  channelFulfilled: boolean;
  /** Installation that controls the stock, when an inventory or 3PL integration does. */
  controlledBy: number | null;
}

export async function createWarehouse(
  db: Db,
  accountId: number,
  input: { name: string; channelFulfilled?: boolean },
  now: Date,
): Promise<{ warehouseId: number; name: string; channelFulfilled: boolean }> {
  const name = requireName('name', input.name);
  await getAccount(db, accountId);
  try {
    const row = await db
      .insertInto('warehouses')
      .values({
        account_id: accountId,
        name,
        channel_fulfilled: input.channelFulfilled ? 1 : 0,
        created_at: now.toISOString(),
      })
      .returning(['id', 'name', 'channel_fulfilled'])
      .executeTakeFirstOrThrow();
    return { warehouseId: row.id, name: row.name, channelFulfilled: row.channel_fulfilled === 1 };
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyExists(`a warehouse named "${name}" already exists in account ${accountId}`);
    throw error;
  }
}

// Every order and stock write reads it (compiled once: src/db/compiled.ts).
const warehousesWithControl = compiledStatement<{ id: number; name: string; channel_fulfilled: number; controlled_by: number | null }, { accountId: number }>((db, arg) =>
  db
    .selectFrom('warehouses as w')
    .leftJoin('warehouse_mappings as m', (j) =>
      j.onRef('m.warehouse_id', '=', 'w.id').on('m.account_id', '=', arg<number>('accountId')).on('m.controls_stock', '=', 1),
    )
    .leftJoin('installations as i', (j) => j.onRef('i.id', '=', 'm.installation_id').on('i.status', '=', 'ACTIVE'))
    .select(['w.id', 'w.name', 'w.channel_fulfilled', 'i.id as controlled_by'])
    .where('w.account_id', '=', arg<number>('accountId'))
    .orderBy('w.id'),
);

/** All warehouses of an account with the installation (if any) that controls each one's stock. */
export async function listAccountWarehouses(db: Db, accountId: number): Promise<WarehouseRow[]> {
  return warehouseRowsOf(await warehousesWithControl.all(db, { accountId }));
}

/** listAccountWarehouses sent ahead (src/db/unanswered.ts): the read shares the round trip of what follows. */
export async function accountWarehousesAhead(db: Db, accountId: number): Promise<() => Promise<WarehouseRow[]>> {
  const answer = await readAhead(db, warehousesWithControl.bound(db, { accountId }));
  return async () => warehouseRowsOf(await answer());
}

function warehouseRowsOf(rows: readonly { id: number; name: string; channel_fulfilled: number; controlled_by: number | null }[]): WarehouseRow[] {
  const byId = new Map<number, WarehouseRow>();
  for (const r of rows) {
    const existing = byId.get(r.id);
    if (existing && existing.controlledBy !== null) continue;
    byId.set(r.id, {
      id: r.id,
      name: r.name,
      channelFulfilled: r.channel_fulfilled === 1,
      controlledBy: r.controlled_by ?? null,
    });
  }
  return [...byId.values()];
}

/** The operator's view of an account's warehouses (404 when the account does not exist). */
export async function listWarehousesOfAccount(db: Db, accountId: number) {
  await getAccount(db, accountId);
  const warehouses = await listAccountWarehouses(db, accountId);
  return warehouses.map((w) => ({
    warehouseId: w.id,
    name: w.name,
    channelFulfilled: w.channelFulfilled,
    controlledByInstallationId: w.controlledBy,
  }));
}

/**
 * Whether the caller may change this warehouse's stock: nobody else's integration controls it, and a
 * token narrowed by inventory:self writes only its own mapped warehouses (resolutions §2).
 */
export function canUpdateInventory(principal: Principal, warehouse: WarehouseRow): boolean {
  const narrowing = inventoryWarehouseNarrowing(principal);
  if (narrowing !== null && !narrowing.includes(warehouse.id)) return false;
  return warehouse.controlledBy === null || warehouse.controlledBy === principal.installationId;
}

/** GET /v1/warehouses: every warehouse of the account, in the caller's namespace. */
export async function listWarehousesForCaller(db: Db, principal: Principal) {
  const warehouses = await listAccountWarehouses(db, principal.accountId);
  return warehouses.map((w) => ({
    warehouseId: w.id,
    warehouseUniqueId: principal.mappings.find((m) => m.warehouseId === w.id)?.warehouseUniqueId ?? null,
    name: w.name,
    canUpdateInventory: canUpdateInventory(principal, w),
  }));
}
