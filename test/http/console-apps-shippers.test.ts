import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { admin, exchangeCode, registerAppVia, tokenAccepted, type RegisteredApp } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock } from './v1-sales-orders-helpers.js';
import { batch, needToShip } from './v2-shipping-support.js';

const PASSWORD = 'correct horse battery';

interface Installation {
  installationId: number;
  appId: number;
  status: string;
  mappings: { warehouseId: number; warehouseUniqueId: string }[];
}

/**
 * The console's apps pages and the one-shipper rule (resolutions §6): installing a second shipping app on a
 * warehouse is refused in the seller's words naming the app that ships it; a shipping app's page shows its
 * warehouses and open orders, stops using it for a warehouse or uninstalls it after a confirmation that says
 * what happens to those orders; the next app mapped there gets them.
 */
describe('console: one shipping app per warehouse (install refused, stop using, uninstall, hand over)', () => {
  let t: TestApp;
  let seed: SeededAccount;
  let b: ConsoleBrowser;
  let parcelPro: RegisteredApp;
  let parcel = { installationId: 0, token: '' };

  const installations = async () => (await admin(t, 'GET', `/admin/accounts/${seed.accountId}/installations`)).json<{ results: Installation[] }>().results;
  const integrationPage = (id: number) => `/console/apps/integrations/${id}`;
  /** Posts the Install form for the app with one warehouse ticked. */
  const installForm = (appId: number, warehouseId: number, uniqueId: string) =>
    b.post(`/console/apps/${appId}/install`, { warehouse: String(warehouseId), [`uid_${warehouseId}`]: uniqueId });

  before(async () => {
    t = await createTestApp();
    seed = await seedAccount(t, 'Console shipper shop');
    parcelPro = await registerAppVia(t, 'SHIPPING', ['sales:orders:fulfillment:self'], 'ParcelPro');
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: 'owner@ship.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    b = consoleBrowser(t);
    assert.equal((await b.signIn('owner@ship.example', PASSWORD)).statusCode, 303);
    await stock(t, seed.sellerToken, 'MUG', seed.warehouses.main, 10);
    await createOrder(t, seed.channel.token, orderBody('CON-1', [{ requestedSku: 'MUG', quantity: 1 }]));
    const accepted = await createOrder(t, seed.channel.token, orderBody('CON-2', [{ requestedSku: 'MUG', quantity: 2 }]));
    const fo = (await needToShip(t, seed.shipping.token)).orders.find((o) => o.orderNumber === accepted.orderNumber)!;
    const [ack] = await batch(t, seed.shipping.token, 'fulfillment_orders/acknowledge', 'acknowledgements', [{ fulfillmentOrderId: fo.fulfillmentOrderId, externalOrderId: 'WMS-CON-2' }]);
    assert.ok(ack!.success, ack!.errorMessage);
  });
  after(async () => t.close());

  it('refuses to install a second shipping app on a warehouse, naming the app that ships it, and installs nothing', async () => {
    const form = await b.get(`/console/apps/${parcelPro.appId}/install`);
    assert.equal(form.statusCode, 200);
    assert.match(form.body, /Main — ships with SHIPPING app/);
    const count = (await installations()).length;
    const res = await installForm(parcelPro.appId, seed.warehouses.main, 'PP-MAIN');
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, `/console/apps/${parcelPro.appId}/install`);
    const back = await b.get(String(res.headers.location));
    assert.match(
      back.body,
      /class="flash bad"[^>]*>Main already ships with SHIPPING app\. A warehouse works with one shipping app at a time: open SHIPPING app under Apps and stop using it for that warehouse, or uninstall it, then try again\./,
    );
    const flashText = /class="flash bad"[^>]*>([^<]*)</.exec(back.body)![1]!;
    assert.doesNotMatch(flashText, /warehouseUniqueId|installation \d+|fulfil/, 'seller words, not API field names');
    assert.equal((await installations()).length, count);
  });

  it("shows a shipping app's warehouses and open orders, with its page linked from the apps list", async () => {
    const list = await b.get('/console/apps');
    assert.ok(list.body.includes(`href="${integrationPage(seed.shipping.installationId)}"`));
    const page = await b.get(integrationPage(seed.shipping.installationId));
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /<td>Main<\/td>\s*<td>SHIP-MAIN<\/td>\s*<td>Ships orders<\/td>\s*<td>1 order not accepted yet, 1 order accepted<\/td>/);
    assert.match(page.body, /Yes, stop using it for Main/);
    assert.match(page.body, /1 order it has not accepted yet leave its list at once\. 1 order it has accepted get a cancellation request it should confirm\./);
    assert.match(page.body, /Yes, uninstall SHIPPING app/);
    assert.match(page.body, /hx-confirm="Uninstall SHIPPING app\? It loses access at once\."/);
    // Another account's integration, or a storefront's id, is a 404 page.
    assert.equal((await b.get(integrationPage(seed.channel.installationId))).statusCode, 404);
    assert.equal((await b.get(integrationPage(999999))).statusCode, 404);
  });

  it('uninstalls only once confirmed: its token then gets 401 and its open orders go back to waiting', async () => {
    const refused = await b.flashOf(`${integrationPage(seed.shipping.installationId)}/uninstall`, {});
    assert.deepEqual(refused, { kind: 'bad', text: 'Tick “Yes, uninstall SHIPPING app” to confirm.' });
    assert.ok(await tokenAccepted(t, seed.shipping.token));

    const done = await b.flashOf(`${integrationPage(seed.shipping.installationId)}/uninstall`, { confirm: 'yes' });
    assert.deepEqual(done, {
      kind: 'ok',
      text:
        'SHIPPING app is uninstalled; its access stopped at once. 1 order it had not accepted yet went back to waiting; ' +
        '1 order it had accepted got a cancellation request. Their units stay reserved in their warehouses for the next shipping app you connect there.',
    });
    assert.equal(await tokenAccepted(t, seed.shipping.token), false);
    const page = await b.get(integrationPage(seed.shipping.installationId));
    assert.match(page.body, /Uninstalled \d{4}-\d\d-\d\d/);
    assert.doesNotMatch(page.body, /Yes, uninstall/);
  });

  it('installs the next shipping app on the warehouse: it gets the orders waiting there', async () => {
    const form = await b.get(`/console/apps/${parcelPro.appId}/install`);
    assert.doesNotMatch(form.body, /ships with/);
    const res = await installForm(parcelPro.appId, seed.warehouses.main, 'PP-MAIN');
    assert.equal(res.statusCode, 303, res.body);
    const code = new URL(String(res.headers.location)).searchParams.get('code')!;
    const token = await exchangeCode(t, parcelPro.clientId, parcelPro.clientSecret, code);
    assert.equal(token.statusCode, 200, token.body);
    parcel = { installationId: (await installations()).find((i) => i.appId === parcelPro.appId)!.installationId, token: token.json<{ access_token: string }>().access_token };
    const queue = (await needToShip(t, parcel.token)).orders;
    assert.deepEqual(queue.map((o) => [o.status, o.warehouseUniqueId, o.lines.map((l) => [l.sku, l.quantity])]), [
      ['FULFILLMENT_ORDER_STATUS_NEW', 'PP-MAIN', [['MUG', 1]]],
      ['FULFILLMENT_ORDER_STATUS_NEW', 'PP-MAIN', [['MUG', 2]]],
    ]);
  });

  it('stops using a shipping app for a warehouse once confirmed, and maps it again from its page', async () => {
    const page = integrationPage(parcel.installationId);
    const unconfirmed = await b.flashOf(`${page}/warehouses/${seed.warehouses.main}/unmap`, {});
    assert.deepEqual(unconfirmed, { kind: 'bad', text: 'Tick the box to confirm, then press the button again.' });

    const stopped = await b.flashOf(`${page}/warehouses/${seed.warehouses.main}/unmap`, { confirm: 'yes' });
    assert.deepEqual(stopped, {
      kind: 'ok',
      text: 'ParcelPro no longer works with Main. 2 orders it had not accepted yet went back to waiting. Their units stay reserved in Main for the next shipping app you connect there.',
    });
    assert.deepEqual((await needToShip(t, parcel.token)).orders, []);
    assert.match((await b.get(page)).body, /This app works with no warehouse\./);

    // Another shipping app on Second: mapping ParcelPro there is refused in seller words.
    const other = await registerAppVia(t, 'SHIPPING', ['sales:orders:fulfillment:self'], 'QuickShip');
    const installed = await admin(t, 'POST', `/admin/accounts/${seed.accountId}/installations`, { appId: other.appId, warehouses: [{ warehouseId: seed.warehouses.second, warehouseUniqueId: 'QS-2' }] });
    assert.equal(installed.statusCode, 201, installed.body);
    const form = await b.get(page);
    assert.match(form.body, /Second \(ships with QuickShip\)/);
    const taken = await b.flashOf(`${page}/warehouses`, { warehouseId: String(seed.warehouses.second), warehouseUniqueId: 'PP-2' });
    assert.equal(taken.kind, 'bad');
    assert.match(taken.text, /^Second already ships with QuickShip\. A warehouse works with one shipping app at a time/);

    const mapped = await b.flashOf(`${page}/warehouses`, { warehouseId: String(seed.warehouses.main), warehouseUniqueId: 'PP-MAIN' });
    assert.deepEqual(mapped, { kind: 'ok', text: 'ParcelPro now works with this warehouse. 2 orders already waiting there are now its to ship.' });
    assert.equal((await needToShip(t, parcel.token)).orders.length, 2);
    const blank = await b.flashOf(`${page}/warehouses`, { warehouseId: String(seed.warehouses.channel), warehouseUniqueId: ' ' });
    assert.deepEqual(blank, { kind: 'bad', text: "Give the id the app knows this warehouse by (the partner's id for it)." });
  });

  it('refuses the apps actions without the CSRF token (403) and changes nothing', async () => {
    const res = await b.post(`${integrationPage(parcel.installationId)}/uninstall`, { confirm: 'yes' }, { csrf: false });
    assert.equal(res.statusCode, 403);
    assert.ok(await tokenAccepted(t, parcel.token));
  });
});
