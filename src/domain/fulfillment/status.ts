import type { Db } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import type { CheckSource, StatusCheck } from '../inventory/v2-status.js';
import { callerWarehouseIds } from './access.js';
import { stillOwesUnits } from './owed.js';

/**
 * GET /v2/shipping/status (resolutions §4): the service's own view of a shipping integration.
 * - warehouse_mappings: FAIL when no warehouse is mapped;
 * - unacknowledged_work (per warehouse): WARN when fulfillment orders still owed have waited unacknowledged
 *   longer than AGED_WORK_MS since they were assigned;
 * - pending_cancellations: WARN when a cancellation request has waited longer than AGED_WORK_MS;
 * - open_alerts: WARN while alerts are open on the integration's orders, including the service's own (for
 *   example rejected work waiting for the seller).
 */
export const AGED_WORK_MS = 24 * 60 * 60 * 1000;

export async function shippingIntegrationStatus(db: Db, principal: Principal, now: Date): Promise<StatusCheck[]> {
  const source: CheckSource = 'CHECK_SOURCE_SERVICE';
  const warehouses = callerWarehouseIds(principal);
  if (warehouses.length === 0 || principal.integrationId === null) {
    return [
      {
        name: 'warehouse_mappings',
        state: 'CHECK_STATE_FAIL',
        message: 'no warehouses are mapped to this integration; the seller must map at least one to it',
        source,
        warehouseUniqueId: '',
      },
    ];
  }
  const checks: StatusCheck[] = [
    {
      name: 'warehouse_mappings',
      state: 'CHECK_STATE_PASS',
      message: `${warehouses.length} warehouse(s) mapped: ${principal.mappings.map((m) => m.warehouseUniqueId).join(', ')}`,
      source,
      warehouseUniqueId: '',
    },
  ];
  const cutoff = new Date(now.getTime() - AGED_WORK_MS).toISOString();
  const mine = (qb: Db) =>
    qb
      .selectFrom('fulfillment_orders as fo')
      .where('fo.account_id', '=', principal.accountId)
      .where('fo.installation_id', '=', principal.integrationId ?? -1)
      .where('fo.warehouse_id', 'in', warehouses);
  const aged = await mine(db)
    .select('fo.warehouse_id')
    .where('fo.status', '=', 'NEW')
    .where('fo.assigned_ts', '<', cutoff)
    .where(stillOwesUnits)
    .execute();
  for (const m of principal.mappings) {
    const count = aged.filter((a) => a.warehouse_id === m.warehouseId).length;
    checks.push({
      name: 'unacknowledged_work',
      state: count > 0 ? 'CHECK_STATE_WARN' : 'CHECK_STATE_PASS',
      message: count > 0 ? `${count} fulfillment order(s) unacknowledged for more than 24 h` : 'no fulfillment order waits unacknowledged for more than 24 h',
      source,
      warehouseUniqueId: m.warehouseUniqueId,
    });
  }
  // Like need_to_cancel: requests on work withdrawn from a warehouse since unmapped count too.
  const cancellations = await db
    .selectFrom('fulfillment_orders as fo')
    .where('fo.account_id', '=', principal.accountId)
    .where('fo.installation_id', '=', principal.integrationId)
    .innerJoin('fulfillment_cancellation_requests as c', 'c.fulfillment_order_id', 'fo.id')
    .select('c.id')
    .where('c.status', '=', 'OPEN')
    .where('c.requested_ts', '<', cutoff)
    .execute();
  checks.push({
    name: 'pending_cancellations',
    state: cancellations.length > 0 ? 'CHECK_STATE_WARN' : 'CHECK_STATE_PASS',
    message:
      cancellations.length > 0
        ? `${cancellations.length} cancellation request(s) in need_to_cancel for more than 24 h`
        : 'no cancellation request waits for more than 24 h',
    source,
    warehouseUniqueId: '',
  });
  const alerts = await mine(db)
    .innerJoin('fulfillment_alerts as a', 'a.fulfillment_order_id', 'fo.id')
    .select('a.id')
    .where('a.status', '=', 'OPEN')
    .execute();
  checks.push({
    name: 'open_alerts',
    state: alerts.length > 0 ? 'CHECK_STATE_WARN' : 'CHECK_STATE_PASS',
    message: alerts.length > 0 ? `${alerts.length} alert(s) open on this integration's fulfillment orders` : 'no open alerts',
    source,
    warehouseUniqueId: '',
  });
  return checks;
}
