import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueAdHocToken } from '../../src/domain/accounts/oauth.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { assertV1Error, createShipment, createVendorVia, patchVendor, shipmentBody } from './v1-inbound-helpers.js';

interface VendorResult {
  vendorId: number;
  name: string;
  address: string | null;
  leadTimeDays: number | null;
  notes: string | null;
  paymentWindowDays: number | null;
}
interface VendorPage {
  results: VendorResult[];
  pagination: { hasNext: boolean; nextToken: string };
}

/** GET /v1/vendor/{id} and GET /v1/vendor (document 2.8; resolutions §3, §7, §8). */
describe('v1 vendors', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let acme: number;
  let archived: number;
  let fromShipment: number;
  let theirs: number;
  const listed: number[] = [];

  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t);
    other = await seedAccount(t, 'Other seller');
    acme = await createVendorVia(t, seed.accountId, {
      name: 'Acme Ceramics',
      address: '1 Kiln Road, Stoke',
      leadTimeDays: 14,
      paymentWindowDays: 30,
      notes: 'Ring before noon',
      contact: 'orders@acme.example',
    });
    archived = await createVendorVia(t, seed.accountId, { name: 'Old Supplier' });
    const res = await patchVendor(t, seed.accountId, archived, { archived: true });
    assert.equal(res.statusCode, 200, res.body);
    fromShipment = (await createShipment(t, seed.sellerToken, shipmentBody(seed.warehouses.main, 'V-SKU', { vendor_name: 'Glaze Co', create_new_products: true }))).vendor.vendorId;
    const more: number[] = [];
    for (const name of ['Delta', 'Echo', 'Foxtrot']) more.push(await createVendorVia(t, seed.accountId, { name }));
    listed.push(acme, fromShipment, ...more);
    theirs = await createVendorVia(t, other.accountId, { name: 'Their Vendor' });
  });
  after(async () => t.close());

  const get = (id: number | string, token = seed.sellerToken) => t.app.inject({ url: `/v1/vendor/${id}`, headers: bearer(token) });
  const list = (query = '', token = seed.sellerToken) => t.app.inject({ url: `/v1/vendor${query}`, headers: bearer(token) });

  it('GET /v1/vendor/{id} wraps the vendor in results, with exactly the documented fields', async () => {
    const res = await get(acme);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      results: { vendorId: acme, name: 'Acme Ceramics', address: '1 Kiln Road, Stoke', leadTimeDays: 14, notes: 'Ring before noon', paymentWindowDays: 30 },
    });
  });

  it('a vendor created by a shipment reads with null details', async () => {
    assert.deepEqual((await get(fromShipment)).json(), {
      results: { vendorId: fromShipment, name: 'Glaze Co', address: null, leadTimeDays: null, notes: null, paymentWindowDays: null },
    });
  });

  it('an archived vendor is still readable', async () => {
    const res = await get(archived);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as { results: VendorResult }).results.name, 'Old Supplier');
  });

  it('another account\'s vendor and an unknown one are 404; a malformed id is 400', async () => {
    assertV1Error(await get(theirs), 404, new RegExp(`vendor ${theirs} not found`));
    assertV1Error(await get(2147483647), 404);
    assertV1Error(await get('acme'), 400, /id/);
    assertV1Error(await get(0), 400, /id/);
  });

  it('GET /v1/vendor lists the account\'s vendors by id, archived ones only with includeArchived=true', async () => {
    const res = await list();
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json() as VendorPage;
    assert.deepEqual(page.results.map((v) => v.vendorId), listed);
    assert.deepEqual(page.results[0], (await get(acme)).json().results);
    assert.deepEqual(page.pagination, { hasNext: false, nextToken: '' });
    const all = (await list('?includeArchived=true')).json() as VendorPage;
    assert.deepEqual(all.results.map((v) => v.vendorId), [...listed, archived].sort((a, b) => a - b));
    assert.deepEqual(((await list('?includeArchived=false')).json() as VendorPage).results.map((v) => v.vendorId), listed);
    assert.deepEqual(((await list('', other.sellerToken)).json() as VendorPage).results.map((v) => v.vendorId), [theirs]);
  });

  it('pages of 2 with an absolute nextToken URL: nothing skipped or repeated, other parameters ignored', async () => {
    const first = (await list('?pageLength=2&includeArchived=true')).json() as VendorPage;
    assert.equal(first.pagination.hasNext, true);
    assert.match(first.pagination.nextToken, /^http:\/\/localhost(:\d+)?\/v1\/vendor\?nextToken=/);
    const seen = first.results.map((v) => v.vendorId);
    let url = first.pagination.nextToken;
    while (url !== '') {
      const res = await list(`${new URL(url).search}&pageLength=0&includeArchived=maybe`);
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json() as VendorPage;
      assert.ok(page.results.length <= 2);
      seen.push(...page.results.map((v) => v.vendorId));
      url = page.pagination.nextToken;
    }
    assert.deepEqual(seen, [...listed, archived].sort((a, b) => a - b), 'includeArchived rode in the token');
  });

  it('bad parameters and bad nextTokens are 400', async () => {
    for (const q of ['?pageLength=0', '?pageLength=101', '?pageLength=x', '?includeArchived=maybe']) assertV1Error(await list(q), 400, /pageLength|includeArchived/);
    const first = (await list('?pageLength=2')).json() as VendorPage;
    const search = new URL(first.pagination.nextToken).search;
    const { accessToken: sameAccount } = await issueAdHocToken(t.deps.db.db, seed.accountId, ['inventory'], new Date());
    assertV1Error(await list(search, sameAccount), 400, /invalid nextToken/);
    assertV1Error(await list('?nextToken=abc.def'), 400, /invalid nextToken/);
    assertV1Error(await list(search.replace(/.{3}$/, 'AAA')), 400, /invalid nextToken/);
  });

  it('legacy, inventory and inventory:self may read; report alone is 403; no token is 401', async () => {
    for (const scope of ['legacy', 'inventory', 'inventory:self'] as const) {
      const { accessToken } = await issueAdHocToken(t.deps.db.db, seed.accountId, [scope], new Date());
      assert.equal((await get(acme, accessToken)).statusCode, 200, scope);
      assert.equal((await list('', accessToken)).statusCode, 200, scope);
    }
    assert.equal((await get(acme, seed.inventory.token)).statusCode, 200, 'an inventory integration reads vendors');
    const { accessToken: reportOnly } = await issueAdHocToken(t.deps.db.db, seed.accountId, ['report'], new Date());
    assertV1Error(await get(acme, reportOnly), 403, /legacy, inventory, inventory:self/);
    assertV1Error(await list('', reportOnly), 403, /legacy, inventory, inventory:self/);
    assert.equal((await t.app.inject({ url: '/v1/vendor' })).statusCode, 401);
    assert.equal((await t.app.inject({ url: `/v1/vendor/${acme}` })).statusCode, 401);
  });
});
