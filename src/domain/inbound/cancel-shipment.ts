import type { Tx } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { failedPrecondition } from '../errors.js';
import { CANCELLABLE_STATUSES, type InboundShipmentRow } from './model.js';
import { findVisibleShipment } from './view.js';

/**
 * POST /v1/inbound-shipment/{id}/cancel (document 4.3; resolutions §3): PENDING or SHIPPED → CANCELLED.
 * One conditional UPDATE decides, so a receipt recorded at the same moment either lands first (and the
 * cancel is refused) or finds the shipment cancelled; a shipment is never both.
 */
export async function cancelInboundShipment(tx: Tx, principal: Principal, shipmentId: number, now: Date): Promise<InboundShipmentRow> {
  // Not visible to the caller (another account, or a warehouse outside inventory:self's mappings): 404.
  await findVisibleShipment(tx, principal, shipmentId);
  const iso = now.toISOString();
  const row = await tx
    .updateTable('inbound_shipments')
    .set({ status: 'CANCELLED', cancelled_at: iso, updated_at: iso })
    .where('account_id', '=', principal.accountId)
    .where('id', '=', shipmentId)
    .where('status', 'in', CANCELLABLE_STATUSES)
    .returningAll()
    .executeTakeFirst();
  if (row) return row;
  // The status as it is now (it may have changed since the first read), for the message.
  const current = await findVisibleShipment(tx, principal, shipmentId);
  throw failedPrecondition(cancelRefusal(current)).because('inbound.not_cancellable', { status: current.status });
}

function cancelRefusal(row: InboundShipmentRow): string {
  const why =
    row.status === 'RECEIVED' || row.status === 'PARTIALLY_RECEIVED'
      ? ': units were already received'
      : row.status === 'CANCELLED'
        ? ': it is already cancelled'
        : '';
  return `inbound shipment ${row.id} is ${row.status}${why}; only PENDING or SHIPPED shipments can be cancelled`;
}
