import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withTx } from '../../src/db/tx.js';
import { retryDeadJob } from '../../src/jobs/admin.js';
import { RETRY_BASE_MS, retryDelayMs } from '../../src/jobs/backoff.js';
import { enqueueJob } from '../../src/db/outbox.js';
import { claimNextJob, finishAttempt, renewLease } from '../../src/jobs/lease.js';
import { JobRegistry } from '../../src/jobs/registry.js';
import type { Job } from '../../src/jobs/types.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { countJobs, enqueue, eventually, jobRow } from './jobs-support.js';

const LEASE_MS = 60_000;

describe('background jobs: outbox, runs, retries', () => {
  let t: TestApp;
  const clock = manualClock(new Date('2026-03-01T00:00:00.000Z'));
  const ran: Job[] = [];
  let failuresLeft = 0;
  const registry = new JobRegistry()
    .register('test.record', async (_deps, job) => {
      ran.push(job);
    })
    .register('test.flaky', async (_deps, job) => {
      ran.push(job);
      if (failuresLeft > 0) {
        failuresLeft--;
        throw new Error(`boom ${job.attempts}`);
      }
    });
  const worker = (id = 'w1') => new JobWorker(t.deps, { id, registry, schedules: [], leaseMs: LEASE_MS });

  before(async () => {
    t = await createTestApp({ clock });
  });
  after(async () => {
    await t.close();
  });

  it('documents its retry schedule: 30 s doubling, at most one hour', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 8, 20].map(retryDelayMs), [
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000,
    ]);
  });

  it('a job enqueued in a transaction that rolls back does not exist', async () => {
    const before = await countJobs(t.deps);
    await assert.rejects(
      withTx(t.deps.db.db, async (tx) => {
        await enqueueJob(tx, { type: 'test.record', payload: { n: 1 } }, clock.now());
        throw new Error('the change failed');
      }),
      /the change failed/,
    );
    assert.equal(await countJobs(t.deps), before);
    assert.equal(await worker().runOnce(), false);
  });

  it('a committed job runs once with its payload, then is SUCCEEDED with an attempt logged', async () => {
    ran.length = 0;
    const id = await withTx(t.deps.db.db, (tx) => enqueueJob(tx, { type: 'test.record', payload: { n: 2 }, accountId: 7 }, clock.now()));
    assert.ok(id);
    const w = worker();
    assert.equal(await w.runUntilIdle(), 1);
    assert.equal(await w.runUntilIdle(), 0);
    assert.equal(ran.length, 1);
    assert.deepEqual(ran[0]!.payload, { n: 2 });
    assert.equal(ran[0]!.accountId, 7);
    assert.equal(ran[0]!.status, 'RUNNING');
    const job = await jobRow(t.deps, id);
    assert.equal(job.status, 'SUCCEEDED');
    assert.equal(job.attempts, 1);
    assert.equal(job.finishedAt, clock.now().toISOString());
    assert.equal(job.leaseOwner, null);
    const attempts = await t.deps.db.db.selectFrom('job_attempts').selectAll().where('job_id', '=', id).execute();
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.outcome, a.worker]),
      [[1, 'SUCCEEDED', 'w1']],
    );
  });

  it('a job waits for its runAt', async () => {
    ran.length = 0;
    const id = await enqueue(t.deps, { type: 'test.record', payload: null, runAt: new Date(clock.now().getTime() + 5000) });
    const w = worker();
    assert.equal(await w.runOnce(), false);
    clock.advance(5000);
    assert.equal(await w.runOnce(), true);
    assert.equal((await jobRow(t.deps, id)).status, 'SUCCEEDED');
  });

  it('a failing job is retried on the backoff schedule and ends DEAD with last_error after maxAttempts', async () => {
    ran.length = 0;
    failuresLeft = 100;
    const id = await enqueue(t.deps, { type: 'test.flaky', payload: {}, maxAttempts: 3 });
    const w = worker();
    assert.equal(await w.runOnce(), true);
    let job = await jobRow(t.deps, id);
    assert.equal(job.status, 'PENDING');
    assert.equal(job.attempts, 1);
    assert.match(job.lastError!, /boom 1/);
    assert.equal(job.runAt, new Date(clock.now().getTime() + RETRY_BASE_MS).toISOString());
    assert.equal(job.finishedAt, null);

    clock.advance(RETRY_BASE_MS - 1);
    assert.equal(await w.runOnce(), false, 'not before the backoff');
    clock.advance(1);
    assert.equal(await w.runOnce(), true);
    job = await jobRow(t.deps, id);
    assert.equal(job.attempts, 2);
    assert.equal(job.runAt, new Date(clock.now().getTime() + 2 * RETRY_BASE_MS).toISOString());

    clock.advance(2 * RETRY_BASE_MS);
    assert.equal(await w.runOnce(), true);
    job = await jobRow(t.deps, id);
    assert.equal(job.status, 'DEAD');
    assert.equal(job.attempts, 3);
    assert.match(job.lastError!, /boom 3/);
    assert.equal(job.finishedAt, clock.now().toISOString());
    clock.advance(24 * 3600_000);
    assert.equal(await w.runOnce(), false, 'a DEAD job is not run again');
    assert.equal(ran.length, 3);
    const attempts = await t.deps.db.db.selectFrom('job_attempts').selectAll().where('job_id', '=', id).orderBy('id').execute();
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.outcome]),
      [
        [1, 'FAILED'],
        [2, 'FAILED'],
        [3, 'FAILED'],
      ],
    );

    // Retried by the operator: PENDING now with a fresh budget, and this time it succeeds.
    failuresLeft = 0;
    const retried = await retryDeadJob(t.deps.db.db, id, clock.now());
    assert.equal(retried.status, 'PENDING');
    assert.equal(retried.attempts, 0);
    assert.equal(retried.runAt, clock.now().toISOString());
    assert.equal(retried.finishedAt, null);
    assert.equal(await w.runOnce(), true);
    job = await jobRow(t.deps, id);
    assert.equal(job.status, 'SUCCEEDED');
    assert.equal(job.attempts, 1);
    await assert.rejects(retryDeadJob(t.deps.db.db, id, clock.now()), (e: Error & { code?: string }) => e.code === 'ABORTED');
    await assert.rejects(retryDeadJob(t.deps.db.db, 999_999, clock.now()), (e: Error & { code?: string }) => e.code === 'NOT_FOUND');
  });

  it('a job type no handler knows fails (and is retried) instead of stopping the worker', async () => {
    const id = await enqueue(t.deps, { type: 'test.unknown', payload: {}, maxAttempts: 1 });
    assert.equal(await worker().runOnce(), true);
    const job = await jobRow(t.deps, id);
    assert.equal(job.status, 'DEAD');
    assert.match(job.lastError!, /no handler for job type "test.unknown"/);
  });

  it('an expired lease (a crashed worker) is taken over; the late finish of the first worker changes nothing', async () => {
    ran.length = 0;
    const id = await enqueue(t.deps, { type: 'test.record', payload: {}, maxAttempts: 5 });
    const startedAt = clock.now();
    const crashed = await claimNextJob(t.deps.db, 'crashed', startedAt, LEASE_MS);
    assert.equal(crashed?.id, id);
    const other = worker('w2');
    clock.advance(LEASE_MS - 1);
    assert.equal(await other.runOnce(), false, 'a live lease is respected');
    clock.advance(1);
    assert.equal(await other.runOnce(), true);
    let job = await jobRow(t.deps, id);
    assert.equal(job.status, 'SUCCEEDED');
    assert.equal(job.attempts, 2);
    assert.equal(ran.length, 1);
    const late = await finishAttempt(t.deps.db, crashed!, 'crashed', startedAt, clock.now(), { ok: false, error: 'late' });
    assert.equal(late.status, null);
    job = await jobRow(t.deps, id);
    assert.equal(job.status, 'SUCCEEDED');
    assert.equal(job.lastError, null);
  });

  it('a renewed lease keeps the job from being taken over; a lost lease cannot be renewed', async () => {
    const id = await enqueue(t.deps, { type: 'test.record', payload: {} });
    const job = (await claimNextJob(t.deps.db, 'long-runner', clock.now(), LEASE_MS))!;
    assert.equal(job.id, id);
    clock.advance(LEASE_MS - 1000);
    assert.equal(await renewLease(t.deps.db, job, 'long-runner', clock.now(), LEASE_MS), true);
    clock.advance(1000);
    assert.equal(await worker('w3').runOnce(), false, 'the renewed lease still holds');
    assert.equal((await jobRow(t.deps, id)).leaseExpiresAt, new Date(clock.now().getTime() + LEASE_MS - 1000).toISOString());
    clock.advance(LEASE_MS);
    assert.equal(await worker('w3').runOnce(), true);
    assert.equal(await renewLease(t.deps.db, job, 'long-runner', clock.now(), LEASE_MS), false);
  });

  it('a job whose last allowed attempt crashed is DEAD when taken over, not run again', async () => {
    ran.length = 0;
    const id = await enqueue(t.deps, { type: 'test.record', payload: {}, maxAttempts: 1 });
    assert.ok(await claimNextJob(t.deps.db, 'crashed', clock.now(), LEASE_MS));
    clock.advance(LEASE_MS);
    assert.equal(await worker().runOnce(), true);
    const job = await jobRow(t.deps, id);
    assert.equal(job.status, 'DEAD');
    assert.match(job.lastError!, /lease expired/);
    assert.equal(ran.length, 0);
  });

  it('a dedupe key allows one active job; once it finished another may be enqueued', async () => {
    const first = await enqueueJob(t.deps.db.db, { type: 'test.record', payload: {}, dedupeKey: 'k1' }, clock.now());
    assert.ok(first);
    const again = await withTx(t.deps.db.db, (tx) => enqueueJob(tx, { type: 'test.record', payload: {}, dedupeKey: 'k1' }, clock.now()));
    assert.equal(again, null);
    await worker().runUntilIdle();
    const later = await enqueueJob(t.deps.db.db, { type: 'test.record', payload: {}, dedupeKey: 'k1' }, clock.now());
    assert.ok(later && later !== first);
    await worker().runUntilIdle();
  });
});

