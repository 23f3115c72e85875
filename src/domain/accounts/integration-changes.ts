import type { Tx } from '../../db/tx.js';
import { conflict, invalidArgument, notFound } from '../errors.js';
import { isIntegrationKind, kindControlsStock, type AppKind } from './principal.js';
import { revokeInstallationReleasing } from './installations.js';
import { addWarehouseMappings, type WarehouseMappingInput } from './warehouse-mappings.js';
import type { PulledBack, WarehouseWorkPort } from './warehouse-work-port.js';

/**
 * The seller changing which integration works a warehouse (resolutions §6, "One shipping/3PL integration per
 * warehouse"): map one more warehouse to an installed integration, unmap one, or uninstall any app. Unmapping
 * and uninstalling pull the integration's open work back as a cancellation does; the units stay routed and
 * reserved in the warehouse until the next integration mapped to it gets them.
 */

/**
 * The installation, which must be an ACTIVE integration. Its row is locked (a no-op conditional update, as
 * the revocation's own), so a mapping change and a parallel uninstall of the same installation take turns.
 */
async function lockActiveIntegration(tx: Tx, accountId: number, installationId: number): Promise<{ id: number; kind: AppKind }> {
  const row = await tx
    .updateTable('installations')
    .set((eb) => ({ status: eb.ref('status') }))
    .where('account_id', '=', accountId)
    .where('id', '=', installationId)
    .where('status', '=', 'ACTIVE')
    .returning(['id', 'kind'])
    .executeTakeFirst();
  if (!row) {
    const exists = await tx.selectFrom('installations').select('id').where('account_id', '=', accountId).where('id', '=', installationId).executeTakeFirst();
    if (!exists) throw notFound(`installation ${installationId} not found`);
    throw conflict(`installation ${installationId} is uninstalled (revoked)`).because('app.uninstalled', {});
  }
  const kind = row.kind as AppKind;
  if (!isIntegrationKind(kind)) {
    throw invalidArgument(`installation ${installationId} is a ${kind} installation; only SHIPPING, INVENTORY and THIRD_PARTY_LOGISTICS installations map warehouses`);
  }
  return { id: row.id, kind };
}

export interface MappedWarehouse {
  installationId: number;
  warehouseId: number;
  warehouseUniqueId: string;
  controlsStock: boolean;
  /** Fulfillment orders the installation got for units already owed in the warehouse. */
  fulfillmentOrdersAssigned: number;
}

/** Maps one more warehouse to an installed integration (the same rules as the Install button's mappings). */
export async function mapWarehouse(
  tx: Tx,
  accountId: number,
  installationId: number,
  mapping: WarehouseMappingInput,
  now: Date,
  work: WarehouseWorkPort,
): Promise<MappedWarehouse> {
  const installation = await lockActiveIntegration(tx, accountId, installationId);
  const assigned = await addWarehouseMappings(tx, accountId, installation, [mapping], now, work);
  return {
    installationId,
    warehouseId: mapping.warehouseId,
    warehouseUniqueId: mapping.warehouseUniqueId,
    controlsStock: kindControlsStock(installation.kind),
    fulfillmentOrdersAssigned: assigned,
  };
}

export interface UnmappedWarehouse extends PulledBack {
  installationId: number;
  warehouseId: number;
}

/**
 * Unmaps a warehouse from an installed integration: its token stops seeing the warehouse, the stock it
 * controlled there becomes editable, and the open work it held there is pulled back (`work.withdraw`). An
 * integration may be left with no warehouse (its status check then says so) until the seller maps one.
 */
export async function unmapWarehouse(
  tx: Tx,
  accountId: number,
  installationId: number,
  warehouseId: number,
  now: Date,
  work: WarehouseWorkPort,
): Promise<UnmappedWarehouse> {
  await lockActiveIntegration(tx, accountId, installationId);
  const removed = await tx
    .deleteFrom('warehouse_mappings')
    .where('account_id', '=', accountId)
    .where('installation_id', '=', installationId)
    .where('warehouse_id', '=', warehouseId)
    .returning('fulfills')
    .executeTakeFirst();
  if (!removed) throw notFound(`warehouse ${warehouseId} is not mapped to installation ${installationId}`).because('app.not_mapped', {});
  const pulledBack =
    removed.fulfills === 1
      ? await work.withdraw(tx, { accountId, installationId, warehouseIds: [warehouseId], now })
      : { withdrawn: 0, cancellationRequested: 0 };
  return { installationId, warehouseId, ...pulledBack };
}

export interface Uninstalled extends PulledBack {
  installationId: number;
  status: 'REVOKED';
}

/**
 * Uninstalls any app: the installation is revoked with every token (401 from their next request), and the
 * open work of a shipping or 3PL integration is pulled back from each warehouse it shipped from.
 */
export async function uninstallApp(tx: Tx, accountId: number, installationId: number, now: Date, work: WarehouseWorkPort): Promise<Uninstalled> {
  const revoked = await revokeInstallationReleasing(tx, accountId, installationId, now);
  const pulledBack =
    revoked.releasedWarehouseIds.length > 0
      ? await work.withdraw(tx, { accountId, installationId, warehouseIds: revoked.releasedWarehouseIds, now })
      : { withdrawn: 0, cancellationRequested: 0 };
  return { installationId, status: revoked.status, ...pulledBack };
}
