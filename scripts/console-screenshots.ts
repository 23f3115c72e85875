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
import { createOperatorUser, createSellerUser } from '../src/domain/users/users.js';
import { createFullSandbox } from '../src/cli/sandbox.js';
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
    // What `npm run cli -- sandbox` creates: products, a listing, orders in every state, apps answered by the
    // partner simulator (its own console user is left aside: the shots sign in with known passwords).
    const { summary, listing } = await withTx(t.deps.db.db, (tx) => createFullSandbox(tx, t.deps.signer, now, 'Sandbox seller'));
    const accountId = summary.account.accountId;
    await createSellerUser(t.deps.db.db, accountId, { email: USERS.seller, password: PASSWORD, role: 'OWNER' }, now);
    await createSellerUser(t.deps.db.db, accountId, { email: 'staff@sandbox.example', password: PASSWORD, role: 'STAFF' }, now);
    await createOperatorUser(t.deps.db.db, { email: USERS.operator, password: PASSWORD }, now);
    await seedDeadJob(t.deps, accountId);
    const app = summary.apps[0];
    if (app) await seedDeadDelivery(t.deps, accountId, app.appId);
    // The storefront's inventory rules page, previewing the sandbox listing's first variant.
    const storefront = summary.apps.find((a) => a.storefrontId !== null);
    const previewSku = listing?.variantSkus[0] ?? '';
    if (storefront) {
      PAGES.splice(PAGES.findIndex((p) => p.file === 'seller-orders.png'), 0, {
        file: 'seller-inventory-rules.png',
        path: `/console/apps/storefronts/${storefront.storefrontId}/inventory-rules?sku=${encodeURIComponent(previewSku)}`,
        as: 'seller',
      });
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
