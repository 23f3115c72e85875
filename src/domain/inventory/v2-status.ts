import type { Db } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { listMappedWarehouses } from './v2-warehouses.js';

export const CHECK_STATES = ['CHECK_STATE_UNSPECIFIED', 'CHECK_STATE_PASS', 'CHECK_STATE_WARN', 'CHECK_STATE_FAIL'] as const;
export type CheckState = (typeof CHECK_STATES)[number];
export const CHECK_SOURCES = ['CHECK_SOURCE_UNSPECIFIED', 'CHECK_SOURCE_SERVICE', 'CHECK_SOURCE_INTEGRATION'] as const;
export type CheckSource = (typeof CHECK_SOURCES)[number];

export interface StatusCheck {
  name: string;
  state: CheckState;
  message: string;
  source: CheckSource;
  /** The warehouse a check is about; "" for checks about the whole integration. */
  warehouseUniqueId: string;
}

export const MAPPING_CHECK = 'warehouse_mappings';
export const FRESHNESS_CHECK = 'inventory_freshness';
/** Stock reported longer ago than this is flagged: sellers sell from these numbers. */
export const FRESHNESS_WINDOW_MS = 24 * 60 * 60 * 1000;

function hoursAgo(from: string, now: Date): string {
  const hours = Math.floor((now.getTime() - Date.parse(from)) / 3_600_000);
  return hours < 1 ? 'less than an hour ago' : `${hours} h ago`;
}

/**
 * GET /v2/inventory/status: the service's own view of an inventory integration. One check that the
 * integration has warehouses mapped, then one freshness check per mapped warehouse, judged on the latest
 * change of any stock row there (only the controlling integration writes those rows).
 */
export async function inventoryIntegrationStatus(db: Db, principal: Principal, now: Date): Promise<StatusCheck[]> {
  const warehouses = await listMappedWarehouses(db, principal);
  const source: CheckSource = 'CHECK_SOURCE_SERVICE';
  const checks: StatusCheck[] = [
    warehouses.length === 0
      ? {
          name: MAPPING_CHECK,
          state: 'CHECK_STATE_FAIL',
          message: 'no warehouses are mapped to this integration; the seller must map at least one to it',
          source,
          warehouseUniqueId: '',
        }
      : {
          name: MAPPING_CHECK,
          state: 'CHECK_STATE_PASS',
          message: `${warehouses.length} warehouse(s) mapped: ${warehouses.map((w) => w.warehouseUniqueId).join(', ')}`,
          source,
          warehouseUniqueId: '',
        },
  ];
  if (warehouses.length === 0) return checks;

  const latest = await db
    .selectFrom('inventory')
    .select((eb) => ['warehouse_id', eb.fn.max('updated_at').as('last_updated')])
    .where('account_id', '=', principal.accountId)
    .where(
      'warehouse_id',
      'in',
      warehouses.map((w) => w.warehouseId),
    )
    .groupBy('warehouse_id')
    .execute();
  const lastByWarehouse = new Map(latest.map((r) => [r.warehouse_id, r.last_updated]));
  for (const w of warehouses) {
    const last = lastByWarehouse.get(w.warehouseId) ?? null;
    const base = { name: FRESHNESS_CHECK, source, warehouseUniqueId: w.warehouseUniqueId };
    if (last === null) {
      checks.push({ ...base, state: 'CHECK_STATE_WARN', message: `${w.name}: no inventory reported yet` });
    } else if (now.getTime() - Date.parse(last) <= FRESHNESS_WINDOW_MS) {
      checks.push({ ...base, state: 'CHECK_STATE_PASS', message: `${w.name}: inventory last reported ${last} (${hoursAgo(last, now)})` });
    } else {
      checks.push({
        ...base,
        state: 'CHECK_STATE_WARN',
        message: `${w.name}: inventory last reported ${last} (${hoursAgo(last, now)}), more than 24 h ago`,
      });
    }
  }
  return checks;
}
