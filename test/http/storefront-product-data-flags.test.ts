import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { manualClock } from '../../src/lib/clock.js';
import { adminHeaders } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { sampleListing } from '../helpers/listings.js';
import { assertV2Error } from '../helpers/v2.js';

/**
 * productData.standaloneVariants, baseListingSku and retireBaseParent (resolutions §7): set by the seller,
 * stored, defaults false / "" / false, emitted on every v2 listing output, and a change is a product-data
 * change (product_data/updated).
 */

interface Flags {
  standaloneVariants: boolean;
  baseListingSku: string;
  retireBaseParent: boolean;
}
interface ListingJson {
  id: string;
  sku: string;
  productData: Flags & { updatedAt: string };
}

const DEFAULTS: Flags = { standaloneVariants: false, baseListingSku: '', retireBaseParent: false };
const flagsOf = (l: ListingJson): Flags => ({
  standaloneVariants: l.productData.standaloneVariants,
  baseListingSku: l.productData.baseListingSku,
  retireBaseParent: l.productData.retireBaseParent,
});

describe('listing product data: standaloneVariants, baseListingSku, retireBaseParent', () => {
  const clock = manualClock(new Date('2026-05-01T08:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let plain: ListingJson;
  let flagged: ListingJson;

  const create = async (body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: `/admin/accounts/${seed.accountId}/listings`,
      headers: adminHeaders,
      payload: { storefrontId: seed.channel.installationId, ...body },
    });
  const patch = (id: string, body: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: `/admin/accounts/${seed.accountId}/listings/${id}`, headers: adminHeaders, payload: body });
  const v2 = (path: string) => t.app.inject({ url: `/v2/storefront/listing/${path}`, headers: bearer(seed.channel.token) });
  const listingsOf = (res: LightMyRequestResponse) => {
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { listings: ListingJson[] }).listings;
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    const a = await create(sampleListing('PLAIN', ['PLAIN-1']));
    assert.equal(a.statusCode, 201, a.body);
    plain = a.json() as ListingJson;
    const withFlags = sampleListing('FLAGGED', ['FLAGGED-1']);
    withFlags['productData'] = {
      ...(withFlags['productData'] as object),
      standalone_variants: true,
      baseListingSku: 'BASE-PARENT',
      retireBaseParent: true,
    };
    const b = await create(withFlags);
    assert.equal(b.statusCode, 201, b.body);
    flagged = b.json() as ListingJson;
    clock.advance(1000);
  });
  after(async () => t.close());

  it('defaults to false / "" / false and keeps what the seller set (camelCase or snake_case)', () => {
    assert.deepEqual(flagsOf(plain), DEFAULTS);
    assert.deepEqual(flagsOf(flagged), { standaloneVariants: true, baseListingSku: 'BASE-PARENT', retireBaseParent: true });
  });

  it('emits them on every v2 listing output: reads and polls', async () => {
    for (const path of [plain.id, 'sku/PLAIN', 'sku/PLAIN-1']) {
      const res = await v2(path);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(flagsOf(res.json() as ListingJson), DEFAULTS, path);
    }
    const read = await v2(flagged.id);
    assert.deepEqual(flagsOf(read.json() as ListingJson), flagsOf(flagged));
    const fresh = listingsOf(await v2('new'));
    assert.deepEqual(
      fresh.map((l) => [l.sku, flagsOf(l)]),
      [
        ['PLAIN', DEFAULTS],
        ['FLAGGED', flagsOf(flagged)],
      ],
    );
    const admin = await t.app.inject({ url: `/admin/accounts/${seed.accountId}/listings/${flagged.id}`, headers: adminHeaders });
    assert.deepEqual(flagsOf(admin.json() as ListingJson), flagsOf(flagged));
  });

  it('a seller edit of a flag is a product-data change; the same value again is not', async () => {
    // Put PLAIN live so that it polls in product_data/updated.
    const live = await patch(plain.id, { variants: [{ sku: 'PLAIN-1', channelId: 'CH-PLAIN-1' }] });
    assert.equal(live.statusCode, 200, live.body);
    clock.advance(1000);
    const since = clock.now().toISOString();
    clock.advance(1000);
    assert.deepEqual(listingsOf(await v2(`product_data/updated?since=${since}`)), []);

    const edited = await patch(plain.id, { productData: { standaloneVariants: true, base_listing_sku: 'P-BASE' } });
    assert.equal(edited.statusCode, 200, edited.body);
    const body = edited.json() as ListingJson;
    assert.deepEqual(flagsOf(body), { standaloneVariants: true, baseListingSku: 'P-BASE', retireBaseParent: false });
    assert.equal(body.productData.updatedAt, clock.now().toISOString());
    const polled = listingsOf(await v2(`product_data/updated?since=${since}`));
    assert.deepEqual(
      polled.map((l) => [l.sku, flagsOf(l)]),
      [['PLAIN', { standaloneVariants: true, baseListingSku: 'P-BASE', retireBaseParent: false }]],
    );

    clock.advance(1000);
    const later = clock.now().toISOString();
    clock.advance(1000);
    const same = await patch(plain.id, { productData: { standaloneVariants: true, baseListingSku: 'P-BASE', retireBaseParent: false } });
    assert.equal(same.statusCode, 200, same.body);
    assert.deepEqual(listingsOf(await v2(`product_data/updated?since=${later}`)), [], 'an unchanged value moves nothing');

    const retire = await patch(plain.id, { productData: { retire_base_parent: true, standaloneVariants: false } });
    assert.equal(retire.statusCode, 200, retire.body);
    assert.deepEqual(flagsOf(retire.json() as ListingJson), { standaloneVariants: false, baseListingSku: 'P-BASE', retireBaseParent: true });
    assert.deepEqual(
      listingsOf(await v2(`product_data/updated?since=${later}`)).map((l) => l.sku),
      ['PLAIN'],
    );
  });

  it('refuses a wrong type or an over-long baseListingSku, naming the field, and changes nothing', async () => {
    const before = (await v2(flagged.id)).json() as ListingJson;
    for (const productData of [
      { standaloneVariants: 'yes' },
      { retireBaseParent: 1 },
      { baseListingSku: 42 },
      { baseListingSku: 'x'.repeat(256) },
      { standalone_variants: 'true' },
      { base_listing_sku: 'y'.repeat(256) },
    ]) {
      const res = await patch(flagged.id, { productData });
      assert.equal(res.statusCode, 400, `${JSON.stringify(productData)}: ${res.body}`);
      const name = Object.keys(productData)[0]!.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
      assert.match(res.body, new RegExp(name), res.body);
    }
    const bad = await create({ ...sampleListing('BAD', ['BAD-1']), productData: { standaloneVariants: 'no' } });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.deepEqual((await v2(flagged.id)).json(), before);
    assertV2Error(await v2('sku/BAD'), 404, 5);
  });
});
