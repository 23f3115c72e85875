import type { Tx } from '../../db/tx.js';
import type { Principal } from '../accounts/principal.js';
import { invalidArgument, notFound } from '../errors.js';
import { findOwnFulfillmentOrder, parseFulfillmentOrderId, touchFulfillmentOrder, type FulfillmentOrderRow } from './access.js';
import type { AlertType } from './model.js';

/**
 * Alerts (document 2.18, 3.6; resolutions §4): at most one OPEN alert per type per fulfillment order per
 * raiser (an integration, or the service itself), enforced by the unique open_key.
 */

function openKey(foId: number, type: AlertType, raisedBy: number | null): string {
  return `${foId}:${type}:${raisedBy ?? 'service'}`;
}

/** Document 7.3 rule 4: the proto default names no kind of alert, so it fails the entry. */
function refuseUnspecified(type: AlertType): AlertType {
  if (type === 'ALERT_TYPE_UNSPECIFIED') throw invalidArgument('type ALERT_TYPE_UNSPECIFIED is refused: name the kind of alert');
  return type;
}

/** Opens an alert unless one of that type is open from that raiser; returns false when one already was. */
export async function openAlert(
  tx: Tx,
  fo: Pick<FulfillmentOrderRow, 'id' | 'account_id'>,
  alert: { type: AlertType; message: string; lineId: number | null; raisedBy: number | null },
  now: Date,
): Promise<boolean> {
  const inserted = await tx
    .insertInto('fulfillment_alerts')
    .values({
      account_id: fo.account_id,
      fulfillment_order_id: fo.id,
      type: alert.type,
      message: alert.message,
      line_id: alert.lineId,
      raised_by_installation_id: alert.raisedBy,
      status: 'OPEN',
      open_key: openKey(fo.id, alert.type, alert.raisedBy),
      resolution: null,
      created_at: now.toISOString(),
      resolved_ts: null,
    })
    .onConflict((oc) => oc.columns(['account_id', 'open_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) await touchFulfillmentOrder(tx, fo.account_id, fo.id, now);
  return inserted !== undefined;
}

async function ownOrder(tx: Tx, principal: Principal, raw: unknown): Promise<FulfillmentOrderRow> {
  const id = parseFulfillmentOrderId(raw);
  const fo = id === null ? null : await findOwnFulfillmentOrder(tx, principal, { id });
  if (!fo) throw notFound(`fulfillment order ${String(raw ?? '')} not found`);
  return fo;
}

export interface RaiseAlertEntry {
  fulfillmentOrderId: unknown;
  /** Already a name: the HTTP layer reads names and numbers (an unknown one never gets here). */
  type: AlertType;
  message: string | null;
  lineItemId: string | null;
}

/** POST alerts entry: returns alreadyOpen (success either way). */
export async function raiseAlert(tx: Tx, principal: Principal, entry: RaiseAlertEntry, now: Date): Promise<{ alreadyOpen: boolean }> {
  const fo = await ownOrder(tx, principal, entry.fulfillmentOrderId);
  const type = refuseUnspecified(entry.type);
  let lineId: number | null = null;
  if (entry.lineItemId !== null && entry.lineItemId !== '') {
    const route = /^\d{1,15}$/.test(entry.lineItemId)
      ? await tx
          .selectFrom('order_line_routes')
          .select('line_id')
          .where('account_id', '=', fo.account_id)
          .where('order_id', '=', fo.order_id)
          .where('warehouse_id', '=', fo.warehouse_id)
          .where('line_id', '=', Number(entry.lineItemId))
          .executeTakeFirst()
      : undefined;
    if (!route) throw invalidArgument(`lineItemId ${entry.lineItemId} is not a line of this fulfillment order`);
    lineId = route.line_id;
  }
  const opened = await openAlert(tx, fo, { type, message: entry.message ?? '', lineId, raisedBy: principal.integrationId }, now);
  return { alreadyOpen: !opened };
}

export interface ResolveAlertEntry {
  fulfillmentOrderId: unknown;
  type: AlertType;
  resolution: string | null;
}

/** Closes the caller's own open alert of that type; alreadyResolved when none was open (still success). */
export async function resolveAlert(tx: Tx, principal: Principal, entry: ResolveAlertEntry, now: Date): Promise<{ alreadyResolved: boolean }> {
  const fo = await ownOrder(tx, principal, entry.fulfillmentOrderId);
  const type = refuseUnspecified(entry.type);
  const closed = await tx
    .updateTable('fulfillment_alerts')
    .set({ status: 'RESOLVED', open_key: null, resolution: entry.resolution ?? '', resolved_ts: now.toISOString() })
    .where('account_id', '=', fo.account_id)
    .where('fulfillment_order_id', '=', fo.id)
    .where('type', '=', type)
    .where('raised_by_installation_id', '=', principal.integrationId ?? -1)
    .where('status', '=', 'OPEN')
    .returning('id')
    .execute();
  if (closed.length > 0) await touchFulfillmentOrder(tx, fo.account_id, fo.id, now);
  return { alreadyResolved: closed.length === 0 };
}
