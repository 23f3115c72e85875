import { sql } from 'kysely';
import type { Db, Tx } from '../../db/tx.js';
import { AppError, alreadyExists, invalidArgument, invalidField, notFound } from '../errors.js';
import { kindControlsStock, kindFulfilsOrders, type AppKind } from './principal.js';
import type { WarehouseWorkPort } from './warehouse-work-port.js';

/**
 * Warehouse mappings of shipping, inventory and 3PL installations (resolutions §2) and the rules on them:
 * a warehouse's stock is controlled by at most one active INVENTORY or THIRD_PARTY_LOGISTICS installation,
 * and it ships with at most one active SHIPPING or THIRD_PARTY_LOGISTICS installation (resolutions §6). The
 * second rule is also the partial unique index warehouse_mappings_one_fulfiller (migration 027).
 */

export interface WarehouseMappingInput {
  warehouseId: number;
  warehouseUniqueId: string;
}

/** The active integration a warehouse ships with. */
export interface WarehouseFulfiller {
  warehouseId: number;
  warehouseName: string;
  installationId: number;
  appId: number;
  appName: string;
}

/**
 * 409: the warehouse already ships with another active integration. It names that installation (id and app
 * name) so the seller knows which one to unmap or uninstall first; the console words it from `fulfillers`.
 */
export class WarehouseFulfilledElsewhere extends AppError {
  constructor(readonly fulfillers: WarehouseFulfiller[]) {
    super(
      'ALREADY_EXISTS',
      `${fulfillers
        .map((f) => `warehouse ${f.warehouseId} (${f.warehouseName}) is already fulfilled by installation ${f.installationId} (${f.appName})`)
        .join('; ')}. A warehouse has one shipping or 3PL integration at a time: unmap the warehouse from that installation, or uninstall it, first`,
    );
  }
}

