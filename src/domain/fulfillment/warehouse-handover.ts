import { sql } from 'kysely';
import type { Db, Tx } from '../../db/tx.js';
import { accountFilterById } from '../../db/tenancy.js';
import type { HandoverInput, PulledBack, WarehouseWorkPort } from '../accounts/warehouse-work-port.js';
import { nudgeFulfillmentOrder } from './access.js';
import { stillOwesUnits } from './owed.js';
import { requestCancellation } from './pull-back.js';

/**
 * A warehouse changing hands between shipping/3PL integrations (resolutions §6, "One shipping/3PL integration
 * per warehouse"). Nothing happens to the units: they stay routed and reserved in the warehouse. Only who owes
 * them changes:
 * - withdraw: the integration's open fulfillment orders there (NEW or ACCEPTED, still owing units) become
 *   WITHDRAWN and leave its need_to_ship. A NEW one simply disappears; an ACCEPTED one, which the partner may
 *   be picking, also gets a cancellation request for every unit it still owed, in need_to_cancel until
 *   confirmed, as when a cancellation pulls work back;
 * - assign: the integration now mapped gets every unit owed there as NEW fulfillment orders, one per order,
 *   exactly as order creation would have made them.
 */

// A statement's IN list stays well under both databases' parameter limits.
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

interface OpenWork {
  id: number;
  order_id: number;
  warehouse_id: number;
  installation_id: number;
}

/** Open fulfillment orders in the warehouses: those of the installation, or (others) of anyone but it. */
async function openWorkIn(tx: Tx, input: HandoverInput, whose: 'installation' | 'others'): Promise<OpenWork[]> {
  if (input.warehouseIds.length === 0) return [];
  return tx
    .selectFrom('fulfillment_orders as fo')
    .select(['fo.id', 'fo.order_id', 'fo.warehouse_id', 'fo.installation_id'])
    .where('fo.account_id', '=', input.accountId)
    .where('fo.warehouse_id', 'in', [...input.warehouseIds])
    .where('fo.installation_id', whose === 'installation' ? '=' : '<>', input.installationId)
    .where(sql<boolean>`fo.status in ('NEW', 'ACCEPTED')`)
    .where(stillOwesUnits)
    .orderBy('fo.id')
    .execute();
}

/**
 * Withdraws these fulfillment orders. Each moves with a conditional UPDATE from the state it is in, so one
 * the partner acknowledges meanwhile is withdrawn as ACCEPTED (with its cancellation request), never as NEW.
 */
async function withdrawOpenWork(tx: Tx, accountId: number, work: readonly OpenWork[], now: Date): Promise<PulledBack> {
  const iso = now.toISOString();
  const result: PulledBack = { withdrawn: 0, cancellationRequested: 0 };
  for (const part of chunks(work)) {
    const ids = part.map((w) => w.id);
    const fromNew = await tx
      .updateTable('fulfillment_orders')
      .set({ status: 'WITHDRAWN', last_updated_ts: iso })
      .where(accountFilterById(accountId))
      .where('id', 'in', ids)
      .where('status', '=', 'NEW')
      .returning(['id', 'installation_id'])
      .execute();
    const fromAccepted = await tx
      .updateTable('fulfillment_orders')
      .set({ status: 'WITHDRAWN', last_updated_ts: iso })
      .where(accountFilterById(accountId))
      .where('id', 'in', ids)
      .where('status', '=', 'ACCEPTED')
      .returning(['id', 'installation_id', 'order_id', 'warehouse_id'])
      .execute();
    for (const fo of fromNew.sort((a, b) => a.id - b.id)) await nudgeFulfillmentOrder(tx, accountId, fo.id, fo.installation_id, now);
    result.withdrawn += fromNew.length;
    if (fromAccepted.length === 0) continue;
    const routes = await tx
      .selectFrom('order_line_routes')
      .select(['order_id', 'warehouse_id', 'line_id', 'reserved_quantity', 'backorder_quantity'])
      .where('account_id', '=', accountId)
      .where('order_id', 'in', fromAccepted.map((fo) => fo.order_id))
      .where((eb) => eb(eb('reserved_quantity', '+', eb.ref('backorder_quantity')), '>', 0))
      .orderBy('line_id')
      .execute();
    for (const fo of fromAccepted.sort((a, b) => a.id - b.id)) {
      await nudgeFulfillmentOrder(tx, accountId, fo.id, fo.installation_id, now);
      const lines = routes
        .filter((r) => r.order_id === fo.order_id && r.warehouse_id === fo.warehouse_id)
        .map((r) => ({ lineId: r.line_id, quantity: r.reserved_quantity + r.backorder_quantity }));
      // Units a parallel cancellation released meanwhile already have their own request.
      if (lines.length === 0) continue;
      await requestCancellation(tx, { id: fo.id, account_id: accountId, installation_id: fo.installation_id }, lines, 'CANCELLATION_REASON_MERCHANT_CANCELLED', now);
    }
    result.cancellationRequested += fromAccepted.length;
  }
  return result;
}

