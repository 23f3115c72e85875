import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import { EXPIRE_UNPAID_ORDER, expireUnpaidOrder, type ExpiryPayload } from '../../domain/orders/expiry.js';
import type { Job } from '../types.js';
import { fulfillmentPort } from '../../domain/fulfillment/port.js';

export { EXPIRE_UNPAID_ORDER };

/** One order's 30-day payment deadline (enqueued at creation, src/domain/orders/expiry.ts). Idempotent. */
export async function runUnpaidOrderExpiry(deps: Deps, job: Job): Promise<void> {
  const { orderId } = job.payload as ExpiryPayload;
  if (job.accountId === null || !Number.isInteger(orderId)) throw new Error(`malformed ${EXPIRE_UNPAID_ORDER} job ${job.id}`);
  const accountId = job.accountId;
  const cancelled = await withTx(deps.db.db, (tx) => expireUnpaidOrder(tx, accountId, orderId, deps.clock.now(), fulfillmentPort));
  if (cancelled) deps.log.info({ accountId, orderId }, 'cancelled an order unpaid 30 days after its orderTs');
}
