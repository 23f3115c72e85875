import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { after, before, describe, it } from 'node:test';
import type { ListingView } from '../../src/domain/listings/model.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { adminHeaders } from '../helpers/admin.js';
import { bearer, installAndExchange, seedAccount, type InstalledApp, type SeededAccount } from '../helpers/fixtures.js';
import { createListingViaAdmin, sampleListing } from '../helpers/listings.js';
import { assertV2Error } from '../helpers/v2.js';

const SUBMISSION = '/v2/storefront/listing/submission';

interface Submission {
  submissionId: string;
  sku: string;
  type: string;
  contentSent: string;
  contentReceived: string;
  metadata: Record<string, string>;
  successful: boolean;
  submittedAttributeVersionIds: string[];
  preparedAt?: string;
  submittedAt?: string;
  acknowledgedAt?: string;
}

/** POST /v2/storefront/listing/submission and PUT .../submission/{type}/{sku} (document 2.13, 4.7; resolutions §4). */
describe('v2 storefront submissions', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let shop2: InstalledApp;
  let listing: ListingView;

  const post = (payload: unknown, token = seed.channel.token) =>
    t.app.inject({ method: 'POST', url: SUBMISSION, headers: bearer(token), payload: payload as object });
  const put = (type: string, sku: string, payload: unknown, token = seed.channel.token) =>
    t.app.inject({ method: 'PUT', url: `${SUBMISSION}/${encodeURIComponent(type)}/${encodeURIComponent(sku)}`, headers: bearer(token), payload: payload as object });
  const rows = () => t.deps.db.db.selectFrom('listing_submissions').selectAll().orderBy('id').execute();
  const adminListing = async (id: string, s = seed) => {
    const res = await t.app.inject({ url: `/admin/accounts/${s.accountId}/listings/${id}`, headers: adminHeaders });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as ListingView;
  };
  const ok = (res: LightMyRequestResponse) => {
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { submissions: Submission[] };
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    shop2 = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Shop Two' });
    listing = await createListingViaAdmin(t, seed, sampleListing('SUB-GROUP', ['SUB-A', 'SUB-B']));
  });
  after(async () => t.close());

  it('stores submissions with every field emitted and an assigned int64 id (a sent id is ignored)', async () => {
    clock.advance(1000);
    const body = ok(
      await post({
        submissions: [
          {
            submissionId: '999999',
            sku: 'SUB-A',
            type: 'product',
            contentSent: '{"t":1}',
            metadata: { feedId: 'F-1' },
            successful: true,
            preparedAt: '2026-11-21T11:00:00+01:00',
            submittedAt: '2026-11-21T11:59:00Z',
          },
          { sku: 'SUB-B', type: 'product' },
        ],
      }),
    );
    assert.equal(body.submissions.length, 2);
    const [a, b] = body.submissions;
    assert.match(a!.submissionId, /^\d+$/);
    assert.notEqual(a!.submissionId, '999999');
    assert.deepEqual({ ...a, submissionId: 'x' }, {
      submissionId: 'x',
      sku: 'SUB-A',
      type: 'product',
      contentSent: '{"t":1}',
      contentReceived: '',
      metadata: { feedId: 'F-1' },
      successful: true,
      submittedAttributeVersionIds: [],
      preparedAt: '2026-11-21T10:00:00.000Z',
      submittedAt: '2026-11-21T11:59:00.000Z',
      acknowledgedAt: null,
    });
    // Unset scalars, maps and lists are emitted; unset timestamps are null, as the production gateway writes them.
    assert.deepEqual({ ...b, submissionId: 'x' }, {
      submissionId: 'x',
      sku: 'SUB-B',
      type: 'product',
      contentSent: '',
      contentReceived: '',
      metadata: {},
      successful: false,
      submittedAttributeVersionIds: [],
      preparedAt: null,
      submittedAt: null,
      acknowledgedAt: null,
    });
    const stored = await rows();
    assert.deepEqual(
      stored.map((r) => String(r.id)),
      [a!.submissionId, b!.submissionId],
    );
    assert.equal(stored[0]!.storefront_id, seed.channel.installationId);
  });

  it('replaces every submission of the (type, sku) pairs named, keeps several entries for one pair, leaves the rest', async () => {
    ok(await post({ submissions: [{ sku: 'REP-1', type: 'price', contentSent: 'old' }, { sku: 'REP-1', type: 'inventory' }, { sku: 'REP-2', type: 'price' }] }));
    ok(await post({ submissions: [{ sku: 'REP-1', type: 'price', contentSent: 'older-in-shop2' }] }, shop2.token));
    const body = ok(
      await post({
        submissions: [
          { sku: 'REP-1', type: 'price', contentSent: 'new-1' },
          { sku: 'REP-1', type: 'price', contentSent: 'new-2' },
        ],
      }),
    );
    assert.deepEqual(
      body.submissions.map((s) => s.contentSent),
      ['new-1', 'new-2'],
    );
    const mine = (await rows()).filter((r) => r.storefront_id === seed.channel.installationId && r.sku.startsWith('REP-'));
    assert.deepEqual(
      mine.map((r) => [r.sku, r.type, r.content_sent]),
      [
        ['REP-1', 'inventory', ''],
        ['REP-2', 'price', ''],
        ['REP-1', 'price', 'new-1'],
        ['REP-1', 'price', 'new-2'],
      ],
    );
    // The other storefront's submission with the same type and sku is untouched.
    const theirs = (await rows()).filter((r) => r.storefront_id === shop2.installationId);
    assert.deepEqual(
      theirs.map((r) => r.content_sent),
      ['older-in-shop2'],
    );
  });

  it('accepts snake_case field names and any sku (a listing group sku or one the service does not list)', async () => {
    const body = ok(
      await post({
        submissions: [
          {
            sku: 'SUB-GROUP',
            type: 'group',
            content_sent: 'c',
            content_received: 'r',
            prepared_at: '2026-11-21T10:00:00Z',
            submitted_at: '2026-11-21T10:01:00Z',
            acknowledged_at: '2026-11-21T10:02:00.5Z',
            submitted_attribute_version_ids: ['no-such-version'],
          },
          { sku: 'NOT-LISTED', type: 'group', successful: null, metadata: null, content_sent: null },
        ],
      }),
    );
    const [g, n] = body.submissions;
    assert.equal(g!.contentSent, 'c');
    assert.equal(g!.contentReceived, 'r');
    assert.equal(g!.preparedAt, '2026-11-21T10:00:00.000Z');
    assert.equal(g!.submittedAt, '2026-11-21T10:01:00.000Z');
    assert.equal(g!.acknowledgedAt, '2026-11-21T10:02:00.500Z');
    assert.deepEqual(g!.submittedAttributeVersionIds, ['no-such-version']);
    assert.equal(n!.sku, 'NOT-LISTED');
    assert.deepEqual(n!.metadata, {});
    assert.equal(n!.successful, false);
  });

  it('stamps submittedAt on the named attribute versions (submittedAt of the entry, else now), visible on the listing', async () => {
    const title = listing.productData.attributes.find((a) => a.id === 'title')!;
    const color = listing.variants[0]!.productData.attributes.find((a) => a.id === 'color')!;
    const price = listing.variants[1]!.pricing.attributes.find((a) => a.id === 'price')!;
    clock.advance(60_000);
    ok(
      await post({
        submissions: [
          { sku: 'SUB-A', type: 'product', submittedAttributeVersionIds: [title.versionId, color.versionId], submittedAt: '2026-11-21T11:30:00+00:00' },
          { sku: 'SUB-B', type: 'price', submittedAttributeVersionIds: [price.versionId] },
        ],
      }),
    );
    const view = await adminListing(listing.id);
    assert.equal(view.productData.attributes.find((a) => a.id === 'title')!.submittedAt, '2026-11-21T11:30:00.000Z');
    assert.equal(view.variants[0]!.productData.attributes.find((a) => a.id === 'color')!.submittedAt, '2026-11-21T11:30:00.000Z');
    assert.equal(view.variants[1]!.pricing.attributes.find((a) => a.id === 'price')!.submittedAt, clock.now().toISOString());
    // Not named: still never submitted (null, an unset Timestamp).
    assert.equal(view.productData.attributes.find((a) => a.id === 'description')!.submittedAt, null);
    // The storefront's own read shows the same stamps.
    const read = await t.app.inject({ url: `/v2/storefront/listing/${listing.id}`, headers: bearer(seed.channel.token) });
    assert.equal(read.statusCode, 200, read.body);
    const polled = read.json() as ListingView;
    assert.equal(polled.productData.attributes.find((a) => a.id === 'title')!.submittedAt, '2026-11-21T11:30:00.000Z');
    assert.equal(polled.productData.attributes.find((a) => a.id === 'title')!.versionId, title.versionId);
  });

  it("does not stamp another storefront's or another account's versions", async () => {
    const theirs = await createListingViaAdmin(t, seed, sampleListing('SHOP2-GROUP', ['SHOP2-A']), shop2.installationId);
    const foreign = await createListingViaAdmin(t, other, sampleListing('FOREIGN-GROUP', ['FOREIGN-A']));
    const theirTitle = theirs.productData.attributes.find((a) => a.id === 'title')!.versionId;
    const foreignTitle = foreign.productData.attributes.find((a) => a.id === 'title')!.versionId;
    ok(await post({ submissions: [{ sku: 'SHOP2-A', type: 'product', submittedAttributeVersionIds: [theirTitle, foreignTitle] }] }));
    assert.equal((await adminListing(theirs.id)).productData.attributes.find((a) => a.id === 'title')!.submittedAt, null);
    assert.equal((await adminListing(foreign.id, other)).productData.attributes.find((a) => a.id === 'title')!.submittedAt, null);
    // The recording storefront itself does stamp them.
    ok(await post({ submissions: [{ sku: 'SHOP2-A', type: 'product', submittedAttributeVersionIds: [theirTitle] }] }, shop2.token));
    assert.equal((await adminListing(theirs.id)).productData.attributes.find((a) => a.id === 'title')!.submittedAt, clock.now().toISOString());
  });

  it('refuses a bad body with INVALID_ARGUMENT naming the field, and stores nothing', async () => {
    const before = await rows();
    const cases: [unknown, string][] = [
      [{ submissions: [] }, 'submissions'],
      [{ submissions: Array.from({ length: 101 }, (_, i) => ({ sku: `X${i}`, type: 'p' })) }, 'submissions'],
      [{}, 'submissions'],
      [{ submissions: [{ sku: 'BAD-1', type: 'p' }, { sku: 'BAD-1' }] }, 'submissions[1].type'],
      [{ submissions: [{ sku: '', type: 'p' }] }, 'submissions[0].sku'],
      [{ submissions: [{ type: 'p' }] }, 'submissions[0].sku'],
      [{ submissions: [{ sku: 'BAD-1', type: 'p', submittedAt: '2026-11-21T10:00:00' }] }, 'submissions[0].submittedAt'],
      [{ submissions: [{ sku: 'BAD-1', type: 'p', prepared_at: 'yesterday' }] }, 'submissions[0].preparedAt'],
      [{ submissions: [{ sku: 'BAD-1', type: 'p', metadata: { a: 1 } }] }, 'submissions'],
      [{ submissions: [{ sku: 'BAD-1', type: 'p', successful: 'yes' }] }, 'submissions'],
    ];
    for (const [payload, fieldName] of cases) {
      const body = assertV2Error(await post(payload), 400, 3);
      const fields = body.details.flatMap((d) => d.fieldViolations ?? []).map((v) => v.field);
      assert.ok(fields.some((f) => f.startsWith(fieldName)), `${JSON.stringify(fields)} should name ${fieldName}`);
    }
    assert.match(assertV2Error(await post({ submissions: [] }), 400, 3).message, /1/);
    assert.deepEqual(await rows(), before);
  });

  it('needs a storefront token', async () => {
    assertV2Error(await post({ submissions: [{ sku: 'A', type: 'p' }] }, seed.sellerToken), 403, 7);
    assertV2Error(await post({ submissions: [{ sku: 'A', type: 'p' }] }, seed.shipping.token), 403, 7);
    const res = await t.app.inject({ method: 'POST', url: SUBMISSION, payload: { submissions: [{ sku: 'A', type: 'p' }] } });
    assertV2Error(res, 401, 16);
  });

  describe('PUT submission/{type}/{sku}', () => {
    it('updates the latest submission of that type and sku; fields not sent are kept', async () => {
      const created = ok(
        await post({ submissions: [{ sku: 'PUT-1', type: 'product', contentSent: 'a', metadata: { k: 'v' } }, { sku: 'PUT-1', type: 'product', contentSent: 'b', metadata: { k: 'w' } }] }),
      ).submissions;
      clock.advance(1000);
      const res = await put('product', 'PUT-1', { contentReceived: 'got it', metadata: { channelRef: 'R1' } });
      assert.equal(res.statusCode, 200, res.body);
      const updated = res.json() as Submission;
      assert.equal(updated.submissionId, created[1]!.submissionId);
      assert.equal(updated.contentSent, 'b');
      assert.equal(updated.contentReceived, 'got it');
      assert.deepEqual(updated.metadata, { channelRef: 'R1' });
      assert.equal(updated.successful, false);
      assert.equal(updated.acknowledgedAt, null);
      // The earlier one is untouched.
      const first = (await rows()).find((r) => String(r.id) === created[0]!.submissionId)!;
      assert.equal(first.content_received, '');
      assert.equal(first.metadata, '{"k":"v"}');

      const again = (await put('product', 'PUT-1', {})).json() as Submission;
      assert.equal(again.contentReceived, 'got it');
      assert.deepEqual(again.metadata, { channelRef: 'R1' });
    });

    it('maps the status: ACCEPTED acknowledges and succeeds, REJECTED fails, SUBMITTED stamps submittedAt once', async () => {
      ok(await post({ submissions: [{ sku: 'PUT-2', type: 'product' }] }));
      clock.advance(1000);
      let s = (await put('product', 'PUT-2', { status: 'STATUS_SUBMITTED' })).json() as Submission;
      assert.equal(s.submittedAt, clock.now().toISOString());
      const submittedAt = s.submittedAt;
      clock.advance(1000);
      s = (await put('product', 'PUT-2', { status: 1, changedAt: '2026-12-01T00:00:00Z' })).json() as Submission;
      assert.equal(s.submittedAt, submittedAt);

      s = (await put('product', 'PUT-2', { status: 'STATUS_ACCEPTED', changed_at: '2026-11-21T13:00:00+02:00' })).json() as Submission;
      assert.equal(s.successful, true);
      assert.equal(s.acknowledgedAt, '2026-11-21T11:00:00.000Z');
      clock.advance(1000);
      s = (await put('product', 'PUT-2', { status: 3 })).json() as Submission;
      assert.equal(s.successful, false);
      assert.equal(s.acknowledgedAt, '2026-11-21T11:00:00.000Z');
      s = (await put('product', 'PUT-2', { status: 2 })).json() as Submission;
      assert.equal(s.successful, true);
      assert.equal(s.acknowledgedAt, clock.now().toISOString());
      const row = (await rows()).find((r) => r.sku === 'PUT-2')!;
      assert.equal(row.status, 'STATUS_ACCEPTED');
      assert.equal(row.changed_at, clock.now().toISOString());
      // UNSPECIFIED changes neither status nor outcome.
      s = (await put('product', 'PUT-2', { status: 'STATUS_UNSPECIFIED' })).json() as Submission;
      assert.equal(s.successful, true);
      assert.equal((await rows()).find((r) => r.sku === 'PUT-2')!.status, 'STATUS_ACCEPTED');
    });

    it('takes URL-encoded types and skus (slashes, spaces)', async () => {
      ok(await post({ submissions: [{ sku: 'A/B C#1', type: 'feed/v2' }] }));
      const res = await put('feed/v2', 'A/B C#1', { status: 'STATUS_ACCEPTED' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual([(res.json() as Submission).sku, (res.json() as Submission).type], ['A/B C#1', 'feed/v2']);
    });

    it('answers 404 when the storefront has no such submission (another storefront or account included)', async () => {
      ok(await post({ submissions: [{ sku: 'PUT-3', type: 'product' }] }));
      assertV2Error(await put('product', 'NOPE', { status: 'STATUS_ACCEPTED' }), 404, 5);
      assertV2Error(await put('other-type', 'PUT-3', { status: 'STATUS_ACCEPTED' }), 404, 5);
      assertV2Error(await put('product', 'PUT-3', { status: 'STATUS_ACCEPTED' }, shop2.token), 404, 5);
      assertV2Error(await put('product', 'PUT-3', { status: 'STATUS_ACCEPTED' }, other.channel.token), 404, 5);
      assertV2Error(await put('product', 'PUT-3', { status: 'STATUS_ACCEPTED' }, seed.sellerToken), 403, 7);
      assert.equal((await rows()).find((r) => r.sku === 'PUT-3')!.successful, 0);
    });

    it('refuses a bad status or changedAt and changes nothing', async () => {
      ok(await post({ submissions: [{ sku: 'PUT-4', type: 'product' }] }));
      const before = await rows();
      const fieldsOf = (res: LightMyRequestResponse) => assertV2Error(res, 400, 3).details.flatMap((d) => d.fieldViolations ?? []).map((v) => v.field);
      assert.deepEqual(fieldsOf(await put('product', 'PUT-4', { status: 'ACCEPTED' })), ['status']);
      assert.deepEqual(fieldsOf(await put('product', 'PUT-4', { status: 7 })), ['status']);
      assert.deepEqual(fieldsOf(await put('product', 'PUT-4', { status: 'STATUS_ACCEPTED', changedAt: '2026-11-21 10:00' })), ['changedAt']);
      assert.deepEqual(await rows(), before);
    });
  });

  it('parallel replaces of one type and sku leave exactly one set (nothing doubled)', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post({ submissions: [{ sku: 'PARALLEL-SKU', type: 'parallel', contentSent: `attempt ${i}`, successful: true }] })),
    );
    for (const res of results) assert.equal(res.statusCode, 200, res.body);
    const stored = (await rows()).filter((r) => r.type === 'parallel' && r.sku === 'PARALLEL-SKU');
    assert.equal(stored.length, 1);
    assert.ok(results.some((res) => (res.json() as { submissions: Submission[] }).submissions[0]!.submissionId === String(stored[0]!.id)));
  });
});
