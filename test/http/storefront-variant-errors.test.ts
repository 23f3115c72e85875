import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { after, before, describe, it } from 'node:test';
import type { ListingView } from '../../src/domain/listings/model.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { adminHeaders, assertV1Error } from '../helpers/admin.js';
import { bearer, installAndExchange, seedAccount, type InstalledApp, type SeededAccount } from '../helpers/fixtures.js';
import { createListingViaAdmin, sampleListing } from '../helpers/listings.js';
import { assertV2Error, violationFields } from '../helpers/v2.js';

/** A v2 error whose fields are asserted by the caller. */
const assertV2ErrorFields = (res: LightMyRequestResponse, status: number, code: number, pattern?: RegExp): string[] =>
  violationFields(assertV2Error(res, status, code, pattern));

interface ErrorEntry {
  submissionType: string;
  attributeIds: string[];
  severity: string;
  type: string;
  message: string;
  createdAt: string;
}
interface VariantReport {
  sku: string;
  channelId: string;
  status: string;
  channelStatus: string;
  listingUrl: string;
  buyable: boolean;
  channelListingId: string;
  statusUpdatedAt: string | null;
  errors: ErrorEntry[];
}

const VARIANT = '/v2/storefront/listing/variant';

/**
 * Channel errors, channel id and variant status (document 2.14, 7.3 rule 5; resolutions §4), and the
 * seller's view of them: GET /admin/accounts/{accountId}/listings/{listingId}/errors.
 */
