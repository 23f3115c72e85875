import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { withTx } from '../../src/db/tx.js';
import { createProductsBySku } from '../../src/domain/catalog/create-products.js';
import { admin } from '../helpers/admin.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { stock } from '../http/v1-sales-orders-helpers.js';
import { skip, startConsoleHarness, type ConsoleHarness } from './support.js';

const EMAIL = 'owner@catalog-browser.example';

describe('console in a browser: the catalog, on a desktop and a 390 px phone, with the keyboard alone', () => {
  let h: ConsoleHarness;
  let seed: SeededAccount;

  before(async () => {
    if (skip) return;
    h = await startConsoleHarness();
    seed = await seedAccount(h.t, 'Catalog Browser Shop');
    // A page and a bit of products, and a kit of two components in stock.
    await withTx(h.t.deps.db.db, (tx) =>
      createProductsBySku(
        tx,
        seed.accountId,
        Array.from({ length: 55 }, (_, i) => `BULK-${String(i).padStart(3, '0')}`),
        h.t.deps.clock.now(),
      ),
    );
    await stock(h.t, seed.sellerToken, 'CANDLE', seed.warehouses.main, 12);
    await stock(h.t, seed.sellerToken, 'MATCHES', seed.warehouses.main, 4);
    await stock(h.t, seed.sellerToken, 'GIFT-SET', seed.warehouses.main, 0);
    const kit = await admin(h.t, 'PUT', `/admin/accounts/${seed.accountId}/products/GIFT-SET/kit`, { components: [{ sku: 'CANDLE', quantity: 3 }, { sku: 'MATCHES', quantity: 1 }] });
    assert.equal(kit.statusCode, 200, kit.body);
    await h.addSeller(seed.accountId, EMAIL);
  });
  after(async () => {
    await h?.close();
  });

  const noSideways = async (page: Page) =>
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no sideways scrolling on ${page.url()}`);

  /** Focuses an element and activates it from the keyboard. */
  const press = async (page: Page, locator: ReturnType<Page['getByRole']>, key = 'Enter') => {
    await locator.focus();
    await page.keyboard.press(key);
  };

  const scenario = async (page: Page, sku: string, brand: string) => {
    await h.signIn(page, EMAIL);
    await page.waitForURL(`${h.base}/console/home`);
    await press(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Catalog' }));
    await page.waitForURL(`${h.base}/console/catalog`);
    await noSideways(page);
    // Paging both ways; the second page holds the kit, which says how many can be assembled (12 candles ÷ 3).
    await press(page, page.getByRole('link', { name: 'Next page →' }));
    await page.getByRole('link', { name: '← Previous page' }).waitFor();
    assert.match((await page.locator('table.catalog tr', { hasText: 'GIFT-SET' }).textContent()) ?? '', /Kit\s*can assemble 4/);
    await noSideways(page);
    await press(page, page.getByRole('link', { name: '← Previous page' }));
    await page.getByRole('link', { name: 'Next page →' }).waitFor();

    // Create: type into the form and move between fields with Tab; Enter submits.
    await press(page, page.getByRole('link', { name: 'New product' }));
    await page.waitForURL(`${h.base}/console/catalog/new`);
    await noSideways(page);
    await page.getByRole('textbox', { name: /^SKU/ }).focus();
    await page.keyboard.type(sku);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Desk lamp');
    await page.keyboard.press('Tab');
    await page.keyboard.type(brand);
    await page.getByRole('textbox', { name: /^Price/ }).focus();
    await page.keyboard.type('49.90');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/catalog\/\d+$/);
    await page.getByText(`Product ${sku} is created.`).waitFor();
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Desk lamp');
    assert.match((await page.locator('dl.facts').textContent()) ?? '', /\$49\.90/);
    await noSideways(page);
    const productUrl = page.url();

    // Find it by a word of its brand, in another case.
    await press(page, page.getByRole('link', { name: '← Catalog' }));
    await page.waitForURL(`${h.base}/console/catalog`);
    await page.getByRole('searchbox', { name: 'Search products' }).focus();
    const word = brand.split(' ')[0]!.toUpperCase();
    await page.keyboard.type(word);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`q=${word}`));
    assert.deepEqual(await page.locator('a.row-link').allTextContents(), [sku]);
    await noSideways(page);
    await press(page, page.getByRole('link', { name: sku }));
    await page.waitForURL(productUrl);

    // Edit the title and the price.
    await page.getByRole('textbox', { name: /^Title/ }).focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Desk lamp, brass');
    await page.getByRole('textbox', { name: /^Price/ }).focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('54');
    await page.keyboard.press('Enter');
    await page.getByText('Your changes to the product are saved.').waitFor();
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Desk lamp, brass');
    assert.match((await page.locator('dl.facts').textContent()) ?? '', /\$54\.00/);
    await noSideways(page);

    // The kit's page: components and what each warehouse can assemble.
    await page.goto(`${h.base}/console/catalog?q=gift`);
    await press(page, page.getByRole('link', { name: 'GIFT-SET' }));
    await page.getByRole('heading', { name: 'Kit components' }).waitFor();
    assert.match((await page.locator('table', { hasText: 'Main' }).first().textContent()) ?? '', /Main\s*0\s*4/);
    await noSideways(page);
  };

  it('on a desktop: creates a product, finds it by search and edits it, keyboard only', { skip }, async () => {
    const page = await h.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await scenario(page, 'LAMP-DESK', 'Lumen & Co');
    await h.finish(page);
  });

  it('on a 390 px phone: the same, nothing scrolling sideways', { skip }, async () => {
    const page = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await scenario(page, 'LAMP-PHONE', 'Brightway Lamps');
    await h.finish(page);
  });
});
