import type { Tx } from '../../db/tx.js';
import { failedPrecondition, invalidArgument, invalidField } from '../errors.js';
import type { CancellationReason, FulfillmentPort } from './fulfillment-port.js';
import { releaseRouteUnits } from './reservations.js';
import { fillWaitingOrders, stockKeysOfRoutes } from './fill-backorders.js';
import { recomputeOrderStatus } from './status.js';

/**
 * Cancelling units of an order: the one path behind v1 cancel, storefront cancel, the seller's cancel and
 * unpaid-order expiry. Only units not shipped can be cancelled. For each line the units come, in order,
 * from units never routed (unrouted_quantity: unknown SKU, no default warehouse), then from the routes
 * (backordered units first, then reserved ones, whose stock goes back to available and fills the orders
 * waiting for it there). A route whose warehouse has a fulfillment order is pulled back first
 * (resolutions §6: a NEW order just loses the units, an ACCEPTED one gets a cancellation request in
 * need_to_cancel).
 *
 * Parallel cancels of the same units: every counter moves by a conditional UPDATE, so the second one finds
 * fewer units than it asked for and fails with 400 (its transaction rolls back, nothing half-done).
 */

export interface CancelUnitsInput {
  accountId: number;
  orderId: number;
  /** Line id → units; null cancels everything not shipped. */
  lines: { lineId: number; quantity: number }[] | null;
  /** Stored as the order's cancellationReason. */
  reason: string;
  /** What fulfillment partners see in need_to_cancel. */
  fulfillmentReason: CancellationReason;
  /** The request's field names, for error messages ("lineItems", "cancelQuantities"). */
  linesField: string;
  now: Date;
  /** Told about the units taken back (src/domain/fulfillment/port.ts). */
  fulfillment: FulfillmentPort;
}

export interface CancelUnitsResult {
  cancelled: number;
  status: string;
}

interface LineRow {
  id: number;
  quantity: number;
  cancel_quantity: number;
  shipped_quantity: number;
  unrouted_quantity: number;
  sku: string | null;
  requested_sku: string;
}

/** Units of a line that may still be cancelled: not shipped and not cancelled already. */
const cancellable = (line: LineRow) => line.quantity - line.cancel_quantity - line.shipped_quantity;

function wantedPerLine(input: CancelUnitsInput, lines: LineRow[]): Map<number, number> {
  const byId = new Map(lines.map((l) => [l.id, l]));
  const wanted = new Map<number, number>();
  if (input.lines === null) {
    for (const l of lines) if (cancellable(l) > 0) wanted.set(l.id, cancellable(l));
    return wanted;
  }
  for (const entry of input.lines) {
    if (!byId.has(entry.lineId)) throw invalidField(input.linesField, `line item ${entry.lineId} is not a line of this order`).because('order.not_a_line', {});
    if (!Number.isInteger(entry.quantity) || entry.quantity < 1) {
      throw invalidField(input.linesField, `quantity for line item ${entry.lineId} must be at least 1`);
    }
    wanted.set(entry.lineId, (wanted.get(entry.lineId) ?? 0) + entry.quantity);
  }
  for (const [lineId, units] of wanted) {
    const line = byId.get(lineId)!;
    if (units > cancellable(line)) {
      throw invalidField(
        input.linesField,
        `line item ${lineId}: cannot cancel ${units} units, only ${cancellable(line)} are not shipped or cancelled already`,
      ).because('order.cancel_too_many', { sku: line.sku ?? line.requested_sku, asked: units, left: cancellable(line) });
    }
  }
  return wanted;
}