/** The installation no longer ships from these warehouses: its open work there is pulled back. */
export async function withdrawWarehouseWork(tx: Tx, input: HandoverInput): Promise<PulledBack> {
  return withdrawOpenWork(tx, input.accountId, await openWorkIn(tx, input, 'installation'), input.now);
}

/**
 * The installation now ships from these warehouses: every unit owed there becomes its fulfillment orders. Open
 * work someone else still holds there (an integration uninstalled before the rule existed) is withdrawn first,
 * so it is handed over too. Orders whose fulfillment order in the warehouse was rejected stay out: their
 * partner declined them, and the seller re-routes or cancels those units. Returns how many were created.
 */
export async function assignWarehouseWork(tx: Tx, input: HandoverInput): Promise<number> {
  if (input.warehouseIds.length === 0) return 0;
  const { accountId, installationId, now } = input;
  await withdrawOpenWork(tx, accountId, await openWorkIn(tx, input, 'others'), now);
  const iso = now.toISOString();
  const created = await tx
    .insertInto('fulfillment_orders')
    .columns([
      'account_id', 'order_id', 'warehouse_id', 'installation_id', 'status', 'external_order_id', 'assigned_ts', 'acknowledged_ts',
      'rejection_reason', 'rejection_detail', 'rejected_ts', 'created_at', 'last_updated_ts',
    ])
    .expression((eb) =>
      eb
        .selectFrom('order_line_routes as r')
        .select([
          'r.account_id',
          'r.order_id',
          'r.warehouse_id',
          sql<number>`cast(${installationId} as integer)`.as('installation_id'),
          sql<string>`'NEW'`.as('status'),
          sql<null>`null`.as('external_order_id'),
          sql<string>`cast(${iso} as text)`.as('assigned_ts'),
          sql<null>`null`.as('acknowledged_ts'),
          sql<null>`null`.as('rejection_reason'),
          sql<null>`null`.as('rejection_detail'),
          sql<null>`null`.as('rejected_ts'),
          sql<string>`cast(${iso} as text)`.as('created_at'),
          sql<string>`cast(${iso} as text)`.as('last_updated_ts'),
        ])
        .where('r.account_id', '=', accountId)
        .where('r.warehouse_id', 'in', [...input.warehouseIds])
        .where((w) => w(w('r.reserved_quantity', '+', w.ref('r.backorder_quantity')), '>', 0))
        .groupBy(['r.account_id', 'r.order_id', 'r.warehouse_id'])
        .orderBy('r.order_id'),
    )
    .onConflict((oc) => oc.columns(['account_id', 'order_id', 'warehouse_id']).where(sql<boolean>`status <> 'WITHDRAWN'`).doNothing())
    .returning(['id'])
    .execute();
  for (const row of created.sort((a, b) => a.id - b.id)) await nudgeFulfillmentOrder(tx, accountId, row.id, installationId, now);
  return created.length;
}

/** The fulfillment area's side of the accounts area's WarehouseWorkPort, passed in by the edges. */
export const warehouseWorkPort: WarehouseWorkPort = {
  assign: assignWarehouseWork,
  withdraw: withdrawWarehouseWork,
};

export interface OpenWorkCount {
  warehouseId: number;
  /** Not yet acknowledged: these simply leave the integration's queue. */
  waiting: number;
  /** Acknowledged: each gets a cancellation request the partner must confirm. */
  acknowledged: number;
}

/** What unmapping or uninstalling would pull back, per warehouse (the console's confirmation). */
export async function openWorkOfIntegration(db: Db, accountId: number, installationId: number): Promise<OpenWorkCount[]> {
  const rows = await db
    .selectFrom('fulfillment_orders as fo')
    .select(['fo.warehouse_id', 'fo.status'])
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('fo.account_id', '=', accountId)
    .where('fo.installation_id', '=', installationId)
    .where(sql<boolean>`fo.status in ('NEW', 'ACCEPTED')`)
    .where(stillOwesUnits)
    .groupBy(['fo.warehouse_id', 'fo.status'])
    .execute();
  const byWarehouse = new Map<number, OpenWorkCount>();
  for (const r of rows) {
    const entry = byWarehouse.get(r.warehouse_id) ?? { warehouseId: r.warehouse_id, waiting: 0, acknowledged: 0 };
    if (r.status === 'NEW') entry.waiting += Number(r.n);
    else entry.acknowledged += Number(r.n);
    byWarehouse.set(r.warehouse_id, entry);
  }
  return [...byWarehouse.values()].sort((a, b) => a.warehouseId - b.warehouseId);
}
