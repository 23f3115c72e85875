import type { Tx } from '../../db/tx.js';
import type { CancellationReason, PullBackInput } from '../orders/fulfillment-port.js';
import { nudgeFulfillmentOrder } from './access.js';

/**
 * Tells the fulfillment side that units of a line are being taken back from a warehouse (resolutions §6).
 * Called by the orders area BEFORE it releases the route's units:
 * - no fulfillment order there, or a REJECTED one: nothing to do (the partner holds no work);
 * - NEW (never acknowledged): the units simply disappear from need_to_ship once released; no request;
 * - ACCEPTED: the partner may already be picking, so an open cancellation request is opened (or, when one
 *   is open, extended by these units) and offered in need_to_cancel until confirmed. An extended request
 *   keeps the reason it was opened with.
 * The quantity is capped at what the line still owes in that warehouse.
 */
export async function pullBackFromFulfillment(tx: Tx, input: PullBackInput): Promise<void> {
  const { accountId, orderId, lineId, warehouseId, now } = input;
  if (input.quantity < 1) return;
  // The live one: a WITHDRAWN fulfillment order there (its integration was unmapped) holds no work any more.
  const fo = await tx
    .selectFrom('fulfillment_orders')
    .select(['id', 'status', 'installation_id'])
    .where('account_id', '=', accountId)
    .where('order_id', '=', orderId)
    .where('warehouse_id', '=', warehouseId)
    .where('status', '<>', 'WITHDRAWN')
    .executeTakeFirst();
  if (!fo || fo.status === 'REJECTED') return;
  const iso = now.toISOString();
  await tx.updateTable('fulfillment_orders').set({ last_updated_ts: iso }).where('account_id', '=', accountId).where('id', '=', fo.id).execute();
  await nudgeFulfillmentOrder(tx, accountId, fo.id, fo.installation_id, now);
  if (fo.status !== 'ACCEPTED') return;

  const route = await tx
    .selectFrom('order_line_routes')
    .select(['reserved_quantity', 'backorder_quantity'])
    .where('account_id', '=', accountId)
    .where('line_id', '=', lineId)
    .where('warehouse_id', '=', warehouseId)
    .executeTakeFirst();
  const quantity = Math.min(input.quantity, route ? route.reserved_quantity + route.backorder_quantity : 0);
  if (quantity < 1) return;

  await requestCancellation(tx, { id: fo.id, account_id: accountId, installation_id: fo.installation_id }, [{ lineId, quantity }], input.reason, now);
}

/**
 * Opens the fulfillment order's cancellation request for these units, or extends the one already open (it
 * keeps the reason it was opened with), and nudges the integration: what need_to_cancel then offers.
 */
export async function requestCancellation(
  tx: Tx,
  fo: { id: number; account_id: number; installation_id: number },
  lines: readonly { lineId: number; quantity: number }[],
  reason: CancellationReason,
  now: Date,
): Promise<void> {
  const accountId = fo.account_id;
  const iso = now.toISOString();
  // One open request per fulfillment order (unique open_key): insert, or find the open one to extend.
  await tx
    .insertInto('fulfillment_cancellation_requests')
    .values({
      account_id: accountId,
      fulfillment_order_id: fo.id,
      status: 'OPEN',
      open_key: fo.id,
      reason,
      requested_ts: iso,
      confirmed_ts: null,
      already_shipped: 0,
      updated_at: iso,
    })
    .onConflict((oc) => oc.columns(['account_id', 'open_key']).doNothing())
    .execute();
  const request = await tx
    .selectFrom('fulfillment_cancellation_requests')
    .select('id')
    .where('account_id', '=', accountId)
    .where('open_key', '=', fo.id)
    .executeTakeFirstOrThrow();
  for (const line of lines) {
    await tx
      .insertInto('fulfillment_cancellation_lines')
      .values({ account_id: accountId, request_id: request.id, line_id: line.lineId, quantity: line.quantity })
      .onConflict((oc) =>
        oc.columns(['account_id', 'request_id', 'line_id']).doUpdateSet((eb) => ({
          quantity: eb('fulfillment_cancellation_lines.quantity', '+', eb.ref('excluded.quantity')),
        })),
      )
      .execute();
  }
  await tx.updateTable('fulfillment_cancellation_requests').set({ updated_at: iso }).where('account_id', '=', accountId).where('id', '=', request.id).execute();
  // need_to_cancel changed (a request opened or grew): its own event, so a partner may watch only that.
  await nudgeFulfillmentOrder(tx, accountId, fo.id, fo.installation_id, now, 'CANCELLATION_REQUESTED');
}
