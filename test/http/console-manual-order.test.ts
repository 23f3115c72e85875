import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withTx } from '../../src/db/tx.js';
import { createProductsBySku } from '../../src/domain/catalog/create-products.js';
import { createCustomStore, listCustomStores } from '../../src/domain/accounts/custom-stores.js';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { postOrder, stock, type Order } from './v1-sales-orders-helpers.js';

/**
 * Orders → New order (issue 24 item 3): an order typed into a custom store, created by POST /v1/salesOrder's
 * own rules and code. Success, every kind of refusal with its words next to its field, "add more lines",
 * the double submit, another account's store, CSRF, and the SKU lookup.
 */

const PASSWORD = 'correct horse battery';
const LINE_ROWS = 5;

type Entries = [string, string][];

/** The form as the page posts it: every field (blank unless given), then LINE_ROWS line rows. */
function orderForm(values: Record<string, string>, lines: [string, string, string][] = []): Entries {
  const names = ['store', 'form_token', 'reference', 'payment', 'service', 'note', 'customer_name', 'customer_email', 'customer_phone'];
  const address = ['name', 'company', 'line1', 'line2', 'city', 'state', 'postal', 'country'];
  const entries: Entries = names.map((n) => [n, values[n] ?? (n === 'payment' ? 'paid' : '')]);
  for (const side of ['ship', 'bill']) for (const p of address) entries.push([`${side}_${p}`, values[`${side}_${p}`] ?? (p === 'country' ? 'US' : '')]);
  if ((values.bill_same ?? 'yes') === 'yes') entries.push(['bill_same', 'yes']);
  const rows = [...lines, ...Array.from({ length: Math.max(0, LINE_ROWS - lines.length) }, () => ['', '', ''] as [string, string, string])];
  for (const [sku, qty, price] of rows) entries.push(['line_sku', sku], ['line_qty', qty], ['line_price', price]);
  entries.push(['do', values.do ?? 'create']);
  return entries;
}

const ADDRESS = { ship_name: 'Ada Buyer', ship_line1: '1 Main St', ship_city: 'Springfield', ship_state: 'IL', ship_postal: '62701', ship_country: 'us' };

/** The sentence shown next to an input (its error span), or null. */
const problemAt = (body: string, id: string) => {
  const match = new RegExp(`<span class="error" id="${id}-error">([^<]*)</span>`).exec(body);
  return match ? match[1]!.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&') : null;
};
const valueOf = (body: string, id: string) => new RegExp(`id="${id}"[^>]*value="([^"]*)"`).exec(body)?.[1] ?? null;
const tokenOf = (body: string) => /name="form_token" value="([^"]+)"/.exec(body)![1]!;

