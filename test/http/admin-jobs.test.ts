import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enqueueJob } from '../../src/db/outbox.js';
import { JobRegistry } from '../../src/jobs/registry.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin, assertV1Error } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

interface JobBody {
  jobId: number;
  accountId: number | null;
  type: string;
  payload: unknown;
  status: string;
  attempts: number;
  maxAttempts: number;
  runAt: string;
  lastError: string | null;
  finishedAt: string | null;
  attemptLog?: { attempt: number; outcome: string; error: string | null; worker: string }[];
}
interface ListBody {
  results: JobBody[];
  nextCursor: string;
}

describe('operator API: background jobs', () => {
  let t: TestApp;
  const clock = manualClock(new Date('2026-06-01T08:00:00.000Z'));
  const ids: Record<string, number> = {};
  let deadId: number;

  const list = async (query = '') => {
    const res = await admin(t, 'GET', `/admin/jobs${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as ListBody;
  };
  const snapshot = () => t.deps.db.db.selectFrom('jobs').selectAll().orderBy('id').execute();

  before(async () => {
    t = await createTestApp({ clock });
    const now = clock.now();
    const add = async (type: string, accountId: number | null, payload: unknown, maxAttempts?: number) =>
      (await enqueueJob(t.deps.db.db, { type, payload, accountId, ...(maxAttempts ? { maxAttempts } : {}) }, now))!;
    ids.a1 = await add('test.ok', 1, { n: 1 });
    ids.a2 = await add('test.ok', 2, { n: 2 });
    ids.fail = await add('test.fail', 1, { n: 3 }, 1);
    ids.ok = await add('test.ok', null, { n: 4 });
    ids.pending = await add('test.later', 1, { n: 5 });
    // Run everything except test.later; test.fail dies on its only attempt.
    const registry = new JobRegistry()
      .register('test.ok', async () => {})
      .register('test.fail', async () => {
        throw new Error('carrier API said no');
      });
    await t.deps.db.db.updateTable('jobs').set({ run_at: '2099-01-01T00:00:00.000Z' }).where('id', '=', ids.pending).execute();
    await new JobWorker(t.deps, { id: 'admin-test', registry, schedules: [] }).runUntilIdle();
    deadId = ids.fail!;
  });
  after(async () => {
    await t.close();
  });

  it('answers 401 without the operator token on every route, changing nothing', async () => {
    const before = await snapshot();
    for (const [method, url] of [
      ['GET', '/admin/jobs'],
      ['GET', `/admin/jobs/${deadId}`],
      ['POST', `/admin/jobs/${deadId}/retry`],
    ] as const) {
      assertV1Error(await t.app.inject({ method, url }), 401);
      assertV1Error(await t.app.inject({ method, url, headers: { authorization: 'Bearer wrong-token-0123456789' } }), 401);
    }
    assert.deepEqual(await snapshot(), before);
  });

  it('lists jobs newest first with every field', async () => {
    const body = await list();
    assert.deepEqual(
      body.results.map((j) => j.jobId),
      [ids.pending, ids.ok, ids.fail, ids.a2, ids.a1],
    );
    assert.equal(body.nextCursor, '');
    const dead = body.results.find((j) => j.jobId === deadId)!;
    assert.deepEqual(
      { ...dead, lastError: dead.lastError?.split('\n')[0] },
      {
        jobId: deadId,
        accountId: 1,
        type: 'test.fail',
        payload: { n: 3 },
        status: 'DEAD',
        attempts: 1,
        maxAttempts: 1,
        runAt: '2026-06-01T08:00:00.000Z',
        leaseOwner: null,
        leaseExpiresAt: null,
        lastError: 'Error: carrier API said no',
        dedupeKey: null,
        createdAt: '2026-06-01T08:00:00.000Z',
        updatedAt: '2026-06-01T08:00:00.000Z',
        finishedAt: '2026-06-01T08:00:00.000Z',
      },
    );
    assert.equal(body.results.find((j) => j.jobId === ids.ok)!.accountId, null);
  });

  it('filters by status, type and account, combined', async () => {
    assert.deepEqual(
      (await list('?status=DEAD')).results.map((j) => j.jobId),
      [deadId],
    );
    assert.deepEqual(
      (await list('?status=PENDING')).results.map((j) => j.jobId),
      [ids.pending],
    );
    assert.deepEqual(
      (await list('?type=test.ok')).results.map((j) => j.jobId),
      [ids.ok, ids.a2, ids.a1],
    );
    assert.deepEqual(
      (await list('?accountId=1')).results.map((j) => j.jobId),
      [ids.pending, ids.fail, ids.a1],
    );
    assert.deepEqual(
      (await list('?accountId=1&status=SUCCEEDED&type=test.ok')).results.map((j) => j.jobId),
      [ids.a1],
    );
    assert.deepEqual((await list('?accountId=999')).results, []);
  });

  it('pages with a signed cursor until nextCursor is empty', async () => {
    const seen: number[] = [];
    let cursor = '';
    let pages = 0;
    do {
      const body = await list(`?pageSize=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.ok(body.results.length <= 2);
      seen.push(...body.results.map((j) => j.jobId));
      cursor = body.nextCursor;
      pages++;
    } while (cursor !== '');
    assert.equal(pages, 3);
    assert.deepEqual(seen, [ids.pending, ids.ok, ids.fail, ids.a2, ids.a1]);
    // Filters repeated on the next page narrow it as well.
    const first = await list('?pageSize=1&accountId=1');
    const second = await list(`?pageSize=1&accountId=1&cursor=${encodeURIComponent(first.nextCursor)}`);
    assert.deepEqual(second.results.map((j) => j.jobId), [ids.fail]);
  });

  it('answers 400 on a bad filter, page size or cursor', async () => {
    assertV1Error(await admin(t, 'GET', '/admin/jobs?status=FAILED'), 400, /status/);
    assertV1Error(await admin(t, 'GET', '/admin/jobs?accountId=abc'), 400, /accountId/);
    assertV1Error(await admin(t, 'GET', '/admin/jobs?accountId=0'), 400, /accountId/);
    assertV1Error(await admin(t, 'GET', '/admin/jobs?pageSize=0'), 400, /pageSize/);
    assertV1Error(await admin(t, 'GET', '/admin/jobs?pageSize=501'), 400, /pageSize/);
    assertV1Error(await admin(t, 'GET', '/admin/jobs?cursor=not-a-cursor'), 400, /cursor/);
    const page = await list('?pageSize=1');
    const tampered = `${page.nextCursor.slice(0, -2)}xx`;
    assertV1Error(await admin(t, 'GET', `/admin/jobs?cursor=${encodeURIComponent(tampered)}`), 400, /cursor/);
  });

  it('gets one job with its attempt log; 404 for an unknown id, 400 for a malformed one', async () => {
    const res = await admin(t, 'GET', `/admin/jobs/${deadId}`);
    assert.equal(res.statusCode, 200, res.body);
    const job = res.json() as JobBody;
    assert.equal(job.status, 'DEAD');
    assert.equal(job.attemptLog!.length, 1);
    assert.equal(job.attemptLog![0]!.attempt, 1);
    assert.equal(job.attemptLog![0]!.outcome, 'FAILED');
    assert.equal(job.attemptLog![0]!.worker, 'admin-test');
    assert.match(job.attemptLog![0]!.error!, /carrier API said no/);
    assertV1Error(await admin(t, 'GET', '/admin/jobs/999999'), 404, /job 999999 not found/);
    assertV1Error(await admin(t, 'GET', '/admin/jobs/abc'), 400, /jobId/);
  });

  it('retry: 409 for a job that is not DEAD and 404 for an unknown one, changing nothing', async () => {
    const before = await snapshot();
    assertV1Error(await admin(t, 'POST', `/admin/jobs/${ids.ok}/retry`), 409, /SUCCEEDED; only a DEAD job can be retried/);
    assertV1Error(await admin(t, 'POST', `/admin/jobs/${ids.pending}/retry`), 409, /PENDING/);
    assertV1Error(await admin(t, 'POST', '/admin/jobs/999999/retry'), 404);
    assertV1Error(await admin(t, 'POST', '/admin/jobs/0/retry'), 400, /jobId/);
    assert.deepEqual(await snapshot(), before);
  });

  it('retry puts a DEAD job back to PENDING now, and a worker runs it', async () => {
    clock.advance(60_000);
    const res = await admin(t, 'POST', `/admin/jobs/${deadId}/retry`);
    assert.equal(res.statusCode, 200, res.body);
    const job = res.json() as JobBody;
    assert.equal(job.status, 'PENDING');
    assert.equal(job.attempts, 0);
    assert.equal(job.runAt, clock.now().toISOString());
    assert.equal(job.finishedAt, null);
    assert.equal(job.attemptLog!.length, 1, 'the history stays');
    assertV1Error(await admin(t, 'POST', `/admin/jobs/${deadId}/retry`), 409, /PENDING/);

    const registry = new JobRegistry().register('test.fail', async () => {});
    assert.equal(await new JobWorker(t.deps, { id: 'second', registry, schedules: [] }).runUntilIdle(), 1);
    const after = (await admin(t, 'GET', `/admin/jobs/${deadId}`)).json() as JobBody;
    assert.equal(after.status, 'SUCCEEDED');
    assert.deepEqual(
      after.attemptLog!.map((a) => [a.attempt, a.outcome, a.worker]),
      [
        [1, 'FAILED', 'admin-test'],
        [1, 'SUCCEEDED', 'second'],
      ],
    );
  });

  it('documents every status of the three routes in the OpenAPI document, tagged admin', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { tags: string[]; responses: Record<string, unknown> }>>;
    };
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path]![method]!.responses).sort();
    assert.deepEqual(statuses('/admin/jobs', 'get'), ['200', '400', '401', '500', '503']);
    assert.deepEqual(statuses('/admin/jobs/{jobId}', 'get'), ['200', '400', '401', '404', '500', '503']);
    assert.deepEqual(statuses('/admin/jobs/{jobId}/retry', 'post'), ['200', '400', '401', '404', '409', '500', '503']);
    assert.deepEqual(doc.paths['/admin/jobs']!.get!.tags, ['admin: jobs']);
  });
});
