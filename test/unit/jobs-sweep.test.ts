import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deleteExpiredIdempotencyKeys, IDEMPOTENCY_SWEEP } from '../../src/jobs/handlers/idempotency-sweep.js';
import { deleteFinishedJobs, JOB_RETENTION_SWEEP } from '../../src/jobs/handlers/job-retention-sweep.js';
import { REPORT_RETENTION_SWEEP } from '../../src/jobs/handlers/report-retention-sweep.js';
import { RECURRING_JOBS } from '../../src/jobs/schedules.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('idempotency.sweep job', () => {
  let t: TestApp;
  const clock = manualClock(new Date('2026-05-01T12:00:00.000Z'));

  const key = (tokenId: number, name: string, expiresAt: Date) => ({
    token_id: tokenId,
    idem_key: name,
    account_id: 1,
    request_hash: 'h',
    state: 'COMPLETE',
    status_code: 200,
    response_body: '{}',
    content_type: 'application/json',
    created_at: new Date(expiresAt.getTime() - 86_400_000).toISOString(),
    expires_at: expiresAt.toISOString(),
  });
  const keyNames = async () =>
    (await t.deps.db.db.selectFrom('idempotency_keys').select('idem_key').orderBy('idem_key').execute()).map((r) => r.idem_key);

  before(async () => {
    t = await createTestApp({ clock });
  });
  after(async () => {
    await t.close();
  });

  it('deletes only the keys whose expiry has passed', async () => {
    const now = clock.now().getTime();
    await t.deps.db.db
      .insertInto('idempotency_keys')
      .values([
        key(1, 'expired-long-ago', new Date(now - 3600_000)),
        key(2, 'expired-just-now', new Date(now)),
        key(1, 'still-valid', new Date(now + 1)),
        key(2, 'valid-tomorrow', new Date(now + 86_400_000)),
      ])
      .execute();
    assert.equal(await deleteExpiredIdempotencyKeys(t.deps.db.db, clock.now()), 2);
    assert.deepEqual(await keyNames(), ['still-valid', 'valid-tomorrow']);
    assert.equal(await deleteExpiredIdempotencyKeys(t.deps.db.db, clock.now()), 0);
  });

  it('deletes in batches until none is left', async () => {
    const past = new Date(clock.now().getTime() - 1000);
    const rows = Array.from({ length: 2345 }, (_, i) => key(3, `bulk-${String(i).padStart(5, '0')}`, past));
    for (let i = 0; i < rows.length; i += 500) {
      await t.deps.db.db.insertInto('idempotency_keys').values(rows.slice(i, i + 500)).execute();
    }
    assert.equal(await deleteExpiredIdempotencyKeys(t.deps.db.db, clock.now()), 2345);
    assert.deepEqual(await keyNames(), ['still-valid', 'valid-tomorrow']);
  });

  it('the default worker schedules it hourly and it runs the sweep', async () => {
    const w = new JobWorker(t.deps, { id: 'sweeper' });
    const scheduled = await w.runSchedules();
    const jobs = await t.deps.db.db.selectFrom('jobs').selectAll().where('id', 'in', scheduled).orderBy('id').execute();
    assert.deepEqual(
      jobs.map((j) => [j.type, j.account_id]),
      RECURRING_JOBS.map((j) => [j.type, null]),
    );
    // The idempotency sweep is one of them, with the others (job and report retention, …).
    assert.deepEqual(jobs.slice(0, 3).map((j) => j.type), [IDEMPOTENCY_SWEEP, JOB_RETENTION_SWEEP, REPORT_RETENTION_SWEEP]);
    assert.equal(await w.runUntilIdle(), RECURRING_JOBS.length);
    clock.advance(2);
    // The key valid until now + 1 ms has expired meanwhile; the hourly runs come an hour later.
    assert.deepEqual(await w.runSchedules(), []);
    clock.advance(3600_000);
    assert.equal((await w.runSchedules()).length, RECURRING_JOBS.length);
    assert.equal(await w.runUntilIdle(), RECURRING_JOBS.length);
    assert.deepEqual(await keyNames(), ['valid-tomorrow']);
    const statuses = await t.deps.db.db.selectFrom('jobs').select('status').where('type', '=', IDEMPOTENCY_SWEEP).execute();
    assert.deepEqual(
      statuses.map((s) => s.status),
      ['SUCCEEDED', 'SUCCEEDED'],
    );
  });
});

