import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createListingViaAdmin, sampleListing } from '../helpers/listings.js';
import { stock } from './v1-sales-orders-helpers.js';

/** `skus` wrapped in one pair of quotes, as a public example sends it (resolutions §7). */
describe('v1 skus parameter with quotes', () => {
  let t: TestApp;
  let seed: SeededAccount;

  const q = (...values: string[]) => values.map((v) => `skus=${encodeURIComponent(v)}`).join('&');
  const inventory = async (query: string) => {
    const res = await t.app.inject({ url: `/v1/inventory?${query}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { results: { SKU: string }[]; errors: string[] };
    return { skus: body.results.map((r) => r.SKU).sort(), errors: body.errors };
  };
  const listings = async (query: string) => {
    const res = await t.app.inject({ url: `/v1/listing?${query}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { results: { sku: string }[] }).results.map((l) => l.sku).sort();
  };

  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    for (const sku of ['SQ-A', 'SQ-B', "O'BRIEN"]) {
      await stock(t, seed.sellerToken, sku, seed.warehouses.main, 1);
      await createListingViaAdmin(t, seed, sampleListing(`G-${sku}`, [sku]));
    }
  });
  after(async () => t.close());

  it("GET /v1/inventory: skus='A,B' and skus=\"A,B\" are unwrapped, then split", async () => {
    for (const query of [q("'SQ-A,SQ-B'"), q('"SQ-A,SQ-B"'), q("'SQ-A'", '"SQ-B"'), q(" 'SQ-A,SQ-B' ")]) {
      assert.deepEqual(await inventory(query), { skus: ['SQ-A', 'SQ-B'], errors: [] }, query);
    }
  });

  it('GET /v1/inventory: a quote inside a SKU, or one not paired around the value, is kept', async () => {
    assert.deepEqual(await inventory(q("O'BRIEN")), { skus: ["O'BRIEN"], errors: [] });
    assert.deepEqual(await inventory(q("'O'BRIEN'")), { skus: ["O'BRIEN"], errors: [] });
    assert.deepEqual(await inventory(q("'SQ-A")), { skus: [], errors: ["'SQ-A"] });
    assert.deepEqual(await inventory(q('"SQ-A\'')), { skus: [], errors: ['"SQ-A\''] });
    // Only one pair comes off.
    assert.deepEqual(await inventory(q("''SQ-A''")), { skus: [], errors: ["'SQ-A'"] });
  });

  it("GET /v1/listing: skus='A,B' and skus=\"A,B\" are unwrapped; other quotes are kept", async () => {
    assert.deepEqual(await listings(q("'SQ-A,SQ-B'")), ['G-SQ-A', 'G-SQ-B']);
    assert.deepEqual(await listings(q('"SQ-A,SQ-B"')), ['G-SQ-A', 'G-SQ-B']);
    assert.deepEqual(await listings(q("O'BRIEN")), ["G-O'BRIEN"]);
    assert.deepEqual(await listings(q("'SQ-A")), []);
  });
});
