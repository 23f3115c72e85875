import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { after, before, describe, it } from 'node:test';
import type { ListingView } from '../../src/domain/listings/model.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { adminHeaders, assertV1Error } from '../helpers/admin.js';
import { bearer, installAndExchange, seedAccount, type InstalledApp, type SeededAccount } from '../helpers/fixtures.js';
import { createListingViaAdmin, sampleListing } from '../helpers/listings.js';

interface VariantReport {
  sku: string;
  status: string;
  listingUrl: string;
  channelStatus: string;
  statusUpdatedAt: string | null;
  errors: { submissionType: string; attributeIds: string[]; severity: string; type: string; message: string }[];
}

interface Result {
  listing_id: string;
  sku: string;
  status: string;
  success?: boolean;
  errorMessage?: string;
}

/** POST /v1/listing/status (document 2.2, 3.2; resolutions §3): single entry or {statuses: [...]}. */
describe('v1 listing status', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let shop2: InstalledApp;
  let listing: ListingView;
  let shop2Listing: ListingView;

  // v1 examples send the bare token; Bearer works as well (resolutions §0).
  const post = (payload: unknown, token = seed.channel.token, headers: Record<string, string> = { authorization: token }) =>
    t.app.inject({ method: 'POST', url: '/v1/listing/status', headers, payload: payload as object });
  const results = (res: LightMyRequestResponse) => {
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { results: Result[] }).results;
  };
  const report = async (listingId: string, s = seed) => {
    const res = await t.app.inject({ url: `/admin/accounts/${s.accountId}/listings/${listingId}/errors`, headers: adminHeaders });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { variants: VariantReport[] }).variants;
  };
  const variantState = () =>
    t.deps.db.db
      .selectFrom('listing_variants')
      .select(['id', 'status', 'listing_url', 'status_updated_at'])
      .orderBy('id')
      .execute()
      .then(async (variants) => ({ variants, errors: await t.deps.db.db.selectFrom('listing_variant_errors').selectAll().orderBy('id').execute() }));

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    shop2 = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Shop Two' });
    listing = await createListingViaAdmin(t, seed, sampleListing('V1S-GROUP', ['V1S-A', 'V1S-B']));
    shop2Listing = await createListingViaAdmin(t, seed, sampleListing('V1S2-GROUP', ['V1S2-A']), shop2.installationId);
  });
  after(async () => t.close());

  it('records one entry: the variant takes the status and listing_url; errors map onto v2 channel errors', async () => {
    clock.advance(1000);
    const res = await post({
      listing_id: listing.id,
      sku: 'V1S-A',
      status: 'SUPPRESSED',
      listing_url: 'https://channel.example/a',
      errors: [
        { severity: 'ERROR', classification: 'listing', affected_attributes: ['title'], error: 'other', message: 'Title too long' },
        { severity: 'warning', error: 'missing_value', affected_attributes: ['brand'] },
        { severity: 'fatal', message: 'Blocked' },
        { classification: 'invalid value', message: 'Bad colour', affected_attributes: [] },
      ],
    });
    assert.deepEqual(results(res), [{ listing_id: listing.id, sku: 'V1S-A', status: 'SUPPRESSED' }]);
    const [a, b] = await report(listing.id);
    assert.equal(a!.status, 'STANDARD_STATUS_SUPPRESSED');
    assert.equal(a!.listingUrl, 'https://channel.example/a');
    assert.equal(a!.statusUpdatedAt, clock.now().toISOString());
    assert.deepEqual(
      a!.errors.map(({ submissionType, attributeIds, severity, type, message }) => ({ submissionType, attributeIds, severity, type, message })),
      [
        { submissionType: 'v1_listing_status', attributeIds: ['title'], severity: 'SEVERITY_ERROR', type: 'TYPE_OTHER', message: 'Title too long (classification: listing; error: other)' },
        { submissionType: 'v1_listing_status', attributeIds: ['brand'], severity: 'SEVERITY_WARNING', type: 'TYPE_MISSING_VALUE', message: 'missing_value' },
        { submissionType: 'v1_listing_status', attributeIds: [], severity: 'SEVERITY_UNSPECIFIED', type: 'TYPE_OTHER', message: 'Blocked (severity: fatal)' },
        { submissionType: 'v1_listing_status', attributeIds: [], severity: 'SEVERITY_UNSPECIFIED', type: 'TYPE_INVALID_VALUE', message: 'Bad colour (classification: invalid value)' },
      ],
    );
    assert.equal(b!.status, 'STANDARD_STATUS_UNSPECIFIED');
    assert.deepEqual(b!.errors, []);
  });

  it('moves from any state to the state sent (3.2); a new report replaces the v1 errors, not the v2 ones', async () => {
    const v2 = await t.app.inject({
      method: 'POST',
      url: '/v2/storefront/listing/variant/V1S-B/errors',
      headers: bearer(seed.channel.token),
      payload: { submissionType: 'product', errors: [{ type: 'TYPE_MISSING_VALUE' }] },
    });
    assert.equal(v2.statusCode, 200, v2.body);
    for (const status of ['PUBLISHED', 'UNPUBLISHED', 'SUPPRESSED', 'PUBLISHED', 'PUBLISHED']) {
      clock.advance(1000);
      const errors = status === 'SUPPRESSED' ? [{ error: 'restricted_value' }] : [];
      results(await post({ listing_id: listing.id, sku: 'V1S-B', status, listing_url: `u-${status}`, errors }, seed.channel.token, bearer(seed.channel.token)));
      const b = (await report(listing.id))[1]!;
      assert.equal(b.status, `STANDARD_STATUS_${status}`);
      assert.equal(b.listingUrl, `u-${status}`);
      assert.deepEqual(
        b.errors.map((e) => [e.submissionType, e.type]),
        status === 'SUPPRESSED'
          ? [
              ['product', 'TYPE_MISSING_VALUE'],
              ['v1_listing_status', 'TYPE_RESTRICTED_VALUE'],
            ]
          : [['product', 'TYPE_MISSING_VALUE']],
      );
    }
    // errors absent: clears the v1 ones as well (the report is a full statement).
    results(await post({ listing_id: listing.id, sku: 'V1S-A', status: 'PUBLISHED', listing_url: '' }));
    assert.deepEqual((await report(listing.id))[0]!.errors, []);
  });

  it('batch form: one result per entry with success and errorMessage; a failed entry changes nothing', async () => {
    clock.advance(1000);
    const before = await variantState();
    const res = await post({
      statuses: [
        { listing_id: listing.id, sku: 'V1S-A', status: 'UNPUBLISHED', listing_url: 'batch-a' },
        { listing_id: listing.id, sku: 'NOPE', status: 'PUBLISHED', listing_url: '' },
        { listing_id: '999999', sku: 'V1S-A', status: 'PUBLISHED', listing_url: '' },
        { listing_id: shop2Listing.id, sku: 'V1S2-A', status: 'PUBLISHED', listing_url: '' },
        { listing_id: listing.id, sku: 'V1S-B', status: 'LIVE', listing_url: '' },
        { listing_id: listing.id, sku: 'V1S-B', status: 'PUBLISHED', listing_url: '', errors: [{ severity: 'ERROR' }] },
        { listing_id: Number(listing.id), sku: 'V1S-B', status: 'SUPPRESSED', listing_url: 'batch-b' },
      ],
    });
    const out = results(res);
    assert.deepEqual(
      out.map((r) => [r.listing_id, r.sku, r.status, r.success]),
      [
        [listing.id, 'V1S-A', 'UNPUBLISHED', true],
        [listing.id, 'NOPE', 'PUBLISHED', false],
        ['999999', 'V1S-A', 'PUBLISHED', false],
        [shop2Listing.id, 'V1S2-A', 'PUBLISHED', false],
        [listing.id, 'V1S-B', 'LIVE', false],
        [listing.id, 'V1S-B', 'PUBLISHED', false],
        [listing.id, 'V1S-B', 'SUPPRESSED', true],
      ],
    );
    assert.equal(out[0]!.errorMessage, '');
    assert.match(out[1]!.errorMessage!, /no variant with sku "NOPE"/);
    assert.match(out[2]!.errorMessage!, /not found|no variant/);
    assert.match(out[4]!.errorMessage!, /statuses\[4\]\.status/);
    assert.match(out[5]!.errorMessage!, /statuses\[5\]\.errors\[0\]\.message/);
    const [a, b] = await report(listing.id);
    assert.deepEqual([a!.status, a!.listingUrl], ['STANDARD_STATUS_UNPUBLISHED', 'batch-a']);
    assert.deepEqual([b!.status, b!.listingUrl], ['STANDARD_STATUS_SUPPRESSED', 'batch-b']);
    // The shop-two variant was not reachable with this storefront's token.
    const after = await variantState();
    const shop2Variant = (await t.deps.db.db.selectFrom('listing_variants').select('id').where('sku', '=', 'V1S2-A').executeTakeFirstOrThrow()).id;
    assert.deepEqual(
      after.variants.find((v) => v.id === shop2Variant),
      before.variants.find((v) => v.id === shop2Variant),
    );
  });

  it("a storefront token reaches its own storefront's listings only; a seller token the whole account; never another account", async () => {
    const entry = { listing_id: shop2Listing.id, sku: 'V1S2-A', status: 'PUBLISHED', listing_url: 'x' };
    const before = await variantState();
    assertV1Error(await post(entry), 404, /listing/);
    assertV1Error(await post({ ...entry, listing_id: listing.id, sku: 'V1S-A' }, other.channel.token), 404);
    assertV1Error(await post({ ...entry, listing_id: listing.id, sku: 'V1S-A' }, other.sellerToken), 404);
    assertV1Error(await post({ ...entry, listing_id: 'abc' }), 404);
    assertV1Error(await post({ ...entry, listing_id: listing.id, sku: 'V1S-GROUP' }), 404);
    assert.deepEqual(await variantState(), before);
    results(await post(entry, shop2.token));
    results(await post({ ...entry, status: 'UNPUBLISHED' }, seed.sellerToken));
    assert.equal((await report(shop2Listing.id))[0]!.status, 'STANDARD_STATUS_UNPUBLISHED');
    // A token without legacy or listing:self is refused (resolutions §7) and changes nothing.
    assertV1Error(await post({ ...entry, status: 'SUPPRESSED' }, seed.inventory.token), 403, /legacy, listing:self/);
    assert.equal((await report(shop2Listing.id))[0]!.status, 'STANDARD_STATUS_UNPUBLISHED');
  });

  it('refuses bad input with a v1 400 naming the field, and changes nothing', async () => {
    const good = { listing_id: listing.id, sku: 'V1S-A', status: 'PUBLISHED', listing_url: 'u' };
    const before = await variantState();
    const cases: [unknown, RegExp][] = [
      [{ ...good, listing_id: undefined }, /listing_id: is required/],
      [{ ...good, sku: undefined }, /sku: is required/],
      [{ ...good, status: undefined }, /status: is required/],
      [{ ...good, status: 'published' }, /status: must be one of PUBLISHED, UNPUBLISHED, SUPPRESSED/],
      [{ ...good, listing_url: undefined }, /listing_url: is required/],
      [{ ...good, errors: [{ severity: 'ERROR', classification: 'x' }] }, /errors\[0\]\.message: is required unless error is given/],
      [{ ...good, errors: [{ message: 5 }] }, /errors\[0\]\.message/],
      [{ ...good, errors: 'none' }, /errors/],
      [{ statuses: [] }, /statuses/],
      [{ statuses: Array.from({ length: 101 }, () => good) }, /statuses/],
      [{}, /listing_id: is required/],
    ];
    for (const [payload, pattern] of cases) assertV1Error(await post(payload), 400, pattern);
    assert.deepEqual(await variantState(), before);
    const unauth = await t.app.inject({ method: 'POST', url: '/v1/listing/status', payload: good });
    assertV1Error(unauth, 401);
  });
});
