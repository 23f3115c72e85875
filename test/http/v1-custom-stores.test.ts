import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueAdHocToken } from '../../src/domain/accounts/oauth.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { adminHeaders, assertV1Error } from '../helpers/admin.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, postOrder, stock } from './v1-sales-orders-helpers.js';

/** Custom stores (document 2.6, resolutions §8): the seller's own order channels. */
describe('custom stores', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    other = await seedAccount(t);
  });
  after(async () => t.close());

  const createStore = (accountId: number, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `/admin/accounts/${accountId}/custom-stores`, headers: adminHeaders, payload: payload as object });
  const listV1 = (token: string) => t.app.inject({ url: '/v1/customStores', headers: bearer(token) });

  it('every account starts with "Manual orders" as its default store', async () => {
    const res = await listV1(seed.sellerToken);
    assert.equal(res.statusCode, 200, res.body);
    const { results } = res.json() as { results: { name: string; default: boolean; integrationId: number }[] };
    assert.equal(results.length, 1);
    assert.equal(results[0]!.name, 'Manual orders');
    assert.equal(results[0]!.default, true);
    assert.equal(typeof results[0]!.integrationId, 'number');
  });

  it('the operator creates stores; default: true moves the default; one default per account', async () => {
    const phone = await createStore(seed.accountId, { name: 'Phone orders' });
    assert.equal(phone.statusCode, 201, phone.body);
    assert.equal(phone.json().default, false);
    const shop = await createStore(seed.accountId, { name: 'Pop-up shop', default: true });
    assert.equal(shop.statusCode, 201, shop.body);
    const { results } = (await listV1(seed.sellerToken)).json() as { results: { name: string; default: boolean; integrationId: number }[] };
    assert.deepEqual(
      results.map((r) => [r.name, r.default]),
      [
        ['Manual orders', false],
        ['Phone orders', false],
        ['Pop-up shop', true],
      ],
    );
    const admin = await t.app.inject({ url: `/admin/accounts/${seed.accountId}/custom-stores`, headers: adminHeaders });
    assert.deepEqual(admin.json().results, results);
    // Another account sees only its own.
    const theirs = (await listV1(other.sellerToken)).json() as { results: { name: string }[] };
    assert.deepEqual(theirs.results.map((r) => r.name), ['Manual orders']);
  });

  it('stores made default in parallel: every create succeeds and exactly one store is the default', async () => {
    const names = ['Par-1', 'Par-2', 'Par-3', 'Par-4', 'Par-5'];
    const results = await Promise.all(names.map((name) => createStore(other.accountId, { name, default: true })));
    for (const res of results) assert.equal(res.statusCode, 201, res.body);
    const stores = (await listV1(other.sellerToken)).json() as { results: { name: string; default: boolean }[] };
    assert.equal(stores.results.length, names.length + 1);
    assert.equal(stores.results.filter((r) => r.default).length, 1, JSON.stringify(stores.results));
  });

  it('bad input changes nothing: a blank or duplicate name, unknown fields, an unknown account', async () => {
    const before = (await listV1(seed.sellerToken)).json().results.length;
    assertV1Error(await createStore(seed.accountId, { name: '   ' }), 400, /name/);
    assertV1Error(await createStore(seed.accountId, { name: 'x'.repeat(201) }), 400, /name/);
    assertV1Error(await createStore(seed.accountId, { name: 'Phone orders' }), 409, /already exists/);
    assertV1Error(await createStore(seed.accountId, { name: 'Manual orders', default: true }), 409, /already exists/);
    assertV1Error(await createStore(seed.accountId, { name: 'New', kind: 'x' }), 400, /kind/);
    assertV1Error(await createStore(999999, { name: 'Nowhere' }), 404);
    const after = (await listV1(seed.sellerToken)).json() as { results: { default: boolean }[] };
    assert.equal(after.results.length, before);
    assert.equal(after.results.filter((r) => r.default).length, 1, 'still exactly one default');
  });

  it('GET /v1/customStores needs legacy, sales or sales:orders (403 naming them otherwise); no token is 401', async () => {
    const { accessToken: reportOnly } = await issueAdHocToken(t.deps.db.db, seed.accountId, ['report'], new Date());
    const res = await listV1(reportOnly);
    assertV1Error(res, 403, /legacy, sales, sales:orders/);
    for (const scope of ['legacy', 'sales', 'sales:orders'] as const) {
      const { accessToken } = await issueAdHocToken(t.deps.db.db, seed.accountId, [scope], new Date());
      assert.equal((await listV1(accessToken)).statusCode, 200, scope);
    }
    assert.equal((await t.app.inject({ url: '/v1/customStores' })).statusCode, 401);
  });

  it('a seller token creates an order in a custom store by integrationId: the store is the channel, idempotent per store', async () => {
    const { results } = (await listV1(seed.sellerToken)).json() as { results: { name: string; integrationId: number }[] };
    const phone = results.find((r) => r.name === 'Phone orders')!;
    const manual = results.find((r) => r.name === 'Manual orders')!;
    await stock(t, seed.sellerToken, 'CS-SKU', seed.warehouses.main, 5);
    const order = await createOrder(t, seed.sellerToken, orderBody('PHONE-1', [{ requestedSku: 'CS-SKU', quantity: 2 }], { integrationId: phone.integrationId }));
    assert.equal(order.channel, 'Phone orders');
    assert.equal(order.channelLabel, 'Phone orders');
    assert.equal(order.products[0]!.routing_info[0]!.quantity, 2, 'routed and reserved like any order');
    const again = await createOrder(t, seed.sellerToken, orderBody('PHONE-1', [{ requestedSku: 'CS-SKU', quantity: 2 }], { integrationId: phone.integrationId }));
    assert.equal(again.orderNumber, order.orderNumber, 'a repeat in the same store returns the stored order');
    const elsewhere = await createOrder(t, seed.sellerToken, orderBody('PHONE-1', [{ requestedSku: 'CS-SKU', quantity: 1 }], { integrationId: manual.integrationId }));
    assert.notEqual(elsewhere.orderNumber, order.orderNumber, 'the same channelOrderId in another store is another order');
    assert.equal(elsewhere.channel, 'Manual orders');
  });

  it('an unknown or another account\'s store is 404, a storefront token naming one is 400; nothing is created', async () => {
    const count = async () =>
      (await t.deps.db.db.selectFrom('sales_orders').select('id').where('account_id', '=', seed.accountId).execute()).length;
    const before = await count();
    const theirs = (await listV1(other.sellerToken)).json().results[0].integrationId as number;
    assertV1Error(await postOrder(t, seed.sellerToken, orderBody('X-1', [{ requestedSku: 'CS-SKU', quantity: 1 }], { integrationId: theirs })), 404, /custom store/);
    assertV1Error(await postOrder(t, seed.sellerToken, orderBody('X-2', [{ requestedSku: 'CS-SKU', quantity: 1 }], { integrationId: 2147483647 })), 404, /custom store/);
    assertV1Error(await postOrder(t, seed.sellerToken, orderBody('X-3', [{ requestedSku: 'CS-SKU', quantity: 1 }], { integrationId: 'one' })), 400, /integrationId/);
    const mine = (await listV1(seed.sellerToken)).json().results[0].integrationId as number;
    assertV1Error(await postOrder(t, seed.channel.token, orderBody('X-4', [{ requestedSku: 'CS-SKU', quantity: 1 }], { integrationId: mine })), 400, /integrationId/);
    assert.equal(await count(), before);
  });
});
