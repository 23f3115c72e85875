import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { admin, registerAppVia } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock, type Order } from './v1-sales-orders-helpers.js';

/**
 * Every console form is checked by its API route's body schema through one helper (src/http/console/form-check.ts):
 * bad input is refused before anything runs, as a flash in the form's words (never an API field name), and
 * nothing changes. One case per form converted to the helper; the forms' other refusals have their own tests.
 */

const PASSWORD = 'correct horse battery';
const OPERATOR = 'ops@form-checks.example';

/** API field names that must not reach a flash. */
const API_WORDS = /lineItemId|lineItems|toWarehouseId|restockWarehouseId|items\[|warehouseUniqueId|autoApplyIngestionPlan|callbackBaseUrl|overlapSeconds|\bskus\b/;

interface Case {
  name: string;
  who: 'seller' | 'operator';
  post: () => [string, Record<string, string>];
  says: string;
}

describe('console: every form checked by its API schema, refused in the form’s words', () => {
  const clock = manualClock(new Date('2026-11-23T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let seller: ConsoleBrowser;
  let operator: ConsoleBrowser;
  let order: Order;
  let lineId: string;
  let shippingAppId: number;
  let appId: number;

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Form Checks Shop');
    await stock(t, seed.sellerToken, 'FC-MUG', seed.warehouses.main, 5);
    order = await createOrder(t, seed.channel.token, orderBody('FC-1', [{ requestedSku: 'FC-MUG', quantity: 2, unitPrice: 9.5 }]));
    lineId = order.products[0]!.lineItemId;
    shippingAppId = (await registerAppVia(t, 'SHIPPING', ['sales:orders:fulfillment:self'], 'FormShip')).appId;
    appId = (await registerAppVia(t, 'INVENTORY', ['inventory:self'], 'FormStock')).appId;
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@form-checks.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    assert.equal((await admin(t, 'POST', '/admin/operators', { email: OPERATOR, password: PASSWORD })).statusCode, 201);
    seller = consoleBrowser(t);
    assert.equal((await seller.signIn('owner@form-checks.example', PASSWORD)).statusCode, 303);
    await seller.get('/console/home');
    operator = consoleBrowser(t);
    assert.equal((await operator.signIn(OPERATOR, PASSWORD)).statusCode, 303);
    await operator.get('/console/operator');
  });
  after(() => t.close());

  const orderUrl = () => `/console/orders/${order.orderNumber}`;
  const integration = () => `/console/apps/integrations/${seed.shipping.installationId}`;

  const cases: Case[] = [
    { name: 'cancel: units that are not a number', who: 'seller', post: () => [`${orderUrl()}/cancel`, { [`qty_${lineId}`]: 'two', reason: 'asked' }], says: 'Units to cancel: type a whole number, 1 or more.' },
    {
      name: 're-route: units that are not a number',
      who: 'seller',
      post: () => [`${orderUrl()}/reroute`, { route: `${lineId}:${seed.warehouses.main}`, toWarehouseId: String(seed.warehouses.second), quantity: 'lots' }],
      says: 'Units: type a whole number, 1 or more.',
    },
    { name: 'return: zero units', who: 'seller', post: () => [`${orderUrl()}/returns`, { lineItemId: lineId, quantity: '0', refundAmount: '', channelReturnId: '' }], says: 'Units: type a whole number, 1 or more.' },
    {
      name: 'return: a channel return id over its length',
      who: 'seller',
      post: () => [`${orderUrl()}/returns`, { lineItemId: lineId, quantity: '1', refundAmount: '', channelReturnId: 'R'.repeat(201) }],
      says: 'Channel return id: must be at most 200 characters',
    },
    { name: 'refund: a reason over its length', who: 'seller', post: () => [`${orderUrl()}/refunds`, { amount: '1.00', reason: 'x'.repeat(501), lineItemId: '' }], says: 'Reason: must be at most 500 characters' },
    { name: 'alert: a blank resolution', who: 'seller', post: () => [`${orderUrl()}/alerts/999999/resolve`, { resolution: '  ' }], says: 'Say why in the reason box, then try again.' },
    {
      name: 'return receipt: a warehouse that is not a choice',
      who: 'seller',
      post: () => [`${orderUrl()}/returns/999999/receive`, { restockWarehouseId: 'main' }],
      says: 'Warehouse: choose a warehouse from the list, or not to restock',
    },
    { name: 'ingestion request: a SKU over its length', who: 'seller', post: () => [`/console/apps/storefronts/${seed.channel.installationId}/ingestion-request`, { skus: `OK-1\n${'S'.repeat(256)}` }], says: 'SKUs: must be at most 255 characters' },
    { name: 'warehouse mapping: a warehouse that is not a choice', who: 'seller', post: () => [`${integration()}/warehouses`, { warehouseId: 'Main', warehouseUniqueId: 'M-1' }], says: 'Choose a warehouse from the list.' },
    {
      name: "warehouse mapping: a partner's id over its length",
      who: 'seller',
      post: () => [`${integration()}/warehouses`, { warehouseId: String(seed.warehouses.second), warehouseUniqueId: 'W'.repeat(201) }],
      says: "Partner's id: must be at most 200 characters",
    },
    {
      name: "install: a ticked warehouse without the partner's id",
      who: 'seller',
      post: () => [`/console/apps/${shippingAppId}/install`, { warehouse: String(seed.warehouses.second), [`uid_${seed.warehouses.second}`]: ' ' }],
      says: "Give the id the app knows this warehouse by (the partner's id for it).",
    },
    { name: 'invite: a role that is not offered', who: 'seller', post: () => ['/console/users/invite', { email: 'new@form-checks.example', role: 'ADMIN' }], says: 'Role: choose Owner or Staff.' },
    { name: 'new account: a blank name', who: 'operator', post: () => ['/console/operator/accounts', { name: '' }], says: 'Name: must not be empty' },
    { name: 'new warehouse: a name over its length', who: 'operator', post: () => [`/console/operator/accounts/${seed.accountId}/warehouses`, { name: 'W'.repeat(201) }], says: 'Name: must be at most 200 characters' },
    {
      name: 'new app: no scope ticked',
      who: 'operator',
      post: () => ['/console/operator/apps', { name: 'NoScopes', contactEmail: 'dev@partner.example', redirectUri: 'https://partner.example/cb', kind: 'SHIPPING' }],
      says: 'Scopes: needs at least one entry',
    },
    {
      name: "app callbacks: an address over its length",
      who: 'operator',
      post: () => [`/console/operator/apps/${appId}/callbacks`, { callbackBaseUrl: `https://partner.example/${'c'.repeat(2000)}` }],
      says: 'Callback base URL: must be at most 2,000 characters',
    },
  ];

  for (const c of cases) {
    it(`${c.name}: refused in the form's words`, async () => {
      const [url, form] = c.post();
      const flash = await (c.who === 'seller' ? seller : operator).flashOf(url, form);
      assert.deepEqual(flash, { kind: 'bad', text: c.says });
      assert.doesNotMatch(flash.text, API_WORDS);
    });
  }

  it('changed nothing: the order, the mappings, the installations, the users, the apps', async () => {
    const api = (await t.app.inject({ url: `/v1/salesOrder/${order.orderNumber}`, headers: { authorization: `Bearer ${seed.sellerToken}` } })).json<Order & { products: { cancelQuantity: number }[] }>();
    assert.equal(api.products[0]!.cancelQuantity, 0);
    assert.equal((api.returnOrders as unknown[] | undefined)?.length ?? 0, 0);
    const installations = (await admin(t, 'GET', `/admin/accounts/${seed.accountId}/installations`)).json<{ results: { appId: number }[] }>();
    assert.equal(installations.results.some((i) => i.appId === shippingAppId), false);
    const users = (await admin(t, 'GET', `/admin/accounts/${seed.accountId}/users`)).json<{ results: unknown[] }>();
    assert.equal(users.results.length, 1);
    const warehouses = (await admin(t, 'GET', `/admin/accounts/${seed.accountId}/warehouses`)).json<{ results: unknown[] }>();
    assert.equal(warehouses.results.length, 3);
    const apps = await t.deps.db.db.selectFrom('apps').select('name').where('name', '=', 'NoScopes').execute();
    assert.deepEqual(apps, []);
  });
});
