import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { APPLY_INGESTION_JOB } from '../../src/domain/listings/ingestion-apply.js';
import type { Deps } from '../../src/deps.js';
import type { App } from '../../src/http/types.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { bearer, type SeededAccount } from '../helpers/fixtures.js';
import { crashTestService, exitWithin, takenOverWithin, waitFor, type CrashTestService } from '../helpers/worker-process.js';
import { idOfBegun } from '../helpers/ingestion.js';

/**
 * An automatically applied ingestion whose worker is killed with SIGKILL mid-apply is taken over by a new
 * worker once the dead one's lease runs out (JOB_LEASE_SECONDS, 4 s here; 20 s by default) and goes on from
 * its last committed chunk: every listing applied exactly once, none lost. The workers are real child
 * processes (`src/main.ts worker`); a test-only preload (test/fixtures/crash-after-chunks.ts) kills the first
 * right after its third apply chunk commits. SQLite in a temporary DATA_DIR, or a fresh schema on
 * TEST_DATABASE_URL in the PostgreSQL run.
 */
const LISTINGS = 80;
const CRASH_AFTER_CHUNKS = 3;
const LEASE_SECONDS = 4;

describe('ingestion apply: a worker killed mid-apply is taken over and resumes exactly', { timeout: 300_000 }, () => {
  let service: CrashTestService;
  let deps: Deps;
  let app: App;
  let seed: SeededAccount;

  before(async () => {
    service = await crashTestService('ingcrash', { JOB_LEASE_SECONDS: String(LEASE_SECONDS) });
    ({ deps, app, seed } = service);
  });
  after(async () => {
    await service?.close();
  });

  const push = async (step: string, payload: object) => {
    const res = await app.inject({ method: 'POST', url: `/v2/storefront/listing/ingestion/${step}`, headers: bearer(seed.channel.token), payload });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Record<string, string>;
  };
  const session = (id: number) => deps.db.db.selectFrom('ingestion_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const admin = async (url: string) => {
    const res = await app.inject({ url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { status: string; progress: { applied: number; total: number } | null; summary: { listingsToCreate: number } };
  };

  it('SIGKILL after an apply chunk commit; the lease runs out; a new worker applies the rest, each listing once', async () => {
    const id = await idOfBegun({ deps }, push('begin', { expectedNumListings: LISTINGS, autoApplyIngestionPlan: true }));
    for (let i = 0; i < LISTINGS; i++) {
      await push('request', { id: `CRASH-G${i}`, variants: [{ sku: `CRASH-${i}-A` }, { sku: `CRASH-${i}-B` }] });
    }
    await push('end', { actualNumListings: LISTINGS });

    // 1. The worker plans, starts applying, and dies right after its third apply chunk commits.
    const statement = '^update "ingestion_sessions" set "apply_after_id"';
    const crashing = service.startWorker([], { afterChunks: CRASH_AFTER_CHUNKS, chunkStatement: statement });
    const crash = await exitWithin(crashing, 120_000);
    assert.equal(crash.signal, 'SIGKILL', crash.output);
    assert.match(crash.output, /SIGKILL after chunk commit 3/);

    const interrupted = await session(id);
    assert.equal(interrupted.status, 'APPLYING');
    assert.equal(interrupted.apply_total, LISTINGS);
    assert.ok(interrupted.apply_done >= CRASH_AFTER_CHUNKS && interrupted.apply_done < LISTINGS, `applied ${interrupted.apply_done}`);
    const midway = await admin(`/admin/accounts/${seed.accountId}/ingestions/${id}`);
    assert.equal(midway.status, 'APPLYING');
    assert.deepEqual(midway.progress, { applied: interrupted.apply_done, total: LISTINGS });
    // What is committed is exactly the checkpoint's listings.
    const partial = await deps.db.db.selectFrom('listings').select('sku').where('account_id', '=', seed.accountId).execute();
    assert.equal(partial.length, interrupted.apply_done);
    const job = await deps.db.db.selectFrom('jobs').selectAll().where('type', '=', APPLY_INGESTION_JOB).executeTakeFirstOrThrow();
    assert.equal(job.status, 'RUNNING', 'the dead worker still holds the lease');

    // 2. A new worker starts at once; it takes the job over when the lease runs out, within 30 s.
    const resumed = service.startWorker([], null);
    assert.ok((await takenOverWithin(deps, job.id, 30_000)) < 30_000);
    const applied = await waitFor('the ingestion to be APPLIED', 120_000, async () => {
      const row = await session(id);
      return row.status === 'APPLIED' ? row : undefined;
    });
    resumed.child.kill('SIGTERM');
    await exitWithin(resumed, 30_000);

    assert.equal(applied.apply_done, LISTINGS);
    const listings = await deps.db.db.selectFrom('listings').select('sku').where('account_id', '=', seed.accountId).orderBy('sku').execute();
    assert.equal(listings.length, LISTINGS, 'no listing lost or applied twice');
    assert.equal(new Set(listings.map((l) => l.sku)).size, LISTINGS);
    const variants = await deps.db.db.selectFrom('listing_variants').select(['sku', 'channel_id']).where('account_id', '=', seed.accountId).execute();
    assert.equal(variants.length, LISTINGS * 2);
    assert.ok(variants.every((v) => v.channel_id === v.sku));
    const view = await admin(`/admin/accounts/${seed.accountId}/ingestions/${id}`);
    assert.equal(view.status, 'APPLIED');
    assert.deepEqual(view.progress, { applied: LISTINGS, total: LISTINGS });
    assert.equal(view.summary.listingsToCreate, LISTINGS);
    const finished = await deps.db.db.selectFrom('jobs').select(['status', 'attempts']).where('id', '=', job.id).executeTakeFirstOrThrow();
    assert.deepEqual(finished, { status: 'SUCCEEDED', attempts: 2 });
  });
});