/** Cancels units of one line; answers the routes whose reserved stock it gave back (their stock rows gained units). */
async function cancelLine(tx: Tx, input: CancelUnitsInput, line: LineRow, units: number): Promise<number[]> {
  const { accountId, orderId, now } = input;
  const routes = await tx
    .selectFrom('order_line_routes')
    .select(['id', 'warehouse_id', 'reserved_quantity', 'backorder_quantity'])
    .where('account_id', '=', accountId)
    .where('line_id', '=', line.id)
    .orderBy('warehouse_id')
    .execute();
  const fromUnrouted = Math.min(units, line.unrouted_quantity);
  let left = units - fromUnrouted;
  const released: number[] = [];
  for (const route of routes) {
    if (left === 0) break;
    const take = Math.min(left, route.reserved_quantity + route.backorder_quantity);
    if (take === 0) continue;
    await input.fulfillment.pullBack(tx, {
      accountId,
      orderId,
      lineId: line.id,
      warehouseId: route.warehouse_id,
      quantity: take,
      reason: input.fulfillmentReason,
      now,
    });
    const taken = await releaseRouteUnits(tx, { accountId, routeId: route.id, quantity: take, now });
    if (taken < take) throw conflictingCancel(input, line.id);
    // Backordered units go first and hold no stock: only units beyond them gave stock back.
    if (take > route.backorder_quantity) released.push(route.id);
    left -= taken;
  }
  if (left > 0) throw conflictingCancel(input, line.id);
  const updated = await tx
    .updateTable('sales_order_lines')
    .set((eb) => ({
      cancel_quantity: eb('cancel_quantity', '+', units),
      unrouted_quantity: eb('unrouted_quantity', '-', fromUnrouted),
      updated_at: now.toISOString(),
    }))
    .where('account_id', '=', accountId)
    .where('id', '=', line.id)
    .where((eb) => eb(eb(eb('cancel_quantity', '+', eb.ref('shipped_quantity')), '+', units), '<=', eb.ref('quantity')))
    .where('unrouted_quantity', '>=', fromUnrouted)
    .returning('id')
    .executeTakeFirst();
  if (!updated) throw conflictingCancel(input, line.id);
  return released;
}

/** Another change took the units between our read and our write: same answer as asking for too many. */
function conflictingCancel(input: CancelUnitsInput, lineId: number) {
  return invalidField(input.linesField, `line item ${lineId}: the units are no longer cancellable (shipped or cancelled meanwhile)`).because('order.changed_meanwhile', {});
}

export async function cancelOrderUnits(tx: Tx, input: CancelUnitsInput): Promise<CancelUnitsResult> {
  const { accountId, orderId, now } = input;
  const order = await tx
    .selectFrom('sales_orders')
    .select(['status'])
    .where('account_id', '=', accountId)
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const lines = await tx
    .selectFrom('sales_order_lines')
    .select(['id', 'quantity', 'cancel_quantity', 'shipped_quantity', 'unrouted_quantity', 'sku', 'requested_sku'])
    .where('account_id', '=', accountId)
    .where('order_id', '=', orderId)
    .orderBy('position')
    .execute();
  const wanted = wantedPerLine(input, lines);
  if (wanted.size === 0) {
    // Cancelling a cancelled order again is a replay: nothing changes. A shipped order has nothing to cancel.
    if (order.status === 'CANCELLED') return { cancelled: 0, status: order.status };
    throw failedPrecondition(`sales order ${orderId} has nothing left to cancel: shipped units cannot be cancelled`).because('order.nothing_to_cancel', {});
  }
  let cancelled = 0;
  const released: number[] = [];
  for (const line of lines) {
    const units = wanted.get(line.id);
    if (!units) continue;
    released.push(...(await cancelLine(tx, input, line, units)));
    cancelled += units;
  }
  await tx
    .updateTable('sales_orders')
    .set({ cancellation_reason: input.reason })
    .where('account_id', '=', accountId)
    .where('id', '=', orderId)
    .execute();
  const status = await recomputeOrderStatus(tx, accountId, orderId, now);
  // The stock given back is available again: orders waiting for it take it (oldest first), in this transaction.
  if (released.length > 0) await fillWaitingOrders(tx, accountId, await stockKeysOfRoutes(tx, accountId, released), now, input.fulfillment);
  return { cancelled, status };
}

/** Guards the request shape shared by the cancel routes: at most this many entries per call. */
export const MAX_CANCEL_LINES = 500;

export function checkCancelLineCount(field: string, count: number): void {
  if (count > MAX_CANCEL_LINES) throw invalidArgument(`${field}: at most ${MAX_CANCEL_LINES} entries per request`);
}
