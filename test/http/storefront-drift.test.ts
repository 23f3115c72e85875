import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, installAndExchange, seedAccount, type InstalledApp, type SeededAccount } from '../helpers/fixtures.js';
import { adminHeaders, createListingViaAdmin, listingWithVariants, variantRow } from '../helpers/listings.js';
import { stock } from './v1-sales-orders-helpers.js';
import { assertV2Error } from '../helpers/v2.js';
import { driftAnswerText, listDriftSkus } from '../../src/domain/listings/drift.js';

/**
 * GET /v2/storefront/listing/variant/inventory/drift/skus (document 2.17, 4.7; resolutions §1): live
 * variants whose last successful inventory send differs from the intended quantity, after stableFor,
 * outside failureBackoff, oldest stranded first, capped at 1000.
 */

const DRIFT = '/v2/storefront/listing/variant/inventory/drift/skus';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface DriftBody {
  skus: string[];
  nextPageCursor: string;
  driftListings: { sku: string; listingId: string }[];
}

describe('storefront inventory drift', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let shopTwo: InstalledApp;
  let listingId = '';

  const driftRes = (token: string, query: Record<string, string> = {}) =>
    t.app.inject({ url: `${DRIFT}?${new URLSearchParams(query).toString()}`, headers: bearer(token) });
  const drift = async (token: string, query: Record<string, string> = {}) => {
    const res = await driftRes(token, query);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as DriftBody;
    assert.equal(body.nextPageCursor, '');
    assert.deepEqual(
      body.driftListings.map((d) => d.sku),
      body.skus,
      'driftListings parallel to skus',
    );
    return body;
  };
  const skus = async (query: Record<string, string> = {}) => (await drift(seed.channel.token, query)).skus;

  /** Creates a submission through POST /v2/storefront/listing/submission. */
  async function submission(sku: string): Promise<number> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/storefront/listing/submission',
      headers: bearer(seed.channel.token),
      payload: { submissions: [{ sku, type: 'inventory', contentSent: `{"sku":"${sku}"}` }] },
    });
    assert.equal(res.statusCode, 200, res.body);
    return Number((res.json() as { submissions: { submissionId: string }[] }).submissions[0]!.submissionId);
  }
  const send = async (sku: string, inventoryLevelSent: number, successful: boolean) => {
    const id = await submission(sku);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v2/storefront/listing/submission/${id}/inventory`,
      headers: bearer(seed.channel.token),
      payload: { inventoryLevelSent: String(inventoryLevelSent), successful },
    });
    assert.equal(res.statusCode, 200, res.body);
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    shopTwo = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Shop Two', name: 'eBay' });
    await stock(t, seed.sellerToken, 'DR-1', seed.warehouses.main, 4);
    clock.advance(1000);
    const listing = await createListingViaAdmin(
      t,
      seed,
      listingWithVariants('DR-GROUP', [
        { sku: 'DR-1', channelId: 'CH-1' },
        { sku: 'DR-2', channelId: 'CH-2' },
        { sku: 'DR-3' },
        { sku: 'DR-4', channelId: 'CH-4', inventoryEnabled: false },
      ]),
    );
    listingId = listing.id;
    // The other storefront and account have drifting live variants of their own.
    await createListingViaAdmin(t, seed, listingWithVariants('TWO-GROUP', [{ sku: 'TWO-1', channelId: 'CH-T1' }]), shopTwo.installationId);
    await createListingViaAdmin(t, other, listingWithVariants('OTHER-GROUP', [{ sku: 'OTHER-1', channelId: 'CH-O1' }]));
  });
  after(async () => t.close());

  it('reports live, inventory-enabled variants never sent, once stable for stableFor (default 15m)', async () => {
    assert.deepEqual(await skus(), [], 'just listed: not stable for 15 minutes yet');
    const body = await drift(seed.channel.token, { stableFor: '0s' });
    assert.deepEqual(body, {
      skus: ['DR-1', 'DR-2'],
      nextPageCursor: '',
      driftListings: [
        { sku: 'DR-1', listingId },
        { sku: 'DR-2', listingId },
      ],
    });
    clock.advance(15 * MINUTE - 1);
    assert.deepEqual(await skus(), []);
    clock.advance(1);
    assert.deepEqual(await skus(), ['DR-1', 'DR-2'], 'stable for exactly 15 minutes');
  });

  it('holds back a quantity that just changed, then reports it after the older rows', async () => {
    clock.advance(1000);
    await stock(t, seed.sellerToken, 'DR-1', seed.warehouses.main, 6);
    assert.deepEqual(await skus(), ['DR-2']);
    assert.deepEqual(await skus({ stableFor: '1h' }), []);
    clock.advance(15 * MINUTE);
    assert.deepEqual(await skus(), ['DR-2', 'DR-1'], 'oldest stranded first');
    assert.deepEqual(await skus(), ['DR-2', 'DR-1'], 'a level check: reported again until a send lands');
  });

  it('a successful send of the intended quantity clears the drift; another quantity does not; a later change brings it back', async () => {
    await send('DR-2', 0, true);
    assert.deepEqual(await skus(), ['DR-1']);
    await send('DR-1', 4, true);
    assert.deepEqual(await skus(), ['DR-1'], 'sent 4 while 6 is intended');
    await send('DR-1', 6, true);
    assert.deepEqual(await skus(), []);

    clock.advance(1000);
    await stock(t, seed.sellerToken, 'DR-2', seed.warehouses.main, 3);
    assert.deepEqual(await skus({ stableFor: '0s' }), ['DR-2']);
    // Back to the level last sent: no drift, whatever stableFor says.
    clock.advance(1000);
    await stock(t, seed.sellerToken, 'DR-2', seed.warehouses.main, 0);
    assert.deepEqual(await skus({ stableFor: '0s' }), []);
  });

  it('a failed send leaves the variant alone for failureBackoff (default 24h); a success ends the backoff', async () => {
    clock.advance(1000);
    await stock(t, seed.sellerToken, 'DR-1', seed.warehouses.main, 2);
    clock.advance(15 * MINUTE);
    assert.deepEqual(await skus(), ['DR-1']);
    await send('DR-1', 2, false);
    assert.deepEqual(await skus(), []);
    assert.deepEqual(await skus({ failureBackoff: '0s' }), ['DR-1']);
    clock.advance(HOUR);
    assert.deepEqual(await skus({ failureBackoff: '1h' }), ['DR-1']);
    assert.deepEqual(await skus(), []);
    clock.advance(23 * HOUR - 1);
    assert.deepEqual(await skus(), []);
    clock.advance(1);
    assert.deepEqual(await skus(), ['DR-1'], '24 hours after the failure');

    await send('DR-1', 1, false);
    assert.deepEqual(await skus(), []);
    await send('DR-1', 5, true);
    assert.deepEqual(await skus(), ['DR-1'], 'a success (of a wrong level) lifts the backoff at once');
    await send('DR-1', 2, true);
    assert.deepEqual(await skus(), []);
  });

  it('reports a variant whose listing was deleted with listingId "", each SKU on its own entry', async () => {
    const gone = await createListingViaAdmin(t, seed, listingWithVariants('GONE-GROUP', [{ sku: 'GONE-1', channelId: 'CH-G1' }, { sku: 'GONE-2', channelId: 'CH-G2' }]));
    const del = await t.app.inject({ method: 'DELETE', url: `/admin/accounts/${seed.accountId}/listings/${gone.id}`, headers: adminHeaders });
    assert.equal(del.statusCode, 200, del.body);
    clock.advance(1000);
    await stock(t, seed.sellerToken, 'DR-1', seed.warehouses.main, 9);
    const body = await drift(seed.channel.token, { stableFor: '0s' });
    assert.deepEqual(body.driftListings, [
      { sku: 'GONE-1', listingId: '' },
      { sku: 'GONE-2', listingId: '' },
      { sku: 'DR-1', listingId },
    ]);
  });

  it('acts for the calling storefront only', async () => {
    const mine = await skus({ stableFor: '0s' });
    assert.ok(!mine.includes('TWO-1') && !mine.includes('OTHER-1'));
    assert.deepEqual((await drift(shopTwo.token, { stableFor: '0s' })).driftListings.map((d) => d.sku), ['TWO-1']);
    assert.deepEqual((await drift(other.channel.token, { stableFor: '0s' })).skus, ['OTHER-1']);
    assertV2Error(await driftRes(seed.sellerToken), 403, 7);
    assertV2Error(await t.app.inject({ url: DRIFT }), 401, 16);
  });

  it('takes Go and proto durations under either name; a bad one is a 400 naming the parameter', async () => {
    clock.advance(1000);
    const expected = await skus({ stableFor: '0s' });
    assert.deepEqual(expected, ['GONE-1', 'GONE-2', 'DR-1']);
    const queries: Record<string, string>[] = [{ stableFor: '0' }, { stable_for: '0s' }, { stableFor: '0h0m0s', failureBackoff: '86400s' }, { stableFor: '0.5s', failure_backoff: '1h30m' }];
    for (const query of queries) {
      assert.deepEqual(await skus(query), expected, JSON.stringify(query));
    }
    assert.deepEqual(await skus({ stableFor: '900s' }), await skus());
    for (const [name, value] of [
      ['stableFor', 'abc'],
      ['stableFor', '15'],
      ['stableFor', '-5m'],
      ['failureBackoff', '1d'],
      ['failureBackoff', '24 h'],
      ['stable_for', 'soon'],
    ] as const) {
      const camel = name === 'stable_for' ? 'stableFor' : name;
      assertV2Error(await driftRes(seed.channel.token, { [name]: value }), 400, 3, new RegExp(camel));
    }
  });

  it('answers the same JSON whether the database writes it (SQLite) or the rows are serialized, escapes included', async () => {
    const odd = 'DR-"q\\ü😀';
    await createListingViaAdmin(t, seed, listingWithVariants('ODD-GROUP', [{ sku: odd, channelId: 'CH-ODD' }]));
    const res = await driftRes(seed.channel.token, { stableFor: '0s' });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const body = res.json() as DriftBody;
    assert.ok(body.skus.includes(odd), res.body);
    const filter = { storefrontId: seed.channel.installationId, stableForMs: 0, failureBackoffMs: 24 * HOUR };
    const rows = await listDriftSkus(t.deps.db, seed.accountId, filter, clock.now());
    assert.deepEqual(body, { skus: rows.skus, nextPageCursor: '', driftListings: rows.driftListings });
    const text = await driftAnswerText(t.deps.db, seed.accountId, filter, clock.now());
    if (t.deps.db.dialect === 'sqlite') assert.deepEqual(JSON.parse(text!), body);
    else assert.equal(text, null, 'PostgreSQL answers from the rows');
  });
});

describe('storefront inventory drift cap', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  const COUNT = 1003;

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
  });
  after(async () => t.close());

  /**
   * Seeds COUNT drifting live variants straight into the tables (through HTTP this would take minutes),
   * with intended_changed_at shuffled against the id order and tied in pairs, so the order tested is
   * (intended_changed_at, id), not insertion order.
   */
  async function seedDrifting(): Promise<string[]> {
    const db = t.deps.db.db;
    const accountId = seed.accountId;
    const storefrontId = seed.channel.installationId;
    const T0 = clock.now().getTime() - 2 * HOUR;
    const iso = new Date(T0).toISOString();
    const listing = await db
      .insertInto('listings')
      .values({
        account_id: accountId,
        storefront_id: storefrontId,
        sku: 'CAP-GROUP',
        product_data_updated_at: iso,
        channel_listing_id: null,
        has_channel_id: 1,
        poll_updated_at: iso,
        created_at: iso,
        updated_at: iso,
        product_data_enabled: 1,
        category_id: '',
        product_type_id: '',
        pivot_attributes: '[]',
        swatch_image_attribute_ids: '[]',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const skuOf = (i: number) => `CAP-${String(i).padStart(4, '0')}`;
    const rows: { sku: string; id: number; intended: string }[] = [];
    for (let start = 0; start < COUNT; start += 200) {
      const batch = Array.from({ length: Math.min(200, COUNT - start) }, (_, k) => start + k);
      const products = await db
        .insertInto('products')
        .values(
          batch.map((i) => ({
            account_id: accountId,
            sku: skuOf(i),
            sku_lower: skuOf(i).toLowerCase(),
            standard_product_id: null,
            standard_product_id_type: null,
            title: null,
            active: 1,
            inventory_updated_at: iso,
            created_at: iso,
            updated_at: iso,
          })),
        )
        .returning(['id', 'sku'])
        .execute();
      const productId = new Map(products.map((p) => [p.sku, Number(p.id)]));
      const values = batch.map((i) => {
        // 7919 is prime to 1003, so this is a permutation; halving it ties pairs.
        const intended = new Date(T0 + Math.floor(((i * 7919) % COUNT) / 2) * 1000).toISOString();
        return variantRow(
          { account_id: accountId, storefront_id: storefrontId, listing_id: Number(listing.id), product_id: productId.get(skuOf(i))!, sku: skuOf(i) },
          iso,
          { position: i, channel_id: `CH-${i}`, inventory_updated_at: intended, intended_changed_at: intended },
        );
      });
      const inserted = await db.insertInto('listing_variants').values(values).returning(['id', 'sku', 'intended_changed_at']).execute();
      rows.push(...inserted.map((r) => ({ sku: r.sku, id: Number(r.id), intended: r.intended_changed_at })));
    }
    rows.sort((a, b) => (a.intended < b.intended ? -1 : a.intended > b.intended ? 1 : a.id - b.id));
    return rows.map((r) => r.sku);
  }

  it('reports at most 1000 SKUs, oldest stranded first; the rest come on the next call once those are sent', async () => {
    const expected = await seedDrifting();
    const call = async () => {
      const res = await t.app.inject({ url: DRIFT, headers: bearer(seed.channel.token) });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as DriftBody;
    };
    const first = await call();
    assert.equal(first.skus.length, 1000);
    assert.deepEqual(first.skus, expected.slice(0, 1000));
    assert.equal(first.driftListings.length, 1000);
    assert.equal(first.nextPageCursor, '');
    assert.deepEqual((await call()).skus, first.skus, 'nothing sent: the same 1000 again');

    // The integration sends the first 1000 (recorded straight in the table: 1000 HTTP records are slow).
    await t.deps.db.db
      .updateTable('listing_variants')
      .set({ last_sent_quantity: 0, last_sent_at: clock.now().toISOString(), drifting: 0 })
      .where('account_id', '=', seed.accountId)
      .where('sku', 'in', first.skus)
      .execute();
    assert.deepEqual((await call()).skus, expected.slice(1000));
  });
});
