import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createWarehouse } from '../../src/domain/accounts/warehouses.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { stock } from '../http/v1-sales-orders-helpers.js';
import { skip, startConsoleHarness, type ConsoleHarness } from './support.js';

describe('console in a browser: a storefront’s inventory rules, an exception and the preview, on a desktop and a 390 px phone', () => {
  let h: ConsoleHarness;
  const shops: { seed: SeededAccount; email: string }[] = [];

  before(async () => {
    if (skip) return;
    h = await startConsoleHarness();
    for (const name of ['Desk', 'Phone']) {
      const seed = await seedAccount(h.t, `Rules ${name} Shop`);
      const east = (await createWarehouse(h.t.deps.db.db, seed.accountId, { name: 'East' }, h.t.deps.clock.now())).warehouseId;
      await stock(h.t, seed.sellerToken, 'TEE-BLK-L', seed.warehouses.main, 10);
      await stock(h.t, seed.sellerToken, 'TEE-BLK-L', east, 5);
      await stock(h.t, seed.sellerToken, 'MUG-CUSTOM', seed.warehouses.main, 0);
      const email = `owner@rules-${name.toLowerCase()}.example`;
      await h.addSeller(seed.accountId, email);
      shops.push({ seed, email });
    }
  });
  after(async () => {
    await h?.close();
  });

  const noSideways = async (page: Page) => assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');

  const scenario = async (page: Page, shop: { seed: SeededAccount; email: string }) => {
    page.on('dialog', (d) => void d.accept());
    await h.signIn(page, shop.email);
    await page.waitForURL(`${h.base}/console/home`);
    await page.goto(`${h.base}/console/apps/storefronts/${shop.seed.channel.installationId}`);
    await page.getByRole('link', { name: 'Inventory rules: how much stock it is shown' }).click();
    await page.getByRole('heading', { level: 1, name: 'Inventory rules · Shop One' }).waitFor();
    await noSideways(page);

    // The rules for every SKU, typed in the labelled fields; Enter in a field submits its form.
    await page.getByLabel('Share of stock shown').first().fill('50');
    await page.getByLabel('Keep back (safety stock)').first().fill('2');
    await page.getByLabel('Show at most').first().fill('5');
    await page.getByLabel('Show at most').first().press('Enter');
    await page.getByText('Rules saved. Shop One’s listings are being updated').waitFor();
    await noSideways(page);

    // The preview of one SKU, step by step.
    await page.getByRole('search').first().getByLabel('SKU').fill('TEE-BLK-L');
    await page.getByRole('button', { name: 'Show what it lists' }).click();
    await page.getByText('15 available → 50 % = 7 → above the safety stock of 2 → capped at 5 → shows 5').waitFor();
    assert.match((await page.locator('.panel.preview').textContent()) ?? '', /Shop One is shown 5 units\./);
    await noSideways(page);

    // An exception for a made-to-order SKU.
    const add = page.locator('#exception-form');
    await add.getByLabel('SKU', { exact: true }).fill('MUG-CUSTOM');
    await add.getByLabel('Always show:').check();
    await add.getByLabel('Units always shown').fill('10');
    await add.getByRole('button', { name: 'Add exception' }).click();
    await page.getByText('Exception for MUG-CUSTOM added.').waitFor();
    await page.getByText('0 available → always shows 10 (made to order) → shows 10').waitFor();
    const row = page.locator('table.exceptions tbody tr', { hasText: 'MUG-CUSTOM' });
    assert.match((await row.textContent()) ?? '', /10 units/);
    await noSideways(page);

    // Edit it on its own page, then remove it (confirmed).
    await page.getByRole('link', { name: 'Edit the exception for MUG-CUSTOM' }).click();
    await page.getByRole('heading', { level: 1, name: 'Exception for MUG-CUSTOM' }).waitFor();
    await page.getByLabel('Units always shown').fill('12');
    await page.getByRole('button', { name: 'Save exception' }).click();
    await page.getByText('Exception for MUG-CUSTOM saved.').waitFor();
    await noSideways(page);
    await page.getByRole('button', { name: 'Remove the exception for MUG-CUSTOM' }).click();
    await page.getByText('Exception for MUG-CUSTOM removed: it follows the rules for every SKU.').waitFor();
    assert.equal(await page.locator('table.exceptions').count(), 0);
  };

  it('on a desktop: sets the rules, previews a SKU, adds, edits and removes an exception', { skip }, async () => {
    const page = await h.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await scenario(page, shops[0]!);
    await h.finish(page);
  });

  it('on a 390 px phone: the same, nothing scrolling sideways', { skip }, async () => {
    const page = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await scenario(page, shops[1]!);
    await h.finish(page);
  });
});
