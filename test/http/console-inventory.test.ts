import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';

const PASSWORD = 'correct horse battery';

interface InventoryRecord {
  SKU: string;
  warehouses: { warehouseId: number; availableQuantity: number; inventoryLocations: { binLocation: string; quantity: number }[] }[];
}

/** The seller's inventory pages over HTTP: stock, adjustments, kits, inbound shipments, vendors. */
describe('console: seller inventory pages', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let b: ConsoleBrowser;

  const inventoryOf = async (sku: string): Promise<InventoryRecord | null> => {
    const res = await t.app.inject({ url: `/v1/inventory/${encodeURIComponent(sku)}`, headers: bearer(seed.sellerToken) });
    return res.statusCode === 200 ? res.json<InventoryRecord>() : null;
  };
  const available = async (sku: string, warehouseId: number) =>
    (await inventoryOf(sku))?.warehouses.find((w) => w.warehouseId === warehouseId)?.availableQuantity;


  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t, 'Console Inventory Shop');
    const created = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@inv.example', password: PASSWORD, role: 'OWNER' });
    assert.equal(created.statusCode, 201, created.body);
    b = consoleBrowser(t);
    assert.equal((await b.signIn('owner@inv.example', PASSWORD)).statusCode, 303);
  });
  after(() => t.close());

  it('adjusts stock through the page; GET /v1/inventory reads it back; the page lists it by SKU prefix', async () => {
    const page = await b.get('/console/inventory');
    assert.equal(page.statusCode, 200, page.body);
    const set = await b.submit('/console/inventory/adjust', { sku: 'CON-MUG', warehouseId: String(seed.warehouses.main), mode: 'quantity', quantity: '12', binLocation: 'A-1' });
    assert.match(set.body, /class="flash ok"/);
    assert.equal(await available('CON-MUG', seed.warehouses.main), 12);
    const delta = await b.submit('/console/inventory/adjust', { sku: 'CON-MUG', warehouseId: String(seed.warehouses.main), mode: 'delta_quantity', quantity: '-2' });
    assert.match(delta.body, /class="flash ok"/);
    assert.equal(await available('CON-MUG', seed.warehouses.main), 10);
    const negative = await b.submit('/console/inventory/adjust', { sku: 'CON-MUG', warehouseId: String(seed.warehouses.main), mode: 'delta_quantity', quantity: '-50' });
    assert.match(negative.body, /class="flash bad"/);
    assert.equal(await available('CON-MUG', seed.warehouses.main), 10);
    const bad = await b.submit('/console/inventory/adjust', { sku: 'CON-MUG', warehouseId: String(seed.warehouses.main), mode: 'quantity', quantity: 'ten' });
    assert.match(bad.body, /class="flash bad"/);

    await b.submit('/console/inventory/adjust', { sku: 'OTHER-1', warehouseId: String(seed.warehouses.main), mode: 'quantity', quantity: '1' });
    const listed = await b.get('/console/inventory?sku=CON-');
    assert.match(listed.body, /CON-MUG/);
    assert.doesNotMatch(listed.body, /OTHER-1/);
    assert.match(listed.body, /<td class="num"[^>]*>10<\/td>/);
  });

  it('keyset-pages the stock table by SKU', async () => {
    for (let i = 0; i < 3; i++) {
      await b.submit('/console/inventory/adjust', { sku: `PAGE-${i}`, warehouseId: String(seed.warehouses.main), mode: 'quantity', quantity: '1' });
    }
    // The page length is fixed (50); asking after PAGE-0 skips it.
    const rest = await b.get('/console/inventory?sku=PAGE-&after=PAGE-0');
    assert.doesNotMatch(rest.body, />PAGE-0</);
    assert.match(rest.body, />PAGE-1</);
    assert.match(rest.body, />PAGE-2</);
  });

  it('refuses to adjust a warehouse an integration controls, and says why on the page', async () => {
    const page = await b.get('/console/inventory');
    assert.match(page.body, /Second: read-only here/);
    assert.doesNotMatch(page.body, new RegExp(`<option value="${seed.warehouses.second}"`));
    const refused = await b.flashOf('/console/inventory/adjust', { sku: 'CON-MUG', warehouseId: String(seed.warehouses.second), mode: 'quantity', quantity: '5' });
    assert.equal(refused.kind, 'bad');
    assert.match(refused.text, /The stock of Second is kept by the inventory or 3PL app connected to it/);
    assert.equal(await available('CON-MUG', seed.warehouses.second), undefined);
  });

  it('refuses a POST without the CSRF token (403) and changes nothing', async () => {
    const res = await b.post('/console/inventory/adjust', { sku: 'CON-MUG', warehouseId: String(seed.warehouses.main), mode: 'quantity', quantity: '99' }, { csrf: false });
    assert.equal(res.statusCode, 403);
    assert.equal(await available('CON-MUG', seed.warehouses.main), 10);
  });

  it('creates, ships and receives an inbound shipment through the pages; on-hand rises; a cancelled one refuses receipts', async () => {
    const res = await b.post('/console/inventory/inbound', {
      vendor_name: 'Acme Ceramics',
      destination_warehouse_id: String(seed.warehouses.main),
      purchase_order_number: 'PO-CON-1',
      status: 'PENDING',
      lines: 'IN-MUG, 10, 2.50\nIN-CUP, 4',
      create_new_products: '1',
    });
    assert.equal(res.statusCode, 303, res.body);
    const location = res.headers.location as string;
    assert.match(location, /^\/console\/inventory\/inbound\/\d+$/);
    const page = await b.get(location);
    assert.match(page.body, /Shipment #\d+ created/);
    assert.match(page.body, /PO-CON-1/);
    assert.match(page.body, /Acme Ceramics/);

    const shipped = await b.submit(`${location}/ship`, { carrier: 'UPS', tracking: '1Z999', expected_delivery_date: '2026-12-01' });
    assert.match(shipped.body, /class="flash ok"/);
    assert.match(shipped.body, />On the way</);

    const receive = async (entries: [string, string][]) => {
      const r = await b.postEntries(`${location}/receive`, entries);
      assert.equal(r.statusCode, 303, r.body);
      return b.get(r.headers.location as string);
    };
    const partial = await receive([['sku', 'IN-MUG'], ['quantity', '6'], ['sku', 'IN-CUP'], ['quantity', '']]);
    assert.match(partial.body, /class="flash ok"[^>]*>[^<]*partly received/);
    assert.equal(await available('IN-MUG', seed.warehouses.main), 6);
    const over = await b.flashOf(`${location}/receive`, { sku: 'IN-MUG', quantity: '5' });
    assert.equal(over.kind, 'bad');
    assert.equal(await available('IN-MUG', seed.warehouses.main), 6);
    const rest = await receive([['sku', 'IN-MUG'], ['quantity', '4'], ['sku', 'IN-CUP'], ['quantity', '4']]);
    assert.match(rest.body, /The shipment is now received\./);
    assert.equal(await available('IN-MUG', seed.warehouses.main), 10);
    assert.equal(await available('IN-CUP', seed.warehouses.main), 4);
    assert.match(rest.body, /by seller: 6 × IN-MUG/);

    const list = await b.get('/console/inventory/inbound?status=RECEIVED');
    assert.match(list.body, /PO-CON-1/);
    assert.doesNotMatch((await b.get('/console/inventory/inbound?status=CANCELLED')).body, /PO-CON-1/);

    const second = await b.post('/console/inventory/inbound', {
      vendor_name: 'Acme Ceramics',
      destination_warehouse_id: String(seed.warehouses.main),
      purchase_order_number: 'PO-CON-2',
      status: 'PENDING',
      lines: 'IN-MUG, 3',
    });
    const secondUrl = second.headers.location as string;
    assert.match((await b.submit(`${secondUrl}/cancel`, {})).body, />Cancelled</);
    assert.equal((await b.flashOf(`${secondUrl}/receive`, { sku: 'IN-MUG', quantity: '1' })).kind, 'bad');
    assert.equal(await available('IN-MUG', seed.warehouses.main), 10);

    const bad = await b.flashOf('/console/inventory/inbound', { vendor_name: 'Acme Ceramics', destination_warehouse_id: String(seed.warehouses.main), purchase_order_number: 'PO-BAD', status: 'PENDING', lines: 'IN-MUG, lots' });
    assert.equal(bad.kind, 'bad');
    assert.equal((await b.get('/console/inventory/inbound/999999')).statusCode, 404);
  });
});
