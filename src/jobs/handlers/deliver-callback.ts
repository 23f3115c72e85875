import type { Deps } from '../../deps.js';
import { attemptDelivery, deliveryJobDead } from '../../domain/callbacks/attempt.js';
import { DELIVER_CALLBACK, type DeliverPayload } from '../../domain/callbacks/deliveries.js';
import { deliveryPortsOf } from '../../domain/sandbox-partner/delivery-ports.js';
import type { Job, JobRun } from '../types.js';

export { DELIVER_CALLBACK };

function rowIdOf(job: Job): { accountId: number; rowId: number } {
  const { deliveryRowId } = (job.payload ?? {}) as Partial<DeliverPayload>;
  if (job.accountId === null || !Number.isSafeInteger(deliveryRowId)) throw new Error(`malformed ${DELIVER_CALLBACK} job ${job.id}`);
  return { accountId: job.accountId, rowId: deliveryRowId! };
}

/**
 * One attempt of one callback delivery (src/domain/callbacks/attempt.ts). A partner's failure is not a job
 * failure: the attempt is recorded and the next one queued as a new job on the delivery's own schedule
 * (resolutions §5), and this job succeeds. The job fails, and is retried with the same delivery id, only
 * when the attempt could not be recorded (database) or its worker died mid-send (lease expiry): delivery is
 * at least once.
 */
export async function runDeliverCallback(deps: Deps, job: Job, run: JobRun): Promise<void> {
  const { accountId, rowId } = rowIdOf(job);
  // The attempt's record and the job's success commit in one transaction.
  const { state } = await attemptDelivery(deliveryPortsOf(deps), accountId, rowId, job.id, true, run.succeedIn);
  if (state !== null) deps.metrics.callbackAttempts.inc({ result: state });
}

export async function deliverCallbackJobDead(deps: Deps, job: Job, error: string): Promise<void> {
  const { accountId, rowId } = rowIdOf(job);
  await deliveryJobDead(deps, accountId, rowId, job.id, error.split('\n')[0] ?? error);
}