/** The integration each warehouse ships with, by warehouse id (all of the account's, or only `warehouseIds`). */
export async function warehouseFulfillers(db: Db | Tx, accountId: number, warehouseIds?: readonly number[]): Promise<Map<number, WarehouseFulfiller>> {
  if (warehouseIds !== undefined && warehouseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('warehouse_mappings as m')
    .innerJoin('installations as i', 'i.id', 'm.installation_id')
    .innerJoin('apps as a', 'a.id', 'i.app_id')
    .innerJoin('warehouses as w', 'w.id', 'm.warehouse_id')
    .select(['m.warehouse_id', 'w.name as warehouse_name', 'm.installation_id', 'i.app_id', 'a.name as app_name'])
    .where('m.account_id', '=', accountId)
    .where(sql<boolean>`m.fulfills = 1`)
    .where('i.account_id', '=', accountId)
    .where('i.status', '=', 'ACTIVE')
    .$if(warehouseIds !== undefined, (qb) => qb.where('m.warehouse_id', 'in', [...(warehouseIds ?? [])]))
    .orderBy('m.warehouse_id')
    .execute();
  return new Map(
    rows.map((r) => [
      r.warehouse_id,
      { warehouseId: r.warehouse_id, warehouseName: r.warehouse_name, installationId: r.installation_id, appId: r.app_id, appName: r.app_name },
    ]),
  );
}

/** Blank ids, a warehouse or a partner id given twice: checked before anything is written. */
export function checkMappingInput(mappings: readonly WarehouseMappingInput[]): void {
  const seenIds = new Set<number>();
  const seenUnique = new Set<string>();
  for (const m of mappings) {
    if (m.warehouseUniqueId.trim() === '') throw invalidField('warehouses.warehouseUniqueId', 'must not be empty').because('app.partner_id_missing', {});
    if (seenIds.has(m.warehouseId)) throw invalidArgument(`warehouse ${m.warehouseId} is mapped twice`);
    if (seenUnique.has(m.warehouseUniqueId)) {
      throw invalidArgument(`warehouseUniqueId "${m.warehouseUniqueId}" is used twice`).because('app.partner_id_taken', { partnerId: m.warehouseUniqueId });
    }
    seenIds.add(m.warehouseId);
    seenUnique.add(m.warehouseUniqueId);
  }
}

async function requireOwnWarehouses(tx: Tx, accountId: number, ids: number[]): Promise<void> {
  const owned = await tx.selectFrom('warehouses').select('id').where('account_id', '=', accountId).where('id', 'in', ids).execute();
  const ownedIds = new Set(owned.map((w) => w.id));
  const missing = ids.filter((id) => !ownedIds.has(id));
  if (missing.length > 0) throw notFound(`warehouse(s) ${missing.join(', ')} not found in account ${accountId}`).because('app.unknown_warehouse', {});
}

/** An installation maps a warehouse, or a partner id, once (the primary key and warehouse_mappings_unique_id). */
async function refuseAlreadyMapped(tx: Tx, accountId: number, installationId: number, mappings: readonly WarehouseMappingInput[]): Promise<void> {
  const existing = await tx
    .selectFrom('warehouse_mappings')
    .select(['warehouse_id', 'warehouse_unique_id'])
    .where('account_id', '=', accountId)
    .where('installation_id', '=', installationId)
    .execute();
  for (const m of mappings) {
    if (existing.some((e) => e.warehouse_id === m.warehouseId)) {
      throw alreadyExists(`warehouse ${m.warehouseId} is already mapped to installation ${installationId}`).because('app.already_mapped', {});
    }
    if (existing.some((e) => e.warehouse_unique_id === m.warehouseUniqueId)) {
      throw alreadyExists(`warehouseUniqueId "${m.warehouseUniqueId}" already names another warehouse of installation ${installationId}`).because('app.partner_id_taken', {
        partnerId: m.warehouseUniqueId,
      });
    }
  }
}

async function refuseStockControlledElsewhere(tx: Tx, accountId: number, ids: number[]): Promise<void> {
  const taken = await tx
    .selectFrom('warehouse_mappings as m')
    .innerJoin('installations as i', 'i.id', 'm.installation_id')
    .select('m.warehouse_id')
    .where('m.account_id', '=', accountId)
    .where('m.controls_stock', '=', 1)
    .where('i.status', '=', 'ACTIVE')
    .where('m.warehouse_id', 'in', ids)
    .execute();
  if (taken.length > 0) {
    throw alreadyExists(`warehouse(s) ${taken.map((t) => t.warehouse_id).join(', ')} already have their stock controlled by another integration`).because(
      'app.stock_kept_elsewhere',
      {},
    );
  }
}

/**
 * Maps warehouses to an ACTIVE integration installation (the Install button, or the seller mapping one more
 * later), in the caller's transaction. A warehouse another integration already ships from is a 409 naming it
 * (WarehouseFulfilledElsewhere); so is one whose stock another integration controls, for the kinds that
 * control stock. When the installation ships, the units already owed in those warehouses become its
 * fulfillment orders (`work.assign`). Returns how many fulfillment orders it got.
 */
export async function addWarehouseMappings(
  tx: Tx,
  accountId: number,
  installation: { id: number; kind: AppKind },
  mappings: readonly WarehouseMappingInput[],
  now: Date,
  work: WarehouseWorkPort,
): Promise<number> {
  if (mappings.length === 0) return 0;
  checkMappingInput(mappings);
  const ids = mappings.map((m) => m.warehouseId);
  await requireOwnWarehouses(tx, accountId, ids);
  await refuseAlreadyMapped(tx, accountId, installation.id, mappings);
  const controls = kindControlsStock(installation.kind);
  const fulfils = kindFulfilsOrders(installation.kind);
  if (controls) await refuseStockControlledElsewhere(tx, accountId, ids);
  if (fulfils) {
    const taken = await warehouseFulfillers(tx, accountId, ids);
    if (taken.size > 0) throw new WarehouseFulfilledElsewhere([...taken.values()]);
  }

  const values = mappings.map((m) => ({
    account_id: accountId,
    installation_id: installation.id,
    warehouse_id: m.warehouseId,
    warehouse_unique_id: m.warehouseUniqueId,
    controls_stock: controls ? 1 : 0,
    fulfills: fulfils ? 1 : 0,
  }));
  if (!fulfils) {
    await tx.insertInto('warehouse_mappings').values(values).execute();
    return 0;
  }
  // A parallel mapping of the same warehouse may commit between the check above and this insert: the index
  // then skips the row (PostgreSQL waits for the other transaction first) and the 409 names the winner.
  const inserted = await tx
    .insertInto('warehouse_mappings')
    .values(values)
    .onConflict((oc) => oc.columns(['account_id', 'warehouse_id']).where(sql<boolean>`fulfills = 1`).doNothing())
    .returning('warehouse_id')
    .execute();
  if (inserted.length < values.length) {
    const lost = ids.filter((id) => !inserted.some((r) => r.warehouse_id === id));
    const winners = [...(await warehouseFulfillers(tx, accountId, lost)).values()];
    throw winners.length > 0 ? new WarehouseFulfilledElsewhere(winners) : alreadyExists(`warehouse(s) ${lost.join(', ')} were just mapped to another shipping integration`);
  }
  return work.assign(tx, { accountId, installationId: installation.id, warehouseIds: ids, now });
}
