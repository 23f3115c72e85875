import { cappedCount, COUNT_CAP } from '../../db/capped-count.js';
import type { Db, Tx } from '../../db/tx.js';
import { listAccountWarehouses } from '../accounts/warehouses.js';
import { defaultWarehouse } from './routing.js';
import { resolveRequestedSkus } from './sku-resolution.js';
import { WAITING } from './waiting-work.js';

/**
 * Unroutable lines (resolutions §6): a line whose SKU is unknown, or that found no warehouse to wait in, is
 * kept (never dropped) with its units as unrouted_quantity. They count as backordered in the account's
 * default warehouse (the lowest-id warehouse that is not channel-fulfilled, routing.ts) but reserve nothing
 * and are on no route, so no shipper is asked for a SKU it cannot know. While any are left the order carries
 * an alert the seller sees (GET /admin/accounts/{id}/alerts, the console's order page and home); it goes
 * away by itself once the units are routed (stock of the SKU arrives: route-unrouted-lines.ts) or cancelled.
 * Every read here walks sales_order_lines_unrouted, which holds only such lines.
 */

/** Why a line waits unrouted, as the seller reads it. */
export type UnroutableReason =
  /** No product has the SKU the channel sent. */
  | 'UNKNOWN_SKU'
  /** The SKU is in the catalog (now) and a warehouse can hold it: the line is routed when stock of it arrives. */
  | 'WAITING_FOR_STOCK'
  /** No warehouse can hold backorders (none that is not channel-fulfilled). */
  | 'NO_WAREHOUSE';

export interface UnroutableLine {
  orderId: number;
  lineId: number;
  /** The SKU the channel sent. */
  requestedSku: string;
  /** Units waiting (neither routed nor cancelled). */
  units: number;
  reason: UnroutableReason;
  /** Where the units count as backordered: the default warehouse; null when the account has none. */
  warehouseId: number | null;
  /** When the line came in (the alert is raised with the order). */
  since: string;
  /** What happened and what the seller can do, in the seller's words. */
  message: string;
}

/** Records units of new lines that found no place (create-order.ts): they wait as the line's unrouted units. */
export async function keepUnroutedUnits(tx: Tx, accountId: number, unrouted: ReadonlyMap<number, number>, now: Date): Promise<void> {
  for (const [lineId, units] of unrouted) {
    await tx
      .updateTable('sales_order_lines')
      .set({ unrouted_quantity: units, updated_at: now.toISOString() })
      .where('account_id', '=', accountId)
      .where('id', '=', lineId)
      .execute();
  }
}

function unroutedLines(db: Db, accountId: number) {
  return db
    .selectFrom('sales_order_lines')
    .select(['id', 'order_id', 'requested_sku', 'product_id', 'sku', 'unrouted_quantity', 'created_at'])
    .where('account_id', '=', accountId)
    .where('unrouted_quantity', '>', WAITING);
}

type UnroutedRow = Awaited<ReturnType<ReturnType<typeof unroutedLines>['execute']>>[number];

function messageOf(line: { lineId: number; sku: string; units: number; reason: UnroutableReason }, warehouse: string | null): string {
  const what = `Line ${line.lineId}: ${line.units} × "${line.sku}"`;
  const waiting = warehouse === null ? 'You have no warehouse to hold them as a backorder yet.' : `They count as backordered in ${warehouse}.`;
  switch (line.reason) {
    case 'UNKNOWN_SKU':
      return (
        `${what} could not be sent to a warehouse: no product in your catalog has this SKU. ${waiting} ` +
        'Add a product with this SKU and put it in stock: the line is then routed like any backorder. Or cancel these units.'
      );
    case 'WAITING_FOR_STOCK':
      return (
        `${what} could not be sent to a warehouse when the order came in. ${waiting} ` +
        'The line is routed as soon as stock of this SKU arrives. Or cancel these units.'
      );
    case 'NO_WAREHOUSE':
      return (
        `${what} could not be sent to a warehouse: every warehouse you have is run by a sales channel, so none can hold a backorder. ` +
        'Add a warehouse and put this SKU in stock there: the line is then routed. Or cancel these units.'
      );
  }
}

function reasonOf(skuKnown: boolean, hasWarehouse: boolean): UnroutableReason {
  if (!skuKnown) return 'UNKNOWN_SKU';
  return hasWarehouse ? 'WAITING_FOR_STOCK' : 'NO_WAREHOUSE';
}

/** The views of some unrouted line rows (one SKU lookup and one warehouse read for all of them). */
async function describe(db: Db, accountId: number, rows: readonly UnroutedRow[]): Promise<UnroutableLine[]> {
  if (rows.length === 0) return [];
  const [known, warehouses] = await Promise.all([
    resolveRequestedSkus(db, accountId, rows.filter((r) => r.product_id === null).map((r) => r.requested_sku)),
    listAccountWarehouses(db, accountId),
  ]);
  const fallback = defaultWarehouse(warehouses);
  return rows.map((r) => {
    const reason = reasonOf(r.product_id !== null || known.has(r.requested_sku), fallback !== null);
    const line = { lineId: r.id, sku: r.sku ?? r.requested_sku, units: r.unrouted_quantity, reason };
    return {
      orderId: r.order_id,
      lineId: r.id,
      requestedSku: r.requested_sku,
      units: r.unrouted_quantity,
      reason,
      warehouseId: fallback?.id ?? null,
      since: r.created_at,
      message: messageOf(line, fallback?.name ?? null),
    };
  });
}

/** The unroutable lines of one order, in line order (the console's order page). */
export async function unroutableLinesOf(db: Db, accountId: number, orderId: number): Promise<UnroutableLine[]> {
  const rows = await unroutedLines(db, accountId).where('order_id', '=', orderId).orderBy('id').execute();
  return describe(db, accountId, rows);
}

/**
 * A page of the account's unroutable lines, newest line first (the alert list): lines with an id below
 * `beforeLineId` when given; `limit` + 1 are read so the caller knows whether more follow.
 */
export async function listUnroutableLines(
  db: Db,
  accountId: number,
  filter: { orderId?: number },
  beforeLineId: number | null,
  limit: number,
): Promise<UnroutableLine[]> {
  let query = unroutedLines(db, accountId);
  if (filter.orderId !== undefined) query = query.where('order_id', '=', filter.orderId);
  if (beforeLineId !== null) query = query.where('id', '<', beforeLineId);
  return describe(db, accountId, await query.orderBy('id', 'desc').limit(limit + 1).execute());
}

function ordersWithUnroutableLinesQuery(db: Db, accountId: number) {
  return db.selectFrom('sales_order_lines').select('order_id').distinct().where('account_id', '=', accountId).where('unrouted_quantity', '>', WAITING);
}

/** How many orders have an unroutable line, up to COUNT_CAP + 1 (the console's home). */
export function countOrdersWithUnroutableLines(db: Db, accountId: number): Promise<number> {
  return cappedCount(db, ordersWithUnroutableLinesQuery(db, accountId));
}

/** The orders with an unroutable line (at most COUNT_CAP of them), for the console's filtered order list. */
export async function ordersWithUnroutableLines(db: Db, accountId: number): Promise<number[]> {
  const rows = await ordersWithUnroutableLinesQuery(db, accountId).limit(COUNT_CAP).execute();
  return rows.map((r) => r.order_id);
}
