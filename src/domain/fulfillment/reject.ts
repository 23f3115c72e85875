import type { Tx } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { failedPrecondition, invalidArgument, notFound } from '../errors.js';
import { recomputeOrderStatus } from '../orders/status.js';
import { findOwnFulfillmentOrder, nudgeFulfillmentOrder, parseFulfillmentOrderId, routeTotals, WITHDRAWN_MESSAGE } from './access.js';
import { openAlert } from './alerts.js';
import type { RejectionReason } from './model.js';
import { rerouteRejectedUnits } from './reroute.js';
import { syncFulfillmentOrders } from './sync.js';

export interface RejectEntry {
  fulfillmentOrderId: unknown;
  /** Already a name: the HTTP layer reads names and numbers (an unknown one never gets here). */
  reason: RejectionReason;
  detail: string | null;
  /** Partial rejections are unsupported (document 4.8, 7.3 rule 3): any line fails the entry. */
  lines: unknown[] | null;
}

/**
 * The partner declines a whole fulfillment order (document 4.8, 3.5; resolutions §6: NEW/ACCEPTED →
 * REJECTED). It leaves need_to_ship at once. A repeat of a recorded rejection succeeds and changes nothing.
 * Refused: REJECTION_REASON_UNSPECIFIED (document 7.3 rule 4), REJECTION_REASON_OTHER without detail, lines,
 * and an order that has shipped, part-shipped or been (partly) cancelled.
 * The units are handed back: re-routed where other warehouses have stock (rerouteRejectedUnits), new
 * fulfillment orders created for shipping warehouses they land in; whatever cannot be placed stays held and
 * is surfaced to the seller as an open service alert (ALERT_TYPE_FULFILL) on the rejected fulfillment order.
 * An open cancellation request on it is closed: the partner no longer holds that work.
 */
export async function rejectFulfillmentOrder(tx: Tx, principal: Principal, entry: RejectEntry, now: Date): Promise<void> {
  const id = parseFulfillmentOrderId(entry.fulfillmentOrderId);
  const fo = id === null ? null : await findOwnFulfillmentOrder(tx, principal, { id });
  if (!fo) throw notFound(`fulfillment order ${String(entry.fulfillmentOrderId ?? '')} not found`);
  const reason = entry.reason;
  if (reason === 'REJECTION_REASON_UNSPECIFIED') throw invalidArgument('reason REJECTION_REASON_UNSPECIFIED is refused: say why the order is declined');
  if (entry.lines !== null && entry.lines.length > 0) {
    throw invalidArgument('lines are not supported on a rejection: omit lines to decline the whole order');
  }
  const detail = entry.detail?.trim() ?? '';
  if (fo.status === 'REJECTED') return;
  if (fo.status === 'WITHDRAWN') throw failedPrecondition(WITHDRAWN_MESSAGE);
  if (reason === 'REJECTION_REASON_OTHER' && detail === '') throw invalidArgument('detail is required with REJECTION_REASON_OTHER');
  const totals = await routeTotals(tx, fo);
  if (totals.shipped > 0) throw failedPrecondition('the fulfillment order has shipped or part-shipped; it can no longer be declined');
  if (totals.cancelled > 0 || totals.owed === 0) throw failedPrecondition('the fulfillment order has been cancelled or partly cancelled; it can no longer be declined');

  const iso = now.toISOString();
  const moved = await tx
    .updateTable('fulfillment_orders')
    .set({ status: 'REJECTED', rejection_reason: reason, rejection_detail: detail || null, rejected_ts: iso, last_updated_ts: iso })
    .where('account_id', '=', fo.account_id)
    .where('id', '=', fo.id)
    .where('status', 'in', ['NEW', 'ACCEPTED'])
    .returning('id')
    .executeTakeFirst();
  // A parallel rejection recorded it first: the same outcome, nothing more to do.
  if (!moved) return;
  await nudgeFulfillmentOrder(tx, fo.account_id, fo.id, fo.installation_id, now);
  await tx
    .updateTable('fulfillment_cancellation_requests')
    .set({ status: 'CLOSED', open_key: null, updated_at: iso })
    .where('account_id', '=', fo.account_id)
    .where('fulfillment_order_id', '=', fo.id)
    .where('status', '=', 'OPEN')
    .execute();

  const unplaced = await rerouteRejectedUnits(tx, { ...fo, status: 'REJECTED' }, now);
  if (unplaced.length > 0) {
    const what = unplaced.map((u) => `${u.quantity} × ${u.sku} (line ${u.lineId})`).join(', ');
    await openAlert(
      tx,
      fo,
      {
        type: 'ALERT_TYPE_FULFILL',
        message:
          `Rejected by the shipping integration (${reason}${detail ? `: ${detail}` : ''}). No other warehouse has stock for ` +
          `${what}; these units are still held in this warehouse. Re-route or cancel them.`,
        lineId: unplaced.length === 1 ? unplaced[0]!.lineId : null,
        raisedBy: null,
      },
      now,
    );
  }
  await syncFulfillmentOrders(tx, fo.account_id, fo.order_id, now);
  await recomputeOrderStatus(tx, fo.account_id, fo.order_id, now);
}
