import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { bearer, seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock, type Order } from '../http/v1-sales-orders-helpers.js';
import { batch, foOf } from '../http/v2-shipping-support.js';
import { skip, startConsoleHarness, type ConsoleHarness } from './support.js';

const EMAIL = 'owner@orders-browser.example';

describe('console in a browser: orders (cancel from the page, resolve an alert, print a packing slip)', () => {
  let h: ConsoleHarness;
  let seed: SeededAccount;

  const apiOrder = async (orderNumber: string) => {
    const res = await h.t.app.inject({ url: `/v1/salesOrder/${orderNumber}`, headers: bearer(seed.sellerToken) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<Order & { cancellationReason: string | null; products: { cancelQuantity: number }[] }>();
  };
  /** The number the home page shows for open alerts (its link carries it). */
  const alertCount = async (page: Page) => Number(await page.locator('a[href="/console/orders?needs=alert"]').getAttribute('data-count'));

  before(async () => {
    if (skip) return;
    h = await startConsoleHarness();
    seed = await seedAccount(h.t, 'Orders Browser Shop');
    await stock(h.t, seed.sellerToken, 'MUG', seed.warehouses.main, 20);
    await h.addSeller(seed.accountId, EMAIL);
  });
  after(async () => {
    await h?.close();
  });

  it('a channel order arrives; the seller finds it in Orders, cancels all its units, and the API shows it cancelled', { skip }, async () => {
    const order = await createOrder(h.t, seed.channel.token, orderBody('BROWSER-1', [{ requestedSku: 'MUG', quantity: 2, unitPrice: 9.5 }]));
    const line = order.products[0]!;
    const page = await h.newPage();
    await h.signIn(page, EMAIL);
    await page.waitForURL(`${h.base}/console/home`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).click();
    await page.waitForURL(`${h.base}/console/orders`);
    await page.getByRole('link', { name: order.orderNumber, exact: true }).click();
    await page.waitForURL(`${h.base}/console/orders/${order.orderNumber}`);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), `Order ${order.orderNumber}`);

    const lines = page.getByRole('region', { name: 'Lines' });
    await lines.locator('summary', { hasText: 'Cancel units' }).click();
    await lines.getByLabel(`Line ${line.lineItemId} (MUG): units to cancel`).fill('2');
    await lines.getByLabel('Reason').fill('customer changed their mind');
    // The form asks first (hx-confirm); the seller agrees.
    const confirmed = page.waitForEvent('dialog').then(async (dialog) => {
      await dialog.accept();
      return dialog.message();
    });
    await lines.getByRole('button', { name: 'Cancel units' }).click();
    assert.equal(await confirmed, 'Cancel these units?');
    await page.getByRole('status').filter({ hasText: 'Units cancelled.' }).waitFor();
    assert.equal(await page.locator('dl.facts .badge').first().textContent(), 'Cancelled');

    const api = await apiOrder(order.orderNumber);
    assert.equal(api.status, 'CANCELLED');
    assert.equal(api.products[0]!.cancelQuantity, 2);
    assert.equal(api.cancellationReason, 'customer changed their mind');
    await h.finish(page);
  });

  it('an alert raised through the API shows on Home and the order page; the seller resolves it and the count drops', { skip }, async () => {
    const order = await createOrder(h.t, seed.channel.token, orderBody('BROWSER-2', [{ requestedSku: 'MUG', quantity: 1 }]));
    const fo = await foOf(h.t, seed.shipping.token, order.orderNumber);
    const [raised] = await batch(h.t, seed.shipping.token, 'fulfillment_orders/alerts', 'alerts', [
      { fulfillmentOrderId: fo.fulfillmentOrderId, type: 'ALERT_TYPE_LATE_SHIPMENT', message: 'carrier strike' },
    ]);
    assert.ok(raised!.success, raised!.errorMessage);

    const page = await h.newPage();
    await h.signIn(page, EMAIL);
    await page.waitForURL(`${h.base}/console/home`);
    assert.equal(await alertCount(page), 1);
    await page.getByRole('link', { name: /with an open alert/ }).click();
    await page.waitForURL(`${h.base}/console/orders?needs=alert`);
    await page.getByRole('link', { name: order.orderNumber, exact: true }).click();
    await page.waitForURL(`${h.base}/console/orders/${order.orderNumber}`);
    const alert = page.locator('ul.alerts > li', { hasText: 'Late shipment' });
    assert.match((await alert.textContent()) ?? '', /Open[\s\S]*carrier strike/);
    await alert.getByLabel('Resolution').fill('shipped with another carrier');
    await alert.getByRole('button', { name: 'Resolve' }).click();
    await page.getByRole('status').waitFor();
    await alert.getByText(/Resolved .*: shipped with another carrier/).waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await page.waitForURL(`${h.base}/console/home`);
    assert.equal(await alertCount(page), 0);
    await h.finish(page);
  });

  it('on a 390 px phone the order page shows who and where, and the packing slip prints without the console around it', { skip }, async () => {
    const order = await createOrder(
      h.t,
      seed.channel.token,
      orderBody('BROWSER-3', [{ requestedSku: 'MUG', quantity: 2, unitPrice: 9.5 }], {
        customerName: 'Grace Hopper',
        customerEmail: 'grace.hopper.with.a.rather.long.address@navy.example',
        shippingAddress: { name: 'Grace Hopper', addressLine1: '1 Compiler Way', city: 'Arlington', state: 'VA', postalCode: '22201', phone: '+1 703 555 0100', countryCode: 'US' },
      }),
    );
    const page = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await h.signIn(page, EMAIL);
    await page.waitForURL(`${h.base}/console/home`);
    await page.goto(`${h.base}/console/orders/${order.orderNumber}`);
    const noSideways = async () => assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
    const people = page.getByRole('region', { name: 'Customer and addresses' });
    assert.match((await people.textContent()) ?? '', /Grace Hopper[\s\S]*navy\.example[\s\S]*\+1 703 555 0100[\s\S]*1 Compiler Way[\s\S]*Arlington VA 22201[\s\S]*United States/);
    await noSideways();

    await page.getByRole('link', { name: 'Print packing slip' }).click();
    await page.waitForURL(`${h.base}/console/orders/${order.orderNumber}/packing-slip`);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), `Packing slip · Order ${order.orderNumber}`);
    const items = page.getByRole('table', { name: 'Items to pack' });
    assert.equal(await items.locator('tbody tr').count(), 1);
    assert.match((await items.textContent()) ?? '', /MUG[\s\S]*2/);
    await noSideways();
    // Printed: the navigation and the hint are left out, the slip stays.
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('header.top').isVisible(), false);
    assert.equal(await page.getByText("use your browser's Print command").isVisible(), false);
    assert.equal(await page.getByRole('heading', { level: 1 }).isVisible(), true);
    assert.equal(await items.isVisible(), true);
    await h.finish(page);
  });
});
