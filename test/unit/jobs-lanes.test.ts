import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withTx } from '../../src/db/tx.js';
import { enqueueJob } from '../../src/db/outbox.js';
import { JobRegistry } from '../../src/jobs/registry.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { eventually, jobRow } from './jobs-support.js';

/** A poll interval no test waits out: whatever runs sooner was started by a wake-up or a lane. */
const LONG_POLL_MS = 60_000;

describe('background jobs: concurrent lanes, wake-ups, completion in the handler transaction', () => {
  let t: TestApp;
  const workers: JobWorker[] = [];

  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await t.close();
  });

  function worker(registry: JobRegistry, concurrentLanes: number): JobWorker {
    const w = new JobWorker(t.deps, { registry, schedules: [], pollMs: LONG_POLL_MS, concurrentLanes });
    workers.push(w);
    return w;
  }

  it('runs concurrent jobs side by side in its lanes, while the main loop runs the others one at a time', async () => {
    let inFlight = 0;
    let peak = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const registry = new JobRegistry().register(
      'test.io',
      async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await gate;
        inFlight--;
      },
      undefined,
      { concurrent: true },
    );
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await enqueueJob(t.deps.db.db, { type: 'test.io', payload: { i } }, t.deps.clock.now()))!);
    const w = worker(registry, 4);
    w.start();
    // Four lanes and the main loop (which runs any type) hold five jobs at once, all waiting on the gate.
    await eventually(async () => inFlight === 5, 'five jobs in flight');
    release();
    await eventually(async () => (await Promise.all(ids.map((id) => jobRow(t.deps, id)))).every((j) => j.status === 'SUCCEEDED'), 'all jobs done');
    assert.equal(peak, 5);
    await w.stop();
  });

  it('a job queued by a commit in this process starts at once, not after the poll interval', async () => {
    const ran: number[] = [];
    const registry = new JobRegistry()
      .register('test.wake-io', async (_deps, job) => void ran.push(job.id), undefined, { concurrent: true })
      .register('test.wake-main', async (_deps, job) => void ran.push(job.id));
    const w = worker(registry, 2);
    w.start();
    // Let every loop find nothing and fall asleep for the long poll interval.
    await new Promise((r) => setTimeout(r, 100));
    const io = await withTx(t.deps.db.db, (tx) => enqueueJob(tx, { type: 'test.wake-io', payload: null }, t.deps.clock.now()));
    await eventually(async () => ran.includes(io!), 'the concurrent job ran');
    const main = await withTx(t.deps.db.db, (tx) => enqueueJob(tx, { type: 'test.wake-main', payload: null }, t.deps.clock.now()));
    await eventually(async () => ran.includes(main!), 'the main-loop job ran');
    await w.stop();
  });

  it('a job queued in a transaction that rolls back wakes nobody and never runs', async () => {
    const ran: number[] = [];
    const registry = new JobRegistry().register('test.rolled-back', async (_deps, job) => void ran.push(job.id), undefined, { concurrent: true });
    const w = worker(registry, 1);
    w.start();
    await new Promise((r) => setTimeout(r, 50));
    await assert.rejects(
      withTx(t.deps.db.db, async (tx) => {
        await enqueueJob(tx, { type: 'test.rolled-back', payload: null }, t.deps.clock.now());
        throw new Error('the change fails');
      }),
      /the change fails/,
    );
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(ran, []);
    const rows = await t.deps.db.db.selectFrom('jobs').select('id').where('type', '=', 'test.rolled-back').execute();
    assert.equal(rows.length, 0);
    await w.stop();
  });

  it("succeedIn commits the job's success with the handler's own write, and the worker records no second attempt", async () => {
    const registry = new JobRegistry().register('test.succeed-in', async (deps, job, run) => {
      await withTx(deps.db.db, async (tx) => {
        await tx.updateTable('jobs').set({ last_error: 'written by the handler' }).where('id', '=', job.id).execute();
        await run.succeedIn(tx);
      });
    });
    const id = (await enqueueJob(t.deps.db.db, { type: 'test.succeed-in', payload: null }, t.deps.clock.now()))!;
    const w = new JobWorker(t.deps, { registry, schedules: [] });
    assert.equal(await w.runUntilIdle(), 1);
    const job = await jobRow(t.deps, id);
    assert.equal(job.status, 'SUCCEEDED');
    assert.equal(job.lastError, 'written by the handler');
    const attempts = await t.deps.db.db.selectFrom('job_attempts').select(['outcome']).where('job_id', '=', id).execute();
    assert.deepEqual(attempts, [{ outcome: 'SUCCEEDED' }]);
  });

  it('succeedIn in a transaction that rolls back records nothing: the failure is recorded and retried', async () => {
    const registry = new JobRegistry().register('test.succeed-in-rollback', async (deps, _job, run) => {
      await withTx(deps.db.db, async (tx) => {
        await run.succeedIn(tx);
        throw new Error('the work failed after all');
      });
    });
    const id = (await enqueueJob(t.deps.db.db, { type: 'test.succeed-in-rollback', payload: null, maxAttempts: 3 }, t.deps.clock.now()))!;
    const w = new JobWorker(t.deps, { registry, schedules: [] });
    await w.runOnce();
    const job = await jobRow(t.deps, id);
    assert.equal(job.status, 'PENDING');
    assert.match(job.lastError ?? '', /the work failed after all/);
    const attempts = await t.deps.db.db.selectFrom('job_attempts').select(['outcome']).where('job_id', '=', id).execute();
    assert.deepEqual(attempts, [{ outcome: 'FAILED' }]);
  });
});
