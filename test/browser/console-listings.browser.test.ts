import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ListingView } from '../../src/domain/listings/model.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { admin } from '../helpers/admin.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createListingViaAdmin, listingWithVariants } from '../helpers/listings.js';
import { skip, startConsoleHarness, type ConsoleHarness } from './support.js';
import { idOfBegun } from '../helpers/ingestion.js';

const EMAIL = 'owner@listings-browser.example';

describe('console in a browser: listings (edit a title, apply an ingestion plan)', () => {
  let h: ConsoleHarness;
  let seed: SeededAccount;
  let mug: ListingView;

  /** The storefront's product-data poll after `since`, with the channel's token. */
  const pollUpdated = async (since: string) => {
    const res = await h.t.app.inject({ url: `/v2/storefront/listing/product_data/updated?since=${encodeURIComponent(since)}`, headers: bearer(seed.channel.token) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<{ listings: ListingView[] }>().listings;
  };
  const push = async (path: string, payload: object) => {
    const res = await h.t.app.inject({ method: 'POST', url: `/v2/storefront/listing/ingestion/${path}`, headers: bearer(seed.channel.token), payload });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<Record<string, unknown>>();
  };
  const titleOf = (l: ListingView | undefined) => l?.productData.attributes.find((a) => a.id === 'title');

  before(async () => {
    if (skip) return;
    h = await startConsoleHarness();
    seed = await seedAccount(h.t, 'Listings Browser Shop');
    mug = await createListingViaAdmin(h.t, seed, listingWithVariants('MUG', [{ sku: 'MUG-BLUE', channelId: 'CH-1' }]));
    await h.addSeller(seed.accountId, EMAIL);
  });
  after(async () => {
    await h?.close();
  });

  it("the seller edits a listing's title on its page; the storefront's poll sees the new version", { skip }, async () => {
    const page = await h.newPage();
    await h.signIn(page, EMAIL);
    await page.waitForURL(`${h.base}/console/home`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Listings' }).click();
    await page.waitForURL(`${h.base}/console/listings`);
    await page.getByLabel('Storefront').selectOption({ label: `Shop One (${seed.channel.installationId})` });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(`${h.base}/console/listings?storefrontId=${seed.channel.installationId}`);
    await page.getByRole('link', { name: 'MUG', exact: true }).click();
    await page.waitForURL(`${h.base}/console/listings/${mug.id}`);

    const since = new Date().toISOString();
    assert.deepEqual(await pollUpdated(since), [], 'nothing changed yet');
    const edit = page.getByRole('region', { name: 'Edit' });
    await edit.getByLabel('title', { exact: true }).fill('Blue mug, 350 ml');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Listing saved.' }).waitFor();
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'MUG: Blue mug, 350 ml');

    const polled = await pollUpdated(since);
    assert.deepEqual(
      polled.map((l) => l.id),
      [mug.id],
    );
    const title = titleOf(polled[0]);
    assert.equal(title?.textValue, 'Blue mug, 350 ml');
    assert.notEqual(title?.versionId, titleOf(mug)?.versionId, 'a new version');
    await h.finish(page);
  });

  it('a channel pushes listings; the seller reviews the plan and applies it; the listings then exist', { skip }, async () => {
    const ingestionId = await idOfBegun(h.t, push('begin', { expectedNumListings: 2, autoApplyIngestionPlan: false }));
    await push('request', { id: 'MUG', variants: [{ sku: 'MUG-BLUE' }, { sku: 'MUG-GREEN' }] });
    await push('request', { id: 'PLATE', variants: [{ sku: 'PLATE-1' }] });
    await push('end', { actualNumListings: 2 });
    await new JobWorker(h.t.deps, { schedules: [] }).runUntilIdle();

    const page = await h.newPage();
    await h.signIn(page, EMAIL);
    await page.waitForURL(`${h.base}/console/home`);
    // Home's count opens the ingestion plans themselves.
    await page.getByRole('link', { name: /ingestion plans waiting for your review/ }).click();
    await page.waitForURL(`${h.base}/console/listings/ingestions`);
    const session = page.getByRole('region', { name: `Ingestion ${ingestionId} · storefront ${seed.channel.installationId}` });
    assert.match((await session.textContent()) ?? '', /Ready to review[\s\S]*1 listing\(s\) to create, 1 to update/);
    const confirmed = page.waitForEvent('dialog').then(async (dialog) => {
      await dialog.accept();
      return dialog.message();
    });
    await session.getByRole('button', { name: 'Apply' }).click();
    assert.equal(await confirmed, 'Apply this plan to your listings and catalog?');
    await page.getByRole('status').filter({ hasText: `Ingestion ${ingestionId} applied: 1 listing(s) created, 1 updated.` }).waitFor();
    assert.equal(await session.locator('.badge').first().textContent(), 'Applied');

    // The listings exist: on the Listings page, and through the API.
    await page.getByRole('link', { name: '← Listings' }).click();
    await page.waitForURL(`${h.base}/console/listings`);
    await page.getByRole('link', { name: 'PLATE', exact: true }).waitFor();
    const listed = (await admin(h.t, 'GET', `/admin/accounts/${seed.accountId}/listings?storefrontId=${seed.channel.installationId}`)).json<{
      results: { listingId: number; sku: string }[];
    }>().results;
    const variants: Record<string, string[]> = {};
    for (const l of listed) {
      const view = (await admin(h.t, 'GET', `/admin/accounts/${seed.accountId}/listings/${l.listingId}`)).json<ListingView>();
      variants[l.sku] = view.variants.map((v) => v.sku).sort();
    }
    assert.deepEqual(variants, { MUG: ['MUG-BLUE', 'MUG-GREEN'], PLATE: ['PLATE-1'] });
    await h.finish(page);
  });
});
