import { cappedCount, COUNT_CAP } from '../../db/capped-count.js';
import type { Db } from '../../db/tx.js';
import { AGED_WORK_MS } from './status.js';
import { stillOwesUnits } from './owed.js';

/**
 * What needs the seller on the fulfillment side (the console's home, issue 12), as capped counts and as the
 * orders concerned (for the filtered order list):
 * - alert: fulfillment orders with an open alert (raised by the service or a partner);
 * - rejected: rejected fulfillment orders whose warehouse still holds owed units (no other warehouse took
 *   them: the seller must re-route or cancel);
 * - late: NEW fulfillment orders still owed and unacknowledged for more than AGED_WORK_MS, the same rule the
 *   shipping status check reports as unacknowledged_work.
 * Each reads an account-led index range ((account_id, open_key) or (account_id, status, assigned_ts)).
 */
export const ATTENTION_KINDS = ['alert', 'rejected', 'late'] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

function attentionQuery(db: Db, accountId: number, kind: AttentionKind, now: Date) {
  if (kind === 'alert') {
    return db
      .selectFrom('fulfillment_alerts as a')
      .innerJoin('fulfillment_orders as fo', 'fo.id', 'a.fulfillment_order_id')
      .select('fo.order_id')
      .where('a.account_id', '=', accountId)
      .where('a.open_key', 'is not', null)
      .where('fo.account_id', '=', accountId);
  }
  let query = db
    .selectFrom('fulfillment_orders as fo')
    .select('fo.order_id')
    .where('fo.account_id', '=', accountId)
    .where('fo.status', '=', kind === 'rejected' ? 'REJECTED' : 'NEW')
    .where(stillOwesUnits);
  if (kind === 'late') query = query.where('fo.assigned_ts', '<', new Date(now.getTime() - AGED_WORK_MS).toISOString());
  return query;
}

/** How many fulfillment orders need attention of this kind, up to COUNT_CAP + 1. */
export function countFulfillmentAttention(db: Db, accountId: number, kind: AttentionKind, now: Date): Promise<number> {
  return cappedCount(db, attentionQuery(db, accountId, kind, now));
}

/** The sales orders concerned (at most COUNT_CAP of them), for a filtered order list. */
export async function ordersNeedingAttention(db: Db, accountId: number, kind: AttentionKind, now: Date): Promise<number[]> {
  const rows = await attentionQuery(db, accountId, kind, now).limit(COUNT_CAP).execute();
  return [...new Set(rows.map((r) => r.order_id))];
}
