import type { Tx } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { failedPrecondition, invalidArgument, notFound } from '../errors.js';
import { findOwnFulfillmentOrder, parseFulfillmentOrderId, routeTotals, touchFulfillmentOrder } from './access.js';
import { openAlert } from './alerts.js';

export interface ConfirmCancellationEntry {
  fulfillmentOrderId: unknown;
  /** Partial confirmations are unsupported (document 4.8, 7.3 rule 3): any line fails the entry. */
  lines: unknown[] | null;
  alreadyShipped: boolean;
}

/**
 * Drains the fulfillment order's open cancellation request (document 4.8, 3.7, 7.3 rules 3 and 6). The units
 * were already taken off the partner's lines when the request was opened; confirming only closes the request.
 * - lines on the entry fail it; an unknown or foreign order fails it;
 * - an open request → CONFIRMED (one conditional UPDATE: of parallel replays exactly one records it, the
 *   others find it confirmed and answer alreadyRecorded);
 * - no open request: rejected order → failure; a request confirmed before → success, alreadyRecorded
 *   (replay); nothing owed and something shipped → failure "already shipped"; else "no outstanding request".
 * alreadyShipped drains the request like a confirmation but the units it names had left the warehouse: the
 * service cannot undo that, so it opens a service alert on the order for the seller.
 */
export async function confirmCancellation(
  tx: Tx,
  principal: Principal,
  entry: ConfirmCancellationEntry,
  now: Date,
): Promise<{ alreadyRecorded: boolean }> {
  const id = parseFulfillmentOrderId(entry.fulfillmentOrderId);
  const fo = id === null ? null : await findOwnFulfillmentOrder(tx, principal, { id });
  if (!fo) throw notFound(`fulfillment order ${String(entry.fulfillmentOrderId ?? '')} not found`);
  if (entry.lines !== null && entry.lines.length > 0) {
    throw invalidArgument('lines are not supported on a cancellation confirmation: omit lines to confirm the whole request');
  }
  const iso = now.toISOString();
  const confirmed = await tx
    .updateTable('fulfillment_cancellation_requests')
    .set({ status: 'CONFIRMED', open_key: null, confirmed_ts: iso, already_shipped: entry.alreadyShipped ? 1 : 0, updated_at: iso })
    .where('account_id', '=', fo.account_id)
    .where('fulfillment_order_id', '=', fo.id)
    .where('status', '=', 'OPEN')
    .returning('id')
    .executeTakeFirst();
  if (confirmed) {
    await touchFulfillmentOrder(tx, fo.account_id, fo.id, now);
    if (entry.alreadyShipped) {
      await openAlert(
        tx,
        fo,
        {
          type: 'ALERT_TYPE_OTHER',
          message:
            'The shipping integration reports that units of a cancellation request had already shipped; the buyer may ' +
            'receive cancelled units. Check the order and the partner\'s shipment.',
          lineId: null,
          raisedBy: null,
        },
        now,
      );
    }
    return { alreadyRecorded: false };
  }
  if (fo.status === 'REJECTED') throw failedPrecondition('the fulfillment order was rejected; no cancellation request is outstanding');
  const earlier = await tx
    .selectFrom('fulfillment_cancellation_requests')
    .select('id')
    .where('account_id', '=', fo.account_id)
    .where('fulfillment_order_id', '=', fo.id)
    .where('status', '=', 'CONFIRMED')
    .executeTakeFirst();
  if (earlier) return { alreadyRecorded: true };
  const totals = await routeTotals(tx, fo);
  if (totals.owed === 0 && totals.shipped > 0) throw failedPrecondition('the fulfillment order has already shipped; no cancellation request is outstanding');
  throw failedPrecondition('no cancellation request is outstanding for this fulfillment order');
}
