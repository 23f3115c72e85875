import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock } from '../../src/lib/clock.js';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from '../helpers/console.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock } from './v1-sales-orders-helpers.js';

/**
 * Account settings in the console (resolutions §10): a seller's pages show money in the account's currency
 * and dates in its time zone; the operator sets them on the account's page with the API's checks.
 */

const PASSWORD = 'correct horse battery';
const OWNER = 'owner@settings.example';
const OPERATOR = 'ops@settings.example';

describe('console: account settings', () => {
  // Stock and orders are stamped 2026-11-23 09:00 UTC: 10:00 in Berlin (CET), 04:00 in New York (EST).
  const clock = manualClock(new Date('2026-11-23T09:00:00.000Z'));
  let t: TestApp;
  let seed: SeededAccount;
  let other: SeededAccount;
  let owner: ConsoleBrowser;
  let operator: ConsoleBrowser;
  let orderNumber: string;

  const signedIn = async (email: string): Promise<ConsoleBrowser> => {
    const b = consoleBrowser(t);
    assert.equal((await b.signIn(email, PASSWORD)).statusCode, 303);
    return b;
  };
  const page = async (b: ConsoleBrowser, url: string) => {
    const res = await b.get(url);
    assert.equal(res.statusCode, 200, res.body);
    return res.body;
  };
  const settingsOf = async (accountId: number) =>
    (await admin(t, 'GET', `/admin/accounts/${accountId}`)).json<{ currencyCode: string; timeZone: string; personalDataRetentionDays: number | null }>();

  before(async () => {
    t = await createTestApp({ clock });
    seed = await seedAccount(t, 'Settings Shop');
    other = await seedAccount(t, 'Other Shop');
    await stock(t, seed.sellerToken, 'MUG', seed.warehouses.main, 10);
    orderNumber = (await createOrder(t, seed.channel.token, orderBody('SET-1', [{ requestedSku: 'MUG', quantity: 3, unitPrice: 1250.5 }]))).orderNumber;
    assert.equal((await admin(t, 'POST', `/admin/accounts/${seed.accountId}/users`, { email: OWNER, password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    assert.equal((await admin(t, 'POST', '/admin/operators', { email: OPERATOR, password: PASSWORD })).statusCode, 201);
    owner = await signedIn(OWNER);
    operator = await signedIn(OPERATOR);
  });
  after(() => t.close());

  it('by default the seller sees dollars and UTC, and the home page says so', async () => {
    const home = await page(owner, '/console/home');
    assert.match(home, /Money is shown in USD and dates in the UTC time zone \(now 2026-11-23 09:00 UTC\)/);
    const orders = await page(owner, '/console/orders');
    assert.match(orders, />\$3,751\.50</, 'the order total (3 × 1250.5) in dollars');
    const stockPage = await page(owner, '/console/inventory?sku=MUG');
    assert.match(stockPage, /<td data-label="Updated">2026-11-23 09:00 UTC<\/td>/);
  });

  it('after the operator API sets EUR and Europe/Berlin, the signed-in seller sees euros and Berlin time at once', async () => {
    const res = await admin(t, 'PATCH', `/admin/accounts/${seed.accountId}`, { currencyCode: 'EUR', timeZone: 'Europe/Berlin' });
    assert.equal(res.statusCode, 200, res.body);
    const orders = await page(owner, '/console/orders');
    assert.match(orders, />€3,751\.50</, 'the order total in euros');
    assert.ok(!orders.includes('$3,751.50'));
    assert.ok(orders.includes(`/console/orders/${orderNumber}`));
    // The order's own time (2026-11-20 10:00 UTC, from the channel) in Berlin time.
    assert.match(orders, />2026-11-20 11:00 CET</);
    const stockPage = await page(owner, '/console/inventory?sku=MUG');
    assert.match(stockPage, /<td data-label="Updated">2026-11-23 10:00 CET<\/td>/, 'the stock row updated at 09:00 UTC, in Berlin time');
    assert.ok(!stockPage.includes('09:00 UTC'));
    const home = await page(owner, '/console/home');
    assert.match(home, /Money is shown in EUR and dates in the Europe\/Berlin time zone \(now 2026-11-23 10:00 CET\)/);
    const users = await page(owner, '/console/users');
    assert.match(users, /2026-11-23 10:00 CET/, "a user's creation date in Berlin time");
  });

  it("another account's seller keeps its own settings", async () => {
    assert.equal((await admin(t, 'POST', `/admin/accounts/${other.accountId}/users`, { email: 'other@settings.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    const b = await signedIn('other@settings.example');
    assert.match(await page(b, '/console/home'), /Money is shown in USD and dates in the UTC time zone/);
  });

  it('the operator sees the settings form on the account page and saves it', async () => {
    const body = await page(operator, `/console/operator/accounts/${seed.accountId}`);
    assert.match(body, /<select name="currencyCode">/);
    assert.match(body, /<option value="EUR" selected>EUR – Euro<\/option>/);
    assert.match(body, /<select name="timeZone">/);
    assert.match(body, /<option value="Europe\/Berlin" selected>Europe\/Berlin<\/option>/);
    assert.match(body, /<option value="UTC">UTC<\/option>/);
    assert.match(body, /name="personalDataRetentionDays"[^>]*value="30"/);
    const flash = await operator.flashOf(`/console/operator/accounts/${seed.accountId}/settings`, {
      currencyCode: 'GBP',
      timeZone: 'America/New_York',
      personalDataRetentionDays: '90',
    });
    assert.equal(flash.kind, 'ok', flash.text);
    assert.match(flash.text, /GBP, America\/New_York/);
    assert.deepEqual(await settingsOf(seed.accountId), { accountId: seed.accountId, name: 'Settings Shop', currencyCode: 'GBP', timeZone: 'America/New_York', personalDataRetentionDays: 90 });
    const orders = await page(owner, '/console/orders');
    assert.match(orders, />£3,751\.50</);
    assert.match(orders, />2026-11-20 05:00 EST</);

    const keep = await operator.flashOf(`/console/operator/accounts/${seed.accountId}/settings`, {
      currencyCode: 'GBP',
      timeZone: 'America/New_York',
      personalDataRetentionDays: '90',
      keepPersonalData: 'yes',
    });
    assert.equal(keep.kind, 'ok', keep.text);
    assert.equal((await settingsOf(seed.accountId)).personalDataRetentionDays, null, 'the box keeps personal data');
    const after = await page(operator, `/console/operator/accounts/${seed.accountId}`);
    assert.match(after, /name="keepPersonalData" value="yes" checked/);
  });

  it("the operator's form refuses bad values in the form's words and changes nothing", async () => {
    const before = await settingsOf(seed.accountId);
    const cases: [Record<string, string>, RegExp][] = [
      [{ currencyCode: 'XYZ', timeZone: 'UTC', personalDataRetentionDays: '30' }, /^Currency: must be an ISO 4217 currency code/],
      [{ currencyCode: 'EUR', timeZone: 'Nowhere/Else', personalDataRetentionDays: '30' }, /^Time zone: must be an IANA time zone name/],
      [{ currencyCode: 'EUR', timeZone: 'UTC', personalDataRetentionDays: '0' }, /^Keep buyers' personal data for: must be a whole number of days from 1 to 3650, or tick/],
      [{ currencyCode: 'EUR', timeZone: 'UTC', personalDataRetentionDays: 'soon' }, /^Keep buyers' personal data for: /],
      [{ currencyCode: 'EUR', timeZone: 'UTC', personalDataRetentionDays: '' }, /^Keep buyers' personal data for: /],
    ];
    for (const [form, pattern] of cases) {
      const flash = await operator.flashOf(`/console/operator/accounts/${seed.accountId}/settings`, form);
      assert.equal(flash.kind, 'bad', JSON.stringify(form));
      assert.match(flash.text, pattern);
      assert.ok(!flash.text.includes('null'), flash.text);
      assert.deepEqual(await settingsOf(seed.accountId), before, `nothing changed after ${JSON.stringify(form)}`);
    }
  });

  it('a seller cannot post the settings form', async () => {
    const before = await settingsOf(seed.accountId);
    const res = await owner.post(`/console/operator/accounts/${seed.accountId}/settings`, { currencyCode: 'JPY', timeZone: 'Asia/Tokyo', personalDataRetentionDays: '5' });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/console/home');
    assert.deepEqual(await settingsOf(seed.accountId), before);
  });

  it('an unknown account is the 404 page', async () => {
    assert.equal((await operator.get('/console/operator/accounts/999999')).statusCode, 404);
    const res = await operator.post('/console/operator/accounts/999999/settings', { currencyCode: 'EUR', timeZone: 'UTC', personalDataRetentionDays: '30' });
    assert.equal(res.statusCode, 303);
  });
});
