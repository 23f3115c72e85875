import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { admin, registerAppVia } from '../helpers/admin.js';
import { seedDeadDelivery } from '../helpers/console-ops.js';
import { PASSWORD, skip, startConsoleHarness, type ConsoleHarness } from './support.js';

describe('console in a browser: sign-in, navigation, an operator callback replay', () => {
  let h: ConsoleHarness;
  let accountId: number;

  before(async () => {
    if (skip) return;
    h = await startConsoleHarness();
    accountId = (await admin(h.t, 'POST', '/admin/accounts', { name: 'Browser Shop' })).json<{ accountId: number }>().accountId;
    await h.addSeller(accountId, 'owner@browser.example');
    assert.equal((await admin(h.t, 'POST', '/admin/operators', { email: 'ops@browser.example', password: PASSWORD })).statusCode, 201);
  });
  after(async () => {
    await h?.close();
  });

  it('a seller signs in and sees their home page', { skip }, async () => {
    const page = await h.newPage();
    await h.signIn(page, 'owner@browser.example');
    await page.waitForURL(`${h.base}/console/home`);
    assert.equal(await page.locator('h1').textContent(), 'Browser Shop');
    assert.match((await page.locator('.who').textContent()) ?? '', /owner@browser\.example \(owner\)/);
    // Boosted navigation (htmx) to another page keeps working under the CSP.
    await page.getByRole('link', { name: 'Users' }).click();
    await page.waitForURL(`${h.base}/console/users`);
    assert.equal(await page.locator('h1').textContent(), 'Users');
    await h.finish(page);
  });

  it('an operator replays a dead callback delivery from the deliveries page', { skip }, async () => {
    const { appId } = await registerAppVia(h.t, 'SALES_CHANNEL', ['listing:self'], 'Browser Channel');
    const deliveryId = await seedDeadDelivery(h.t.deps, accountId, appId);
    const page = await h.newPage();
    await h.signIn(page, 'ops@browser.example');
    await page.waitForURL(`${h.base}/console/operator`);
    await page.getByRole('link', { name: 'Callbacks' }).click();
    await page.waitForURL(`${h.base}/console/operator/deliveries`);
    await page.getByLabel('State').selectOption('DEAD');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/state=DEAD/);
    const row = page.locator('tr', { has: page.locator(`a[href$="${deliveryId}"]`) });
    assert.equal(await row.locator('.badge').textContent(), 'Gave up');
    await row.getByRole('button', { name: 'Replay' }).click();
    await page.locator('.flash.ok').waitFor();
    assert.match((await page.locator('.flash.ok').textContent()) ?? '', /queued again/);
    assert.equal(page.url(), `${h.base}/console/operator/deliveries/${deliveryId}`);
    assert.equal((await admin(h.t, 'GET', `/admin/deliveries/${deliveryId}`)).json<{ state: string }>().state, 'PENDING');
    await h.finish(page);
  });
});
