import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createListingViaAdmin, sampleListing } from '../helpers/listings.js';
import { PLAN_PAGE_LISTINGS } from '../../src/domain/listings/ingestion-planning.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin, assertV1Error } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { idOfBegun } from '../helpers/ingestion.js';

interface Conflict {
  type: string;
  sku?: string;
  externalId?: string;
}
interface Detail {
  status: string;
  error: string | null;
  progress: { applied: number; total: number } | null;
  summary: Record<string, number> | null;
  plan: { listings: { externalId: string; action: string; listingId: number | null }[]; conflicts: Conflict[]; summary: Record<string, number> } | null;
}

/**
 * Ingestion plans apply in checkpointed chunks (issue 22): the seller's request applies for up to
 * INGESTION_APPLY_WAIT_MS (0 here, so every apply goes on in the background) and answers 202 APPLYING with its
 * progress; the `ingestion.apply` job applies the rest, each listing once; the plan is built page by page
 * and finds the same duplicates as one built at once.
 */
describe('operator API: ingestion plans apply in chunks', () => {
  let t: TestApp;
  let seed: SeededAccount;
  const clock = manualClock(new Date('2026-07-01T08:00:00.000Z'));

  const push = async (path: string, payload: unknown) => {
    const res = await t.app.inject({ method: 'POST', url: `/v2/storefront/listing/ingestion/${path}`, headers: bearer(seed.channel.token), payload: payload as object });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Record<string, unknown>;
  };
  const url = (id: number, suffix = '') => `/admin/accounts/${seed.accountId}/ingestions/${id}${suffix}`;
  const detail = async (id: number): Promise<Detail> => {
    const res = await admin(t, 'GET', url(id));
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Detail;
  };
  const runJobs = () => new JobWorker(t.deps, { id: 'apply-chunks-test', schedules: [] }).runUntilIdle();
  /** Pushes `count` listings of two variants each (`dupOf(i)`: the index whose first variant listing i repeats). */
  const ingest = async (prefix: string, count: number, autoApply: boolean, dupOf: (i: number) => number | null = () => null) => {
    const id = await idOfBegun(t, push('begin', { expectedNumListings: count, autoApplyIngestionPlan: autoApply }));
    for (let i = 0; i < count; i++) {
      const dup = dupOf(i);
      const variants = [{ sku: `${prefix}-${i}-A` }, { sku: dup === null ? `${prefix}-${i}-B` : `${prefix}-${dup}-A` }];
      await push('request', { id: `${prefix}-G${i}`, variants });
    }
    await push('end', { actualNumListings: count });
    return id;
  };
  const listingSkus = async (prefix: string) =>
    (await t.deps.db.db.selectFrom('listings').select('sku').where('sku', 'like', `${prefix}-%`).execute()).map((r) => r.sku);

  before(async () => {
    t = await createTestApp({ clock, config: { ingestionApplyWaitMs: 0 } });
    seed = await seedAccount(t);
  });
  after(async () => {
    await t.close();
  });

  it('answers 202 APPLYING with progress, refuses a second apply and a discard, and the job applies each listing once', async () => {
    const id = await ingest('BIG', 40, false);
    await runJobs();
    assert.equal((await detail(id)).status, 'PLANNED');
    assert.equal((await detail(id)).progress, null);

    const res = await admin(t, 'POST', url(id, '/apply'));
    assert.equal(res.statusCode, 202, res.body);
    const started = res.json() as Detail;
    assert.equal(started.status, 'APPLYING');
    assert.equal(started.progress!.total, 40);
    assert.ok(started.progress!.applied >= 1 && started.progress!.applied < 40, JSON.stringify(started.progress));
    assert.equal((await listingSkus('BIG')).length, started.progress!.applied, 'what progress says is what exists');

    assertV1Error(await admin(t, 'POST', url(id, '/apply')), 409, /already being applied \(\d+ of 40 listings/);
    assertV1Error(await admin(t, 'POST', url(id, '/discard')), 409, /APPLYING/);

    // The apply job is due a second after the request's wait; the worker applies the rest.
    clock.advance(1500);
    assert.equal(await runJobs(), 1);
    const done = await detail(id);
    assert.equal(done.status, 'APPLIED', done.error ?? '');
    assert.deepEqual(done.progress, { applied: 40, total: 40 });
    assert.equal(done.summary!.listingsToCreate, 40);
    assert.equal(done.plan!.listings.length, 40);
    assert.ok(done.plan!.listings.every((l) => l.action === 'CREATE' && typeof l.listingId === 'number'));
    const skus = await listingSkus('BIG');
    assert.equal(skus.length, 40);
    assert.equal(new Set(skus).size, 40);
    const variants = await t.deps.db.db.selectFrom('listing_variants').select('sku').where('sku', 'like', 'BIG-%').execute();
    assert.equal(variants.length, 80);
    assertV1Error(await admin(t, 'POST', url(id, '/apply')), 409, /already applied/);
  });

  it('lets exactly one of two parallel applies start it', async () => {
    const id = await ingest('PAR', 6, false);
    await runJobs();
    const results = await Promise.all([admin(t, 'POST', url(id, '/apply')), admin(t, 'POST', url(id, '/apply'))]);
    const codes = results.map((r) => r.statusCode).sort();
    assert.equal(codes.filter((c) => c === 409).length, 1, results.map((r) => r.body).join('\n'));
    clock.advance(1500);
    await runJobs();
    assert.equal((await detail(id)).status, 'APPLIED');
    assert.equal((await listingSkus('PAR')).length, 6);
  });

  it('re-plans each chunk: a SKU the seller lists while the plan applies is skipped, not applied twice', async () => {
    const id = await ingest('RACE', 30, false);
    await runJobs();
    const res = await admin(t, 'POST', url(id, '/apply'));
    assert.equal(res.statusCode, 202, res.body);
    const applied = (res.json() as Detail).progress!.applied;
    assert.ok(applied < 29, `applied ${applied}`);
    // Meanwhile the seller lists the last pushed listing's first variant on another listing of the storefront.
    await createListingViaAdmin(t, seed, sampleListing('SELLER-OWN', ['RACE-29-A']));
    clock.advance(1500);
    await runJobs();
    const done = await detail(id);
    assert.equal(done.status, 'APPLIED', done.error ?? '');
    const last = done.plan!.listings.find((l) => l.externalId === 'RACE-G29')!;
    assert.equal(last.action, 'CREATE');
    assert.ok(done.plan!.conflicts.some((c) => c.type === 'SKU_LISTED_ELSEWHERE' && c.sku === 'RACE-29-A'));
    assert.equal(done.summary!.variantsSkipped, 1);
    const owners = await t.deps.db.db.selectFrom('listing_variants').select('listing_id').where('sku', '=', 'RACE-29-A').execute();
    assert.equal(owners.length, 1, 'the variant stays on the seller’s listing only');
  });

  it('plans page by page with the same duplicates as one pass, and applies them once (auto-apply)', async () => {
    const count = PLAN_PAGE_LISTINGS + 15;
    // Listing i (past the first page) repeats the first variant of listing i - PLAN_PAGE_LISTINGS + 5: a duplicate across pages.
    const id = await ingest('PAGE', count, true, (i) => (i >= PLAN_PAGE_LISTINGS ? i - PLAN_PAGE_LISTINGS + 5 : null));
    await runJobs();
    const done = await detail(id);
    assert.equal(done.status, 'APPLIED', done.error ?? '');
    const duplicates = done.plan!.conflicts.filter((c) => c.type === 'DUPLICATE_SKU_IN_INGESTION');
    assert.equal(duplicates.length, 15);
    assert.deepEqual(duplicates[0], {
      type: 'DUPLICATE_SKU_IN_INGESTION',
      sku: 'PAGE-5-A',
      externalId: `PAGE-G${PLAN_PAGE_LISTINGS}`,
      message: `variant PAGE-5-A was also pushed in ingestion listing PAGE-G5, which keeps it; skipped here`,
    });
    assert.equal(done.summary!.variants, count * 2);
    assert.equal(done.summary!.variantsSkipped, 15);
    assert.equal(done.summary!.variantsToAdd, count * 2 - 15);
    const owner = await t.deps.db.db
      .selectFrom('listing_variants as v')
      .innerJoin('listings as l', 'l.id', 'v.listing_id')
      .select('l.sku')
      .where('v.sku', '=', 'PAGE-5-A')
      .execute();
    assert.deepEqual(owner, [{ sku: 'PAGE-G5' }]);
  });
});
