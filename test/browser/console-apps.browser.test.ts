import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { admin, createAccountVia, exchangeCode, registerAppVia, tokenAccepted, type RegisteredApp } from '../helpers/admin.js';
import { REDIRECT_URI } from '../helpers/fixtures.js';
import { skip, startConsoleHarness, type ConsoleHarness } from './support.js';

describe('console in a browser: installing an app', () => {
  let h: ConsoleHarness;
  let accountId: number;
  let channel: RegisteredApp;

  before(async () => {
    if (skip) return;
    h = await startConsoleHarness();
    accountId = await createAccountVia(h.t, 'Apps Browser Shop');
    channel = await registerAppVia(h.t, 'SALES_CHANNEL', ['listing:self', 'sales:orders:self'], 'Marketplace');
    await h.addSeller(accountId, 'owner@apps-browser.example');
  });
  after(async () => {
    await h?.close();
  });

  it("installs a sales channel: the browser lands on the partner's redirect URI with a code that exchanges for a token", { skip }, async () => {
    const page = await h.newPage();
    // The partner's site: the navigation is answered here, as the partner's callback page would.
    const partner = new URL(REDIRECT_URI);
    await page.route(`${partner.origin}/**`, (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'partner callback' }));
    await h.signIn(page, 'owner@apps-browser.example');
    await page.waitForURL(`${h.base}/console/home`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Apps' }).click();
    await page.waitForURL(`${h.base}/console/apps`);
    await page.getByRole('row', { name: /Marketplace/ }).getByRole('link', { name: 'Install' }).click();
    await page.waitForURL(`${h.base}/console/apps/${channel.appId}/install`);
    await page.getByLabel('Storefront name').fill('Browser store');
    await page.getByRole('button', { name: 'Install' }).click();
    await page.waitForURL((url) => url.origin === partner.origin);

    const landed = new URL(page.url());
    assert.equal(landed.pathname, `${partner.pathname}/`, 'the redirect URI with a trailing slash (contract 5.2)');
    assert.equal(landed.searchParams.get('client_id'), channel.clientId);
    const code = landed.searchParams.get('code');
    assert.ok(code, 'a one-time code');
    const token = await exchangeCode(h.t, channel.clientId, channel.clientSecret, code);
    assert.equal(token.statusCode, 200, token.body);
    assert.equal(await tokenAccepted(h.t, token.json<{ access_token: string }>().access_token), true);
    const installs = (await admin(h.t, 'GET', `/admin/accounts/${accountId}/installations`)).json<{ results: { appId: number; storefrontName: string | null }[] }>().results;
    assert.deepEqual(
      installs.map((i) => [i.appId, i.storefrontName]),
      [[channel.appId, 'Browser store']],
    );

    // Back in the console, the installation shows with its token.
    await page.goto(`${h.base}/console/apps`);
    await page.getByRole('cell', { name: /Storefront \d+: Browser store/ }).waitFor();
    assert.match((await page.getByRole('table', { name: 'Installed apps' }).textContent()) ?? '', /1 active, 0 revoked/);
    await h.finish(page);
  });
});
