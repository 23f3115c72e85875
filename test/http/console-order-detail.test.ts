import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { CSP } from '../../src/http/console/security.js';
import { ASSETS } from '../../src/http/console/assets.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createListingViaAdmin, sampleListing } from '../helpers/listings.js';
import { createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';

/**
 * The console's order page (issue 24, item 2): who bought and where it goes, line titles from the catalog or
 * the listing, every action the API allows (a refund before payment included), and the printable packing slip.
 */

const PASSWORD = 'correct horse battery';

const SHIP_TO = {
  name: 'Ada Lovelace',
  company: 'Analytical Engines Ltd',
  addressLine1: '12 Engine Street',
  addressLine2: 'Flat 3',
  city: 'London',
  postalCode: 'N1 9GU',
  phone: '+44 20 7946 0000',
  countryCode: 'GB',
};
const BILL_TO = { name: 'Ada Accounts', addressLine1: '1 Ledger Road', city: 'Bath', postalCode: 'BA1 1AA', countryCode: 'GB' };

/** The text of the page's customer/addresses section. */
const peopleOf = (body: string) => /<section aria-labelledby="customer"[\s\S]*?<\/section>/.exec(body)?.[0] ?? '';

describe('console: the order page and its packing slip', () => {
  const clock = manualClock(new Date('2026-11-23T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let full: Order;
  let bare: Order;
  let unpaid: Order;
  let otherOrder: Order;
  let owner: ConsoleBrowser;

  const apiOrder = async (orderNumber: string) => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Order & { accounting: { refund: number | null } | null };
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Order Page Shop');
    other = await seedAccount(t, 'Someone Else');
    await stock(t, seed.sellerToken, 'MUG', seed.warehouses.main, 50);
    await stock(t, seed.sellerToken, 'LST-RED', seed.warehouses.main, 50);
    // MUG: a catalog title and an image the service serves; LST-RED: no catalog title, its listing has one
    // and an image on another site.
    await t.deps.db.db
      .updateTable('products')
      .set({ title: 'Catalog Mug', image_url: '/console/assets/mug.png' })
      .where('account_id', '=', seed.accountId)
      .where('sku', '=', 'MUG')
      .execute();
    const listing = sampleListing('LST', ['LST-RED']);
    const variants = listing['variants'] as { productData: { attributes: unknown[] } }[];
    variants[0]!.productData.attributes.push({ id: 'primary_image', textValue: 'https://images.example.com/lst-red.jpg' });
    await createListingViaAdmin(t, seed, listing);

    full = await createOrder(
      t,
      seed.channel.token,
      orderBody(
        'DETAIL-1',
        [
          { requestedSku: 'MUG', quantity: 3, unitPrice: 12.5 },
          { requestedSku: 'LST-RED', quantity: 2, unitPrice: 7.25, giftWrapMessage: 'Happy birthday!' },
        ],
        { customerName: 'Ada Lovelace', customerEmail: 'ada@example.com', shippingAddress: SHIP_TO, billingAddress: BILL_TO },
      ),
    );
    bare = await createOrder(t, seed.channel.token, orderBody('DETAIL-2', [{ requestedSku: 'MUG', quantity: 1 }]));
    unpaid = await createOrder(t, seed.channel.token, orderBody('DETAIL-3', [{ requestedSku: 'MUG', quantity: 1, unitPrice: 9 }], { status: 'PENDING_PAYMENT' }));
    await stock(t, other.sellerToken, 'MUG', other.warehouses.main, 5);
    otherOrder = await createOrder(t, other.channel.token, orderBody('OTHER-1', [{ requestedSku: 'MUG', quantity: 1 }]));
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@detail.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    owner = consoleBrowser(t);
    assert.equal((await owner.signIn('owner@detail.example', PASSWORD)).statusCode, 303);
  });
  after(() => t.close());

  it('shows the customer, the ship-to and the bill-to address, with nothing for fields the order lacks', async () => {
    const page = await owner.get(`/console/orders/${full.orderNumber}`);
    assert.equal(page.statusCode, 200, page.body);
    const people = peopleOf(page.body);
    assert.ok(people, 'a customer and addresses section');
    for (const text of ['Ada Lovelace', 'ada@example.com', 'href="mailto:ada@example.com"', '+44 20 7946 0000', 'href="tel:+442079460000"']) {
      assert.ok(people.includes(text), `customer: ${text}`);
    }
    for (const text of ['Analytical Engines Ltd', '12 Engine Street', 'Flat 3', 'London N1 9GU', 'United Kingdom', 'Ada Accounts', '1 Ledger Road', 'Bath BA1 1AA']) {
      assert.ok(people.includes(text), `address: ${text}`);
    }
    assert.match(people, /Ship to[\s\S]*12 Engine Street[\s\S]*Bill to[\s\S]*1 Ledger Road/);
    assert.doesNotMatch(page.body, /\bnull\b|undefined|addressLine|postalCode|countryCode/);

    const plain = await owner.get(`/console/orders/${bare.orderNumber}`);
    const none = peopleOf(plain.body);
    assert.match(none, /No customer details on this order/);
    assert.equal(none.match(/Not given on this order/g)?.length, 2, 'ship to and bill to');
    assert.doesNotMatch(plain.body, /\bnull\b|undefined/);
  });

  it("titles lines from the catalog, else from the listing; shows the service's own image, links to another site's", async () => {
    const page = await owner.get(`/console/orders/${full.orderNumber}`);
    assert.match(page.body, /<img src="\/console\/assets\/mug.png" alt="Image of Catalog Mug" loading="lazy"/);
    assert.match(page.body, /Catalog Mug/);
    assert.match(page.body, /LST title/, "the listing's title where the catalog has none");
    assert.match(page.body, /<a href="https:\/\/images.example.com\/lst-red.jpg" target="_blank" rel="noopener noreferrer">Image/);
    assert.doesNotMatch(page.body, /<img[^>]+src="https:/, 'no image from another site (the CSP allows none)');
    // Statuses and money in the seller's words.
    assert.match(page.body, /<span class="badge">To ship<\/span>/);
    assert.match(page.body, /\$12\.50/);
    assert.doesNotMatch(page.body, />PENDING</);
  });

  it('offers and records a refund on an order awaiting payment; the status stays', async () => {
    const url = `/console/orders/${unpaid.orderNumber}`;
    const page = await owner.get(url);
    assert.match(page.body, /Awaiting payment/);
    assert.match(page.body, new RegExp(`action="${url}/refunds"`));
    assert.match(page.body, new RegExp(`action="${url}/mark-paid"`));
    assert.doesNotMatch(page.body, /Record a return/, 'nothing shipped: no return to record');
    const flash = await owner.flashOf(`${url}/refunds`, { lineItemId: '', amount: '2.50', reason: 'price match' });
    assert.deepEqual(flash, { kind: 'ok', text: 'Refund recorded.' });
    const api = await apiOrder(unpaid.orderNumber);
    assert.equal(api.accounting?.refund, 2.5);
    assert.equal(api.status, 'PENDING_PAYMENT');
    assert.match((await owner.get(url)).body, /Refunded: \$2\.50/);
  });

  it('links to a packing slip: ship-to and lines with SKU, title and units, no prices, under the CSP', async () => {
    const page = await owner.get(`/console/orders/${full.orderNumber}`);
    assert.match(page.body, new RegExp(`<a class="button secondary" href="/console/orders/${full.orderNumber}/packing-slip">Print packing slip</a>`));
    // A cancelled unit is not packed.
    const lineId = full.products[0]!.lineItemId;
    assert.equal((await owner.post(`/console/orders/${full.orderNumber}/cancel`, { [`qty_${lineId}`]: '1', reason: 'short' })).statusCode, 303);

    const slip = await owner.get(`/console/orders/${full.orderNumber}/packing-slip`);
    assert.equal(slip.statusCode, 200, slip.body);
    assert.equal(slip.headers['content-security-policy'], CSP);
    assert.match(slip.body, new RegExp(`Packing slip · Order ${full.orderNumber}`));
    assert.match(slip.body, /DETAIL-1/);
    for (const text of ['Ada Lovelace', 'Analytical Engines Ltd', '12 Engine Street', 'London N1 9GU', 'United Kingdom']) assert.ok(slip.body.includes(text), text);
    assert.match(slip.body, /<td>MUG<\/td><td>Catalog Mug<\/td><td class="num">2<\/td>/);
    assert.match(slip.body, /<td>LST-RED<\/td><td>LST title<\/td><td class="num">2<\/td>/);
    assert.match(slip.body, /4 unit\(s\) in total/);
    assert.match(slip.body, /Happy birthday!/);
    // No prices, no billing address, no contact details, no inline script or style.
    // (Attribute values such as the form token are left out: they are random text.)
    const shown = slip.body.replace(/(value|hx-headers|content|href|src)="[^"]*"/g, '');
    assert.doesNotMatch(shown, /12\.5|7\.25|9\.00|\$|[Pp]rice|[Tt]otal:/);
    assert.doesNotMatch(shown, /1 Ledger Road|ada@example\.com|7946/);
    assert.doesNotMatch(slip.body, /<script(?![^>]*\ssrc=)/);
    assert.doesNotMatch(slip.body, /\sstyle=/);
    const css = await t.app.inject({ url: ASSETS.css });
    assert.match(css.body, /@media print \{/);
  });

  it("answers another account's order and its packing slip with a 404 page", async () => {
    for (const path of ['', '/packing-slip']) {
      for (const number of [otherOrder.orderNumber, 'abc', '999999']) {
        const res = await owner.get(`/console/orders/${number}${path}`);
        assert.equal(res.statusCode, 404, `${number}${path}`);
        assert.match(res.body, /Not found/);
      }
    }
  });
});
