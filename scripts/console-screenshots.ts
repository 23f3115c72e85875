// Screenshots of the console's main pages for the docs: `npm run console:screenshots`.
//
// Starts the real app in-process on a random loopback port over a fresh in-memory SQLite database, fills it
// like `npm run cli -- sandbox` does (plus console users, a dead job and a dead callback delivery), signs in
// as a seller and as an operator in Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium) and saves
// PNGs into docs/console/. A page that does not exist (yet) on this branch is reported and skipped: add
// pages to PAGES as they are built.
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { withTx } from '../src/db/tx.js';
import { buildSandbox } from '../src/domain/accounts/sandbox.js';
import { createOperatorUser, createSellerUser } from '../src/domain/users/users.js';
import { seedSandboxListing } from '../src/cli/sandbox-listing.js';
import { createTestApp } from '../test/helpers/app.js';
import { seedDeadDelivery, seedDeadJob } from '../test/helpers/console-ops.js';

interface Shot {
  /** The PNG's name in docs/console/. */
  file: string;
  path: string;
  as: 'seller' | 'operator';
}

const PAGES: Shot[] = [
  { file: 'seller-home.png', path: '/console/home', as: 'seller' },
  { file: 'seller-apps.png', path: '/console/apps', as: 'seller' },
  { file: 'seller-orders.png', path: '/console/orders', as: 'seller' },
  { file: 'seller-order.png', path: '/console/orders/1', as: 'seller' },
  { file: 'seller-packing-slip.png', path: '/console/orders/1/packing-slip', as: 'seller' },
  { file: 'seller-inventory.png', path: '/console/inventory', as: 'seller' },
  { file: 'seller-listings.png', path: '/console/listings', as: 'seller' },
  { file: 'seller-reports.png', path: '/console/reports', as: 'seller' },
  { file: 'seller-users.png', path: '/console/users', as: 'seller' },
  { file: 'operator-overview.png', path: '/console/operator', as: 'operator' },
  { file: 'operator-accounts.png', path: '/console/operator/accounts', as: 'operator' },
  { file: 'operator-apps.png', path: '/console/operator/apps', as: 'operator' },
  { file: 'operator-jobs.png', path: '/console/operator/jobs', as: 'operator' },
  { file: 'operator-deliveries.png', path: '/console/operator/deliveries', as: 'operator' },
];

const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const OUT = path.resolve('docs/console');
const PASSWORD = 'screenshot password';
const USERS = { seller: 'owner@sandbox.example', operator: 'ops@sandbox.example' } as const;

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM_PATH)) {
    console.error(`no Chromium at ${CHROMIUM_PATH}: install the Debian package chromium (or set CHROMIUM_PATH)`);
    process.exit(1);
  }
  const t = await createTestApp();
  try {
    const now = t.deps.clock.now();
    const summary = await withTx(t.deps.db.db, async (tx) => {
      const built = await buildSandbox(tx, t.deps.signer, now);
      await seedSandboxListing(tx, built, now);
      return built;
    });
    const accountId = summary.account.accountId;
    await createSellerUser(t.deps.db.db, accountId, { email: USERS.seller, password: PASSWORD, role: 'OWNER' }, now);
    await createSellerUser(t.deps.db.db, accountId, { email: 'staff@sandbox.example', password: PASSWORD, role: 'STAFF' }, now);
    await createOperatorUser(t.deps.db.db, { email: USERS.operator, password: PASSWORD }, now);
    await seedDeadJob(t.deps, accountId);
    const app = summary.apps[0];
    if (app) await seedDeadDelivery(t.deps, accountId, app.appId);
    // Two channel orders, so the order pages show something (the first is order 1 in this fresh database).
    const channel = summary.apps.find((a) => a.storefrontId !== null);
    for (const [i, sku] of ['SANDBOX-MUG-BLUE', 'SANDBOX-MUG-RED'].entries()) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/salesOrder',
        headers: { authorization: `Bearer ${channel?.accessToken ?? ''}` },
        payload: {
          channelOrderId: `SHOT-${i + 1}`,
          orderTs: now.toISOString(),
          customerName: 'Ada Buyer',
          customerEmail: 'ada.buyer@example.com',
          shippingAddress: { name: 'Ada Buyer', addressLine1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', phone: '+1 217 555 0142', countryCode: 'US' },
          billingAddress: { name: 'Ada Buyer', company: 'Buyer & Co', addressLine1: '200 Market St', city: 'Springfield', state: 'IL', postalCode: '62702', countryCode: 'US' },
          products: [{ sku, quantity: 2, unitPrice: '12.50', channelLineItemId: 'L1' }],
        },
      });
      if (res.statusCode !== 200) throw new Error(`could not create a sample order: ${res.body}`);
    }

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    mkdirSync(OUT, { recursive: true });
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true });
    try {
      for (const as of ['seller', 'operator'] as const) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        await signIn(page, base, USERS[as]);
        for (const shot of PAGES.filter((p) => p.as === as)) {
          const res = await page.goto(`${base}${shot.path}`);
          if (!res || res.status() !== 200) {
            console.log(`skipped ${shot.path}: HTTP ${res?.status() ?? 'no response'} (not on this branch yet?)`);
            continue;
          }
          await page.screenshot({ path: path.join(OUT, shot.file), fullPage: true });
          console.log(`saved docs/console/${shot.file}`);
        }
        await context.close();
      }
    } finally {
      await browser.close();
    }
  } finally {
    await t.close();
  }
}

async function signIn(page: Page, base: string, email: string): Promise<void> {
  await page.goto(`${base}/console/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/console/login'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
