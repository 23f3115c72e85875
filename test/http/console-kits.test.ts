import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { admin, adminHeaders } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { stock } from './v1-sales-orders-helpers.js';

const PASSWORD = 'correct horse battery';

interface Kit {
  sku: string;
  components: { sku: string; quantity: number }[];
}
interface VendorV1 {
  vendorId: number;
  name: string;
  address: string | null;
  leadTimeDays: number | null;
  notes: string | null;
  paymentWindowDays: number | null;
}

/** The seller's kit and vendor pages over HTTP, read back through the API. */
describe('console: seller kits and vendors pages', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let b: ConsoleBrowser;

  const kitOf = async (sku: string): Promise<Kit> => {
    const res = await t.app.inject({ url: `/admin/accounts/${seed.accountId}/products/${encodeURIComponent(sku)}/kit`, headers: adminHeaders });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<Kit>();
  };
  const vendorsV1 = async (query = ''): Promise<VendorV1[]> => {
    const res = await t.app.inject({ url: `/v1/vendor${query}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<{ results: VendorV1[] }>().results;
  };

  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t, 'Console Kits Shop');
    other = await seedAccount(t, 'Other Kits Shop');
    const created = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@kits.example', password: PASSWORD, role: 'OWNER' });
    assert.equal(created.statusCode, 201, created.body);
    for (const sku of ['GIFT-BOX', 'MUG', 'TEA', 'LONE']) await stock(t, seed.sellerToken, sku, seed.warehouses.main, 5);
    b = consoleBrowser(t);
    assert.equal((await b.signIn('owner@kits.example', PASSWORD)).statusCode, 303);
  });
  after(() => t.close());

  it('defines and replaces a kit through the page; the admin kits route reads it back; the list shows it', async () => {
    const empty = await b.get('/console/inventory/kits');
    assert.equal(empty.statusCode, 200, empty.body);
    assert.match(empty.body, /No kits yet/);

    const saved = await b.submit('/console/inventory/kits', { sku: 'GIFT-BOX', components: 'MUG, 2\r\nTEA, 1\r\n' });
    assert.match(saved.body, /class="flash ok"[^>]*>Kit GIFT-BOX saved/);
    assert.deepEqual(await kitOf('GIFT-BOX'), {
      sku: 'GIFT-BOX',
      components: [
        { sku: 'MUG', quantity: 2 },
        { sku: 'TEA', quantity: 1 },
      ],
    });
    assert.match(saved.body, /<td>GIFT-BOX<\/td><td>2 × MUG, 1 × TEA<\/td>/);

    const edit = await b.get('/console/inventory/kits?edit=GIFT-BOX');
    assert.match(edit.body, /Replace the components/);
    assert.match(edit.body, /<textarea name="components"[^>]*>MUG, 2\nTEA, 1<\/textarea>/);

    const replaced = await b.submit('/console/inventory/kits', { sku: 'GIFT-BOX', components: 'MUG, 3' });
    assert.match(replaced.body, /class="flash ok"/);
    assert.deepEqual(await kitOf('GIFT-BOX'), { sku: 'GIFT-BOX', components: [{ sku: 'MUG', quantity: 3 }] });
  });

  it('shows the assembled kits the inventory counts per warehouse', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/admin/accounts/${seed.accountId}/inventory/GIFT-BOX/${seed.warehouses.main}/assembled`,
      headers: adminHeaders,
      payload: { quantity: 4 },
    });
    assert.equal(res.statusCode, 200, res.body);
    const page = await b.get('/console/inventory/kits');
    assert.match(page.body, /<td>Main[^<]*: 4<\/td>/);
  });

  it('refuses a bad kit with a flash and changes nothing', async () => {
    const before = await kitOf('GIFT-BOX');
    const unknown = await b.flashOf('/console/inventory/kits', { sku: 'GIFT-BOX', components: 'NOPE, 1' });
    assert.equal(unknown.kind, 'bad');
    assert.match(unknown.text, /NOPE/);
    const itself = await b.flashOf('/console/inventory/kits', { sku: 'GIFT-BOX', components: 'GIFT-BOX, 1' });
    assert.equal(itself.kind, 'bad');
    assert.match(itself.text, /itself/);
    const nested = await b.flashOf('/console/inventory/kits', { sku: 'LONE', components: 'GIFT-BOX, 1' });
    assert.match(nested.text, /a kit cannot go inside a kit/);
    const twice = await b.flashOf('/console/inventory/kits', { sku: 'GIFT-BOX', components: 'TEA, 1\nTEA, 2' });
    assert.match(twice.text, /twice/);
    const quantity = await b.flashOf('/console/inventory/kits', { sku: 'GIFT-BOX', components: 'TEA, none' });
    assert.equal(quantity.kind, 'bad');
    assert.match(quantity.text, /^Quantity: /);
    const noLines = await b.flashOf('/console/inventory/kits', { sku: 'GIFT-BOX', components: '  ' });
    assert.equal(noLines.kind, 'bad');
    // The refusal is shown on the page the seller lands on.
    const shown = await b.submit('/console/inventory/kits', { sku: 'NO-SUCH-KIT', components: 'MUG, 1' });
    assert.match(shown.body, /class="flash bad"[^>]*>[^<]*NO-SUCH-KIT/);
    assert.deepEqual(await kitOf('GIFT-BOX'), before);
    assert.deepEqual(await kitOf('LONE'), { sku: 'LONE', components: [] });
  });

  it('keyset-pages kits by SKU', async () => {
    await b.submit('/console/inventory/kits', { sku: 'LONE', components: 'TEA, 1' });
    const rest = await b.get('/console/inventory/kits?after=GIFT-BOX');
    assert.doesNotMatch(rest.body, /<td>GIFT-BOX<\/td>/);
    assert.match(rest.body, /<td>LONE<\/td>/);
    await b.submit('/console/inventory/kits/remove', { sku: 'LONE' });
  });

  it('removes a kit (a single SKU again)', async () => {
    await b.submit('/console/inventory/kits', { sku: 'LONE', components: 'TEA, 2' });
    assert.equal((await kitOf('LONE')).components.length, 1);
    const removed = await b.submit('/console/inventory/kits/remove', { sku: 'LONE' });
    assert.match(removed.body, /LONE is a single SKU again/);
    assert.deepEqual(await kitOf('LONE'), { sku: 'LONE', components: [] });
    assert.doesNotMatch(removed.body, /<td>LONE<\/td>/);
  });

  it('creates, edits, archives and restores a vendor through the pages; GET /v1/vendor reads them', async () => {
    const res = await b.post('/console/inventory/vendors', {
      name: ' Acme Ceramics ',
      address: '1 Kiln Road',
      leadTimeDays: '14',
      paymentWindowDays: '',
      contact: 'orders@acme.example',
      notes: 'Ring <before> noon',
    });
    assert.equal(res.statusCode, 303, res.body);
    const location = res.headers.location as string;
    assert.match(location, /^\/console\/inventory\/vendors\/\d+$/);
    const vendorId = Number(location.split('/').pop());
    const page = await b.get(location);
    assert.match(page.body, /Vendor Acme Ceramics created/);
    assert.match(page.body, /Ring &lt;before/);
    assert.doesNotMatch(page.body, /<before>/);
    assert.deepEqual((await vendorsV1()).find((v) => v.vendorId === vendorId), {
      vendorId,
      name: 'Acme Ceramics',
      address: '1 Kiln Road',
      leadTimeDays: 14,
      notes: 'Ring <before> noon',
      paymentWindowDays: null,
    });

    const edited = await b.submit(location, { name: 'Acme Pottery', address: '', leadTimeDays: '21', paymentWindowDays: '30', contact: 'sales@acme.example', notes: '' });
    assert.match(edited.body, /class="flash ok"[^>]*>Vendor saved/);
    assert.deepEqual((await vendorsV1()).find((v) => v.vendorId === vendorId), {
      vendorId,
      name: 'Acme Pottery',
      address: null,
      leadTimeDays: 21,
      notes: null,
      paymentWindowDays: 30,
    });

    const badDays = await b.flashOf(location, { name: 'Acme Pottery', leadTimeDays: 'soon' });
    assert.equal(badDays.kind, 'bad');
    assert.match(badDays.text, /Lead time \(days\)/);

    const list = await b.get('/console/inventory/vendors');
    assert.match(list.body, /Acme Pottery/);

    const archived = await b.submit(`${location}/archive`, {});
    assert.match(archived.body, /Vendor archived/);
    assert.equal((await vendorsV1()).some((v) => v.vendorId === vendorId), false);
    assert.equal((await vendorsV1('?includeArchived=true')).some((v) => v.vendorId === vendorId), true);
    assert.doesNotMatch((await b.get('/console/inventory/vendors')).body, /Acme Pottery/);
    assert.match((await b.get('/console/inventory/vendors?archived=1')).body, /Acme Pottery/);

    const restored = await b.submit(`${location}/restore`, {});
    assert.match(restored.body, /Vendor restored/);
    assert.equal((await vendorsV1()).some((v) => v.vendorId === vendorId), true);
  });

  it("refuses a duplicate name with the domain's message and creates nothing", async () => {
    const count = (await vendorsV1('?includeArchived=true')).length;
    const dup = await b.flashOf('/console/inventory/vendors', { name: 'ACME POTTERY' });
    assert.equal(dup.kind, 'bad');
    assert.match(dup.text, /You already have a vendor named "ACME POTTERY"/);
    assert.equal((await vendorsV1('?includeArchived=true')).length, count);

    const second = await b.post('/console/inventory/vendors', { name: 'Tea Traders' });
    const secondUrl = second.headers.location as string;
    const rename = await b.flashOf(secondUrl, { name: 'acme pottery' });
    assert.equal(rename.kind, 'bad');
    assert.match(rename.text, /You already have a vendor named "acme pottery"/);
    assert.ok((await vendorsV1()).some((v) => v.name === 'Tea Traders'));
  });

  it("answers another account's vendor with a 404 page and leaves it alone", async () => {
    const res = await admin(t, 'POST', `/admin/accounts/${other.accountId}/vendors`, { name: 'Theirs' });
    assert.equal(res.statusCode, 201, res.body);
    const theirs = res.json<{ vendorId: number }>().vendorId;
    const page = await b.get(`/console/inventory/vendors/${theirs}`);
    assert.equal(page.statusCode, 404);
    assert.match(page.body, /Not found/);
    assert.doesNotMatch(page.body, /Theirs/);
    const edit = await b.flashOf(`/console/inventory/vendors/${theirs}`, { name: 'Mine now' });
    assert.equal(edit.kind, 'bad');
    assert.equal((await b.flashOf(`/console/inventory/vendors/${theirs}/archive`, {})).kind, 'bad');
    const read = await t.app.inject({ url: `/admin/accounts/${other.accountId}/vendors/${theirs}`, headers: adminHeaders });
    assert.deepEqual([read.json<{ name: string }>().name, read.json<{ archived: boolean }>().archived], ['Theirs', false]);
    assert.equal((await b.get('/console/inventory/vendors/abc')).statusCode, 404);
  });

  it('refuses POSTs without the CSRF token (403) and changes nothing', async () => {
    const before = await kitOf('GIFT-BOX');
    assert.equal((await b.post('/console/inventory/kits', { sku: 'GIFT-BOX', components: 'TEA, 1' }, { csrf: false })).statusCode, 403);
    assert.equal((await b.post('/console/inventory/kits/remove', { sku: 'GIFT-BOX' }, { csrf: false })).statusCode, 403);
    assert.deepEqual(await kitOf('GIFT-BOX'), before);
    const count = (await vendorsV1('?includeArchived=true')).length;
    assert.equal((await b.post('/console/inventory/vendors', { name: 'Sneaky' }, { csrf: false })).statusCode, 403);
    assert.equal((await vendorsV1('?includeArchived=true')).length, count);
    const id = (await vendorsV1()).find((v) => v.name === 'Tea Traders')!.vendorId;
    assert.equal((await b.post(`/console/inventory/vendors/${id}/archive`, {}, { csrf: false })).statusCode, 403);
    assert.ok((await vendorsV1()).some((v) => v.vendorId === id));
  });
});
