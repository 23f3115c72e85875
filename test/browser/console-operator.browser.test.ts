import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createInvitation } from '../../src/domain/users/invitations.js';
import { admin, registerAppVia } from '../helpers/admin.js';
import { seedDeadDelivery, seedDeadJob } from '../helpers/console-ops.js';
import { PASSWORD, skip, startConsoleHarness, type ConsoleHarness } from './support.js';

/** No sideways scrolling of the page itself (tables scroll inside their own box). */
async function fitsWidth(page: Page, width: number): Promise<void> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= width, `${page.url()} is ${scrollWidth}px wide at ${width}px`);
}

describe('console in a browser: the operator overview, operators and invitations', () => {
  let h: ConsoleHarness;
  let accountId: number;

  before(async () => {
    if (skip) return;
    h = await startConsoleHarness();
    accountId = (await admin(h.t, 'POST', '/admin/accounts', { name: 'Browser Ops Shop' })).json<{ accountId: number }>().accountId;
    await h.addSeller(accountId, 'owner@ops-browser.example');
    assert.equal((await admin(h.t, 'POST', '/admin/operators', { email: 'ops@ops-browser.example', password: PASSWORD })).statusCode, 201);
    const { appId } = await registerAppVia(h.t, 'SALES_CHANNEL', ['listing:self'], 'Ops Channel');
    await seedDeadDelivery(h.t.deps, accountId, appId);
    await seedDeadJob(h.t.deps, accountId);
  });
  after(async () => {
    await h?.close();
  });

  for (const width of [1280, 390]) {
    it(`shows the overview's figures and creates an operator at ${width} px`, { skip }, async () => {
      const page = await h.newPage();
      await page.setViewportSize({ width, height: 900 });
      await h.signIn(page, 'ops@ops-browser.example');
      await page.waitForURL(`${h.base}/console/operator`);
      assert.equal(await page.locator('h1').textContent(), 'Platform overview');
      const figure = (label: string) => page.locator('section.figure').filter({ has: page.getByRole('heading', { name: label, exact: true }) }).locator('.count');
      assert.equal(await figure('Seller accounts').textContent(), '1');
      assert.equal(await figure('Dead jobs').textContent(), '1');
      assert.equal(await figure('Dead callback deliveries').textContent(), '1');
      assert.match((await figure('Database size').textContent()) ?? '', /\d (KB|MB|GB)$/);
      await fitsWidth(page, width);
      // A figure links to its list.
      await figure('Dead callback deliveries').click();
      await page.waitForURL(`${h.base}/console/operator/deliveries?state=DEAD`);
      assert.equal(await page.getByLabel('State').inputValue(), 'DEAD');
      await page.getByRole('cell', { name: 'Gave up' }).first().waitFor();
      await fitsWidth(page, width);
      // The job type picker filters the list.
      await page.getByRole('link', { name: 'Jobs', exact: true }).click();
      await page.waitForURL(`${h.base}/console/operator/jobs`);
      await page.getByLabel('Type').selectOption('report.run');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/type=report\.run/);
      await page.getByText('No jobs with type "Report".').waitFor();
      await fitsWidth(page, width);

      await page.getByRole('link', { name: 'Operators' }).click();
      await page.waitForURL(`${h.base}/console/operator/operators`);
      const email = `new-${width}@ops-browser.example`;
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('short');
      await page.getByRole('button', { name: 'Create operator' }).click();
      await page.getByText('Password: must be at least 10 characters').waitFor();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create operator' }).click();
      await page.getByText(`Operator ${email} created`).waitFor();
      await page.getByRole('cell', { name: email, exact: true }).waitFor();
      await fitsWidth(page, width);
      await h.finish(page);
    });

    it(`revokes a seller's invitation from the account page at ${width} px`, { skip }, async () => {
      const owner = (await h.t.deps.db.db.selectFrom('console_users').select('id').where('email_key', '=', 'owner@ops-browser.example').executeTakeFirstOrThrow()).id;
      const email = `invitee-${width}@ops-browser.example`;
      await createInvitation(h.t.deps.db.db, { userId: owner, accountId, role: 'OWNER' }, { email, role: 'STAFF' }, h.t.deps.clock.now());
      const page = await h.newPage();
      await page.setViewportSize({ width, height: 900 });
      await h.signIn(page, 'ops@ops-browser.example');
      await page.waitForURL(`${h.base}/console/operator`);
      await page.getByRole('link', { name: 'Accounts', exact: true }).click();
      await page.waitForURL(`${h.base}/console/operator/accounts`);
      await page.getByRole('link', { name: 'Browser Ops Shop' }).click();
      await page.waitForURL(`${h.base}/console/operator/accounts/${accountId}`);
      const row = page.getByRole('row').filter({ hasText: email });
      assert.match((await row.textContent()) ?? '', /Staff/);
      await fitsWidth(page, width);
      // htmx asks first (hx-confirm): the browser's dialog is accepted.
      let asked = '';
      page.once('dialog', (d) => {
        asked = d.message();
        void d.accept();
      });
      await row.getByRole('button', { name: 'Revoke' }).click();
      await page.getByText(`The invitation for ${email} is revoked`).waitFor();
      assert.match(asked, /Revoke the invitation for/);
      assert.equal(await page.getByRole('row').filter({ hasText: email }).count(), 0);
      await fitsWidth(page, width);
      await h.finish(page);
    });
  }
});
