import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ListingView } from '../../src/domain/listings/model.js';
import { manualClock } from '../../src/lib/clock.js';
import { adminHeaders } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createListingViaAdmin, sampleListing } from '../helpers/listings.js';

/**
 * maxUniqueItems end to end (document 2.14, 2.15): a channel's attribute spec limits an attribute; the polls
 * leave the attribute out, the seller sees a TYPE_TOO_MANY_VALUES error, and every change of the limit moves
 * the product type's listings in product_data/updated so the channel resends them.
 */
describe('attribute limits (maxUniqueItems) through taxonomy, polls and the seller view', () => {
  const clock = manualClock(new Date('2026-06-01T12:00:00.000Z'));
  let t: TestApp;
  let s: SeededAccount;
  let listing: ListingView;

  const poll = async (since: string) => {
    const res = await t.app.inject({
      url: `/v2/storefront/listing/product_data/updated?since=${encodeURIComponent(since)}`,
      headers: bearer(s.channel.token),
    });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { listings: ListingView[] }).listings;
  };
  const putLimit = async (max: number) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v2/storefront/taxonomy/attribute_spec/pt-1/materials',
      headers: bearer(s.channel.token),
      payload: { attributeSpec: { attributeSpecId: 'materials', type: 'TYPE_MULTI_SELECT', maxUniqueItems: String(max) } },
    });
    assert.equal(res.statusCode, 200, res.body);
  };

  before(async () => {
    t = await createTestApp({ clock });
    s = await seedAccount(t);
    const body = sampleListing('LIMIT-GROUP', ['LIMIT-1']);
    (body['productData'] as { attributes: unknown[] }).attributes.push({ id: 'materials', multiTextValue: { values: ['oak', 'steel', 'oak', 'glass'] } });
    (body['variants'] as { channelId?: string }[])[0]!.channelId = 'CH-LIMIT-1';
    listing = await createListingViaAdmin(t, s, body);
  });
  after(() => t.close());

  it('leaves out an attribute over its limit, reports it to the seller, and moves the listing on every limit change', async () => {
    // Three unique items (oak twice counts once): a limit of 3 keeps it.
    let since = clock.now().toISOString();
    clock.advance(1000);
    await putLimit(3);
    let [polled] = await poll(since);
    assert.equal(polled?.id, listing.id, 'a new limit moves the listing');
    assert.ok(polled.productData.attributes.some((a) => a.id === 'materials'));

    since = clock.now().toISOString();
    clock.advance(1000);
    await putLimit(2);
    [polled] = await poll(since);
    assert.equal(polled?.id, listing.id);
    assert.deepEqual(
      polled.productData.attributes.map((a) => a.id),
      ['title', 'description'],
      'over the limit: left out of the poll',
    );
    const read = await t.app.inject({ url: `/v2/storefront/listing/${listing.id}`, headers: bearer(s.channel.token) });
    assert.equal((read.json() as ListingView).productData.attributes.some((a) => a.id === 'materials'), false);
    const seller = await t.app.inject({ url: `/admin/accounts/${s.accountId}/listings/${listing.id}`, headers: adminHeaders });
    assert.ok((seller.json() as ListingView).productData.attributes.some((a) => a.id === 'materials'), 'the seller still sees it');

    const errors = await t.app.inject({ url: `/admin/accounts/${s.accountId}/listings/${listing.id}/errors`, headers: adminHeaders });
    assert.equal(errors.statusCode, 200, errors.body);
    const entries = (errors.json() as { variants: { sku: string; errors: { type: string; attributeIds: string[]; message: string }[] }[] }).variants[0]!.errors;
    const tooMany = entries.find((e) => e.type === 'TYPE_TOO_MANY_VALUES');
    assert.ok(tooMany, JSON.stringify(entries));
    assert.deepEqual(tooMany.attributeIds, ['materials']);
    assert.match(tooMany.message, /3/);

    // Saving the same limit again moves nothing; deleting the spec lifts the limit and moves the listing.
    since = clock.now().toISOString();
    clock.advance(1000);
    await putLimit(2);
    assert.deepEqual(await poll(since), []);
    const del = await t.app.inject({ method: 'DELETE', url: '/v2/storefront/taxonomy/attribute_spec/pt-1/materials', headers: bearer(s.channel.token) });
    assert.equal(del.statusCode, 200, del.body);
    [polled] = await poll(since);
    assert.ok(polled?.productData.attributes.some((a) => a.id === 'materials'));
  });
});