describe('background jobs: the worker loop', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    await t.close();
  });

  it('survives throwing handlers and keeps running jobs', async () => {
    const registry = new JobRegistry()
      .register('test.throws', async () => {
        throw new Error('handler exploded');
      })
      .register('test.rejects-non-error', () => Promise.reject('a bare string' as unknown as Error))
      .register('test.ok', async () => {});
    const w = new JobWorker(t.deps, { id: 'loop', registry, schedules: [], pollMs: 5 });
    w.start();
    try {
      const a = await enqueue(t.deps, { type: 'test.throws', payload: {}, maxAttempts: 1 });
      const b = await enqueue(t.deps, { type: 'test.rejects-non-error', payload: {}, maxAttempts: 1 });
      const c = await enqueue(t.deps, { type: 'test.ok', payload: {} });
      await eventually(async () => (await jobRow(t.deps, c)).status === 'SUCCEEDED', 'the third job');
      assert.equal((await jobRow(t.deps, a)).status, 'DEAD');
      assert.match((await jobRow(t.deps, a)).lastError!, /handler exploded/);
      assert.equal((await jobRow(t.deps, b)).lastError, 'a bare string');
    } finally {
      await w.stop();
    }
  });

  it('stop() lets the running job finish and then ends the loop', async () => {
    let entered!: () => void;
    const started = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const registry = new JobRegistry().register('test.slow', async () => {
      entered();
      await gate;
    });
    const w = new JobWorker(t.deps, { id: 'slow', registry, schedules: [], pollMs: 5 });
    const id = await enqueue(t.deps, { type: 'test.slow', payload: {} });
    const second = await enqueue(t.deps, { type: 'test.slow', payload: {} });
    w.start();
    await started;
    let stopped = false;
    const stopping = w.stop().then(() => (stopped = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(stopped, false, 'stop waits for the job in hand');
    release();
    await stopping;
    assert.equal((await jobRow(t.deps, id)).status, 'SUCCEEDED');
    assert.equal((await jobRow(t.deps, second)).status, 'PENDING', 'no new job is claimed after stop');
  });
});
