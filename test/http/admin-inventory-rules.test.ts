import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withTx } from '../../src/db/tx.js';
import { createWarehouse } from '../../src/domain/accounts/warehouses.js';
import { RULES_STEP_VARIANTS, type ChannelRulesView } from '../../src/domain/inventory/channel-rules-store.js';
import { applyChannelRulesStep } from '../../src/domain/inventory/variant-stock-sync.js';
import type { VariantView } from '../../src/domain/listings/model.js';
import { manualClock } from '../../src/lib/clock.js';
import { assertV1Error } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, installAndExchange, seedAccount, type InstalledApp, type SeededAccount } from '../helpers/fixtures.js';
import { adminHeaders, createListingViaAdmin, listingWithVariants } from '../helpers/listings.js';
import { runJobs } from '../helpers/reports.js';
import { stock } from './v1-sales-orders-helpers.js';

/**
 * Channel inventory rules through the operator API (resolutions §9, issue 28): GET and PUT
 * /admin/accounts/{accountId}/storefronts/{storefrontId}/inventory-rules, what a storefront then reads as its
 * variants' inventory, the stock path, and the background move of the variants after a change.
 */

type Rules = ChannelRulesView;

describe('channel inventory rules (operator API)', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let shopTwo: InstalledApp;
  let east = 0;

  const url = (storefrontId = seed.channel.installationId, accountId = seed.accountId) =>
    `/admin/accounts/${accountId}/storefronts/${storefrontId}/inventory-rules`;
  const get = (u = url()) => t.app.inject({ url: u, headers: adminHeaders });
  const put = (payload: unknown, u = url()) => t.app.inject({ method: 'PUT', url: u, headers: adminHeaders, payload: payload as Record<string, unknown> });
  const rules = async (u = url()) => {
    const res = await get(u);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Rules;
  };
  const variant = async (sku: string, token = seed.channel.token) => {
    const res = await t.app.inject({ url: `/v2/storefront/listing/variant/${sku}`, headers: bearer(token) });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as VariantView).inventory;
  };
  const polled = async (since: Date, token = seed.channel.token) => {
    const res = await t.app.inject({ url: `/v2/storefront/listing/variant/inventory/updated?since=${since.toISOString()}`, headers: bearer(token) });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { variants: VariantView[] }).variants.map((v) => v.sku).sort();
  };
  const tick = () => {
    clock.advance(1000);
    return clock.now();
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other');
    east = (await createWarehouse(t.deps.db.db, seed.accountId, { name: 'East' }, clock.now())).warehouseId;
    shopTwo = await installAndExchange(t, seed.accountId, 'SALES_CHANNEL', ['listing:self'], { storefrontName: 'Shop Two', name: 'eBay' });
    await stock(t, seed.sellerToken, 'RULE-A', seed.warehouses.main, 10);
    await stock(t, seed.sellerToken, 'RULE-A', east, 5);
    await stock(t, seed.sellerToken, 'RULE-A', seed.warehouses.channel, 3);
    await stock(t, seed.sellerToken, 'RULE-B', seed.warehouses.main, 0);
    await createListingViaAdmin(t, seed, listingWithVariants('RULE-GROUP', [{ sku: 'RULE-A', channelId: 'CH-A' }, { sku: 'RULE-B', channelId: 'CH-B' }]));
    await createListingViaAdmin(t, seed, listingWithVariants('RULE-GROUP-2', [{ sku: 'RULE-A', channelId: 'EB-A' }]), shopTwo.installationId);
  });
  after(async () => t.close());

  it('answers the defaults, resolved, while nobody has set rules', async () => {
    const current = await rules();
    assert.deepEqual(current, {
      storefrontId: seed.channel.installationId,
      warehouseIds: [seed.warehouses.main, seed.warehouses.second, east].sort((a, b) => a - b),
      percent: 100,
      safetyQuantity: 0,
      maxQuantity: null,
      fixedQuantity: null,
      skuOverrides: [],
      updatedAt: null,
    });
    const a = await variant('RULE-A');
    assert.equal(a.merchantFulfillableQuantity, '15');
    assert.equal(a.totalQuantity, '18');
  });

  it("answers 404 for another account's storefront, an unknown id or an installation that is not a storefront", async () => {
    assertV1Error(await get(url(other.channel.installationId)), 404);
    assertV1Error(await get(url(seed.channel.installationId, other.accountId)), 404);
    assertV1Error(await get(url(999_999)), 404);
    assertV1Error(await get(url(seed.shipping.installationId)), 404);
    assertV1Error(await put({ percent: 50 }, url(other.channel.installationId)), 404);
  });

  it('refuses bad rules with a 400 naming each field, and changes nothing', async () => {
    const cases: [unknown, RegExp][] = [
      [{ percent: 0 }, /percent: must be a whole number from 1 to 100/],
      [{ percent: 101 }, /percent/],
      [{ safetyQuantity: -1 }, /safetyQuantity: must be a whole number from 0 to 1,000,000,000/],
      [{ maxQuantity: 3_000_000_000 }, /maxQuantity: must be a whole number from 0 to 1,000,000,000, or null/],
      [{ maxQuantity: -5 }, /maxQuantity/],
      [{ fixedQuantity: -1 }, /fixedQuantity/],
      [{ warehouseIds: [999_999] }, /warehouseIds\[0\]: 999999 is not a warehouse of this account/],
      [{ warehouseIds: [other.warehouses.main] }, /warehouseIds\[0\]: .* is not a warehouse of this account/],
      [{ warehouseIds: [seed.warehouses.channel] }, /warehouseIds\[0\]: .*channel-fulfilled/],
      [{ warehouseIds: [seed.warehouses.main, seed.warehouses.main] }, /warehouseIds\[1\]: .* listed twice/],
      [{ warehouseIds: [] }, /warehouseIds: must list at least one warehouse/],
      [{ skuOverrides: [{ sku: 'RULE-A', percent: 10 }, { sku: 'RULE-A', fixedQuantity: 1 }] }, /skuOverrides\[1\]\.sku: RULE-A is already overridden at skuOverrides\[0\]/],
      [{ skuOverrides: [{ sku: 'NOT-IN-CATALOG' }] }, /skuOverrides\[0\]\.sku: NOT-IN-CATALOG is not a SKU of this account's catalog/],
      [{ skuOverrides: [{ sku: 'RULE-A', percent: 500 }] }, /skuOverrides\[0\]\.percent/],
      [{ percent: '50' }, /percent/],
      [{ colour: 'red' }, /colour/],
    ];
    for (const [body, pattern] of cases) {
      const errors = assertV1Error(await put(body), 400);
      assert.match(errors.join('\n'), pattern, JSON.stringify(body));
    }
    // Every problem of one body in one answer.
    const both = assertV1Error(await put({ percent: 0, safetyQuantity: -1 }), 400);
    assert.equal(both.length, 2, both.join('\n'));
    assertV1Error(await put({ skuOverrides: Array.from({ length: 5001 }, (_, i) => ({ sku: `S-${i}` })) }), 400, /skuOverrides/);
    assert.equal((await rules()).updatedAt, null, 'nothing stored');
    assert.equal(await runJobs(t), 0, 'no job');
  });

  it('a change moves exactly the variants whose ruled quantity changed, in the background; the other storefront keeps its own', async () => {
    const before = tick();
    tick();
    const res = await put({ percent: 50, safetyQuantity: 2 });
    assert.equal(res.statusCode, 200, res.body);
    const stored = res.json() as Rules;
    assert.equal(stored.percent, 50);
    assert.equal(stored.safetyQuantity, 2);
    assert.equal(stored.updatedAt, clock.now().toISOString());
    tick();
    assert.ok((await runJobs(t)) >= 1);
    // 15 available over main and east: floor(15 × 50 %) = 7, over the safety quantity 2.
    const a = await variant('RULE-A');
    assert.equal(a.merchantFulfillableQuantity, '7');
    assert.equal(a.storefrontFulfillableQuantity, '3', 'channel-fulfilled stock is not ruled');
    assert.equal(a.totalQuantity, '10');
    // Filled in routing order (most available first): main holds 10, so all 7 are main's.
    assert.deepEqual(a.merchantFulfillableWarehouseQuantities, [
      { warehouseId: String(seed.warehouses.main), quantity: '7' },
      { warehouseId: String(east), quantity: '0' },
    ]);
    // RULE-B had 0 and still has 0: not moved. Shop Two has no rules: unchanged.
    assert.deepEqual(await polled(before), ['RULE-A']);
    assert.equal((await variant('RULE-A', shopTwo.token)).merchantFulfillableQuantity, '15');
    assert.deepEqual(await polled(before, shopTwo.token), []);
  });

  it('the same rules sent again change nothing and start no work', async () => {
    const before = tick();
    tick();
    const res = await put({ percent: 50, safetyQuantity: 2 });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await runJobs(t), 0);
    assert.deepEqual(await polled(before), []);
  });

  it('a stock change is ruled at once, without waiting for any job', async () => {
    const before = tick();
    tick();
    await stock(t, seed.sellerToken, 'RULE-A', seed.warehouses.main, 1);
    // 1 + 5 = 6 available: floor(3) = 3, over 2.
    assert.equal((await variant('RULE-A')).merchantFulfillableQuantity, '3');
    assert.deepEqual(await polled(before), ['RULE-A']);
    tick();
    await stock(t, seed.sellerToken, 'RULE-A', seed.warehouses.main, 0);
    // 5 available: floor(2.5) = 2, at the safety quantity: 0.
    assert.equal((await variant('RULE-A')).merchantFulfillableQuantity, '0');
    tick();
    await stock(t, seed.sellerToken, 'RULE-A', seed.warehouses.main, 10);
    assert.equal((await variant('RULE-A')).merchantFulfillableQuantity, '7');
  });

  it('per-SKU overrides replace fields one by one; a fixed quantity with no stock goes to the first warehouse', async () => {
    const res = await put({ percent: 50, safetyQuantity: 2, warehouseIds: [east], skuOverrides: [{ sku: 'RULE-B', fixedQuantity: 20 }, { sku: 'RULE-A', percent: 100, warehouseIds: null }] });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual((res.json() as Rules).skuOverrides, [
      { sku: 'RULE-A', warehouseIds: null, percent: 100 },
      { sku: 'RULE-B', fixedQuantity: 20 },
    ]);
    assert.deepEqual((res.json() as Rules).warehouseIds, [east]);
    await runJobs(t);
    // RULE-A: every default warehouse (override null), 100 %, the storefront's safety 2: 15.
    assert.equal((await variant('RULE-A')).merchantFulfillableQuantity, '15');
    const b = await variant('RULE-B');
    assert.equal(b.merchantFulfillableQuantity, '20');
    // RULE-B's stock row is in main, which does not feed the channel any more: east, the rule's first warehouse, carries it.
    assert.deepEqual(b.merchantFulfillableWarehouseQuantities, [{ warehouseId: String(east), quantity: '20' }]);
  });

  it('an empty body resets to the defaults', async () => {
    const before = tick();
    tick();
    const res = await put({});
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as Rules).percent, 100);
    assert.deepEqual((res.json() as Rules).skuOverrides, []);
    await runJobs(t);
    assert.equal((await variant('RULE-A')).merchantFulfillableQuantity, '15');
    assert.equal((await variant('RULE-B')).merchantFulfillableQuantity, '0');
    assert.deepEqual(await polled(before), ['RULE-B']);
  });
});

