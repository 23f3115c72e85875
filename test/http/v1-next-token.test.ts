import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueAdHocToken } from '../../src/domain/accounts/oauth.js';
import { SCOPES } from '../../src/domain/accounts/principal.js';
import { manualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createListingViaAdmin, sampleListing } from '../helpers/listings.js';
import { assertV1Error, createOrder, orderBody, stock } from './v1-sales-orders-helpers.js';

interface Page {
  results: unknown[];
  pagination: { hasNext: boolean; nextToken: string };
}

/** Every other parameter a first page of any of the three routes takes, each one invalid. */
const INVALID_EXTRAS =
  'pageLength=abc&status=BOGUS&lastUpdatedTs=garbage&lastUpdateTs=garbage&orderTs=nope&warehouseId=-1&' +
  'warehouses=x&activeOnly=maybe&isCaseSensitive=perhaps&channelOrderIds=&skus=';

/**
 * v1 nextTokens (resolutions §1, §7): bound to the access token they were issued to, and overriding every
 * other query parameter, valid or not, on GET /v1/inventory, /v1/salesOrder and /v1/listing.
 */
describe('v1 nextToken', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let sameAccount: string;

  const firstPages: Record<string, string> = {};
  const get = (url: string, token = seed.sellerToken) => t.app.inject({ url, headers: bearer(token) });
  /** The path and query of an absolute nextToken URL, for inject. */
  const local = (absolute: string) => {
    const url = new URL(absolute);
    return `${url.pathname}${url.search}`;
  };
  const pages = async (first: string): Promise<{ page1: Page; next: string; page2: Page }> => {
    const res = await get(first);
    assert.equal(res.statusCode, 200, res.body);
    const page1 = res.json() as Page;
    assert.equal(page1.results.length, 1);
    assert.equal(page1.pagination.hasNext, true);
    const next = local(page1.pagination.nextToken);
    const res2 = await get(next);
    assert.equal(res2.statusCode, 200, res2.body);
    return { page1, next, page2: res2.json() as Page };
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t);
    sameAccount = (await issueAdHocToken(t.deps.db.db, seed.accountId, [...SCOPES], clock.now())).accessToken;
    for (const sku of ['NT-A', 'NT-B', 'NT-C']) {
      clock.advance(1000);
      await stock(t, seed.sellerToken, sku, seed.warehouses.main, 5);
      await createOrder(t, seed.channel.token, orderBody(`NT-${sku}`, [{ requestedSku: sku, quantity: 1 }]));
      await createListingViaAdmin(t, seed, sampleListing(`G-${sku}`, [sku]));
    }
    firstPages['/v1/inventory'] = `/v1/inventory?warehouses=${seed.warehouses.main}&pageLength=1`;
    firstPages['/v1/salesOrder'] = '/v1/salesOrder?pageLength=1';
    firstPages['/v1/listing'] = '/v1/listing?pageLength=1';
  });
  after(async () => t.close());

  for (const route of ['/v1/inventory', '/v1/salesOrder', '/v1/listing']) {
    describe(route, () => {
      it('another token of the same account (all scopes) gets 400 "invalid nextToken"; the issuing token pages on', async () => {
        const { next, page2 } = await pages(firstPages[route]!);
        assertV1Error(await get(next, sameAccount), 400, /invalid nextToken/);
        // The storefront's own token (where the route lets it in) is refused too.
        if (route !== '/v1/inventory') assertV1Error(await get(next, seed.channel.token), 400, /invalid nextToken/);
        const again = await get(next);
        assert.equal(again.statusCode, 200, again.body);
        assert.deepEqual(again.json(), page2);
      });

      it('with a nextToken every other parameter is ignored, even an invalid one', async () => {
        const { next, page2 } = await pages(firstPages[route]!);
        const res = await get(`${next}&${INVALID_EXTRAS}`);
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), page2);
        // Valid ones that would change the page are ignored as well.
        const changed = await get(`${next}&pageLength=100&skus=NT-C`);
        assert.deepEqual(changed.json(), page2);
        // Without a nextToken the same parameters are still checked.
        assertV1Error(await get(`${route}?${INVALID_EXTRAS}`), 400);
      });
    });
  }
});
