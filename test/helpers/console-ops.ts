import type { Deps } from '../../src/deps.js';
import { withTx } from '../../src/db/tx.js';
import { createDelivery } from '../../src/domain/callbacks/deliveries.js';
import { enqueueJob } from '../../src/db/outbox.js';
import { JobRegistry } from '../../src/jobs/registry.js';
import { JobWorker } from '../../src/jobs/worker.js';

/**
 * Operator console fixtures: a DEAD job and a DEAD callback delivery, made through the domain (the job
 * really fails in a worker; the delivery's row is marked DEAD as its exhausted schedule would leave it,
 * without waiting through ten attempts).
 */
export async function seedDeadJob(deps: Deps, accountId: number | null = null): Promise<number> {
  const now = deps.clock.now();
  const jobId = (await enqueueJob(deps.db.db, { type: 'console.test.fail', payload: { reason: '<b>carrier</b>' }, accountId, maxAttempts: 1 }, now))!;
  const registry = new JobRegistry().register('console.test.fail', async () => {
    throw new Error('carrier API said <no>');
  });
  await new JobWorker(deps, { id: 'console-test', registry, schedules: [] }).runUntilIdle();
  return jobId;
}

export async function seedDeadDelivery(deps: Deps, accountId: number, appId: number): Promise<string> {
  const now = deps.clock.now();
  const created = await withTx(deps.db.db, (tx) =>
    createDelivery(tx, { accountId, appId, storefrontId: null, kind: 'INITIATE_INGESTION', method: 'POST', path: '/ingestion/initiate', body: { skus: [] } }, now, false),
  );
  await deps.db.db
    .updateTable('callback_deliveries')
    .set({ state: 'DEAD', attempts: 10, last_status: 500, last_error: 'HTTP 500: <oops>', next_attempt_at: null, updated_at: now.toISOString() })
    .where('id', '=', created.rowId)
    .execute();
  return created.deliveryId;
}