describe('console: a manual order (Orders → New order)', () => {
  const clock = manualClock(new Date('2026-11-26T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let owner: ConsoleBrowser;
  let staff: ConsoleBrowser;
  let manualStore: number;
  let otherStore: number;

  const orderCount = async () => Number((await t.deps.db.db.selectFrom('sales_orders').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', seed.accountId).executeTakeFirstOrThrow()).n);
  const apiOrder = async (orderNumber: string): Promise<Order & Record<string, unknown>> => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  /** A fresh form page: its token (every page makes its own). */
  const freshToken = async (browser: ConsoleBrowser) => {
    const page = await browser.get('/console/orders/new');
    assert.equal(page.statusCode, 200, page.body);
    return tokenOf(page.body);
  };
  /** Posts a form expected to be refused: the page, after checking it was a 400 that created nothing. */
  const refused = async (entries: Entries) => {
    const before = await orderCount();
    const res = await owner.postEntries('/console/orders/new', entries);
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(await orderCount(), before, 'a refused form creates nothing');
    assert.match(res.body, /The order was not created/);
    // Never the API's field names.
    assert.doesNotMatch(res.body, /products\[|requestedSku|shippingAddress|channelOrderId|unitPrice|postalCode/);
    return res.body;
  };

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Manual Shop');
    other = await seedAccount(t, 'Other Manual Shop');
    await withTx(t.deps.db.db, (tx) => createProductsBySku(tx, seed.accountId, ['TEE-BLK-L', 'TEE-BLK-M', 'MUG-RED'], clock.now()));
    await withTx(t.deps.db.db, (tx) => createProductsBySku(tx, other.accountId, ['TEE-OTHER'], clock.now()));
    await stock(t, seed.sellerToken, 'TEE-BLK-L', seed.warehouses.main, 10);
    manualStore = (await listCustomStores(t.deps.db.db, seed.accountId)).find((s) => s.default)!.integrationId;
    otherStore = (await listCustomStores(t.deps.db.db, other.accountId))[0]!.integrationId;
    await createCustomStore(t.deps.db.db, seed.accountId, { name: 'Phone orders' }, clock.now());
    for (const [email, role] of [
      ['owner@manual.example', 'OWNER'],
      ['staff@manual.example', 'STAFF'],
    ]) {
      assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email, password: PASSWORD, role })).statusCode, 201);
    }
    owner = consoleBrowser(t);
    assert.equal((await owner.signIn('owner@manual.example', PASSWORD)).statusCode, 303);
    staff = consoleBrowser(t);
    assert.equal((await staff.signIn('staff@manual.example', PASSWORD)).statusCode, 303);
  });
  after(() => t.close());

  it('offers New order on the Orders page, and the form preselects the default store with empty line rows in the account currency', async () => {
    const list = await owner.get('/console/orders');
    assert.match(list.body, /<a class="button" href="\/console\/orders\/new">\s*New order/);
    const page = await owner.get('/console/orders/new');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, new RegExp(`<option value="${manualStore}" selected>Manual orders</option>`));
    assert.match(page.body, /<option value="\d+">Phone orders<\/option>/);
    assert.equal([...page.body.matchAll(/name="line_sku"/g)].length, LINE_ROWS);
    assert.match(page.body, /Unit price \(USD\)/);
    assert.match(page.body, /optional; if empty: MANUAL-20261126-[A-Z2-9]{6}/);
    // Without JavaScript the datalist still holds the first SKUs of the catalog, and only this account's.
    assert.match(page.body, /<datalist id="sku-options"><option value="MUG-RED">/);
    assert.doesNotMatch(page.body, /TEE-OTHER/);
  });

  it('creates the order in the store as POST /v1/salesOrder would, unknown SKUs kept unrouted, and opens it with a message', async () => {
    const token = await freshToken(owner);
    const res = await owner.postEntries(
      '/console/orders/new',
      orderForm({ store: String(manualStore), form_token: token, customer_name: 'Ada Buyer', customer_email: 'ada@example.com', customer_phone: '+1 555 0100', service: 'Next Day', note: 'Ring twice', ...ADDRESS }, [
        ['tee-blk-l', '2', '12.50'],
        ['', '', ''],
        ['NOT-IN-CATALOG', '1', '3'],
      ]),
    );
    assert.equal(res.statusCode, 303, res.body);
    const location = res.headers.location as string;
    const orderNumber = /^\/console\/orders\/(\d+)$/.exec(location)![1]!;
    const page = await owner.get(location);
    assert.match(page.body, new RegExp(`Order ${orderNumber} is created in Manual orders \\(reference MANUAL-${token}\\)\\. SKU NOT-IN-CATALOG is not in your catalog: its line waits until you add the product and stock it\\.`));
    const order = await apiOrder(orderNumber);
    assert.equal(order.channelOrderId, `MANUAL-${token}`);
    assert.equal(order.channel, 'Manual orders');
    assert.equal(order.status, 'PENDING');
    assert.equal(order.customerName, 'Ada Buyer');
    assert.equal(order.customerEmail, 'ada@example.com');
    assert.equal(order.requestedServiceLevel, 'Next Day');
    assert.equal(order.standardServiceLevel, 'Next Day');
    assert.equal(order.customer_notes, 'Ring twice');
    const ship = order.shippingAddress as Record<string, unknown>;
    assert.deepEqual([ship.name, ship.addressLine1, ship.city, ship.state, ship.postalCode, ship.countryCode, ship.phone], ['Ada Buyer', '1 Main St', 'Springfield', 'IL', '62701', 'US', '+1 555 0100']);
    assert.deepEqual(order.billingAddress, order.shippingAddress);
    const [known, unknown] = order.products;
    // The SKU resolves in any capitals, as the API resolves it; the empty row in between is ignored.
    assert.equal(known!.sku, 'TEE-BLK-L');
    assert.equal(known!.quantity, 2);
    assert.equal(String(known!.unitPrice), '12.5');
    assert.equal(unknown!.requestedSku, 'NOT-IN-CATALOG');
    assert.equal(unknown!.sku, null);
    assert.equal(order.products.length, 2);
    // The order page flags the unknown SKU as a line that could not be sent to a warehouse.
    assert.match(page.body, /NOT-IN-CATALOG/);
  });

  it('a staff user may create one too, with a typed reference, unpaid, no address, in another store', async () => {
    const stores = await listCustomStores(t.deps.db.db, seed.accountId);
    const phone = stores.find((s) => s.name === 'Phone orders')!.integrationId;
    const token = await freshToken(staff);
    const res = await staff.postEntries('/console/orders/new', orderForm({ store: String(phone), form_token: token, reference: 'PHONE-0001', payment: 'unpaid', ship_country: 'US' }, [['MUG-RED', '1', '']]));
    assert.equal(res.statusCode, 303, res.body);
    const order = await apiOrder(/(\d+)$/.exec(res.headers.location as string)![1]!);
    assert.equal(order.channelOrderId, 'PHONE-0001');
    assert.equal(order.channel, 'Phone orders');
    assert.equal(order.status, 'PENDING_PAYMENT');
    assert.equal(order.shippingAddress, null);
    assert.equal(order.billingAddress, null);
  });

  it('a form sent twice creates one order: the second opens the first, unchanged, and says so', async () => {
    const token = await freshToken(owner);
    const form = orderForm({ store: String(manualStore), form_token: token, customer_name: 'Twice' }, [['MUG-RED', '3', '']]);
    const before = await orderCount();
    const first = await owner.postEntries('/console/orders/new', form);
    assert.equal(first.statusCode, 303, first.body);
    await owner.get(first.headers.location as string);
    const second = await owner.postEntries('/console/orders/new', form);
    assert.equal(second.statusCode, 303, second.body);
    assert.equal(second.headers.location, first.headers.location);
    assert.equal(await orderCount(), before + 1);
    const page = await owner.get(second.headers.location as string);
    assert.match(page.body, /was already in Manual orders, so nothing new was created/);
    // The same idempotency as the API: POST /v1/salesOrder with the store and the reference answers that order.
    const api = await postOrder(t, seed.sellerToken, { channelOrderId: `MANUAL-${token}`, orderTs: '2026-11-26T09:00:00Z', integrationId: manualStore, products: [{ requestedSku: 'X', quantity: 9 }] });
    assert.equal(api.statusCode, 200, api.body);
    assert.equal((api.json() as Order).orderNumber, /(\d+)$/.exec(first.headers.location as string)![1]);
    assert.equal(await orderCount(), before + 1);
  });

  it('refuses an order without lines, keeping what was typed', async () => {
    const body = await refused(orderForm({ store: String(manualStore), form_token: await freshToken(owner), customer_name: 'Kept Name', reference: 'KEEP-1' }));
    assert.equal(problemAt(body, 'f-lines'), 'Add at least one line: a SKU and how many.');
    assert.equal(valueOf(body, 'f-customer_name'), 'Kept Name');
    assert.equal(valueOf(body, 'f-reference'), 'KEEP-1');
  });

  it('refuses bad lines, each problem next to its own input', async () => {
    const body = await refused(
      orderForm({ store: String(manualStore), form_token: await freshToken(owner) }, [
        ['MUG-RED', 'abc', ''],
        ['MUG-RED', '0', ''],
        ['MUG-RED', '', ''],
        ['MUG-RED', '1', '12,50'],
        ['', '2', ''],
      ]),
    );
    // Next to the input without the line's number; in the list at the top with it, each a link to its input.
    assert.equal(problemAt(body, 'f-line_qty-0'), 'The quantity must be a whole number from 1 to 1,000,000.');
    assert.equal(problemAt(body, 'f-line_qty-1'), 'The quantity must be a whole number from 1 to 1,000,000.');
    assert.equal(problemAt(body, 'f-line_qty-2'), 'Enter how many units.');
    assert.equal(problemAt(body, 'f-line_price-3'), 'Enter the unit price as a number like 12.50, without a currency sign.');
    assert.equal(problemAt(body, 'f-line_sku-4'), 'Enter the SKU, or clear the line.');
    assert.match(body, /<a href="#f-line_qty-2">Line 3: enter how many units\.<\/a>/);
    assert.match(body, /<a href="#f-line_sku-4">Line 5: enter the SKU, or clear the line\.<\/a>/);
    assert.equal(valueOf(body, 'f-line_price-3'), '12,50');
    assert.match(body, /Please fix these 5 things/);
  });

  it('refuses a partial address with every missing part named (the domain collects every problem)', async () => {
    const body = await refused(orderForm({ store: String(manualStore), form_token: await freshToken(owner), ship_city: 'Springfield', ship_country: 'USA' }, [['MUG-RED', '1', '']]));
    assert.equal(problemAt(body, 'f-ship_name'), 'Enter the ship-to name.');
    assert.equal(problemAt(body, 'f-ship_line1'), 'Enter the ship-to address line 1.');
    assert.equal(problemAt(body, 'f-ship_postal'), 'Enter the ship-to postal code.');
    assert.equal(problemAt(body, 'f-ship_country'), 'Ship-to country: enter a 2-letter country code such as US, GB or DE.');
    assert.equal(problemAt(body, 'f-ship_city'), null);
  });

  it('refuses a separate bill-to address with missing parts, a phone without an address, and a reference too long', async () => {
    const body = await refused(
      orderForm({ store: String(manualStore), form_token: await freshToken(owner), bill_same: 'no', bill_name: 'Payer', customer_phone: '555', reference: 'R'.repeat(256) }, [['MUG-RED', '1', '']]),
    );
    assert.equal(problemAt(body, 'f-bill_line1'), 'Enter the bill-to address line 1.');
    assert.equal(problemAt(body, 'f-customer_phone'), 'A phone number is kept with the ship-to address: fill in the address, or leave the phone empty.');
    assert.equal(problemAt(body, 'f-reference'), 'Order reference is too long: at most 255 characters.');
  });

  it('"Add more lines" shows more empty rows with everything typed kept, and creates nothing', async () => {
    const before = await orderCount();
    const res = await owner.postEntries('/console/orders/new', orderForm({ store: String(manualStore), form_token: await freshToken(owner), customer_name: 'More', do: 'more' }, [['MUG-RED', '4', '1.5']]));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await orderCount(), before);
    assert.equal([...res.body.matchAll(/name="line_sku"/g)].length, LINE_ROWS * 2);
    assert.equal(valueOf(res.body, 'f-line_sku-0'), 'MUG-RED');
    assert.equal(valueOf(res.body, 'f-line_qty-0'), '4');
    assert.equal(valueOf(res.body, 'f-customer_name'), 'More');
    assert.doesNotMatch(res.body, /The order was not created/);
  });

  it("another account's store, or a store id that is no number, is a 404 and creates nothing", async () => {
    const before = await orderCount();
    for (const store of [String(otherStore), 'abc', '99999999']) {
      const res = await owner.postEntries('/console/orders/new', orderForm({ store, form_token: await freshToken(owner) }, [['MUG-RED', '1', '']]));
      assert.equal(res.statusCode, 404, `${store}: ${res.body}`);
      assert.match(res.body, /That store is not one of your stores/);
    }
    assert.equal(await orderCount(), before);
    assert.equal(Number((await t.deps.db.db.selectFrom('sales_orders').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', other.accountId).executeTakeFirstOrThrow()).n), 0);
  });

  it('a post without the form token (CSRF) is refused with 403 and creates nothing', async () => {
    const before = await orderCount();
    const res = await owner.post('/console/orders/new', { store: String(manualStore), line_sku: 'MUG-RED', line_qty: '1', do: 'create' }, { csrf: false });
    assert.equal(res.statusCode, 403);
    assert.equal(await orderCount(), before);
  });

  it('the SKU lookup answers the account’s SKUs starting with what was typed, in any capitals, at most 20', async () => {
    const options = async (typed: string) => {
      const res = await owner.get(`/console/orders/sku-suggestions?line_sku=${encodeURIComponent(typed)}`);
      assert.equal(res.statusCode, 200);
      return [...res.body.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]);
    };
    assert.deepEqual(await options('tee-blk'), ['TEE-BLK-L', 'TEE-BLK-M']);
    assert.deepEqual(await options('TEE-BLK-M'), ['TEE-BLK-M']);
    assert.deepEqual(await options('tee-o'), []);
    assert.deepEqual(await options('%'), []);
    await withTx(t.deps.db.db, (tx) => createProductsBySku(tx, seed.accountId, Array.from({ length: 30 }, (_, i) => `BULK-${String(i).padStart(2, '0')}`), clock.now()));
    const bulk = await options('bulk-');
    assert.equal(bulk.length, 20);
    assert.deepEqual(bulk.slice(0, 2), ['BULK-00', 'BULK-01']);
    // Signed out: the sign-in page, not the catalog.
    const anonymous = await t.app.inject({ url: '/console/orders/sku-suggestions?line_sku=tee' });
    assert.notEqual(anonymous.statusCode, 200);
  });

  it('POST /v1/salesOrder names every problem of a body at once (the rules the form shares)', async () => {
    const res = await postOrder(t, seed.sellerToken, {
      channelOrderId: 'API-MANY',
      orderTs: '2026-11-26T09:00:00Z',
      integrationId: manualStore,
      shippingAddress: { name: ' ', addressLine1: '', city: 'X', postalCode: '1', countryCode: 'USA' },
      products: [{ requestedSku: ' ', quantity: 1 }],
    });
    assert.equal(res.statusCode, 400, res.body);
    const lines = (res.json() as { errorMessages: string[] }).errorMessages;
    assert.deepEqual(
      lines.map((l) => l.split(':')[0]),
      ['products[0].requestedSku', 'shippingAddress.countryCode', 'shippingAddress.name', 'shippingAddress.addressLine1'],
      lines.join('\n'),
    );
    // One problem reads as it always did.
    const one = await postOrder(t, seed.sellerToken, { channelOrderId: 'API-ONE', orderTs: '2026-11-26T09:00:00Z', integrationId: manualStore, products: [{ requestedSku: ' ', quantity: 1 }] });
    assert.deepEqual((one.json() as { errorMessages: string[] }).errorMessages, ['products[0].requestedSku: must not be empty']);
  });
});
