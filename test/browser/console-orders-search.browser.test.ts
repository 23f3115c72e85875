import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock, type Order } from '../http/v1-sales-orders-helpers.js';
import { skip, startConsoleHarness, type ConsoleHarness } from './support.js';

const EMAIL = 'owner@orders-search-browser.example';
const PAGED = 55;

describe('console in a browser: order search, tabs and paging, on a desktop and a 390 px phone', () => {
  let h: ConsoleHarness;
  let seed: SeededAccount;
  let jane: Order;

  before(async () => {
    if (skip) return;
    h = await startConsoleHarness();
    seed = await seedAccount(h.t, 'Orders Search Browser Shop');
    await stock(h.t, seed.sellerToken, 'CUP', seed.warehouses.main, 500);
    jane = await createOrder(
      h.t,
      seed.channel.token,
      orderBody('113-7770001-0000042', [{ requestedSku: 'CUP', quantity: 2, unitPrice: 12.5 }], {
        customerName: 'Jane Marple',
        customerEmail: 'jane.marple.with.a.long.address@st-mary-mead.example',
      }),
    );
    for (let i = 0; i < PAGED; i++) {
      const orderTs = new Date(Date.parse('2026-10-01T00:00:00.000Z') + i * 60_000).toISOString();
      await createOrder(h.t, seed.channel.token, orderBody(`BULK-${i}`, [{ requestedSku: 'CUP', quantity: 1, unitPrice: 3 }], { orderTs, customerName: `Buyer ${i}` }));
    }
    await h.addSeller(seed.accountId, EMAIL);
  });
  after(async () => {
    await h?.close();
  });

  const noSideways = async (page: Page) =>
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');

  const scenario = async (page: Page) => {
    await h.signIn(page, EMAIL);
    await page.waitForURL(`${h.base}/console/home`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).click();
    await page.waitForURL(`${h.base}/console/orders`);
    await noSideways(page);

    // Paging: the next page, then back to the first.
    const firstPage = await page.locator('a.row-link').allTextContents();
    assert.equal(firstPage.length, 50);
    await page.getByRole('link', { name: 'Next page →' }).click();
    await page.getByRole('link', { name: '← Previous page' }).waitFor();
    assert.equal(await page.locator('a.row-link').count(), PAGED + 1 - 50);
    await noSideways(page);
    await page.getByRole('link', { name: '← Previous page' }).click();
    await page.getByRole('link', { name: 'Next page →' }).waitFor();
    assert.deepEqual(await page.locator('a.row-link').allTextContents(), firstPage);

    // Search by the customer's name; the tabs keep the search.
    await page.getByRole('searchbox', { name: 'Search orders' }).fill('marple');
    await page.getByRole('searchbox', { name: 'Search orders' }).press('Enter');
    await page.waitForURL(/q=marple/);
    assert.deepEqual(await page.locator('a.row-link').allTextContents(), [jane.orderNumber]);
    const row = page.locator('table.orders tbody tr');
    assert.match((await row.textContent()) ?? '', /Jane Marple[\s\S]*113-7770001-0000042[\s\S]*To ship[\s\S]*\$25\.00/);
    await noSideways(page);
    await page.getByRole('navigation', { name: 'Orders by status' }).getByRole('link', { name: /Shipped/ }).click();
    await page.waitForURL(/tab=shipped/);
    assert.match(page.url(), /q=marple/);
    await page.getByText('No orders match.').waitFor();
    await page.getByRole('navigation', { name: 'Orders by status' }).getByRole('link', { name: /To ship/ }).click();
    await page.waitForURL(/tab=to-ship/);

    // The whole row opens the order: a click on the channel order id does.
    const box = await page.getByText('113-7770001-0000042').boundingBox();
    assert.ok(box);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForURL(`${h.base}/console/orders/${jane.orderNumber}`);
  };

  it('on a desktop: pages both ways, searches, switches tabs and opens an order from its row', { skip }, async () => {
    const page = await h.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await scenario(page);
    await h.finish(page);
  });

  it('on a 390 px phone: the same, with rows stacked and nothing scrolling sideways', { skip }, async () => {
    const page = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await scenario(page);
    await h.finish(page);
  });
});
