import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { JobWorker } from '../../src/jobs/worker.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin, assertV1Error } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createListingViaAdmin, sampleListing } from '../helpers/listings.js';
import { idOfBegun } from '../helpers/ingestion.js';

interface Conflict {
  type: string;
  sku?: string;
  externalId?: string;
  message: string;
}
interface Detail {
  ingestionId: number;
  storefrontId: number;
  status: string;
  expectedNumListings: number;
  actualNumListings: number | null;
  receivedCount: number;
  autoApplyIngestionPlan: boolean;
  error: string | null;
  summary: Record<string, number> | null;
  appliedAt: string | null;
  plan: {
    listings: {
      externalId: string;
      action: string;
      listingId: number | null;
      variants: { sku: string; action: string; productExists: boolean; onListing: boolean; channelId: string }[];
      conflicts: Conflict[];
    }[];
    conflicts: Conflict[];
    summary: Record<string, number>;
  } | null;
}

describe('operator API: ingestions', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  const clock = manualClock(new Date('2026-06-01T08:00:00.000Z'));
  let planned: number;
  let existId: string;
  let otherListingId: string;

  const push = async (path: string, payload: unknown, token = seed.channel.token) => {
    const res = await t.app.inject({ method: 'POST', url: `/v2/storefront/listing/ingestion/${path}`, headers: bearer(token), payload: payload as object });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Record<string, unknown>;
  };
  const url = (id: number | string, suffix = '', accountId = seed.accountId) => `/admin/accounts/${accountId}/ingestions/${id}${suffix}`;
  const detail = async (id: number): Promise<Detail> => {
    const res = await admin(t, 'GET', url(id));
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Detail;
  };
  const snapshot = async () => ({
    sessions: await t.deps.db.db.selectFrom('ingestion_sessions').selectAll().orderBy('id').execute(),
    listings: await t.deps.db.db.selectFrom('listings').selectAll().orderBy('id').execute(),
    variants: await t.deps.db.db.selectFrom('listing_variants').selectAll().orderBy('id').execute(),
    products: await t.deps.db.db.selectFrom('products').select(['id', 'sku']).orderBy('id').execute(),
  });
  const runJobs = () => new JobWorker(t.deps, { id: 'admin-ingestion-test', schedules: [] }).runUntilIdle();
  const variantsOf = async (sku: string) =>
    t.deps.db.db
      .selectFrom('listing_variants as v')
      .innerJoin('listings as l', 'l.id', 'v.listing_id')
      .select(['v.sku', 'v.channel_id'])
      .where('l.sku', '=', sku)
      .orderBy('v.position')
      .execute();

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other seller');
    existId = (await createListingViaAdmin(t, seed, sampleListing('EXIST', ['X1', 'X2']))).id;
    otherListingId = (await createListingViaAdmin(t, seed, sampleListing('OTHER', ['Y']))).id;

    planned = await idOfBegun(t, push('begin', { expectedNumListings: 3, autoApplyIngestionPlan: false }));
    await push('request', { id: 'EXIST', variants: [{ sku: 'X1' }, { sku: 'X3', price: { currencyCode: 'USD', units: '3' } }] });
    await push('request', { id: 'NEWG', variants: [{ sku: 'Y' }, { sku: 'Z' }] });
    await push('request', { id: 'DUP', variants: [{ sku: 'Z' }] });
    await push('request', { id: 'NEWH', variants: [{ sku: 'W' }] });
    await push('end', { actualNumListings: 5 });
  });
  after(async () => {
    await t.close();
  });

  it('answers 401 without the operator token, changing nothing', async () => {
    const before = await snapshot();
    for (const [method, path] of [
      ['GET', `/admin/accounts/${seed.accountId}/ingestions`],
      ['GET', url(planned)],
      ['POST', url(planned, '/apply')],
      ['POST', url(planned, '/discard')],
    ] as const) {
      assertV1Error(await t.app.inject({ method, url: path }), 401);
    }
    assert.deepEqual(await snapshot(), before);
  });

  it('refuses to apply before the plan is built', async () => {
    const before = await snapshot();
    assertV1Error(await admin(t, 'POST', url(planned, '/apply')), 409, /still being built/);
    assert.deepEqual(await snapshot(), before);
  });

  it('builds the plan without applying it when autoApplyIngestionPlan was false', async () => {
    const before = await snapshot();
    assert.equal(await runJobs(), 1);
    const after = await snapshot();
    assert.deepEqual(after.listings, before.listings);
    assert.deepEqual(after.variants, before.variants);
    assert.deepEqual(after.products, before.products);

    const body = await detail(planned);
    assert.equal(body.status, 'PLANNED');
    assert.equal(body.expectedNumListings, 3);
    assert.equal(body.actualNumListings, 5);
    assert.equal(body.receivedCount, 4);
    assert.equal(body.autoApplyIngestionPlan, false);
    assert.equal(body.error, null);
    assert.equal(body.appliedAt, null);
    const plan = body.plan!;
    assert.deepEqual(
      plan.listings.map((l) => [l.externalId, l.action, l.listingId]),
      [
        ['EXIST', 'UPDATE', Number(existId)],
        ['NEWG', 'CREATE', null],
        ['DUP', 'SKIP', null],
        ['NEWH', 'CREATE', null],
      ],
    );
    assert.deepEqual(plan.listings[0]!.variants, [
      { sku: 'X1', action: 'MATCH', productExists: true, onListing: true, channelId: 'X1' },
      { sku: 'X3', action: 'CREATE_PRODUCT', productExists: false, onListing: false, channelId: 'X3' },
    ]);
    assert.deepEqual(
      plan.conflicts.map((c) => [c.type, c.sku ?? null, c.externalId ?? null]),
      [
        ['COUNT_MISMATCH', null, null],
        ['EXPECTED_COUNT_MISMATCH', null, null],
        ['SKU_LISTED_ELSEWHERE', 'Y', 'NEWG'],
        ['DUPLICATE_SKU_IN_INGESTION', 'Z', 'DUP'],
        ['NO_VARIANTS_LEFT', null, 'DUP'],
      ],
    );
    assert.match(plan.conflicts[2]!.message, new RegExp(`listing OTHER \\(id ${otherListingId}\\)`));
    assert.deepEqual(body.summary, plan.summary);
    assert.deepEqual(plan.summary, {
      listings: 4,
      listingsToCreate: 2,
      listingsToUpdate: 1,
      listingsSkipped: 1,
      variants: 6,
      variantsToAdd: 3,
      variantsToAttach: 1,
      variantsSkipped: 2,
      productsToCreate: 3,
      conflicts: 5,
    });
  });

  it('lists ingestions newest first, by storefront, in pages', async () => {
    const second = await idOfBegun(t, push('begin', { expectedNumListings: 0 }));
    const res = await admin(t, 'GET', `/admin/accounts/${seed.accountId}/ingestions?pageSize=1`);
    assert.equal(res.statusCode, 200, res.body);
    const page1 = res.json() as { results: Detail[]; nextCursor: string };
    assert.deepEqual(
      page1.results.map((r) => [r.ingestionId, r.status, r.storefrontId]),
      [[second, 'OPEN', seed.channel.installationId]],
    );
    assert.equal('plan' in page1.results[0]!, false);
    assert.notEqual(page1.nextCursor, '');
    const res2 = await admin(t, 'GET', `/admin/accounts/${seed.accountId}/ingestions?pageSize=1&cursor=${encodeURIComponent(page1.nextCursor)}`);
    const page2 = res2.json() as { results: Detail[]; nextCursor: string };
    assert.deepEqual(
      page2.results.map((r) => [r.ingestionId, r.status, r.summary?.listings]),
      [[planned, 'PLANNED', 4]],
    );
    assert.equal(page2.nextCursor, '');
    const filtered = await admin(t, 'GET', `/admin/accounts/${seed.accountId}/ingestions?storefrontId=${seed.channel.installationId}`);
    assert.equal((filtered.json() as { results: Detail[] }).results.length, 2);

    assertV1Error(await admin(t, 'GET', `/admin/accounts/${seed.accountId}/ingestions?cursor=bogus`), 400, /invalid cursor/);
    assertV1Error(await admin(t, 'GET', `/admin/accounts/${other.accountId}/ingestions?cursor=${encodeURIComponent(page1.nextCursor)}`), 400, /invalid cursor/);
    assertV1Error(await admin(t, 'GET', `/admin/accounts/${seed.accountId}/ingestions?storefrontId=${other.channel.installationId}`), 404, /storefront/);
    assertV1Error(await admin(t, 'GET', `/admin/accounts/999999/ingestions`), 404, /account/);
    const empty = await admin(t, 'GET', `/admin/accounts/${other.accountId}/ingestions`);
    assert.deepEqual(empty.json(), { results: [], nextCursor: '' });

    // An OPEN session cannot be applied; discarding it frees the storefront for a new begin.
    const before = await snapshot();
    assertV1Error(await admin(t, 'POST', url(second, '/apply')), 409, /still open/);
    assert.deepEqual(await snapshot(), before);
    const discarded = await admin(t, 'POST', url(second, '/discard'));
    assert.equal(discarded.statusCode, 200, discarded.body);
    assert.equal((discarded.json() as Detail).status, 'DISCARDED');
    assertV1Error(await admin(t, 'POST', url(second, '/discard')), 409, /DISCARDED/);
    const third = await idOfBegun(t, push('begin', {}));
    assert.equal((await admin(t, 'POST', url(third, '/discard'))).statusCode, 200);
  });

  it("answers 404 for another account's ingestion, changing nothing", async () => {
    const before = await snapshot();
    assertV1Error(await admin(t, 'GET', url(planned, '', other.accountId)), 404);
    assertV1Error(await admin(t, 'POST', url(planned, '/apply', other.accountId)), 404);
    assertV1Error(await admin(t, 'POST', url(planned, '/discard', other.accountId)), 404);
    assertV1Error(await admin(t, 'GET', url(999999)), 404);
    assertV1Error(await admin(t, 'GET', url('abc')), 400);
    assert.deepEqual(await snapshot(), before);
  });

  it('applies a PLANNED plan, rebuilt against the current catalog, once', async () => {
    // The seller lists W after the plan was built: applying must not take it away.
    await createListingViaAdmin(t, seed, sampleListing('LATE', ['W']));
    clock.advance(60_000);
    const res: LightMyRequestResponse = await admin(t, 'POST', url(planned, '/apply'));
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as Detail;
    assert.equal(body.status, 'APPLIED');
    assert.equal(body.appliedAt, clock.now().toISOString());
    const plan = body.plan!;
    assert.deepEqual(
      plan.listings.map((l) => [l.externalId, l.action, l.variants.map((v) => v.sku)]),
      [
        ['EXIST', 'UPDATE', ['X1', 'X3']],
        ['NEWG', 'CREATE', ['Z']],
        ['DUP', 'SKIP', []],
        ['NEWH', 'SKIP', []],
      ],
    );
    assert.equal(typeof plan.listings[1]!.listingId, 'number');
    assert.deepEqual(
      plan.listings[3]!.conflicts.map((c) => c.type),
      ['SKU_LISTED_ELSEWHERE', 'NO_VARIANTS_LEFT'],
    );

    assert.deepEqual(await variantsOf('EXIST'), [
      { sku: 'X1', channel_id: 'X1' },
      { sku: 'X2', channel_id: '' },
      { sku: 'X3', channel_id: 'X3' },
    ]);
    assert.deepEqual(await variantsOf('NEWG'), [{ sku: 'Z', channel_id: 'Z' }]);
    assert.deepEqual(await variantsOf('OTHER'), [{ sku: 'Y', channel_id: '' }]);
    assert.deepEqual(await variantsOf('LATE'), [{ sku: 'W', channel_id: '' }]);
    const exist = await t.deps.db.db.selectFrom('listings').select(['channel_listing_id', 'has_channel_id']).where('sku', '=', 'EXIST').executeTakeFirstOrThrow();
    assert.deepEqual(exist, { channel_listing_id: 'EXIST', has_channel_id: 1 });
    const x3 = await t.app.inject({ url: '/v2/storefront/listing/variant/X3', headers: bearer(seed.channel.token) });
    assert.equal(x3.statusCode, 200, x3.body);
    assert.deepEqual(
      (x3.json() as { pricing: { attributes: { id: string; moneyValue?: unknown }[] } }).pricing.attributes.map((a) => [a.id, a.moneyValue]),
      [['price', { amount: '3.00', currencyCode: 'USD' }]],
    );

    const before = await snapshot();
    assertV1Error(await admin(t, 'POST', url(planned, '/apply')), 409, /already applied/);
    assertV1Error(await admin(t, 'POST', url(planned, '/discard')), 409, /APPLIED/);
    assert.deepEqual(await snapshot(), before);
  });
});

