import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deleteExpiredIdempotencyKeys, IDEMPOTENCY_SWEEP } from '../../src/jobs/handlers/idempotency-sweep.js';
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
    const [first] = await w.runSchedules();
    assert.ok(first);
    const job = await t.deps.db.db.selectFrom('jobs').selectAll().where('id', '=', first).executeTakeFirstOrThrow();
    assert.equal(job.type, IDEMPOTENCY_SWEEP);
    assert.equal(job.account_id, null);
    assert.equal(await w.runUntilIdle(), 1);
    clock.advance(2);
    // The key valid until now + 1 ms has expired meanwhile; the hourly run comes an hour later.
    assert.deepEqual(await w.runSchedules(), []);
    clock.advance(3600_000);
    assert.equal((await w.runSchedules()).length, 1);
    assert.equal(await w.runUntilIdle(), 1);
    assert.deepEqual(await keyNames(), ['valid-tomorrow']);
    const statuses = await t.deps.db.db.selectFrom('jobs').select('status').where('type', '=', IDEMPOTENCY_SWEEP).execute();
    assert.deepEqual(
      statuses.map((s) => s.status),
      ['SUCCEEDED', 'SUCCEEDED'],
    );
  });
});
