import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DbHandle } from '../../src/db/connect.js';
import type { Deps } from '../../src/deps.js';
import { enqueueJob } from '../../src/db/outbox.js';
import { JobRegistry } from '../../src/jobs/registry.js';
import type { RecurringJob } from '../../src/jobs/schedules.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { secondHandle } from './jobs-support.js';

/**
 * Several workers on one database. On PostgreSQL the second worker has its own connection pool, so the
 * claims truly race; on SQLite (one in-memory connection) their statements interleave.
 */
describe('background jobs: several workers', () => {
  let t: TestApp;
  let other: DbHandle | null;
  let otherDeps: Deps;
  const clock = manualClock(new Date('2026-04-01T00:00:00.000Z'));

  before(async () => {
    t = await createTestApp({ clock });
    other = await secondHandle(t.deps.db);
    otherDeps = { ...t.deps, db: other ?? t.deps.db };
  });
  after(async () => {
    await other?.close();
    await t.close();
  });

  it('two workers in parallel run each of many jobs exactly once', async () => {
    const runs = new Map<number, number>();
    const by = new Map<string, number>();
    const registry = new JobRegistry().register('test.count', async (deps, job) => {
      // Yield so the other worker gets to claim while this job is "running".
      await new Promise((r) => setImmediate(r));
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      by.set(job.leaseOwner!, (by.get(job.leaseOwner!) ?? 0) + 1);
    });
    const ids: number[] = [];
    for (let i = 0; i < 200; i++) {
      ids.push((await enqueueJob(t.deps.db.db, { type: 'test.count', payload: { i } }, clock.now()))!);
    }
    const a = new JobWorker(t.deps, { id: 'A', registry, schedules: [] });
    const b = new JobWorker(otherDeps, { id: 'B', registry, schedules: [] });
    const c = new JobWorker(otherDeps, { id: 'C', registry, schedules: [] });
    const counts = await Promise.all([a.runUntilIdle(), b.runUntilIdle(), c.runUntilIdle()]);
    assert.equal(counts.reduce((x, y) => x + y, 0), 200);
    assert.equal(runs.size, 200);
    assert.ok([...runs.values()].every((n) => n === 1), 'no job ran twice');
    const statuses = await t.deps.db.db.selectFrom('jobs').select('status').where('id', 'in', ids).execute();
    assert.ok(statuses.every((s) => s.status === 'SUCCEEDED'));
    const attempts = await t.deps.db.db.selectFrom('job_attempts').select('job_id').where('job_id', 'in', ids).execute();
    assert.equal(attempts.length, 200);
  });

  it('a recurring schedule enqueues one job per period however many workers check it', async () => {
    const ran: number[] = [];
    const registry = new JobRegistry().register('test.tick', async (_deps, job) => {
      ran.push(job.id);
    });
    const schedules: RecurringJob[] = [{ name: 'tick', type: 'test.tick', everyMs: 3600_000 }];
    const workers = [
      new JobWorker(t.deps, { id: 'S1', registry, schedules }),
      new JobWorker(otherDeps, { id: 'S2', registry, schedules }),
      new JobWorker(otherDeps, { id: 'S3', registry, schedules }),
    ];
    const checkAll = async () => (await Promise.all(workers.flatMap((w) => [w.runSchedules(), w.runSchedules()]))).flat();
    const tickJobs = () => t.deps.db.db.selectFrom('jobs').select(['id', 'status']).where('type', '=', 'test.tick').orderBy('id').execute();

    assert.equal((await checkAll()).length, 1, 'first check: one run');
    assert.equal((await tickJobs()).length, 1);
    clock.advance(30 * 60_000);
    assert.equal((await checkAll()).length, 0, 'not due yet');

    // Due again while the previous run is still PENDING: skipped, not stacked.
    clock.advance(30 * 60_000);
    assert.equal((await checkAll()).length, 0);
    assert.equal((await tickJobs()).length, 1);

    await Promise.all(workers.map((w) => w.runUntilIdle()));
    assert.equal(ran.length, 1);
    clock.advance(3600_000);
    assert.equal((await checkAll()).length, 1);
    await Promise.all(workers.map((w) => w.runUntilIdle()));
    assert.equal(ran.length, 2);
    const jobs = await tickJobs();
    assert.deepEqual(
      jobs.map((j) => j.status),
      ['SUCCEEDED', 'SUCCEEDED'],
    );
    const schedule = await t.deps.db.db.selectFrom('job_schedules').selectAll().where('name', '=', 'tick').executeTakeFirstOrThrow();
    assert.equal(schedule.last_job_id, jobs[1]!.id);
    assert.equal(schedule.next_run_at, new Date(clock.now().getTime() + 3600_000).toISOString());
  });
});
