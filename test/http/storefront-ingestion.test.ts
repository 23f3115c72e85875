import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { findOrCreateProduct } from '../../src/domain/catalog/products.js';
import { applyStockChange } from '../../src/domain/inventory/stock.js';
import type { ListingView } from '../../src/domain/listings/model.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, installAndExchange, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { assertV2Error } from './v2-shipping-support.js';
import { idOfBegun } from '../helpers/ingestion.js';

const BASE = '/v2/storefront/listing/ingestion';

describe('v2 storefront ingestion (begin, request, end)', () => {
  let t: TestApp;
  let seed: SeededAccount;
  const clock = manualClock(new Date('2026-06-01T08:00:00.000Z'));

  const post = (path: string, payload: unknown, token = seed.channel.token): Promise<LightMyRequestResponse> =>
    t.app.inject({ method: 'POST', url: `${BASE}/${path}`, headers: bearer(token), payload: payload as object });
  const ok = async (path: string, payload: unknown, token = seed.channel.token) => {
    const res = await post(path, payload, token);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Record<string, unknown>;
  };
  const snapshot = async () => ({
    sessions: await t.deps.db.db.selectFrom('ingestion_sessions').selectAll().orderBy('id').execute(),
    listings: await t.deps.db.db.selectFrom('ingestion_listings').selectAll().orderBy('id').execute(),
    jobs: await t.deps.db.db.selectFrom('jobs').select(['id', 'type', 'status']).orderBy('id').execute(),
  });
  const runJobs = () => new JobWorker(t.deps, { id: 'ingestion-test', schedules: [] }).runUntilIdle();
  const session = (id: number) => t.deps.db.db.selectFrom('ingestion_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const discardOpen = async (storefrontId: number) =>
    t.deps.db.db.updateTable('ingestion_sessions').set({ status: 'DISCARDED', open_key: null }).where('open_key', '=', storefrontId).execute();

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
  });
  after(async () => {
    await t.close();
  });

  it('refuses a token not bound to a storefront (403) on every route, changing nothing', async () => {
    const before = await snapshot();
    for (const path of ['begin', 'request', 'end']) {
      assertV2Error(await post(path, {}, seed.sellerToken), 403, 7);
      assert.equal((await t.app.inject({ method: 'POST', url: `${BASE}/${path}`, payload: {} })).statusCode, 401);
    }
    assert.deepEqual(await snapshot(), before);
  });

  it('answers FAILED_PRECONDITION for request and end without an open session, storing nothing', async () => {
    const before = await snapshot();
    assertV2Error(await post('request', { id: 'G', variants: [{ sku: 'A' }] }), 400, 9, /no ingestion session is open.*ingestion\/begin first/);
    assertV2Error(await post('end', { actualNumListings: 1 }), 400, 9, /no ingestion session is open/);
    assert.deepEqual(await snapshot(), before);
  });

  it('opens one session per storefront: a second begin is ALREADY_EXISTS and changes nothing', async () => {
    // The production message is empty: no field beyond it (strict proto decoders refuse unknown ones).
    const id = await idOfBegun(t, ok('begin', { expectedNumListings: '3', autoApplyIngestionPlan: false }));
    const before = await snapshot();
    assertV2Error(await post('begin', { expectedNumListings: 1 }), 409, 6, /already open.*ingestion\/end/);
    assert.deepEqual(await snapshot(), before);
    const row = await session(id);
    assert.equal(row.status, 'OPEN');
    assert.equal(row.expected_num_listings, 3);
    assert.equal(row.auto_apply, 0);
    await discardOpen(seed.channel.installationId);
  });

  it('lets exactly one of two parallel begins win', async () => {
    const other = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Parallel' });
    const results = await Promise.all([post('begin', { expectedNumListings: 1 }, other.token), post('begin', { expected_num_listings: 2 }, other.token)]);
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 409], results.map((r) => r.body).join('\n'));
    const open = await t.deps.db.db.selectFrom('ingestion_sessions').select('id').where('storefront_id', '=', other.installationId).execute();
    assert.equal(open.length, 1);
  });

  it("keeps each storefront's session to itself", async () => {
    const other = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Separate' });
    const mine = await idOfBegun(t, ok('begin', { expectedNumListings: 1 }));
    const before = await snapshot();
    assertV2Error(await post('request', { id: 'G', variants: [{ sku: 'A' }] }, other.token), 400, 9, /no ingestion session is open/);
    assertV2Error(await post('end', { actualNumListings: 0 }, other.token), 400, 9);
    assert.deepEqual(await snapshot(), before);
    const theirs = await idOfBegun(t, ok('begin', {}, other.token));
    await ok('request', { id: 'G', variants: [{ sku: 'A' }] }, other.token);
    assert.equal((await session(mine)).received_count, 0);
    assert.equal((await session(theirs)).received_count, 1);
    await discardOpen(seed.channel.installationId);
    await discardOpen(other.installationId);
  });

  it('refuses bad begin and end counts', async () => {
    const before = await snapshot();
    assertV2Error(await post('begin', { expectedNumListings: -1 }), 400, 3, /expectedNumListings: must be 0 or more/);
    assertV2Error(await post('begin', { expectedNumListings: '1.5' }), 400, 3);
    assertV2Error(await post('begin', { expectedNumListings: '99999999999' }), 400, 3, /at most/);
    assertV2Error(await post('begin', { autoApplyIngestionPlan: 'yes' }), 400, 3);
    assert.deepEqual(await snapshot(), before);
    await ok('begin', {});
    const opened = await snapshot();
    assertV2Error(await post('end', { actualNumListings: -2 }), 400, 3, /actualNumListings/);
    assert.deepEqual(await snapshot(), opened);
    await discardOpen(seed.channel.installationId);
  });

  describe('malformed listings', () => {
    let ingestionId: number;
    before(async () => {
      ingestionId = await idOfBegun(t, ok('begin', { expectedNumListings: 1 }));
      await ok('request', { id: 'KEEP', variants: [{ sku: 'KEEP-1' }] });
    });
    after(async () => {
      await discardOpen(seed.channel.installationId);
    });

    const cases: [string, unknown, RegExp][] = [
      ['missing id', { variants: [{ sku: 'A' }] }, /^id: is required/],
      ['empty id', { id: '', variants: [{ sku: 'A' }] }, /^id: is required/],
      ['no variants', { id: 'G' }, /^variants: must have at least one/],
      ['empty variants', { id: 'G', variants: [] }, /^variants: must have at least one/],
      ['empty sku', { id: 'G', variants: [{ sku: 'A' }, { sku: '' }] }, /^variants\[1\]\.sku: is required/],
      ['missing sku', { id: 'G', variants: [{}] }, /^variants\[0\]\.sku: is required/],
      ['duplicate sku', { id: 'G', variants: [{ sku: 'A' }, { sku: 'A' }] }, /^variants\[1\]\.sku: "A" appears twice/],
      ['attribute without a value', { id: 'G', attributes: [{ id: 'title' }], variants: [{ sku: 'A' }] }, /^attributes\[0\]: needs one of/],
      [
        'attribute with two values',
        { id: 'G', variants: [{ sku: 'A', attributes: [{ id: 'c', textValue: 'x', numericValue: 1 }] }] },
        /^variants\[0\]\.attributes\[0\]: has more than one value kind/,
      ],
      ['bad money attribute', { id: 'G', attributes: [{ id: 'm', moneyValue: { amount: 'ten', currencyCode: 'USD' } }], variants: [{ sku: 'A' }] }, /moneyValue\.amount/],
      ['nanos too large', { id: 'G', variants: [{ sku: 'A', price: { currencyCode: 'USD', units: '1', nanos: 1_000_000_000 } }] }, /^variants\[0\]\.price\.nanos: must be between/],
      ['nanos too small', { id: 'G', variants: [{ sku: 'A', price: { currencyCode: 'USD', units: '0', nanos: -1_000_000_000 } }] }, /^variants\[0\]\.price\.nanos/],
      ['nanos sign', { id: 'G', variants: [{ sku: 'A', price: { currencyCode: 'USD', units: '-1', nanos: 5 } }] }, /^variants\[0\]\.price\.nanos: must have the same sign/],
      ['currency code', { id: 'G', variants: [{ sku: 'A', price: { currencyCode: 'DOLLAR', units: '1' } }] }, /^variants\[0\]\.price\.currencyCode/],
      ['no currency code', { id: 'G', variants: [{ sku: 'A', price: { units: '1' } }] }, /^variants\[0\]\.price\.currencyCode/],
      ['units not an integer', { id: 'G', variants: [{ sku: 'A', price: { currencyCode: 'USD', units: '1.5' } }] }, /units/],
      ['units beyond int64', { id: 'G', variants: [{ sku: 'A', price: { currencyCode: 'USD', units: '9223372036854775808' } }] }, /^variants\[0\]\.price\.units/],
      ['sku of the wrong type', { id: 'G', variants: [{ sku: 5 }] }, /sku/],
    ];
    for (const [name, body, pattern] of cases) {
      it(`refuses ${name} with INVALID_ARGUMENT naming the field, storing nothing`, async () => {
        const before = await snapshot();
        assertV2Error(await post('request', body), 400, 3, pattern);
        assert.deepEqual(await snapshot(), before);
        assert.equal((await session(ingestionId)).received_count, 1);
      });
    }
  });

  it('replaces a listing sent twice without counting it twice', async () => {
    const id = await idOfBegun(t, ok('begin', { expectedNumListings: 1 }));
    await ok('request', { id: 'G', variants: [{ sku: 'A' }] });
    await ok('request', { id: 'G', product_type_id: 'pt', variants: [{ sku: 'A' }, { sku: 'B', price: { currency_code: 'EUR', units: 2, nanos: '500000000' } }] });
    await ok('request', { id: 'H', variants: [{ sku: 'C' }] });
    assert.equal((await session(id)).received_count, 2);
    const rows = await t.deps.db.db.selectFrom('ingestion_listings').select(['external_id', 'body']).where('session_id', '=', id).orderBy('id').execute();
    assert.deepEqual(
      rows.map((r) => r.external_id),
      ['G', 'H'],
    );
    assert.deepEqual(JSON.parse(rows[0]!.body), {
      id: 'G',
      productTypeId: 'pt',
      pivotAttributes: [],
      attributes: [],
      variants: [
        { sku: 'A', price: null, attributes: [] },
        { sku: 'B', price: { amount: '2.5', currencyCode: 'EUR' }, attributes: [] },
      ],
    });
    await discardOpen(seed.channel.installationId);
  });

  it('runs the whole flow with autoApplyIngestionPlan: listings created with channel ids, prices and stock', async () => {
    const now = clock.now();
    const { product } = await findOrCreateProduct(t.deps.db.db, seed.accountId, 'ING-A', {}, now);
    await applyStockChange(t.deps.db.db, seed.accountId, product.id, seed.warehouses.main, { mode: 'delta', delta: 5 }, now);
    await applyStockChange(t.deps.db.db, seed.accountId, product.id, seed.warehouses.channel, { mode: 'delta', delta: 2 }, now);

    const id = await idOfBegun(t, ok('begin', { expected_num_listings: 2, auto_apply_ingestion_plan: true }));
    await ok('request', {
      id: 'ING-G1',
      productTypeId: 'shirts',
      pivotAttributes: ['color'],
      attributes: [{ id: 'title', textValue: 'Ingested shirt' }],
      variants: [
        { sku: 'ING-A', price: { currencyCode: 'USD', units: '19', nanos: 990000000 }, attributes: [{ id: 'color', text_value: 'red' }] },
        { sku: 'ING-B', price: { currencyCode: 'USD', units: 5 } },
      ],
    });
    await ok('request', { id: 'ING-G2', variants: [{ sku: 'ING-C', attributes: [{ id: 'msrp', moneyValue: { amount: 12.5, currencyCode: 'USD' } }] }] });
    assert.deepEqual(await ok('end', { actualNumListings: '2' }), {});

    const ended = await session(id);
    assert.equal(ended.status, 'PLANNING');
    assert.equal(ended.open_key, null);
    assert.equal(ended.actual_num_listings, 2);
    const jobs = await t.deps.db.db.selectFrom('jobs').select(['type', 'account_id', 'payload']).where('type', '=', 'ingestion.build_plan').execute();
    assert.deepEqual(jobs, [{ type: 'ingestion.build_plan', account_id: seed.accountId, payload: JSON.stringify({ sessionId: id }) }]);

    assert.equal(await runJobs(), 2, "the plan job, then the apply job it queued");
    const applied = await session(id);
    assert.equal(applied.status, 'APPLIED', applied.error ?? '');
    assert.equal(applied.applied_at, clock.now().toISOString());
    const plan = JSON.parse(applied.plan!) as { listings: { externalId: string; action: string; listingId: number | null }[]; conflicts: unknown[] };
    assert.deepEqual(plan.conflicts, []);
    assert.deepEqual(
      plan.listings.map((l) => [l.externalId, l.action, typeof l.listingId]),
      [
        ['ING-G1', 'CREATE', 'number'],
        ['ING-G2', 'CREATE', 'number'],
      ],
    );

    const res = await t.app.inject({ url: '/v2/storefront/listing/sku/ING-G1', headers: bearer(seed.channel.token) });
    assert.equal(res.statusCode, 200, res.body);
    const listing = res.json() as ListingView;
    assert.equal(listing.id, String(plan.listings[0]!.listingId));
    assert.equal(listing.productData.productTypeId, 'shirts');
    assert.deepEqual(listing.productData.pivotAttributes, ['color']);
    assert.deepEqual(
      listing.productData.attributes.map((a) => [a.id, a.textValue]),
      [['title', 'Ingested shirt']],
    );
    assert.deepEqual(
      listing.variants.map((v) => [v.sku, v.channelId]),
      [
        ['ING-A', 'ING-A'],
        ['ING-B', 'ING-B'],
      ],
    );
    const [a, b] = listing.variants;
    assert.deepEqual(a!.pricing.attributes.map((x) => [x.id, x.moneyValue]), [['price', { amount: '19.99', currencyCode: 'USD' }]]);
    assert.deepEqual(b!.pricing.attributes.map((x) => [x.id, x.moneyValue]), [['price', { amount: '5.00', currencyCode: 'USD' }]]);
    assert.deepEqual(a!.productData.attributes.map((x) => [x.id, x.textValue]), [['color', 'red']]);
    assert.equal(a!.inventory.totalQuantity, '7');
    assert.equal(a!.inventory.merchantFulfillableQuantity, '5');
    assert.equal(a!.inventory.storefrontFulfillableQuantity, '2');
    assert.equal(b!.inventory.totalQuantity, '0');

    const g2 = await t.deps.db.db.selectFrom('listings').select(['channel_listing_id', 'has_channel_id']).where('sku', '=', 'ING-G2').executeTakeFirstOrThrow();
    assert.deepEqual(g2, { channel_listing_id: 'ING-G2', has_channel_id: 1 });
    const msrp = await t.app.inject({ url: '/v2/storefront/listing/variant/ING-C', headers: bearer(seed.channel.token) });
    assert.equal(msrp.statusCode, 200, msrp.body);
    assert.deepEqual((msrp.json() as ListingView['variants'][number]).productData.attributes[0]!.moneyValue, { amount: '12.50', currencyCode: 'USD' });
    const products = await t.deps.db.db.selectFrom('products').select('sku').where('account_id', '=', seed.accountId).where('sku', 'like', 'ING-%').orderBy('sku').execute();
    assert.deepEqual(
      products.map((p) => p.sku),
      ['ING-A', 'ING-B', 'ING-C'],
    );

    // The job is idempotent: running it again changes nothing.
    const before = await snapshot();
    await t.deps.db.db.updateTable('jobs').set({ status: 'PENDING', run_at: clock.now().toISOString() }).where('type', '=', 'ingestion.build_plan').execute();
    await runJobs();
    assert.deepEqual((await snapshot()).sessions, before.sessions);
    assert.equal((await t.deps.db.db.selectFrom('listings').select('id').where('sku', 'like', 'ING-%').execute()).length, 2);
  });
});
