import type { Db, Tx } from '../../db/tx.js';
import { getAccount } from '../accounts/accounts.js';
import { notFound } from '../errors.js';
import { listUnroutableLines, type UnroutableLine } from '../orders/unroutable-lines.js';
import { touchFulfillmentOrder } from './access.js';

/**
 * The seller's view of fulfillment alerts (operator API). The service raises alerts for the seller when a
 * rejection found no other warehouse for some units, or a partner confirmed a cancellation of units that had
 * already shipped; partners raise their own (document 3.6). All of them are listed here, newest first, with
 * who raised them. The seller may resolve any open alert of the account: it owns the orders. Resolving a
 * partner's alert frees its slot, so the partner may raise that type again; a repeat resolve changes nothing.
 *
 * The list also carries one UNROUTABLE_LINE alert per order line that could not be routed (resolutions §6,
 * src/domain/orders/unroutable-lines.ts). Those hang off the order, not a fulfillment order (alertId,
 * fulfillmentOrderId null), are never resolved by hand and are not stored: they are the line's state, so
 * they are OPEN while the line has unrouted units and gone once those are routed or cancelled. They come
 * first (newest line first), then the stored alerts newest first; the list pages through both in turn.
 */

/** The type of the alert on an order line that could not be routed. */
export const UNROUTABLE_LINE_ALERT = 'UNROUTABLE_LINE';

export type AlertStatusFilter = 'OPEN' | 'RESOLVED';

export interface SellerAlert {
  /** Null for an UNROUTABLE_LINE alert (not stored, not resolved by hand). */
  alertId: number | null;
  /** Null for an UNROUTABLE_LINE alert (it is about the order's line, which no fulfillment order has). */
  fulfillmentOrderId: string | null;
  orderNumber: string;
  /** UNROUTABLE_LINE: the warehouse the units count as backordered in (the default one; null when none). */
  warehouseId: number | null;
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

/**
 * Where a page of the list starts: in the unroutable lines (those with a smaller line id; null: from the
 * newest), or in the stored alerts (those with a smaller id; null: from the newest).
 */
export type AlertPosition = { lines: true; beforeLineId: number | null } | { lines: false; beforeId: number | null };

export interface AlertPage {
  alerts: SellerAlert[];
  /** Where the next page starts; null on the last page. */
  next: AlertPosition | null;
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

function unroutableLineAlert(line: UnroutableLine): SellerAlert {
  return {
    alertId: null,
    fulfillmentOrderId: null,
    orderNumber: String(line.orderId),
    warehouseId: line.warehouseId,
    type: UNROUTABLE_LINE_ALERT,
    message: line.message,
    lineItemId: String(line.lineId),
    raisedBy: 'SERVICE',
    raisedByInstallationId: null,
    status: 'OPEN',
    resolution: null,
    createdAt: line.since,
    resolvedTs: null,
  };
}

/**
 * One page of the stored (fulfillment order) alerts, newest first: those with an id below `beforeId`;
 * `limit` + 1 rows are read so the caller knows whether more follow.
 */
export async function listFulfillmentAlerts(db: Db, accountId: number, filters: AlertFilters, beforeId: number | null, limit: number): Promise<SellerAlert[]> {
  if (filters.orderId === null) return [];
  let query = alertQuery(db, accountId);
  if (filters.status) query = query.where('a.status', '=', filters.status);
  if (filters.orderId !== undefined) query = query.where('f.order_id', '=', filters.orderId);
  if (beforeId !== null) query = query.where('a.id', '<', beforeId);
  return (await query.orderBy('a.id', 'desc').limit(limit + 1).execute()).map(toView);
}

/** One page of the account's alerts (see above for the order); 404 for an unknown account. */
export async function listSellerAlerts(
  db: Db,
  accountId: number,
  filters: AlertFilters,
  position: AlertPosition | null,
  pageSize: number,
): Promise<AlertPage> {
  await getAccount(db, accountId);
  if (filters.orderId === null) return { alerts: [], next: null };
  const alerts: SellerAlert[] = [];
  const start = position ?? { lines: true, beforeLineId: null };
  if (start.lines && filters.status !== 'RESOLVED') {
    const lines = await listUnroutableLines(db, accountId, filters.orderId === undefined ? {} : { orderId: filters.orderId }, start.beforeLineId, pageSize);
    alerts.push(...lines.slice(0, pageSize).map(unroutableLineAlert));
    if (lines.length > pageSize) return { alerts, next: { lines: true, beforeLineId: lines[pageSize - 1]!.lineId } };
  }
  const room = pageSize - alerts.length;
  // One extra row tells whether another page exists without a count.
  const stored = await listFulfillmentAlerts(db, accountId, filters, start.lines ? null : start.beforeId, room);
  alerts.push(...stored.slice(0, room));
  if (stored.length <= room) return { alerts, next: null };
  return { alerts, next: { lines: false, beforeId: room === 0 ? null : stored[room - 1]!.alertId } };
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
  if (!row) throw notFound(`alert ${alertId} not found`).because('order.alert_not_found', {});
  return { alert: toView(row), alreadyResolved: closed === undefined };
}
