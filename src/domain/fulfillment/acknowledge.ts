import type { Tx } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { failedPrecondition, invalidArgument, notFound } from '../errors.js';
import { findOwnFulfillmentOrder, nudgeFulfillmentOrder, parseFulfillmentOrderId, routeTotals, WITHDRAWN_MESSAGE } from './access.js';

export interface AcknowledgeEntry {
  fulfillmentOrderId: unknown;
  externalOrderId: string | null;
}

export interface AcknowledgeOutcome {
  alreadyAcknowledged: boolean;
}

/**
 * NEW → ACCEPTED with the partner's externalOrderId (3.5; resolutions §4). The order stays in need_to_ship.
 * A repeat with the same externalOrderId succeeds with alreadyAcknowledged; another externalOrderId for an
 * acknowledged order, an id another of the integration's orders already uses, a rejected order or one with
 * nothing owed fail the entry (AppError; the caller turns it into success false).
 */
export async function acknowledgeFulfillmentOrder(tx: Tx, principal: Principal, entry: AcknowledgeEntry, now: Date): Promise<AcknowledgeOutcome> {
  const id = parseFulfillmentOrderId(entry.fulfillmentOrderId);
  const fo = id === null ? null : await findOwnFulfillmentOrder(tx, principal, { id });
  if (!fo) throw notFound(`fulfillment order ${String(entry.fulfillmentOrderId ?? '')} not found`);
  const externalOrderId = entry.externalOrderId?.trim() ?? '';
  if (externalOrderId === '') throw invalidArgument('externalOrderId is required: your own id for this order');
  if (fo.status === 'REJECTED') throw failedPrecondition('the fulfillment order was rejected; it can no longer be acknowledged');
  if (fo.status === 'WITHDRAWN') throw failedPrecondition(WITHDRAWN_MESSAGE);
  if (fo.status === 'ACCEPTED') {
    if (fo.external_order_id === externalOrderId) return { alreadyAcknowledged: true };
    throw failedPrecondition(`already acknowledged with externalOrderId "${fo.external_order_id ?? ''}"`);
  }
  if ((await routeTotals(tx, fo)).owed === 0) throw failedPrecondition('nothing is owed on this fulfillment order (shipped or cancelled)');
  const taken = await tx
    .selectFrom('fulfillment_orders')
    .select('id')
    .where('installation_id', '=', fo.installation_id)
    .where('external_order_id', '=', externalOrderId)
    .executeTakeFirst();
  if (taken) throw failedPrecondition(`externalOrderId "${externalOrderId}" is already used by fulfillment order ${taken.id}`);
  const iso = now.toISOString();
  // Conditional on NEW: of two parallel acknowledgements one moves the state, the other re-reads below.
  const moved = await tx
    .updateTable('fulfillment_orders')
    .set({ status: 'ACCEPTED', external_order_id: externalOrderId, acknowledged_ts: iso, last_updated_ts: iso })
    .where('account_id', '=', fo.account_id)
    .where('id', '=', fo.id)
    .where('status', '=', 'NEW')
    .returning('id')
    .executeTakeFirst();
  if (moved) {
    await nudgeFulfillmentOrder(tx, fo.account_id, fo.id, fo.installation_id, now);
    return { alreadyAcknowledged: false };
  }
  const now2 = await findOwnFulfillmentOrder(tx, principal, { id: fo.id });
  if (now2?.status === 'ACCEPTED' && now2.external_order_id === externalOrderId) return { alreadyAcknowledged: true };
  throw failedPrecondition('the fulfillment order changed while acknowledging it; read it again');
}
