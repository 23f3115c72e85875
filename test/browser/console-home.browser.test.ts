import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock, type Order } from '../http/v1-sales-orders-helpers.js';
import { skip, startConsoleHarness, type ConsoleHarness } from './support.js';

const EMAIL = 'owner@home-browser.example';
const EMPTY_EMAIL = 'owner@empty-home-browser.example';

describe('console in a browser: the seller home (counts that open their lists, the 30-day charts), desktop and 390 px phone', () => {
  let h: ConsoleHarness;
  let seed: SeededAccount;
  let late: Order;
  let backordered: Order;

  const daysAgo = (days: number) => new Date(h.t.deps.clock.now().getTime() - days * 86_400_000).toISOString();
  const noSideways = async (page: Page, width: number) =>
    assert.ok(await page.evaluate((w) => document.documentElement.scrollWidth <= w, width), `no sideways scrolling at ${width} px`);
  const tile = (page: Page, figure: string) => page.locator(`[data-figure="${figure}"]`);

  before(async () => {
    if (skip) return;
    h = await startConsoleHarness();
    seed = await seedAccount(h.t, 'Home Browser Shop');
    const empty = await seedAccount(h.t, 'Empty Browser Shop');
    await stock(h.t, seed.sellerToken, 'MUG', seed.warehouses.main, 100);
    await stock(h.t, seed.sellerToken, 'BO', seed.warehouses.main, 0);
    for (let i = 0; i < 12; i++) {
      await createOrder(h.t, seed.channel.token, orderBody(`HB-${i}`, [{ requestedSku: 'MUG', quantity: 1 + (i % 3), unitPrice: '12.50' }], { orderTs: daysAgo(i * 2 + 1) }));
    }
    late = await createOrder(h.t, seed.channel.token, orderBody('HB-LATE', [{ requestedSku: 'MUG', quantity: 1, unitPrice: 20, latestShipBy: daysAgo(1) }], { orderTs: daysAgo(3) }));
    backordered = await createOrder(h.t, seed.channel.token, orderBody('HB-BACK', [{ requestedSku: 'BO', quantity: 33, unitPrice: 2 }], { orderTs: daysAgo(2) }));
    await createOrder(h.t, seed.channel.token, orderBody('HB-UNR', [{ requestedSku: 'NEVER-HEARD-OF', quantity: 1, unitPrice: 5 }], { orderTs: daysAgo(1) }));
    await h.addSeller(seed.accountId, EMAIL);
    await h.addSeller(empty.accountId, EMPTY_EMAIL);
  });
  after(async () => {
    await h?.close();
  });

  it('on a desktop: the figures and both charts show; a count opens exactly its orders', { skip }, async () => {
    const page = await h.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await h.signIn(page, EMAIL);
    await page.waitForURL(`${h.base}/console/home`);
    assert.equal(await tile(page, 'to-ship').getAttribute('data-count'), '15');
    assert.equal(await tile(page, 'past-ship-by').getAttribute('data-count'), '1');
    assert.equal(await tile(page, 'backordered').getAttribute('data-count'), '2');
    assert.equal(await tile(page, 'unroutable').getAttribute('data-count'), '1');
    assert.equal(await page.locator('[data-all-clear]').count(), 0);
    assert.ok(await page.getByRole('img', { name: 'Sales per day' }).isVisible());
    assert.ok(await page.getByRole('img', { name: 'Orders per day' }).isVisible());
    assert.equal(await page.locator('svg[data-chart="sales"] rect').count() > 0, true);
    await noSideways(page, 1280);

    await page.getByRole('link', { name: /^1 late: past their ship-by date/ }).click();
    await page.waitForURL(`${h.base}/console/orders?needs=overdue`);
    assert.match((await page.locator('main').textContent()) ?? '', /Showing orders past their ship-by date with units still to ship\./);
    assert.deepEqual(await page.locator('table.orders a.row-link').allTextContents(), [late.orderNumber]);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await page.waitForURL(`${h.base}/console/home`);
    await page.getByRole('link', { name: /^2 backordered/ }).click();
    await page.waitForURL(`${h.base}/console/orders?tab=backordered`);
    assert.equal(await page.locator('nav.tabs a[aria-current="page"]').getAttribute('data-tab'), 'backordered');
    assert.ok((await page.locator('table.orders a.row-link').allTextContents()).includes(backordered.orderNumber));
    await h.finish(page);
  });

  it('on a 390 px phone: tiles and charts fit without sideways scrolling, the figures table too', { skip }, async () => {
    const page = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await h.signIn(page, EMAIL);
    await page.waitForURL(`${h.base}/console/home`);
    await noSideways(page, 390);
    const chart = await page.locator('svg[data-chart="sales"]').boundingBox();
    assert.ok(chart && chart.width <= 390 && chart.width > 300, `the chart uses the phone's width (${chart?.width})`);
    await page.getByText('Figures by day').click();
    await page.locator('tr[data-day]').first().waitFor();
    await noSideways(page, 390);
    await page.getByRole('link', { name: /^15 to ship/ }).click();
    await page.waitForURL(`${h.base}/console/orders?tab=to-ship`);
    await noSideways(page, 390);
    await h.finish(page);
  });

  it('a new account, desktop and phone: first steps and "All clear", nothing sideways', { skip }, async () => {
    const page = await h.newPage();
    await h.signIn(page, EMPTY_EMAIL);
    await page.waitForURL(`${h.base}/console/home`);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      assert.ok(await page.getByRole('heading', { name: 'No orders yet' }).isVisible());
      assert.match((await page.locator('[data-all-clear]').textContent()) ?? '', /All clear/);
      assert.equal(await page.locator('svg.chart').count(), 0);
      await noSideways(page, width);
    }
    await page.getByText('Show every check').click();
    assert.equal(await tile(page, 'to-ship').getAttribute('data-count'), '0');
    await h.finish(page);
  });
});
