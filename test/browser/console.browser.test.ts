import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { admin, registerAppVia } from '../helpers/admin.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedDeadDelivery } from '../helpers/console-ops.js';

/**
 * The console in a real browser (Debian's Chromium, driven by playwright-core): the real server listens on
 * a random loopback port, so the CSP, cookies, CSRF and htmx run as they do for a person. Without a Chromium
 * executable the tests are skipped, saying how to get one.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const skip = existsSync(CHROMIUM_PATH) ? false : `no Chromium at ${CHROMIUM_PATH}: install the Debian package chromium`;

const PASSWORD = 'correct horse battery';

describe('console in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let accountId: number;
  /** Problems the browser reported (CSP violations, script errors): a page must cause none. */
  const problems: string[] = [];

  const newPage = async (): Promise<Page> => {
    const page = await (await browser.newContext()).newPage();
    page.on('console', (m) => {
      // Failed loads are reported below with their URL (the browser's own favicon request excepted).
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
    });
    page.on('response', (r) => {
      if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) problems.push(`${r.status()} ${r.url()}`);
    });
    page.on('pageerror', (e) => problems.push(e.message));
    return page;
  };
  const signIn = async (page: Page, email: string) => {
    await page.goto(`${base}/console/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  before(async () => {
    if (skip) return;
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    accountId = (await admin(t, 'POST', '/admin/accounts', { name: 'Browser Shop' })).json<{ accountId: number }>().accountId;
    assert.equal((await admin(t, 'POST', `/admin/accounts/${accountId}/users`, { email: 'owner@browser.example', password: PASSWORD, role: 'OWNER' })).statusCode, 201);
    assert.equal((await admin(t, 'POST', '/admin/operators', { email: 'ops@browser.example', password: PASSWORD })).statusCode, 201);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true });
  });
  after(async () => {
    if (skip) return;
    await browser?.close();
    await t?.close();
  });

  it('a seller signs in and sees their home page', { skip }, async () => {
    const page = await newPage();
    await signIn(page, 'owner@browser.example');
    await page.waitForURL(`${base}/console/home`);
    assert.equal(await page.locator('h1').textContent(), 'Browser Shop');
    assert.match((await page.locator('.who').textContent()) ?? '', /owner@browser\.example \(owner\)/);
    // Boosted navigation (htmx) to another page keeps working under the CSP.
    await page.getByRole('link', { name: 'Users' }).click();
    await page.waitForURL(`${base}/console/users`);
    assert.equal(await page.locator('h1').textContent(), 'Users');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  it('an operator replays a dead callback delivery from the deliveries page', { skip }, async () => {
    const { appId } = await registerAppVia(t, 'SALES_CHANNEL', ['listing:self'], 'Browser Channel');
    const deliveryId = await seedDeadDelivery(t.deps, accountId, appId);
    const page = await newPage();
    await signIn(page, 'ops@browser.example');
    await page.waitForURL(`${base}/console/operator`);
    await page.getByRole('link', { name: 'Callbacks' }).click();
    await page.waitForURL(`${base}/console/operator/deliveries`);
    await page.getByLabel('State').selectOption('DEAD');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/state=DEAD/);
    const row = page.locator('tr', { has: page.locator(`a[href$="${deliveryId}"]`) });
    assert.equal(await row.locator('.badge').textContent(), 'DEAD');
    await row.getByRole('button', { name: 'Replay' }).click();
    await page.locator('.flash.ok').waitFor();
    assert.match((await page.locator('.flash.ok').textContent()) ?? '', /PENDING again/);
    assert.equal(page.url(), `${base}/console/operator/deliveries/${deliveryId}`);
    assert.equal((await admin(t, 'GET', `/admin/deliveries/${deliveryId}`)).json<{ state: string }>().state, 'PENDING');
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
