import { cappedCount } from '../../db/capped-count.js';
import type { Db } from '../../db/tx.js';
import type { DeliveryState } from './deliveries.js';

/** Deliveries each state's count reads at most: the scrape stays cheap however large a backlog grows. */
export const DELIVERY_METRICS_CAP = 100_000;

/**
 * The states worth a gauge, counted on the (state, id) index: PENDING (the backlog) and DEAD (given up).
 * SUCCEEDED is left out: it only grows, and counting it would read the whole history on every scrape; the
 * worker's callback_delivery_attempts_total counter shows the delivery rate instead.
 */
export const GAUGED_DELIVERY_STATES = ['PENDING', 'DEAD'] as const satisfies readonly DeliveryState[];

export async function deliveryStateCounts(db: Db): Promise<Record<(typeof GAUGED_DELIVERY_STATES)[number], number>> {
  const count = (state: DeliveryState) =>
    cappedCount(db, db.selectFrom('callback_deliveries').select('id').where('state', '=', state), DELIVERY_METRICS_CAP);
  return { PENDING: await count('PENDING'), DEAD: await count('DEAD') };
}
