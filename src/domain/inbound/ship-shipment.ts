import type { Updateable } from 'kysely';
import type { InboundShipmentsTable } from '../../db/schema.js';
import type { Tx } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { failedPrecondition } from '../errors.js';
import { deliveryDateInput, optionalShortText } from './inputs.js';
import type { InboundShipmentRow, InboundStatus } from './model.js';
import { findVisibleShipment } from './view.js';

/** POST /v1/inbound-shipment/{id}/ship (resolutions §8): fields not given stay; null (or blank) clears one. */
export interface ShipInput {
  carrier?: string | null | undefined;
  tracking?: string | null | undefined;
  expected_delivery_date?: string | null | undefined;
}

/**
 * Statuses a ship call may start from: PENDING becomes SHIPPED; SHIPPED stays SHIPPED with the fields given,
 * so a retried call, or a corrected tracking number, is not an error.
 */
const SHIPPABLE_STATUSES: readonly InboundStatus[] = ['PENDING', 'SHIPPED'];

/**
 * Marks the shipment SHIPPED with one conditional UPDATE on its status: shipped_at is set the first time
 * only (coalesce keeps the original on a repeat), and a shipment that was received or cancelled meanwhile
 * is refused rather than moved back.
 */
export async function shipInboundShipment(
  tx: Tx,
  principal: Principal,
  shipmentId: number,
  input: ShipInput,
  now: Date,
): Promise<InboundShipmentRow> {
  // Checked before anything is read, so a bad date is a 400 even on a shipment that could not be shipped.
  const expectedDelivery = deliveryDateInput('expected_delivery_date', input.expected_delivery_date);
  await findVisibleShipment(tx, principal, shipmentId);
  const iso = now.toISOString();
  const set: Updateable<InboundShipmentsTable> = { status: 'SHIPPED', updated_at: iso };
  const carrier = optionalShortText(input.carrier);
  if (carrier !== undefined) set.carrier = carrier;
  const tracking = optionalShortText(input.tracking);
  if (tracking !== undefined) set.tracking = tracking;
  if (expectedDelivery !== undefined) set.expected_delivery_date = expectedDelivery;
  const row = await tx
    .updateTable('inbound_shipments')
    .set(set)
    .set((eb) => ({ shipped_at: eb.fn.coalesce('shipped_at', eb.val(iso)) }))
    .where('account_id', '=', principal.accountId)
    .where('id', '=', shipmentId)
    .where('status', 'in', SHIPPABLE_STATUSES)
    .returningAll()
    .executeTakeFirst();
  if (row) return row;
  const current = await findVisibleShipment(tx, principal, shipmentId);
  const why = current.status === 'CANCELLED' ? ': it was cancelled' : ': units were already received';
  throw failedPrecondition(`inbound shipment ${current.id} is ${current.status}${why}; only PENDING or SHIPPED shipments can be marked shipped`).because('inbound.not_shippable', {
    status: current.status,
  });
}
