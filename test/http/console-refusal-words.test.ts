import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { seedDeadJob } from '../helpers/console-ops.js';
import { runJobs } from '../helpers/reports.js';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';

/**
 * Issue 24 item 7: a refusal a seller or an operator triggers from a console form reads in their words and
 * says what to do, never with the API's field names, enums or internal ids; the API's own messages stay
 * as partners know them.
 */

const PASSWORD = 'correct horse battery';
const OPERATOR = 'ops@refusals.example';

/** Words of the API that must not reach a console flash. */
const API_WORDS =
  /lineItemId|toWarehouseId|fromWarehouseId|restockWarehouseId|delta_quantity|createNewProducts|installation \d|line item \d|items\[|PENDING_PAYMENT|\bPENDING\b|\bDEAD\b|\bSUCCEEDED\b|sales order \d|warehouse \d/;

interface Case {
  name: string;
  /** The form's URL and fields, given the fixtures. */
  post: () => [string, Record<string, string>];
  /** What the seller reads. */
  says: RegExp;
}

describe('console: refusals in the seller’s and the operator’s words', () => {
  const clock = manualClock(new Date('2026-11-23T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let owner: ConsoleBrowser;
  let order: Order;
  let lineId: string;
  let cancelled: Order;

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Refusal Words Shop');
    await stock(t, seed.sellerToken, 'RW-MUG', seed.warehouses.main, 5);
    order = await createOrder(t, seed.channel.token, orderBody('RW-1', [{ requestedSku: 'RW-MUG', quantity: 2, unitPrice: 9.5 }]));
    lineId = order.products[0]!.lineItemId;
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@refusals.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    assert.equal((await admin(t, 'POST', '/admin/operators', { email: OPERATOR, password: PASSWORD })).statusCode, 201);
    owner = consoleBrowser(t);
    assert.equal((await owner.signIn('owner@refusals.example', PASSWORD)).statusCode, 303);
    cancelled = await createOrder(t, seed.channel.token, orderBody('RW-2', [{ requestedSku: 'RW-MUG', quantity: 1, unitPrice: 9.5 }]));
    await owner.get(`/console/orders/${cancelled.orderNumber}`);
    const done = await owner.flashOf(`/console/orders/${cancelled.orderNumber}/cancel`, { [`qty_${cancelled.products[0]!.lineItemId}`]: '1', reason: 'customer changed mind' });
    assert.equal(done.kind, 'ok', done.text);
  });
  after(() => t.close());

  const orderUrl = () => `/console/orders/${order.orderNumber}`;
  const adjust = (fields: Record<string, string>) => (): [string, Record<string, string>] => ['/console/inventory/adjust', { sku: 'RW-MUG', binLocation: '', ...fields }];

  const cases: Case[] = [
    {
      name: 'stock: removing more units than are available',
      post: adjust({ warehouseId: '', mode: 'delta_quantity', quantity: '-50' }),
      says: /Main does not have 50 units of RW-MUG available to remove\. Remove fewer units, or count what is on the shelf and choose "Set on hand"\./,
    },
    {
      name: 'stock: a warehouse an inventory app keeps',
      post: adjust({ warehouseId: 'second', mode: 'quantity', quantity: '5' }),
      says: /The stock of Second is kept by the inventory or 3PL app connected to it, so it cannot be changed here\. Change it in that app/,
    },
    {
      name: "order: an action on an order the account does not have",
      post: () => ['/console/orders/999999/mark-paid', {}],
      says: /^There is no such order in your account\. Find it under Orders by its number, channel order id or customer\.$/,
    },
    {
      name: 'order: cancelling more units than are left',
      post: () => [`${orderUrl()}/cancel`, { [`qty_${lineId}`]: '9', reason: 'too many' }],
      says: /Only 2 units of RW-MUG can still be cancelled, not 9 .* Cancel 2 or fewer\./,
    },
    {
      name: 'order: cancelling without a reason',
      post: () => [`${orderUrl()}/cancel`, { [`qty_${lineId}`]: '1', reason: ' ' }],
      says: /^Say why in the reason box, then try again\.$/,
    },
    {
      name: 'order: re-routing to the warehouse the units are in',
      post: () => [`${orderUrl()}/reroute`, { route: `${lineId}:${seed.warehouses.main}`, toWarehouseId: String(seed.warehouses.main), quantity: '1' }],
      says: /^The units are already in that warehouse\. Pick another warehouse to move them to\.$/,
    },
    {
      name: 'order: re-routing more units than wait there',
      post: () => [`${orderUrl()}/reroute`, { route: `${lineId}:${seed.warehouses.main}`, toWarehouseId: String(seed.warehouses.second), quantity: '7' }],
      says: /^Only 2 units of RW-MUG wait in Main, so 7 cannot move\. Move 2 or fewer\.$/,
    },
    {
      name: 'order: re-routing to a warehouse without the stock',
      post: () => [`${orderUrl()}/reroute`, { route: `${lineId}:${seed.warehouses.main}`, toWarehouseId: String(seed.warehouses.second), quantity: '1' }],
      says: /^Second does not have 1 unit of RW-MUG available\. Add stock there first, move fewer units, or pick another warehouse\.$/,
    },
    {
      name: 'order: re-routing to a channel-fulfilled warehouse',
      post: () => [`${orderUrl()}/reroute`, { route: `${lineId}:${seed.warehouses.main}`, toWarehouseId: String(seed.warehouses.channel), quantity: '1' }],
      says: /^Channel network ships only orders the sales channel fulfils itself, and this order is not one of them\. Pick another warehouse\.$/,
    },
    {
      name: 'order: marking paid an order that is not awaiting payment',
      post: () => [`/console/orders/${cancelled.orderNumber}/mark-paid`, {}],
      says: /^This order is not awaiting payment \(it is cancelled\), so there is nothing to mark paid\.$/,
    },
    {
      name: 'order: returning units that never shipped',
      post: () => [`${orderUrl()}/returns`, { lineItemId: lineId, quantity: '1', refundAmount: '', channelReturnId: '' }],
      says: /^No shipped unit of RW-MUG is left to return: units must ship before they come back/,
    },
    {
      name: 'order: a refund amount that is not a number',
      post: () => [`${orderUrl()}/refunds`, { amount: 'ten', reason: 'goodwill', lineItemId: '' }],
      says: /^Type the amount as a number, like 12\.50\.$/,
    },
    {
      name: 'order: a refund of zero',
      post: () => [`${orderUrl()}/refunds`, { amount: '0', reason: 'goodwill', lineItemId: '' }],
      says: /^The amount must be more than zero\.$/,
    },
    {
      name: 'order: a refund without a reason',
      post: () => [`${orderUrl()}/refunds`, { amount: '1.00', reason: '', lineItemId: '' }],
      says: /^Say why in the reason box/,
    },
    {
      name: 'order: resolving an alert that is not there',
      post: () => [`${orderUrl()}/alerts/999999/resolve`, { resolution: 'called' }],
      says: /^That alert is not on this order any more\. Reload the order to see its alerts\.$/,
    },
    {
      name: 'order: receiving a return that is not on the order',
      post: () => [`${orderUrl()}/returns/999999/receive`, { restockWarehouseId: '' }],
      says: /^That return is not on this order\. Reload the order to see its returns\.$/,
    },
  ];

  for (const c of cases) {
    it(`${c.name}: says what happened and what to do, without the API's words`, async () => {
      const [url, form] = c.post();
      const resolved = Object.fromEntries(Object.entries(form).map(([k, v]) => [k, k === 'warehouseId' ? String(v === 'second' ? seed.warehouses.second : seed.warehouses.main) : v]));
      const flash = await owner.flashOf(url, resolved);
      assert.equal(flash.kind, 'bad', flash.text);
      assert.match(flash.text, c.says);
      assert.doesNotMatch(flash.text, API_WORDS);
    });
  }

  it('leaves the order and the stock as they were', async () => {
    const res = await t.app.inject({ url: `/v1/salesOrder/${order.orderNumber}`, headers: bearer(seed.sellerToken) });
    const api = res.json<Order & { products: { cancelQuantity: number }[] }>();
    assert.equal(api.products[0]!.cancelQuantity, 0);
    const inv = await t.app.inject({ url: '/v1/inventory/RW-MUG', headers: bearer(seed.sellerToken) });
    assert.equal(inv.json<{ warehouses: { warehouseId: number; availableQuantity: number }[] }>().warehouses.find((w) => w.warehouseId === seed.warehouses.main)?.availableQuantity, 3);
  });

  it("the stock page says why a warehouse is read-only without an installation id; the API's messages are unchanged", async () => {
    const page = await owner.get('/console/inventory');
    assert.match(page.body, /Second: read-only here, because an inventory or 3PL app connected to it keeps its stock\. Change its stock in that app\./);
    assert.doesNotMatch(page.body, /installation \d/);
    const api = await t.app.inject({
      method: 'POST',
      url: '/v1/inventory',
      headers: bearer(seed.sellerToken),
      payload: { products: [{ SKU: 'RW-MUG', warehouseId: seed.warehouses.main, delta_quantity: -50 }] },
    });
    assert.match(api.body, /delta_quantity -50 would make the available quantity negative/);
    const paid = await t.app.inject({ method: 'POST', url: `/v1/salesOrder/markPaid/${cancelled.orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.match(paid.body, /only a PENDING_PAYMENT order can be marked paid/);
  });

  it('the operator retrying a job that has not given up reads why, in words', async () => {
    const jobId = await seedDeadJob(t.deps, seed.accountId);
    await t.deps.db.db.updateTable('jobs').set({ status: 'SUCCEEDED' }).where('id', '=', jobId).execute();
    const ops = consoleBrowser(t);
    assert.equal((await ops.signIn(OPERATOR, PASSWORD)).statusCode, 303);
    await ops.get(`/console/operator/jobs/${jobId}`);
    const flash = await ops.flashOf(`/console/operator/jobs/${jobId}/retry`, {});
    assert.equal(flash.kind, 'bad');
    assert.equal(flash.text, 'This job is done, so there is nothing to retry: only a job that gave up can be run again.');
    const api = await admin(t, 'POST', `/admin/jobs/${jobId}/retry`, {});
    assert.match(api.body, /only a DEAD job can be retried/);
  });
});

describe('console: inventory, apps, users and reports refusals and states in the seller’s words', () => {
  const clock = manualClock(new Date('2026-11-23T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let owner: ConsoleBrowser;
  let shipment: string;

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'More Refusals Shop');
    for (const sku of ['KIT-BOX', 'KIT-MUG', 'KIT-TEA']) await stock(t, seed.sellerToken, sku, seed.warehouses.main, 5);
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@more.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    owner = consoleBrowser(t);
    assert.equal((await owner.signIn('owner@more.example', PASSWORD)).statusCode, 303);
    await owner.get('/console/inventory/inbound');
    const created = await owner.post('/console/inventory/inbound', {
      vendor_name: 'Acme Ceramics',
      destination_warehouse_id: String(seed.warehouses.main),
      purchase_order_number: 'PO-WORDS-1',
      status: 'SHIPPED',
      lines: 'KIT-MUG, 4',
    });
    assert.equal(created.statusCode, 303, created.body);
    shipment = created.headers.location as string;
    const received = await owner.flashOf(`${shipment}/receive`, { sku: 'KIT-MUG', quantity: '1' });
    assert.equal(received.text, 'Units received. The shipment is now partly received.');
    assert.equal((await owner.flashOf('/console/inventory/kits', { sku: 'KIT-BOX', components: 'KIT-MUG, 1' })).kind, 'ok');
    assert.equal((await owner.flashOf('/console/inventory/vendors', { name: 'Tea Traders' })).kind, 'ok');
  });
  after(() => t.close());

  const cases: Case[] = [
    {
      name: 'inbound: receiving more units than are still expected',
      post: () => [`${shipment}/receive`, { sku: 'KIT-MUG', quantity: '9' }],
      says: /^Only 3 units of KIT-MUG are still expected, not 9\. Receive at most what is still expected; if more arrived, create a new inbound shipment/,
    },
    {
      name: 'inbound: cancelling a shipment with units received',
      post: () => [`${shipment}/cancel`, {}],
      says: /^This shipment is partly received: once units are received it cannot be cancelled\./,
    },
    {
      name: 'inbound: marking shipped a shipment with units received',
      post: () => [`${shipment}/ship`, { carrier: 'UPS', tracking: '1Z', expected_delivery_date: '' }],
      says: /^This shipment is partly received, so it cannot be marked shipped any more/,
    },
    {
      name: 'inbound: a blank purchase order number',
      post: () => ['/console/inventory/inbound', { vendor_name: 'Acme Ceramics', destination_warehouse_id: String(seed.warehouses.main), purchase_order_number: ' ', status: 'PENDING', lines: 'KIT-MUG, 1' }],
      says: /^Purchase order number: /,
    },
    {
      name: 'kits: a component not in the catalog',
      post: () => ['/console/inventory/kits', { sku: 'KIT-TEA', components: 'NOPE, 1' }],
      says: /^NOPE is not in your catalog\. Add it under Catalog \(or stock it under Inventory\) first, then make the kit\.$/,
    },
    {
      name: 'kits: a kit inside a kit',
      post: () => ['/console/inventory/kits', { sku: 'KIT-TEA', components: 'KIT-BOX, 1' }],
      says: /^KIT-BOX is a kit itself, and a kit cannot go inside a kit\. List its components instead\.$/,
    },
    {
      name: 'kits: a component made into a kit',
      post: () => ['/console/inventory/kits', { sku: 'KIT-MUG', components: 'KIT-TEA, 1' }],
      says: /^KIT-MUG is already a component of another kit, and a kit cannot go inside a kit\./,
    },
    {
      name: 'vendors: a name already in use',
      post: () => ['/console/inventory/vendors', { name: 'tea traders' }],
      says: /^You already have a vendor named "tea traders" \(capitals do not count\)\. Pick another name, or open that vendor\.$/,
    },
    {
      name: "apps: a partner's warehouse id the app already uses",
      post: () => [`/console/apps/integrations/${seed.inventory.installationId}/warehouses`, { warehouseId: String(seed.warehouses.main), warehouseUniqueId: 'WH-SECOND' }],
      says: /^This app already uses the id "WH-SECOND" for another of your warehouses\. Give each warehouse its own id\.$/,
    },
    {
      name: 'apps: stopping the use of a warehouse the app does not use',
      post: () => [`/console/apps/integrations/${seed.inventory.installationId}/warehouses/${seed.warehouses.main}/unmap`, { confirm: 'yes' }],
      says: /^This app does not work with that warehouse \(any more\); nothing changed\. Reload the page to see its warehouses\.$/,
    },
    {
      name: 'apps: checking the status of a storefront whose app gave no callback address',
      post: () => [`/console/apps/storefronts/${seed.channel.installationId}/status-check`, {}],
      says: /^This app has not told the platform where to reach it, so it cannot be asked anything from here\. Ask the app's maker, or your platform operator, to set its callback address\.$/,
    },
    {
      name: 'users: inviting an email that has a user',
      post: () => ['/console/users/invite', { email: 'owner@more.example', role: 'STAFF' }],
      says: /^owner@more\.example already has a console user .* Invite another address, or ask that person to sign in\.$/,
    },
  ];

  for (const c of cases) {
    it(`${c.name}: says what happened and what to do, without the API's words`, async () => {
      const [url, form] = c.post();
      const flash = await owner.flashOf(url, form);
      assert.equal(flash.kind, 'bad', flash.text);
      assert.match(flash.text, c.says);
      assert.doesNotMatch(flash.text, API_WORDS);
      assert.doesNotMatch(flash.text, /purchase_order_number|warehouseUniqueId|components\[|account \d|PARTIALLY_RECEIVED/);
    });
  }

  it('an import asked to only fill blanks and to clear with blank cells says which boxes to untick', async () => {
    await owner.get('/console/reports');
    const res = await owner.upload('/console/reports/import', { importType: 'Inventory', insertOnly: 'true', overwriteWithBlank: 'true' }, { name: 'stock.csv', content: 'sku,warehouse,quantity\nKIT-MUG,Main,1\n' });
    assert.equal(res.statusCode, 303, res.body);
    const page = await owner.get(res.headers.location as string);
    assert.match(page.body, /class="flash bad"[^>]*>&#34;Only fill blank data, never overwrite&#34; and &#34;A blank cell clears the value&#34; cannot both be ticked: untick one of them\./);
  });

  it("an import's line error names the form's option, not the API's createNewProducts; the error file keeps the API's words", async () => {
    await owner.get('/console/reports');
    const res = await owner.upload('/console/reports/import', { importType: 'Inventory' }, { name: 'stock.csv', content: 'sku,warehouse,quantity\nNEW-SKU,Main,3\n' });
    assert.equal(res.statusCode, 303, res.body);
    const location = res.headers.location as string;
    await runJobs(t);
    const page = await owner.get(location);
    assert.match(page.body, /SKU &#34;NEW-SKU&#34; does not exist; tick &#34;Create SKUs that do not exist&#34; to create it/);
    assert.doesNotMatch(page.body, /createNewProducts true/);
    const errors = await owner.get(`${location}/errors`);
    assert.match(errors.body, /send createNewProducts true to create it/);
  });

  it('shows inbound, callback and user states in words, not enums', async () => {
    const list = await owner.get('/console/inventory/inbound');
    assert.match(list.body, />Partly received</);
    assert.match(list.body, /<option value="SHIPPED">On the way<\/option>/);
    assert.doesNotMatch(list.body, />(PARTIALLY_RECEIVED|SHIPPED|PENDING)</);
    const detail = await owner.get(shipment);
    assert.match(detail.body, />Partly received</);
    const callbacks = await owner.get('/console/apps/callbacks');
    assert.match(callbacks.body, /<option value="STOREFRONT_STATUS">Status check<\/option>/);
    assert.match(callbacks.body, /<option value="DEAD">Gave up<\/option>/);
    const users = await owner.get('/console/users');
    assert.match(users.body, /<td>Owner<\/td>/);
    assert.match(users.body, /<option value="STAFF" selected>Staff<\/option>|<option value="STAFF" selected="">Staff<\/option>/);
    assert.doesNotMatch(users.body, /<td>OWNER<\/td>/);
  });
});
