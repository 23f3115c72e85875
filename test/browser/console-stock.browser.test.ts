import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock } from '../http/v1-sales-orders-helpers.js';
import { skip, startConsoleHarness, type ConsoleHarness } from './support.js';

const EMAIL = 'owner@stock-browser.example';

describe('console in a browser: stock figures, a low-stock alert and the low-stock list, on a desktop and a 390 px phone', () => {
  let h: ConsoleHarness;
  let seed: SeededAccount;

  before(async () => {
    if (skip) return;
    h = await startConsoleHarness();
    seed = await seedAccount(h.t, 'Stock Browser Shop');
    // 30 on hand, all reserved by an order for 42: 12 backordered.
    await stock(h.t, seed.sellerToken, 'LOW-MUG', seed.warehouses.main, 30);
    await createOrder(h.t, seed.channel.token, orderBody('STOCK-B-1', [{ requestedSku: 'LOW-MUG', quantity: 42, unitPrice: 5 }]));
    await stock(h.t, seed.sellerToken, 'PLENTY-CUP', seed.warehouses.main, 400);
    await h.addSeller(seed.accountId, EMAIL);
  });
  after(async () => {
    await h?.close();
  });

  const noSideways = async (page: Page) =>
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');

  /** Sets the alert with the keyboard alone, then finds the SKU on the low-stock list. */
  const scenario = async (page: Page, threshold: string) => {
    await h.signIn(page, EMAIL);
    await page.waitForURL(`${h.base}/console/home`);
    await page.goto(`${h.base}/console/inventory`);
    await noSideways(page);
    const group = page.locator('table.stock tbody', { hasText: 'LOW-MUG' });
    assert.match((await group.textContent()) ?? '', /Main[\s\S]*30[\s\S]*30[\s\S]*0[\s\S]*12/);

    // Keyboard: focus the SKU's alert field, type, Enter submits its form.
    const input = page.getByLabel('Low-stock alert for LOW-MUG (units; empty for no alert)');
    await input.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(threshold);
    await page.keyboard.press('Enter');
    await page.getByText(`LOW-MUG: low-stock alert at ${threshold} or fewer units available.`).waitFor();
    assert.match((await page.locator('table.stock tbody', { hasText: 'LOW-MUG' }).textContent()) ?? '', new RegExp(`At ${threshold} or fewer\\s*Low`));
    await noSideways(page);

    // Keyboard: the Low stock tab, reached by Tab from the Stock tab and opened with Enter.
    await page.getByRole('navigation', { name: 'Inventory' }).getByRole('link', { name: 'Stock', exact: true }).focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Low stock');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${h.base}/console/inventory/low-stock`);
    const row = page.locator('tbody tr', { hasText: 'LOW-MUG' });
    assert.match((await row.textContent()) ?? '', new RegExp(`LOW-MUG\\s*0\\s*${threshold}\\s*${threshold}\\s*12`));
    assert.equal(await page.locator('tbody tr', { hasText: 'PLENTY-CUP' }).count(), 0);
    await noSideways(page);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= (page.viewportSize()?.width ?? 0));
  };

  it('on a desktop: sees backordered units, sets an alert with the keyboard and finds the SKU on the low-stock list', { skip }, async () => {
    const page = await h.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await scenario(page, '5');
    await h.finish(page);
  });

  it('on a 390 px phone: the same, nothing scrolling sideways', { skip }, async () => {
    const page = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await scenario(page, '7');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390));
    await h.finish(page);
  });
});
