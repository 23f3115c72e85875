import type { Db, Tx } from '../../db/tx.js';
import { getAccount } from '../accounts/accounts.js';
import { notFound } from '../errors.js';
import { touchFulfillmentOrder } from './access.js';

/**
 * The seller's view of fulfillment alerts (operator API). The service raises alerts for the seller when a
 * rejection found no other warehouse for some units, or a partner confirmed a cancellation of units that had
 * already shipped; partners raise their own (document 3.6). All of them are listed here, newest first, with
 * who raised them. The seller may resolve any open alert of the account: it owns the orders. Resolving a
 * partner's alert frees its slot, so the partner may raise that type again; a repeat resolve changes nothing.
 */

export type AlertStatusFilter = 'OPEN' | 'RESOLVED';

export interface SellerAlert {
  alertId: number;
  fulfillmentOrderId: string;
  orderNumber: string;
  warehouseId: number;
  type: string;
  message: string;
  lineItemId: string | null;
  raisedBy: 'SERVICE' | 'INTEGRATION';
  raisedByInstallationId: number | null;
  status: 'OPEN' | 'RESOLVED';
  resolution: string | null;
  createdAt: string;
  resolvedTs: string | null;
}

export interface AlertFilters {
  status?: AlertStatusFilter;
  /** Order number already parsed; null = an order number that cannot exist (empty page). */
  orderId?: number | null;
}

export interface AlertPage {
  alerts: SellerAlert[];
  /** Keyset position for the next page (alerts with a smaller id), null on the last page. */
  nextBeforeId: number | null;
}

function alertQuery(db: Db, accountId: number) {
  return db
    .selectFrom('fulfillment_alerts as a')
    .innerJoin('fulfillment_orders as f', 'f.id', 'a.fulfillment_order_id')
    .select([
      'a.id',
      'a.fulfillment_order_id',
      'f.order_id',
      'f.warehouse_id',
      'a.type',
      'a.message',
      'a.line_id',
      'a.raised_by_installation_id',
      'a.status',
      'a.resolution',
      'a.created_at',
      'a.resolved_ts',
    ])
    .where('a.account_id', '=', accountId)
    .where('f.account_id', '=', accountId);
}

type AlertRow = Awaited<ReturnType<ReturnType<typeof alertQuery>['executeTakeFirstOrThrow']>>;

function toView(row: AlertRow): SellerAlert {
  return {
    alertId: row.id,
    fulfillmentOrderId: String(row.fulfillment_order_id),
    orderNumber: String(row.order_id),
    warehouseId: row.warehouse_id,
    type: row.type,
    message: row.message,
    lineItemId: row.line_id === null ? null : String(row.line_id),
    raisedBy: row.raised_by_installation_id === null ? 'SERVICE' : 'INTEGRATION',
    raisedByInstallationId: row.raised_by_installation_id,
    status: row.status === 'OPEN' ? 'OPEN' : 'RESOLVED',
    resolution: row.resolution,
    createdAt: row.created_at,
    resolvedTs: row.resolved_ts,
  };
}

/** One page of the account's alerts, newest first (404 for an unknown account). */
export async function listSellerAlerts(
  db: Db,
  accountId: number,
  filters: AlertFilters,
  beforeId: number | null,
  pageSize: number,
): Promise<AlertPage> {
  await getAccount(db, accountId);
  if (filters.orderId === null) return { alerts: [], nextBeforeId: null };
  let query = alertQuery(db, accountId);
  if (filters.status) query = query.where('a.status', '=', filters.status);
  if (filters.orderId !== undefined) query = query.where('f.order_id', '=', filters.orderId);
  if (beforeId !== null) query = query.where('a.id', '<', beforeId);
  // One extra row tells whether another page exists without a count.
  const rows = await query.orderBy('a.id', 'desc').limit(pageSize + 1).execute();
  const alerts = rows.slice(0, pageSize).map(toView);
  return { alerts, nextBeforeId: rows.length > pageSize ? alerts[alerts.length - 1]!.alertId : null };
}

/**
 * Resolves one alert of the account with the seller's resolution text. Already resolved: unchanged (the
 * first resolution stays) and alreadyResolved true. Another account's alert id is a 404.
 */
export async function resolveSellerAlert(
  tx: Tx,
  accountId: number,
  alertId: number,
  resolution: string,
  now: Date,
): Promise<{ alert: SellerAlert; alreadyResolved: boolean }> {
  await getAccount(tx, accountId);
  const closed = await tx
    .updateTable('fulfillment_alerts')
    .set({ status: 'RESOLVED', open_key: null, resolution, resolved_ts: now.toISOString() })
    .where('account_id', '=', accountId)
    .where('id', '=', alertId)
    .where('status', '=', 'OPEN')
    .returning('fulfillment_order_id')
    .executeTakeFirst();
  if (closed) await touchFulfillmentOrder(tx, accountId, closed.fulfillment_order_id, now);
  const row = await alertQuery(tx, accountId).where('a.id', '=', alertId).executeTakeFirst();
  if (!row) throw notFound(`alert ${alertId} not found`);
  return { alert: toView(row), alreadyResolved: closed === undefined };
}