describe('v2 storefront variant errors, channel id and status', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let shop2: InstalledApp;
  let listing: ListingView;

  const post = (sku: string, what: 'errors' | 'channel_id' | 'status', payload: unknown, token = seed.channel.token) =>
    t.app.inject({ method: 'POST', url: `${VARIANT}/${encodeURIComponent(sku)}/${what}`, headers: bearer(token), payload: payload as object });
  const report = async (listingId: string, s = seed) => {
    const res = await t.app.inject({ url: `/admin/accounts/${s.accountId}/listings/${listingId}/errors`, headers: adminHeaders });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { variants: VariantReport[] }).variants;
  };
  const variantOf = async (listingId: string, sku: string) => (await report(listingId)).find((v) => v.sku === sku)!;
  const errorRows = () => t.deps.db.db.selectFrom('listing_variant_errors').selectAll().orderBy('id').execute();
  const listingRow = (id: string) => t.deps.db.db.selectFrom('listings').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();
  const empty = (res: LightMyRequestResponse) => {
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {});
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    shop2 = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Shop Two' });
    listing = await createListingViaAdmin(t, seed, sampleListing('VE-GROUP', ['VE-A', 'VE-B']));
  });
  after(async () => t.close());

  describe('POST variant/{sku}/errors', () => {
    it('replaces the errors of one submissionType; other types stay; enums by name or number', async () => {
      clock.advance(1000);
      empty(
        await post('VE-A', 'errors', {
          submissionType: 'product',
          errors: [
            { attributeIds: ['title'], severity: 'SEVERITY_ERROR', type: 'TYPE_INVALID_VALUE', message: 'too long' },
            { attribute_ids: ['color'], severity: 2, type: 1 },
          ],
        }),
      );
      empty(await post('VE-A', 'errors', { submission_type: 'price', errors: [{ type: 'TYPE_OTHER', message: 'price below floor' }] }));
      let a = await variantOf(listing.id, 'VE-A');
      const at = clock.now().toISOString();
      assert.deepEqual(a.errors, [
        { submissionType: 'price', attributeIds: [], severity: 'SEVERITY_UNSPECIFIED', type: 'TYPE_OTHER', message: 'price below floor', createdAt: at },
        { submissionType: 'product', attributeIds: ['title'], severity: 'SEVERITY_ERROR', type: 'TYPE_INVALID_VALUE', message: 'too long', createdAt: at },
        { submissionType: 'product', attributeIds: ['color'], severity: 'SEVERITY_WARNING', type: 'TYPE_MISSING_VALUE', message: '', createdAt: at },
      ]);
      assert.deepEqual((await variantOf(listing.id, 'VE-B')).errors, []);

      clock.advance(1000);
      empty(await post('VE-A', 'errors', { submissionType: 'product', errors: [{ severity: 3, type: 5, message: 'bullets: 12 > 10', attributeIds: ['bullets'] }] }));
      a = await variantOf(listing.id, 'VE-A');
      assert.deepEqual(
        a.errors.map((e) => [e.submissionType, e.type, e.message]),
        [
          ['price', 'TYPE_OTHER', 'price below floor'],
          ['product', 'TYPE_TOO_MANY_VALUES', 'bullets: 12 > 10'],
        ],
      );
    });

    it('an empty or absent list clears that submissionType only', async () => {
      empty(await post('VE-B', 'errors', { submissionType: 'x', errors: [{ type: 'TYPE_RESTRICTED_VALUE' }] }));
      empty(await post('VE-B', 'errors', { submissionType: 'y', errors: [{ type: 'TYPE_RESTRICTED_VALUE' }] }));
      empty(await post('VE-B', 'errors', { submissionType: 'x', errors: [] }));
      assert.deepEqual(
        (await variantOf(listing.id, 'VE-B')).errors.map((e) => e.submissionType),
        ['y'],
      );
      empty(await post('VE-B', 'errors', { submissionType: 'y' }));
      assert.deepEqual((await variantOf(listing.id, 'VE-B')).errors, []);
    });

    it('requires message for TYPE_OTHER and TYPE_TOO_MANY_VALUES (7.3 rule 5); nothing is stored', async () => {
      empty(await post('VE-B', 'errors', { submissionType: 'keep', errors: [{ type: 'TYPE_MISSING_VALUE' }] }));
      const before = await errorRows();
      const cases: [unknown, string][] = [
        [{ submissionType: 'keep', errors: [{ type: 'TYPE_MISSING_VALUE' }, { type: 'TYPE_OTHER' }] }, 'errors[1].message'],
        [{ submissionType: 'keep', errors: [{ type: 'TYPE_TOO_MANY_VALUES', message: '  ' }] }, 'errors[0].message'],
        [{ submissionType: 'keep', errors: [{ type: 5 }] }, 'errors[0].message'],
        [{ submissionType: 'keep', errors: [{ type: 4, message: null }] }, 'errors[0].message'],
        [{ submissionType: 'keep', errors: [{ severity: 'ERROR' }] }, 'errors[0].severity'],
        [{ submissionType: 'keep', errors: [{ severity: 9 }] }, 'errors[0].severity'],
        [{ submissionType: 'keep', errors: [{ type: 'TYPE_BROKEN' }] }, 'errors[0].type'],
        [{ submissionType: 'keep', errors: [{ type: 1.5 }] }, 'errors[0].type'],
        [{ submissionType: 'keep', errors: Array.from({ length: 101 }, () => ({ type: 1 })) }, 'errors'],
        [{ submissionType: 'keep', errors: [{ attributeIds: 'title' }] }, 'errors'],
      ];
      for (const [payload, name] of cases) {
        const fields = assertV2ErrorFields(await post('VE-B', 'errors', payload), 400, 3);
        assert.ok(fields.some((f) => f.startsWith(name)), `${JSON.stringify(fields)} should name ${name}`);
      }
      assert.match(JSON.stringify((await post('VE-B', 'errors', cases[0]![0])).json()), /required when type is TYPE_OTHER/);
      assert.deepEqual(await errorRows(), before);
    });

    it("answers 404 for a sku that is not the storefront's variant (group sku, other storefront, other account); 403 without a storefront", async () => {
      const theirs = await createListingViaAdmin(t, seed, sampleListing('VE2-GROUP', ['VE2-A']), shop2.installationId);
      const foreign = await createListingViaAdmin(t, other, sampleListing('VEX-GROUP', ['VEX-A']));
      const before = await errorRows();
      const payload = { submissionType: 'p', errors: [{ type: 'TYPE_MISSING_VALUE' }] };
      assertV2ErrorFields(await post('NOPE', 'errors', payload), 404, 5);
      assertV2ErrorFields(await post('VE-GROUP', 'errors', payload), 404, 5);
      assertV2ErrorFields(await post('VE2-A', 'errors', payload), 404, 5);
      assertV2ErrorFields(await post('VEX-A', 'errors', payload), 404, 5);
      assertV2ErrorFields(await post('VE-A', 'errors', payload, seed.sellerToken), 403, 7);
      assertV2ErrorFields(await post('VE-A', 'errors', payload, other.channel.token), 404, 5);
      assert.deepEqual(await errorRows(), before);
      empty(await post('VE2-A', 'errors', payload, shop2.token));
      assert.equal((await report(theirs.id))[0]!.errors.length, 1);
      assert.deepEqual((await report(foreign.id, other))[0]!.errors, []);
    });
  });

  describe('POST variant/{sku}/channel_id', () => {
    it('sets and clears the channel id, keeps listings.has_channel_id right and leaves poll_updated_at', async () => {
      const l = await createListingViaAdmin(t, seed, sampleListing('CH-GROUP', ['CH-A', 'CH-B']));
      const polled = (await listingRow(l.id)).poll_updated_at;
      const inNew = async () => {
        const res = await t.app.inject({ url: '/v2/storefront/listing/new?since=2000-01-01T00:00:00Z', headers: bearer(seed.channel.token) });
        assert.equal(res.statusCode, 200, res.body);
        return (res.json() as { listings: { id: string }[] }).listings.some((x) => x.id === l.id);
      };
      assert.equal(await inNew(), true);
      clock.advance(1000);
      empty(await post('CH-A', 'channel_id', { channelId: 'AMZ-1' }));
      empty(await post('CH-B', 'channel_id', { channel_id: 'AMZ-2' }));
      let row = await listingRow(l.id);
      assert.equal(row.has_channel_id, 1);
      assert.equal(row.poll_updated_at, polled);
      assert.equal(await inNew(), false);
      const variant = await t.app.inject({ url: `${VARIANT}/CH-A`, headers: bearer(seed.channel.token) });
      assert.equal((variant.json() as { channelId: string }).channelId, 'AMZ-1');

      empty(await post('CH-A', 'channel_id', { channelId: '' }));
      assert.equal((await listingRow(l.id)).has_channel_id, 1);
      // proto3 clients leave an empty string out: {} clears too.
      empty(await post('CH-B', 'channel_id', {}));
      row = await listingRow(l.id);
      assert.equal(row.has_channel_id, 0);
      assert.equal(row.poll_updated_at, polled);
      assert.equal(await inNew(), true);
      assert.deepEqual(
        (await report(l.id)).map((v) => v.channelId),
        ['', ''],
      );
    });

    it('answers 404 for an unknown or foreign sku, 400 for a non-string id, and changes nothing', async () => {
      await createListingViaAdmin(t, seed, sampleListing('CH2-GROUP', ['CH2-A']), shop2.installationId);
      const before = await t.deps.db.db.selectFrom('listing_variants').select(['id', 'channel_id']).orderBy('id').execute();
      assertV2ErrorFields(await post('NOPE', 'channel_id', { channelId: 'X' }), 404, 5);
      assertV2ErrorFields(await post('CH2-A', 'channel_id', { channelId: 'X' }), 404, 5);
      assertV2ErrorFields(await post('VE-A', 'channel_id', { channelId: 'X' }, other.channel.token), 404, 5);
      assertV2ErrorFields(await post('VE-A', 'channel_id', { channelId: 'X' }, seed.sellerToken), 403, 7);
      assertV2ErrorFields(await post('VE-A', 'channel_id', { channelId: 12 }), 400, 3);
      assert.deepEqual(await t.deps.db.db.selectFrom('listing_variants').select(['id', 'channel_id']).orderBy('id').execute(), before);
    });
  });

  describe('POST variant/{sku}/status', () => {
    it('replaces the status fields (left-out fields reset) and a non-empty channelId sets the channel id', async () => {
      const l = await createListingViaAdmin(t, seed, sampleListing('ST-GROUP', ['ST-A']));
      clock.advance(1000);
      empty(
        await post('ST-A', 'status', {
          status: 'STANDARD_STATUS_PUBLISHED',
          channelStatus: 'Active',
          channelId: 'CH-ST-A',
          listingUrl: 'https://channel.example/st-a',
          buyable: true,
          channelListingId: 'L-77',
        }),
      );
      let v = await variantOf(l.id, 'ST-A');
      assert.deepEqual({ ...v, errors: undefined }, {
        sku: 'ST-A',
        channelId: 'CH-ST-A',
        status: 'STANDARD_STATUS_PUBLISHED',
        channelStatus: 'Active',
        listingUrl: 'https://channel.example/st-a',
        buyable: true,
        channelListingId: 'L-77',
        statusUpdatedAt: clock.now().toISOString(),
        errors: undefined,
      });
      assert.equal((await listingRow(l.id)).has_channel_id, 1);

      clock.advance(1000);
      empty(await post('ST-A', 'status', { status: 3, channel_status: 'Suppressed' }));
      v = await variantOf(l.id, 'ST-A');
      assert.equal(v.status, 'STANDARD_STATUS_SUPPRESSED');
      assert.equal(v.channelStatus, 'Suppressed');
      assert.equal(v.listingUrl, '');
      assert.equal(v.buyable, false);
      assert.equal(v.channelListingId, '');
      assert.equal(v.channelId, 'CH-ST-A', 'an empty channelId leaves the channel id');
      assert.equal(v.statusUpdatedAt, clock.now().toISOString());

      empty(await post('ST-A', 'status', { status: 'STANDARD_STATUS_RETIRED', listing_url: 'u', channel_listing_id: 'L-78' }));
      v = await variantOf(l.id, 'ST-A');
      assert.deepEqual([v.status, v.listingUrl, v.channelListingId], ['STANDARD_STATUS_RETIRED', 'u', 'L-78']);
      empty(await post('ST-A', 'status', {}));
      assert.equal((await variantOf(l.id, 'ST-A')).status, 'STANDARD_STATUS_UNSPECIFIED');
    });

    it('refuses a bad status enum or field type, answers 404 for a foreign sku, and changes nothing', async () => {
      const l = await createListingViaAdmin(t, seed, sampleListing('ST2-GROUP', ['ST2-A']));
      empty(await post('ST2-A', 'status', { status: 'STANDARD_STATUS_PUBLISHED' }));
      const before = await variantOf(l.id, 'ST2-A');
      assert.deepEqual(assertV2ErrorFields(await post('ST2-A', 'status', { status: 'PUBLISHED' }), 400, 3), ['status']);
      assert.deepEqual(assertV2ErrorFields(await post('ST2-A', 'status', { status: 5 }), 400, 3), ['status']);
      assertV2ErrorFields(await post('ST2-A', 'status', { status: 1, buyable: 'yes' }), 400, 3);
      assertV2ErrorFields(await post('NOPE', 'status', { status: 1 }), 404, 5);
      assertV2ErrorFields(await post('ST2-A', 'status', { status: 2 }, shop2.token), 404, 5);
      assertV2ErrorFields(await post('ST2-A', 'status', { status: 2 }, other.channel.token), 404, 5);
      assertV2ErrorFields(await post('ST2-A', 'status', { status: 2 }, seed.sellerToken), 403, 7);
      assert.deepEqual(await variantOf(l.id, 'ST2-A'), before);
    });
  });

  describe('GET /admin/accounts/{accountId}/listings/{listingId}/errors', () => {
    it('adds a live TYPE_TOO_MANY_VALUES entry per attribute over its maxUniqueItems', async () => {
      const putSpec = async (attributeSpecId: string, maxUniqueItems: string) => {
        const res = await t.app.inject({
          method: 'PUT',
          url: '/v2/storefront/taxonomy/attribute_spec/pt-limits',
          headers: bearer(seed.channel.token),
          payload: { attributeSpec: { attributeSpecId, maxUniqueItems } },
        });
        assert.equal(res.statusCode, 200, res.body);
      };
      await putSpec('keywords', '2');
      await putSpec('sizes', '1');
      const body = sampleListing('LIM-GROUP', ['LIM-A', 'LIM-B']);
      const productData = body['productData'] as { productTypeId: string; attributes: unknown[] };
      productData.productTypeId = 'pt-limits';
      productData.attributes.push({ id: 'keywords', multiTextValue: { values: ['a', 'b', 'c', 'a'] } });
      (body['variants'] as { productData: { attributes: unknown[] } }[])[1]!.productData.attributes.push({ id: 'sizes', multiTextValue: { values: ['S', 'M'] } });
      const l = await createListingViaAdmin(t, seed, body);
      empty(await post('LIM-B', 'errors', { submissionType: 'product', errors: [{ type: 'TYPE_MISSING_VALUE', attributeIds: ['brand'] }] }));
      clock.advance(5000);
      const [a, b] = await report(l.id);
      const now = clock.now().toISOString();
      const keywords = {
        submissionType: 'service_attribute_limit',
        attributeIds: ['keywords'],
        severity: 'SEVERITY_ERROR',
        type: 'TYPE_TOO_MANY_VALUES',
        createdAt: now,
      };
      assert.deepEqual(
        a!.errors.map((e) => ({ ...e, message: undefined })),
        [{ ...keywords, message: undefined }],
      );
      assert.match(a!.errors[0]!.message, /keywords has 3 unique items.*at most 2/);
      assert.deepEqual(
        b!.errors.map((e) => [e.submissionType, e.attributeIds, e.type]),
        [
          ['product', ['brand'], 'TYPE_MISSING_VALUE'],
          ['service_attribute_limit', ['keywords'], 'TYPE_TOO_MANY_VALUES'],
          ['service_attribute_limit', ['sizes'], 'TYPE_TOO_MANY_VALUES'],
        ],
      );
      assert.equal(a!.status, 'STANDARD_STATUS_UNSPECIFIED');
      assert.equal(a!.statusUpdatedAt, null);
      // Computed, never stored.
      assert.equal((await errorRows()).some((r) => r.submission_type === 'service_attribute_limit'), false);
    });

    it("answers 404 for an unknown listing or another account's", async () => {
      const foreign = await createListingViaAdmin(t, other, sampleListing('ERR-X', ['ERR-X1']));
      assertV1Error(await t.app.inject({ url: `/admin/accounts/${seed.accountId}/listings/${foreign.id}/errors`, headers: adminHeaders }), 404);
      assertV1Error(await t.app.inject({ url: `/admin/accounts/${seed.accountId}/listings/999999/errors`, headers: adminHeaders }), 404);
      assertV1Error(await t.app.inject({ url: `/admin/accounts/${seed.accountId}/listings/abc/errors`, headers: adminHeaders }), 400);
      const res = await t.app.inject({ url: `/admin/accounts/${seed.accountId}/listings/${listing.id}/errors`, headers: bearer(seed.sellerToken) });
      assert.equal(res.statusCode, 401, res.body);
    });
  });
});
