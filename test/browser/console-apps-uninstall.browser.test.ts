import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tokenAccepted } from '../helpers/admin.js';
import { seedAccount, type SeededAccount } from '../helpers/fixtures.js';
import { createOrder, orderBody, stock } from '../http/v1-sales-orders-helpers.js';
import { skip, startConsoleHarness, type ConsoleHarness } from './support.js';

const EMAIL = 'owner@uninstall-browser.example';

describe('console in a browser: uninstalling a shipping app', () => {
  let h: ConsoleHarness;
  let seed: SeededAccount;

  before(async () => {
    if (skip) return;
    h = await startConsoleHarness();
    seed = await seedAccount(h.t, 'Uninstall Browser Shop');
    await h.addSeller(seed.accountId, EMAIL);
    await stock(h.t, seed.sellerToken, 'MUG', seed.warehouses.main, 5);
    await createOrder(h.t, seed.channel.token, orderBody('UNINSTALL-1', [{ requestedSku: 'MUG', quantity: 1 }]));
  });
  after(async () => {
    await h?.close();
  });

  it("opens the shipping app from Apps, confirms the uninstall, and the app's token stops working", { skip }, async () => {
    const page = await h.newPage();
    await h.signIn(page, EMAIL);
    await page.waitForURL(`${h.base}/console/home`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Apps' }).click();
    await page.waitForURL(`${h.base}/console/apps`);
    await page.getByRole('link', { name: `Integration ${seed.shipping.installationId}` }).click();
    await page.waitForURL(`${h.base}/console/apps/integrations/${seed.shipping.installationId}`);
    assert.match((await page.getByRole('table', { name: 'Warehouses this app works with' }).textContent()) ?? '', /1 order not accepted yet/);

    const uninstall = page.getByRole('region', { name: 'Uninstall' });
    assert.match((await uninstall.textContent()) ?? '', /1 order it has not accepted yet leave its list at once/);
    // The box must be ticked (the browser refuses the form otherwise), then the dialog asks once more.
    await uninstall.getByLabel('Yes, uninstall SHIPPING app').check();
    const confirmed = page.waitForEvent('dialog').then(async (dialog) => {
      await dialog.accept();
      return dialog.message();
    });
    await uninstall.getByRole('button', { name: 'Uninstall' }).click();
    assert.equal(await confirmed, 'Uninstall SHIPPING app? It loses access at once.');
    await page.getByRole('status').filter({ hasText: 'SHIPPING app is uninstalled; its access stopped at once.' }).waitFor();
    assert.match((await page.locator('dl.facts').textContent()) ?? '', /Uninstalled/);
    assert.equal(await tokenAccepted(h.t, seed.shipping.token), false);
    await h.finish(page);
  });
});