describe('channel inventory rules: the background move in bounded steps', () => {
  let t: TestApp;
  let seed: SeededAccount;
  const SKUS = Array.from({ length: 450 }, (_, i) => `STEP-${String(i).padStart(3, '0')}`);

  const merchantQuantities = async () => {
    const rows = await t.deps.db.db
      .selectFrom('listing_variants')
      .select(['merchant_quantity'])
      .where('account_id', '=', seed.accountId)
      .where('storefront_id', '=', seed.channel.installationId)
      .execute();
    const counts = new Map<number, number>();
    for (const r of rows) counts.set(Number(r.merchant_quantity), (counts.get(Number(r.merchant_quantity)) ?? 0) + 1);
    return Object.fromEntries([...counts].sort(([a], [b]) => a - b));
  };
  const put = async (payload: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/admin/accounts/${seed.accountId}/storefronts/${seed.channel.installationId}/inventory-rules`,
      headers: adminHeaders,
      payload,
    });
    assert.equal(res.statusCode, 200, res.body);
  };

  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    await createListingViaAdmin(t, seed, listingWithVariants('STEP-GROUP', SKUS.map((sku) => ({ sku, channelId: `CH-${sku}` }))));
  });
  after(async () => t.close());

  it('moves RULES_STEP_VARIANTS variants per step from its checkpoint; a change mid-way starts over with the new rules; a rerun finishes', async () => {
    const step = () => withTx(t.deps.db.db, (tx) => applyChannelRulesStep(tx, seed.accountId, seed.channel.installationId, t.deps.clock.now()));
    await put({ fixedQuantity: 3 });
    assert.deepEqual(await merchantQuantities(), { 0: 450 }, 'nothing moves inside the request');
    assert.equal(await step(), true);
    assert.deepEqual(await merchantQuantities(), { 0: 450 - RULES_STEP_VARIANTS, 3: RULES_STEP_VARIANTS });
    // The seller changes the rules while the move is half done: the checkpoint goes back to the start.
    await put({ fixedQuantity: 4 });
    // The queued job (a second one was not added while the first waits) reads the latest rules.
    const jobs = await t.deps.db.db.selectFrom('jobs').select('id').where('type', '=', 'inventory.apply-channel-rules').execute();
    assert.equal(jobs.length, 1);
    await runJobs(t);
    assert.deepEqual(await merchantQuantities(), { 4: 450 });
    const checkpoint = await t.deps.db.db.selectFrom('storefront_inventory_rules').select('apply_after_variant_id').where('account_id', '=', seed.accountId).executeTakeFirstOrThrow();
    assert.equal(checkpoint.apply_after_variant_id, null, 'done');
    assert.equal(await step(), false, 'nothing left to do');
  });
});
