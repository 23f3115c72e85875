import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Deps } from '../../src/deps.js';
import type { App } from '../../src/http/types.js';
import { REDACTION_BATCH } from '../../src/domain/personal-data/retention-sweep.js';
import { PERSONAL_DATA_SWEEP } from '../../src/jobs/handlers/personal-data-sweep.js';
import { type SeededAccount } from '../helpers/fixtures.js';
import { crashTestService, exitWithin, takenOverWithin, waitFor, type CrashTestService } from '../helpers/worker-process.js';
import { buyer } from './personal-data-support.js';
import { createOrder, orderBody, stock } from './v1-sales-orders-helpers.js';

/**
 * Issue 29: a worker killed with SIGKILL in the middle of the personal-data retention sweep is taken over by a
 * new worker once its lease runs out, and the sweep goes on: every due order redacted exactly once (its stamp
 * is the checkpoint: the orders of the batches that committed keep the stamp of the first run, and the audit
 * counts each order once). The workers are real child processes (`src/main.ts worker`) that run the recurring
 * sweep as soon as they start; a test-only preload (test/fixtures/crash-after-chunks.ts) kills the first right
 * after its second batch commits.
 */
const ORDERS = 300;
const BATCH = REDACTION_BATCH;
const CRASH_AFTER_BATCHES = 2;
const LEASE_SECONDS = 4;

describe('personal data: a worker killed mid-sweep resumes and redacts each order once', { timeout: 300_000 }, () => {
  let service: CrashTestService;
  let deps: Deps;
  let app: App;
  let seed: SeededAccount;

  before(async () => {
    service = await crashTestService('pdcrash', { JOB_LEASE_SECONDS: String(LEASE_SECONDS) });
    ({ deps, app, seed } = service);
  });
  after(async () => {
    await service?.close();
  });

  /** ORDERS closed orders of one buyer: one through the API, the rest copies of its row, all closed 40 days ago. */
  async function seedClosedOrders(): Promise<void> {
    await stock({ app } as Parameters<typeof stock>[0], seed.sellerToken, 'CRASH-PD', seed.warehouses.main, 10);
    const template = await createOrder({ app } as Parameters<typeof createOrder>[0], seed.channel.token, orderBody('PD-CRASH-0', [{ requestedSku: 'CRASH-PD', quantity: 1 }], buyer('Ada Lovelace', 'ada@example.com')));
    const db = deps.db.db;
    const row = await db.selectFrom('sales_orders').selectAll().where('id', '=', Number(template.orderNumber)).executeTakeFirstOrThrow();
    const { id: _id, ...columns } = row;
    const closedTs = new Date(Date.now() - 40 * 86_400_000).toISOString();
    for (let start = 1; start < ORDERS; start += 100) {
      const copies = Array.from({ length: Math.min(100, ORDERS - start) }, (_, k) => ({ ...columns, channel_order_id: `PD-CRASH-${start + k}` }));
      await db.insertInto('sales_orders').values(copies).execute();
    }
    await db.updateTable('sales_orders').set({ status: 'CANCELLED', closed_ts: closedTs }).where('account_id', '=', seed.accountId).execute();
  }

  const stamps = async () =>
    deps.db.db.selectFrom('sales_orders').select(['id', 'personal_data_redacted_ts', 'customer_name']).where('account_id', '=', seed.accountId).orderBy('id').execute();

  it('SIGKILL after a batch commit; the lease runs out; a new worker redacts the rest, each order once', async () => {
    await seedClosedOrders();

    // 1. The worker starts the sweep and dies right after its second batch commits.
    const crashing = service.startWorker([], { afterChunks: CRASH_AFTER_BATCHES, chunkStatement: 'update "sales_orders" set "customer_name"' });
    const crash = await exitWithin(crashing, 120_000);
    assert.equal(crash.signal, 'SIGKILL', crash.output);
    assert.match(crash.output, /SIGKILL after chunk commit 2/);

    const midway = await stamps();
    const firstRun = midway.filter((o) => o.personal_data_redacted_ts !== null);
    assert.equal(firstRun.length, CRASH_AFTER_BATCHES * BATCH, 'exactly the committed batches are redacted');
    for (const o of firstRun) assert.equal(o.customer_name, null);
    for (const o of midway.filter((x) => x.personal_data_redacted_ts === null)) assert.equal(o.customer_name, 'Ada Lovelace');
    const job = await deps.db.db.selectFrom('jobs').selectAll().where('type', '=', PERSONAL_DATA_SWEEP).executeTakeFirstOrThrow();
    assert.equal(job.status, 'RUNNING', 'the dead worker still holds the lease');

    // 2. A new worker takes the job over when the lease runs out and finishes the sweep.
    const resumed = service.startWorker([], null);
    assert.ok((await takenOverWithin(deps, job.id, 30_000)) < 30_000);
    await waitFor('every order to be redacted', 120_000, async () => ((await stamps()).every((o) => o.personal_data_redacted_ts !== null) ? true : undefined));
    resumed.child.kill('SIGTERM');
    await exitWithin(resumed, 30_000);

    const done = await stamps();
    assert.equal(done.length, ORDERS);
    for (const o of done) assert.equal(o.customer_name, null);
    // The first run's orders keep the first run's stamp: none was redacted twice.
    const before = new Map(firstRun.map((o) => [o.id, o.personal_data_redacted_ts]));
    for (const o of done) if (before.has(o.id)) assert.equal(o.personal_data_redacted_ts, before.get(o.id));
    const audit = await deps.db.db
      .selectFrom('personal_data_audit')
      .select((eb) => eb.fn.sum<number>('redacted_orders').as('total'))
      .where('account_id', '=', seed.accountId)
      .where('action', '=', 'RETENTION_SWEEP')
      .executeTakeFirstOrThrow();
    assert.equal(Number(audit.total), ORDERS, 'the audit counts each order once');
  });
});
