import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JobWorker } from '../../src/jobs/worker.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createListingViaAdmin, listingWithVariants, sampleListing } from '../helpers/listings.js';
import type { ListingView } from '../../src/domain/listings/model.js';
import { idOfBegun } from '../helpers/ingestion.js';

const PASSWORD = 'correct horse battery';

describe('console: seller listings (list, listing page, edit, ingestion plans)', () => {
  const clock = manualClock(new Date('2026-11-23T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let b: ConsoleBrowser;
  let live: ListingView;
  let otherListing: ListingView;

  const storefrontId = () => seed.channel.installationId;
  const follow = async (res: { statusCode: number; headers: Record<string, unknown>; body: string }) => {
    assert.equal(res.statusCode, 303, res.body);
    return b.get(String(res.headers.location));
  };
  const pollUpdated = async () => {
    const res = await t.app.inject({ url: '/v2/storefront/listing/product_data/updated', headers: bearer(seed.channel.token) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<{ listings: ListingView[] }>().listings;
  };
  const push = async (path: string, payload: unknown) => {
    const res = await t.app.inject({ method: 'POST', url: `/v2/storefront/listing/ingestion/${path}`, headers: bearer(seed.channel.token), payload: payload as object });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<Record<string, unknown>>();
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Listing Shop');
    other = await seedAccount(t, 'Other Shop');
    live = await createListingViaAdmin(t, seed, listingWithVariants('MUG', [{ sku: 'MUG-BLUE', channelId: 'CH-1' }, { sku: 'MUG-RED', channelId: 'CH-2' }]));
    otherListing = await createListingViaAdmin(t, other, sampleListing('THEIRS', ['THEIRS-1']));
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@listings.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    b = consoleBrowser(t);
    assert.equal((await b.signIn('owner@listings.example', PASSWORD)).statusCode, 303);
  });
  after(() => t.close());

  it("lists a storefront's listings with title, product type, variants, status and error counts, in keyset pages", async () => {
    const errors = await t.app.inject({
      method: 'POST',
      url: '/v2/storefront/listing/variant/MUG-BLUE/errors',
      headers: bearer(seed.channel.token),
      payload: { submissionType: 'product', errors: [{ attributeIds: ['title'], severity: 'SEVERITY_ERROR', type: 'TYPE_INVALID_VALUE', message: 'title <too> long' }] },
    });
    assert.ok(errors.statusCode < 300, errors.body);
    for (let i = 0; i < 50; i++) await createListingViaAdmin(t, seed, sampleListing(`BULK-${String(i).padStart(2, '0')}`, [`BULK-${i}-A`]));
    const page = await b.get(`/console/listings?storefrontId=${storefrontId()}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, new RegExp(`<a href="/console/listings/${live.id}">MUG</a></td>\\s*<td>MUG title</td>\\s*<td>pt-1</td>\\s*<td class="num">2 \\(2 live\\)</td>`));
    assert.match(page.body, /<span class="badge bad">1 error\(s\)<\/span>/);
    assert.ok(!page.body.includes('THEIRS'), "another account's listings never show");
    assert.ok(!page.body.includes('BULK-49'), 'the first page holds 50 listings');
    const next = /href="(\/console\/listings\?storefrontId=\d+&(?:amp;)?cursor=[^"]+)"/.exec(page.body);
    assert.ok(next, 'a next-page link');
    const second = await b.get(next[1]!.replaceAll('&amp;', '&'));
    assert.equal(second.statusCode, 200);
    assert.match(second.body, /BULK-49/);
    assert.match(second.body, /End of the list/);
    const tampered = await b.get(`/console/listings?storefrontId=${storefrontId()}&cursor=abc`);
    assert.equal(tampered.statusCode, 400);
  });

  it('shows a listing: product data, variants with attributes, channel status and errors, submissions', async () => {
    const sub = await t.app.inject({
      method: 'POST',
      url: '/v2/storefront/listing/submission',
      headers: bearer(seed.channel.token),
      payload: { submissions: [{ sku: 'MUG-BLUE', type: 'product', contentSent: '{}', contentReceived: 'accepted <ok>', successful: true }] },
    });
    assert.equal(sub.statusCode, 200, sub.body);
    const page = await b.get(`/console/listings/${live.id}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /<h1>MUG: MUG title<\/h1>/);
    assert.match(page.body, /<td>description<\/td>\s*<td>MUG description<\/td>/);
    assert.match(page.body, /<h3>MUG-RED<\/h3>/);
    assert.match(page.body, /<td>color<\/td>\s*<td>color-1<\/td>/);
    // A price in its own currency (the channel's), with the currency's symbol.
    assert.match(page.body, /<td>price<\/td>\s*<td>\$10\.00<\/td>/);
    assert.ok(page.body.includes('title &lt;too> long'), 'channel error, escaped');
    assert.ok(page.body.includes('accepted &lt;ok>'), 'submission, escaped');
    assert.match(page.body, /name="attrValue" value="MUG title"/);
  });

  it('edits the title through the page: a new version the storefront poll sees; flags switch off', async () => {
    const beforeVersion = live.productData.attributes.find((a) => a.id === 'title')!.versionId;
    clock.advance(60_000);
    await b.get(`/console/listings/${live.id}`);
    const res = await t.app.inject({
      method: 'POST',
      url: `/console/listings/${live.id}/edit`,
      headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams([
        ['_csrf', b.csrf],
        ['attrId', 'title'],
        ['attrValue', 'Blue & red mug'],
        ['attrId', 'description'],
        ['attrValue', 'MUG description'],
        ['newAttrId', 'material'],
        ['newAttrValue', 'stoneware'],
        ['enabled', 'true'],
        ['variantSku', 'MUG-BLUE'],
        ['variantProductData', 'MUG-BLUE'],
        ['variantInventory', 'MUG-BLUE'],
        ['variantSku', 'MUG-RED'],
        ['variantProductData', 'MUG-RED'],
      ]).toString(),
    });
    // (Posted outside the browser helper to repeat fields: its flash cookie is not kept, so no flash here.)
    const page = await follow(res);
    assert.match(page.body, /<h1>MUG: Blue &amp; red mug<\/h1>/);
    const polled = (await pollUpdated()).find((l) => l.id === live.id)!;
    const title = polled.productData.attributes.find((a) => a.id === 'title')!;
    assert.equal(title.textValue, 'Blue & red mug');
    assert.notEqual(title.versionId, beforeVersion);
    assert.equal(title.updatedAt, clock.now().toISOString());
    const description = polled.productData.attributes.find((a) => a.id === 'description')!;
    assert.equal(description.versionId, live.productData.attributes.find((a) => a.id === 'description')!.versionId, 'an unchanged value keeps its version');
    assert.equal(polled.productData.attributes.find((a) => a.id === 'material')?.textValue, 'stoneware');
    assert.deepEqual(
      polled.variants.map((v) => [v.sku, v.productData.enabled, v.inventory.enabled]),
      [
        ['MUG-BLUE', true, true],
        ['MUG-RED', true, false],
      ],
    );

    // Unticking "enabled" takes the listing out of the product-data poll.
    const off = await follow(await b.post(`/console/listings/${live.id}/edit`, { attrId: 'title', attrValue: 'Blue & red mug' }));
    assert.match(off.body, /Listing saved/);
    assert.equal((await pollUpdated()).some((l) => l.id === live.id), false);
  });

  it('shows a refused edit as a flash and changes nothing', async () => {
    await b.get(`/console/listings/${live.id}`);
    const page = await follow(await b.post(`/console/listings/${live.id}/edit`, { newAttrId: 'material', newAttrValue: '' }));
    assert.match(page.body, /class="flash bad"[^>]*>A new attribute needs both an id and a value\. Fill in both, or leave both empty\./);
    // The PATCH body's schema checks the form too, in the form's words.
    const bad = await b.flashOf(`/console/listings/${live.id}/edit`, { attrId: 'title', attrValue: 'Mug', variantSku: 'MUG\u0007BLUE' });
    assert.deepEqual(bad, { kind: 'bad', text: 'Variant SKU: must not contain control characters' });
  });

  it("answers another account's listing, or a malformed id, with the 404 page; its edit changes nothing", async () => {
    for (const url of [`/console/listings/${otherListing.id}`, '/console/listings/0', '/console/listings/x']) {
      const page = await b.get(url);
      assert.equal(page.statusCode, 404, url);
      assert.match(page.body, /Not found/);
    }
    const post = await b.post(`/console/listings/${otherListing.id}/edit`, { attrId: 'title', attrValue: 'Hijacked' });
    assert.equal(post.statusCode, 404);
    const theirs = (await admin(t, 'GET', `/admin/accounts/${other.accountId}/listings/${otherListing.id}`)).json<ListingView>();
    assert.equal(theirs.productData.attributes.find((a) => a.id === 'title')?.textValue, 'THEIRS title');
  });

  it('refuses an edit without the CSRF token (403)', async () => {
    const res = await b.post(`/console/listings/${live.id}/edit`, { attrId: 'title', attrValue: 'No token' }, { csrf: false });
    assert.equal(res.statusCode, 403);
    const view = (await admin(t, 'GET', `/admin/accounts/${seed.accountId}/listings/${live.id}`)).json<ListingView>();
    assert.equal(view.productData.attributes.find((a) => a.id === 'title')?.textValue, 'Blue & red mug');
  });

  it('shows an ingestion plan waiting for review and applies it with one action', async () => {
    const id = await idOfBegun(t, push('begin', { expectedNumListings: 2, autoApplyIngestionPlan: false }));
    await push('request', { id: 'MUG', variants: [{ sku: 'MUG-BLUE' }, { sku: 'MUG-GREEN' }] });
    await push('request', { id: 'NEWG', variants: [{ sku: 'NEW-1' }, { sku: 'BULK-0-A' }] });
    await push('end', { actualNumListings: 2 });
    await new JobWorker(t.deps, { id: 'console-listings-test', schedules: [] }).runUntilIdle();
    const page = await b.get('/console/listings/ingestions');
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, new RegExp(`Ingestion ${id} · storefront ${storefrontId()}`));
    assert.match(page.body, /<span class="badge warn">Ready to review<\/span>/);
    assert.match(page.body, /1 listing\(s\) to create, 1 to update/);
    assert.match(page.body, /<td>SKU on another listing<\/td>\s*<td>BULK-0-A<\/td>/);
    assert.ok(page.body.includes(`action="/console/listings/ingestions/${id}/apply"`));

    const otherAccount = await b.post(`/console/listings/ingestions/999999/apply`, {});
    assert.equal(otherAccount.statusCode, 404);
    const applied = await follow(await b.post(`/console/listings/ingestions/${id}/apply`, {}));
    assert.match(applied.body, new RegExp(`Ingestion ${id} applied: 1 listing\\(s\\) created, 1 updated`));
    assert.match(applied.body, /<span class="badge ok">Applied<\/span>/);
    assert.ok(!applied.body.includes(`action="/console/listings/ingestions/${id}/apply"`));
    const detail = (await admin(t, 'GET', `/admin/accounts/${seed.accountId}/ingestions/${id}`)).json<{ status: string }>();
    assert.equal(detail.status, 'APPLIED');
    const again = await follow(await b.post(`/console/listings/ingestions/${id}/apply`, {}));
    assert.match(again.body, /class="flash bad"[^>]*>This plan was applied already; nothing changed\./);
  });
});
