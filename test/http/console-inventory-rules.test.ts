import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createWarehouse } from '../../src/domain/accounts/warehouses.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { stock } from './v1-sales-orders-helpers.js';
import type { ChannelRulesView } from '../../src/domain/inventory/channel-rules-store.js';

/**
 * The console's Inventory rules page of a storefront (issue 28 item 1): the rules for every SKU, per-SKU
 * exceptions (add, edit, remove, filter, pages), the preview of one SKU, refusals in the seller's words with
 * nothing changed, tenancy and CSRF. What is saved is read back through the operator API.
 */

const PASSWORD = 'correct horse battery';

type Rules = ChannelRulesView;

describe('console: a storefront’s inventory rules', () => {
  const clock = manualClock(new Date('2026-11-26T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let east = 0;
  let b: ConsoleBrowser;
  let base = '';

  const rules = async (storefrontId = seed.channel.installationId) => {
    const res = await admin(t, 'GET', `/admin/accounts/${seed.accountId}/storefronts/${storefrontId}/inventory-rules`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json<Rules>();
  };
  const follow = async (res: { statusCode: number; headers: Record<string, unknown>; body: string }) => {
    assert.equal(res.statusCode, 303, res.body);
    return b.get(String(res.headers.location).replace(/#.*$/, ''));
  };
  /** The page's text without tags, for sentences that span elements. */
  const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').replace(/&gt;/g, '>').replace(/&#39;|&apos;/g, "'");

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Rules Shop');
    other = await seedAccount(t, 'Other Shop');
    east = (await createWarehouse(t.deps.db.db, seed.accountId, { name: 'East' }, clock.now())).warehouseId;
    await stock(t, seed.sellerToken, 'RULE-A', seed.warehouses.main, 10);
    await stock(t, seed.sellerToken, 'RULE-A', east, 5);
    await stock(t, seed.sellerToken, 'RULE-A', seed.warehouses.channel, 3);
    await stock(t, seed.sellerToken, 'RULE-B', seed.warehouses.main, 1);
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@rules.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    b = consoleBrowser(t);
    assert.equal((await b.signIn('owner@rules.example', PASSWORD)).statusCode, 303);
    base = `/console/apps/storefronts/${seed.channel.installationId}/inventory-rules`;
  });
  after(async () => t.close());

  it('is linked from the storefront’s page and shows the defaults in the seller’s words', async () => {
    const sf = await b.get(`/console/apps/storefronts/${seed.channel.installationId}`);
    assert.equal(sf.statusCode, 200, sf.body);
    assert.ok(sf.body.includes(`href="${base}"`));
    const page = await b.get(base);
    assert.equal(page.statusCode, 200, page.body);
    for (const words of ['Share of stock shown', 'Keep back (safety stock)', 'Show at most', 'Always show (made to order)', 'Warehouses that feed this channel', 'Preview a SKU']) {
      assert.ok(page.body.includes(words), words);
    }
    assert.match(page.body, /id="f-percent" name="percent" value="100"/);
    assert.match(page.body, /name="feed" value="all" checked/);
    assert.match(text(page.body), /Not listed: Channel network\./);
    assert.doesNotMatch(text(page.body), /safetyQuantity|maxQuantity|fixedQuantity|warehouseIds|skuOverrides/);
    assert.match(page.body, /No exceptions: every SKU follows the rules above\./);
  });

  it('previews a SKU with the defaults: every available unit of the seller’s warehouses', async () => {
    const page = await b.get(`${base}?sku=RULE-A`);
    assert.equal(page.statusCode, 200, page.body);
    const words = text(page.body);
    assert.match(words, /Shop One is shown 15 units\./);
    assert.match(words, /15 available → 100 % = 15 → shows 15/);
    assert.match(words, /Channel network 3 The channel’s own stock: not ruled/);
    const missing = await b.get(`${base}?sku=NOPE-1`);
    assert.match(text(missing.body), /NOPE-1 is not in your catalog\./);
  });

  it('saves the rules for every SKU (Post/Redirect/Get) through the store, queues the listings’ move, and shows them', async () => {
    await b.get(base);
    const res = await b.postEntries(base, [
      ['percent', '50'],
      ['safety', '2'],
      ['max', '5'],
      ['fixed', ''],
      ['feed', 'some'],
      ['warehouse', String(seed.warehouses.main)],
      ['warehouse', String(east)],
    ]);
    const page = await follow(res);
    assert.match(page.body, /Rules saved\. Shop One’s listings are being updated/);
    assert.match(page.body, /id="f-percent" name="percent" value="50"/);
    assert.match(page.body, /id="f-max" name="max" value="5"/);
    assert.match(page.body, new RegExp(`name="warehouse" value="${east}" checked`));
    assert.doesNotMatch(page.body, new RegExp(`name="warehouse" value="${seed.warehouses.second}" checked`));
    const stored = await rules();
    assert.deepEqual(
      { warehouseIds: stored.warehouseIds, percent: stored.percent, safetyQuantity: stored.safetyQuantity, maxQuantity: stored.maxQuantity, fixedQuantity: stored.fixedQuantity },
      { warehouseIds: [seed.warehouses.main, east].sort((x, y) => x - y), percent: 50, safetyQuantity: 2, maxQuantity: 5, fixedQuantity: null },
    );
    const jobs = await t.deps.db.db.selectFrom('jobs').select('id').where('type', '=', 'inventory.apply-channel-rules').where('account_id', '=', seed.accountId).execute();
    assert.equal(jobs.length, 1);
    const preview = text((await b.get(`${base}?sku=RULE-A`)).body);
    assert.match(preview, /15 available → 50 % = 7 → above the safety stock of 2 → capped at 5 → shows 5/);
    assert.match(preview, /Shop One is shown 5 units\./);
    // Routing order: the most available first (Main 10 carries all 5), East none.
    assert.match(preview, /Main 10 Feeds this channel 5/);
    assert.match(preview, /East 5 Feeds this channel 0/);
    // Saving the same values again changes nothing and says so.
    await b.get(base);
    const again = await b.postEntries(base, [
      ['percent', '50'],
      ['safety', '2'],
      ['max', '5'],
      ['feed', 'some'],
      ['warehouse', String(east)],
      ['warehouse', String(seed.warehouses.main)],
    ]);
    assert.match((await follow(again)).body, /Nothing changed: the rules were already these\./);
    assert.equal((await t.deps.db.db.selectFrom('jobs').select('id').where('type', '=', 'inventory.apply-channel-rules').where('account_id', '=', seed.accountId).execute()).length, 1);
  });

  it('refuses a bad value next to its field in the seller’s words (400) and changes nothing', async () => {
    const before = await rules();
    await b.get(base);
    const res = await b.postEntries(base, [
      ['percent', '0'],
      ['safety', 'lots'],
      ['max', '-3'],
      ['fixed', ''],
      ['feed', 'some'],
    ]);
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.body, /The rules were not saved\. Please fix these 4 things:/);
    assert.match(res.body, /id="f-percent" name="percent" value="0" inputmode="numeric" aria-describedby="f-percent-hint f-percent-error" aria-invalid="true"/);
    assert.match(res.body, /<span class="error" id="f-percent-error">Enter a whole number from 1 to 100\.<\/span>/);
    assert.match(res.body, /id="f-safety-error">Enter a whole number of units from 0 to 1,000,000,000 \(0 keeps nothing back\)\./);
    assert.match(res.body, /id="f-max-error">Enter a whole number of units from 0 to 1,000,000,000, or leave it empty for no limit\./);
    assert.match(res.body, /id="f-warehouses-error">Tick at least one warehouse, or choose all your warehouses\./);
    assert.match(res.body, /name="safety" value="lots"/, 'what was typed stays');
    // A warehouse the form never offers (the channel's own) is refused by the store, in words.
    await b.get(base);
    const forged = await b.postEntries(base, [
      ['percent', '50'],
      ['feed', 'some'],
      ['warehouse', String(seed.warehouses.channel)],
    ]);
    assert.equal(forged.statusCode, 400, forged.body);
    assert.match(forged.body, /id="f-warehouses-error">Choose warehouses from the list: one you ticked is not one of yours, or holds the channel’s own stock\./);
    await b.get(base);
    const foreign = await b.postEntries(base, [
      ['percent', '50'],
      ['feed', 'some'],
      ['warehouse', String(other.warehouses.main)],
    ]);
    assert.equal(foreign.statusCode, 400, foreign.body);
    assert.match(foreign.body, /id="f-warehouses-error"/);
    assert.doesNotMatch(text(forged.body + foreign.body), /warehouseIds|channel-fulfilled/);
    assert.deepEqual(await rules(), before);
  });

  it('adds, edits and removes one SKU’s exception, merging it into the stored set', async () => {
    await b.get(base);
    const added = await b.post(`${base}/exception`, { sku: 'rule-b', percent: '', safety: '', max_mode: 'same', max: '', fixed_mode: 'set', fixed: '10', feed: 'same' });
    assert.equal(added.statusCode, 303, added.body);
    assert.equal(added.headers.location, `${base}?sku=RULE-B#preview`, 'the SKU as the catalog spells it');
    let page = await follow(added);
    assert.match(page.body, /Exception for RULE-B added\./);
    assert.match(text(page.body), /Exceptions for single SKUs \(1\)/);
    assert.match(text(page.body), /RULE-B same same same 10 units same/);
    assert.match(text(page.body), /1 available → always shows 10 \(made to order\) → shows 10/);
    assert.match(text(page.body), /This SKU has its own exception for: always show\./);
    assert.deepEqual((await rules()).skuOverrides, [{ sku: 'RULE-B', fixedQuantity: 10 }]);

    // A second one, then the first edited on its own page: the other stays as it was.
    await b.get(base);
    await follow(await b.post(`${base}/exception`, { sku: 'RULE-A', percent: '100', safety: '0', max_mode: 'none', max: '', fixed_mode: 'same', fixed: '', feed: 'all' }));
    const edit = await b.get(`${base}/exception?sku=RULE-B`);
    assert.equal(edit.statusCode, 200, edit.body);
    assert.match(edit.body, /<h1>Exception for RULE-B<\/h1>/);
    assert.match(edit.body, /name="fixed_mode" value="set" checked/);
    assert.match(edit.body, /id="x-fixed" name="fixed" value="10"/);
    page = await follow(await b.post(`${base}/exception`, { sku: 'RULE-B', percent: '20', safety: '', max_mode: 'set', max: '3', fixed_mode: 'same', fixed: '', feed: 'some', warehouse: String(east) }));
    assert.match(page.body, /Exception for RULE-B saved\./);
    assert.deepEqual((await rules()).skuOverrides, [
      { sku: 'RULE-A', percent: 100, safetyQuantity: 0, maxQuantity: null, warehouseIds: null },
      { sku: 'RULE-B', percent: 20, maxQuantity: 3, warehouseIds: [east] },
    ]);
    const preview = text((await b.get(`${base}?sku=RULE-A`)).body);
    // RULE-A's exception: every seller warehouse (Main 10 + East 5; Second has none), all of it, no cap.
    assert.match(preview, /15 available → 100 % = 15 → shows 15/);

    // Refusals: an unknown SKU, a missing cap, a bad share; nothing changes.
    const before = await rules();
    await b.get(base);
    const unknown = await b.post(`${base}/exception`, { sku: 'NOT-THERE', percent: '', safety: '', max_mode: 'same', fixed_mode: 'same', feed: 'same' });
    assert.equal(unknown.statusCode, 400, unknown.body);
    assert.match(unknown.body, /id="x-sku-error">NOT-THERE is not in your catalog\. Check the spelling, or add the product under Catalog first\./);
    const bad = await b.post(`${base}/exception`, { sku: 'RULE-A', percent: '150', safety: '', max_mode: 'set', max: '', fixed_mode: 'same', feed: 'some' });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.match(bad.body, /id="x-percent-error">Enter a whole number from 1 to 100\./);
    assert.match(bad.body, /id="x-max-error">Enter the most units to show\./);
    assert.match(bad.body, /id="x-warehouses-error">Tick at least one warehouse/);
    assert.deepEqual(await rules(), before);

    await b.get(base);
    const removed = await b.flashOf(`${base}/exception/remove`, { sku: 'RULE-A' });
    assert.match(removed.text, /Exception for RULE-A removed: it follows the rules for every SKU\./);
    assert.deepEqual(
      (await rules()).skuOverrides.map((o) => o.sku),
      ['RULE-B'],
    );
    await b.get(base);
    assert.match((await b.flashOf(`${base}/exception/remove`, { sku: 'RULE-A' })).text, /RULE-A has no exception \(any more\); nothing changed\./);
  });

  it('lists a few hundred exceptions a page at a time, filtered by the start of the SKU', async () => {
    const skus = Array.from({ length: 300 }, (_, i) => `BULK-${String(i).padStart(3, '0')}`);
    for (let i = 0; i < skus.length; i += 50) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/inventory',
        headers: bearer(seed.sellerToken),
        payload: { products: skus.slice(i, i + 50).map((SKU) => ({ SKU, warehouseId: seed.warehouses.main, quantity: 4 })) },
      });
      assert.equal(res.statusCode, 200, res.body);
    }
    const current = await rules();
    const put = await admin(t, 'PUT', `/admin/accounts/${seed.accountId}/storefronts/${seed.channel.installationId}/inventory-rules`, {
      percent: current.percent,
      safetyQuantity: current.safetyQuantity,
      maxQuantity: current.maxQuantity,
      warehouseIds: current.warehouseIds,
      skuOverrides: [...current.skuOverrides, ...skus.map((sku) => ({ sku, safetyQuantity: 1 }))],
    });
    assert.equal(put.statusCode, 200, put.body);
    const first = await b.get(base);
    assert.match(text(first.body), /Exceptions for single SKUs \(301\)/);
    assert.equal((first.body.match(/<th scope="row" class="sku">/g) ?? []).length, 50);
    const next = /href="([^"]+after=[^"]+)"/.exec(first.body)?.[1]?.replace(/&amp;/g, '&');
    assert.ok(next, 'a next page link');
    const second = await b.get(next);
    assert.match(second.body, /BULK-049|BULK-050/);
    assert.doesNotMatch(second.body, /<th scope="row" class="sku">BULK-000<\/th>/);
    const filtered = await b.get(`${base}?q=BULK-11`);
    assert.equal((filtered.body.match(/<th scope="row" class="sku">/g) ?? []).length, 10);
    assert.match(filtered.body, /BULK-119/);
    assert.match((await b.get(`${base}?q=ZZZ`)).body, /No exception’s SKU starts with that text\./);
    // Adding one more through the form keeps every other exception.
    await b.get(base);
    await follow(await b.post(`${base}/exception`, { sku: 'RULE-A', percent: '10', safety: '', max_mode: 'same', fixed_mode: 'same', feed: 'same' }));
    assert.equal((await rules()).skuOverrides.length, 302);
  });

  it('checks each form with the API’s schema and the store’s ranges, in the seller’s words, and changes nothing', async () => {
    const before = await rules();
    // The rules: out of range (the store's check) and not a whole number (the schema's), all at once.
    await b.get(base);
    const res = await b.postEntries(base, [
      ['percent', '101'],
      ['safety', '-1'],
      ['max', '1.5'],
      ['fixed', '99999999999999999999'],
      ['feed', 'all'],
    ]);
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.body, /The rules were not saved\. Please fix these 4 things:/);
    assert.match(res.body, /id="f-percent-error">Enter a whole number from 1 to 100\./);
    assert.match(res.body, /id="f-safety-error">Enter a whole number of units from 0 to 1,000,000,000 \(0 keeps nothing back\)\./);
    assert.match(res.body, /id="f-max-error">Enter a whole number of units from 0 to 1,000,000,000, or leave it empty for no limit\./);
    assert.match(res.body, /id="f-fixed-error">Enter a whole number of units from 0 to 1,000,000,000, or leave it empty to show what is in stock\./);
    assert.doesNotMatch(text(res.body), /safetyQuantity|maxQuantity|fixedQuantity|must be/);
    // A percent left empty is no default here: the form shows the one in force.
    await b.get(base);
    const blank = await b.postEntries(base, [
      ['percent', ''],
      ['feed', 'all'],
    ]);
    assert.equal(blank.statusCode, 400, blank.body);
    assert.match(blank.body, /The rules were not saved\. Please fix this:/);
    assert.match(blank.body, /id="f-percent-error">Enter a whole number from 1 to 100\./);

    // One SKU's exception: a SKU longer than the schema takes is one the catalog does not hold.
    const long = `RULE-${'X'.repeat(300)}`;
    const tooLong = await b.post(`${base}/exception`, { sku: long, percent: '10', safety: '', max_mode: 'same', fixed_mode: 'same', feed: 'same' });
    assert.equal(tooLong.statusCode, 400, tooLong.body);
    assert.match(tooLong.body, new RegExp(`id="x-sku-error">${long} is not in your catalog\\. Check the spelling, or add the product under Catalog first\\.`));
    // Its other problems come first, as the catalog is asked only about a SKU whose rules are fine.
    const both = await b.post(`${base}/exception`, { sku: long, percent: 'ten', safety: '-2', max_mode: 'set', max: '2000000000', fixed_mode: 'same', feed: 'same' });
    assert.equal(both.statusCode, 400, both.body);
    assert.match(both.body, /The exception was not saved\. Please fix these 3 things:/);
    assert.match(both.body, /id="x-percent-error">Enter a whole number from 1 to 100\./);
    assert.match(both.body, /id="x-safety-error">Enter a whole number of units from 0 to 1,000,000,000 \(0 keeps nothing back\)\./);
    assert.match(both.body, /id="x-max-error">Enter a whole number of units from 0 to 1,000,000,000, or leave it empty for no limit\./);
    assert.doesNotMatch(both.body, /id="x-sku-error"/);
    // Removing the exception of a SKU the schema refuses: there is none.
    assert.match((await b.flashOf(`${base}/exception/remove`, { sku: long })).text, /RULE-X+ has no exception \(any more\); nothing changed\./);
    assert.deepEqual(await rules(), before);
  });

  it('answers 404 for another account’s storefront, an installation that is not a storefront, or an unknown id', async () => {
    for (const id of [other.channel.installationId, seed.shipping.installationId, 999_999]) {
      const url = `/console/apps/storefronts/${id}/inventory-rules`;
      assert.equal((await b.get(url)).statusCode, 404);
      assert.equal((await b.get(`${url}/exception?sku=RULE-A`)).statusCode, 404);
      await b.get(base);
      assert.equal((await b.post(url, { percent: '10', feed: 'all' })).statusCode, 404);
      await b.get(base);
      assert.equal((await b.post(`${url}/exception`, { sku: 'RULE-A', percent: '10' })).statusCode, 404);
    }
    const theirs = await admin(t, 'GET', `/admin/accounts/${other.accountId}/storefronts/${other.channel.installationId}/inventory-rules`);
    assert.equal(theirs.json<Rules>().updatedAt, null, 'nothing was written for the other account');
  });

  it('refuses a POST without the form token (403) and changes nothing', async () => {
    const before = await rules();
    const res = await b.post(base, { percent: '1', feed: 'all' }, { csrf: false });
    assert.equal(res.statusCode, 403, res.body);
    const ex = await b.post(`${base}/exception/remove`, { sku: 'RULE-B' }, { csrf: false });
    assert.equal(ex.statusCode, 403, ex.body);
    assert.deepEqual(await rules(), before);
  });
});