describe('ingestion plan job failures', () => {
  let t: TestApp;
  let seed: SeededAccount;
  const clock = manualClock(new Date('2026-06-02T08:00:00.000Z'));

  const push = async (path: string, payload: unknown) => {
    const res = await t.app.inject({ method: 'POST', url: `/v2/storefront/listing/ingestion/${path}`, headers: bearer(seed.channel.token), payload: payload as object });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Record<string, unknown>;
  };
  const get = async (id: number) => (await admin(t, 'GET', `/admin/accounts/${seed.accountId}/ingestions/${id}`)).json() as Detail;
  const runJobs = () => new JobWorker(t.deps, { id: 'admin-ingestion-failures', schedules: [] }).runUntilIdle();

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
  });
  after(async () => {
    await t.close();
  });

  it('marks the session FAILED when the last attempt to build the plan fails; the operator can discard it', async () => {
    const id = await idOfBegun(t, push('begin', { expectedNumListings: 1 }));
    await push('request', { id: 'G', variants: [{ sku: 'A' }] });
    await push('end', { actualNumListings: 1 });
    // A stored body that cannot be read makes planning throw; one attempt only, so it is the last.
    await t.deps.db.db.updateTable('ingestion_listings').set({ body: '{not json' }).where('session_id', '=', id).execute();
    await t.deps.db.db.updateTable('jobs').set({ max_attempts: 1 }).where('type', '=', 'ingestion.build_plan').execute();
    await runJobs();
    const job = await t.deps.db.db.selectFrom('jobs').select('status').where('type', '=', 'ingestion.build_plan').executeTakeFirstOrThrow();
    assert.equal(job.status, 'DEAD');
    const failed = await get(id);
    assert.equal(failed.status, 'FAILED');
    assert.match(failed.error ?? '', /the plan could not be built/);
    assert.equal(failed.plan, null);
    assertV1Error(await admin(t, 'POST', `/admin/accounts/${seed.accountId}/ingestions/${id}/apply`), 409, /FAILED/);
    const res = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/ingestions/${id}/discard`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as Detail).status, 'DISCARDED');
  });

  it('leaves a plan PLANNED with the reason when the automatic apply is refused, for the operator to apply', async () => {
    const id = await idOfBegun(t, push('begin', { expectedNumListings: 1, autoApplyIngestionPlan: true }));
    await push('request', { id: 'G2', variants: [{ sku: 'B' }] });
    await push('end', { actualNumListings: 1 });
    // The storefront stops being one while the job waits: creating the listing is refused (404).
    const storefront = seed.channel.installationId;
    await t.deps.db.db.updateTable('installations').set({ kind: 'SHIPPING' }).where('id', '=', storefront).execute();
    await runJobs();
    const refused = await get(id);
    assert.equal(refused.status, 'PLANNED');
    assert.match(refused.error ?? '', /^automatic apply failed: storefront .* not found/);
    assert.equal((await t.deps.db.db.selectFrom('listings').select('id').execute()).length, 0);

    await t.deps.db.db.updateTable('installations').set({ kind: 'SALES_CHANNEL' }).where('id', '=', storefront).execute();
    const res = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/ingestions/${id}/apply`);
    assert.equal(res.statusCode, 200, res.body);
    const applied = res.json() as Detail;
    assert.equal(applied.status, 'APPLIED');
    assert.equal(applied.error, null);
    assert.equal((await t.deps.db.db.selectFrom('listings').select('sku').execute()).map((r) => r.sku).join(), 'G2');
  });
});