describe('jobs.retention-sweep job', () => {
  let t: TestApp;
  const clock = manualClock(new Date('2026-05-01T12:00:00.000Z'));
  const DAY = 86_400_000;

  /** A job row finished `daysAgo` days ago with the given status, and one attempt row. */
  async function job(type: string, status: string, daysAgo: number | null): Promise<number> {
    const at = daysAgo === null ? null : new Date(clock.now().getTime() - daysAgo * DAY).toISOString();
    const iso = clock.now().toISOString();
    // Open work that no worker of this test picks up (its type has no handler).
    const farFuture = new Date(clock.now().getTime() + 365 * DAY).toISOString();
    const row = await t.deps.db.db
      .insertInto('jobs')
      .values({ account_id: null, type, payload: '{}', status, attempts: 1, max_attempts: 3, run_at: status === 'PENDING' ? farFuture : iso, lease_owner: null, lease_expires_at: null, last_error: null, dedupe_key: null, created_at: iso, updated_at: iso, finished_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.deps.db.db
      .insertInto('job_attempts')
      .values({ account_id: null, job_id: row.id, attempt: 1, worker: 'w', outcome: status === 'DEAD' ? 'FAILED' : 'SUCCEEDED', error: null, started_at: iso, finished_at: at ?? iso })
      .execute();
    return Number(row.id);
  }
  const left = async () => (await t.deps.db.db.selectFrom('jobs').select('type').where('type', 'like', 'test.%').orderBy('id').execute()).map((r) => r.type);

  before(async () => {
    t = await createTestApp({ clock });
  });
  after(async () => {
    await t.close();
  });

  it('deletes SUCCEEDED jobs (with their attempts) finished before the cutoff; keeps DEAD, recent and open work', async () => {
    const old = await job('test.old-succeeded', 'SUCCEEDED', 8);
    await job('test.recent-succeeded', 'SUCCEEDED', 6);
    await job('test.old-dead', 'DEAD', 30);
    await job('test.pending', 'PENDING', null);
    const cutoff = new Date(clock.now().getTime() - 7 * DAY);
    assert.equal(await deleteFinishedJobs(t.deps.db.db, cutoff), 1);
    assert.deepEqual(await left(), ['test.recent-succeeded', 'test.old-dead', 'test.pending']);
    const attempts = await t.deps.db.db.selectFrom('job_attempts').select('id').where('job_id', '=', old).execute();
    assert.deepEqual(attempts, []);
    assert.equal(await deleteFinishedJobs(t.deps.db.db, cutoff), 0);
  });

  it('deletes in batches until none is left', async () => {
    for (let i = 0; i < 1203; i++) await job('test.bulk', 'SUCCEEDED', 10);
    assert.equal(await deleteFinishedJobs(t.deps.db.db, new Date(clock.now().getTime() - 7 * DAY)), 1203);
    assert.equal((await left()).filter((x) => x === 'test.bulk').length, 0);
  });

  it('the scheduled run keeps JOB_RETENTION_DAYS days (default 7)', async () => {
    await job('test.nine-days', 'SUCCEEDED', 9);
    const w = new JobWorker(t.deps, { id: 'retention', schedules: [{ name: JOB_RETENTION_SWEEP, type: JOB_RETENTION_SWEEP, everyMs: 3600_000 }] });
    assert.equal(t.deps.config.jobRetentionDays, 7);
    assert.equal((await w.runSchedules()).length, 1);
    assert.equal(await w.runUntilIdle(), 1);
    assert.equal((await left()).includes('test.nine-days'), false);
  });
});
