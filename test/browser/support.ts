import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { admin } from '../helpers/admin.js';
import { createTestApp, type TestApp, type TestAppOptions } from '../helpers/app.js';

/**
 * Shared by the browser test files (not a test file itself): the console in a real browser (Debian's
 * Chromium, driven by playwright-core). The real server listens on a random loopback port, so the CSP,
 * cookies, CSRF and htmx run as they do for a person. Without a Chromium executable the tests are skipped,
 * saying how to get one.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** `{ skip }` for every browser test: false, or the reason they cannot run here. */
export const skip: string | false = existsSync(CHROMIUM_PATH) ? false : `no Chromium at ${CHROMIUM_PATH}: install the Debian package chromium`;

export const PASSWORD = 'correct horse battery';

export interface ConsoleHarness {
  t: TestApp;
  browser: Browser;
  /** http://127.0.0.1:port */
  base: string;
  /**
   * Problems the browser reported (CSP violations, script errors, 4xx/5xx answers): a scenario must cause
   * none. Each scenario starts with an empty list (newPage clears it).
   */
  problems: string[];
  /** A page in a fresh context (its own cookies), watched for problems. */
  newPage(): Promise<Page>;
  /** Signs in through the login form (does not wait for the page it lands on). */
  signIn(page: Page, email: string): Promise<void>;
  /** Adds a console user to a seller account through the operator API. */
  addSeller(accountId: number, email: string, role?: 'OWNER' | 'STAFF'): Promise<void>;
  /** Closes the page's context and asserts the browser reported no problem. */
  finish(page: Page): Promise<void>;
  close(): Promise<void>;
}

/** Starts the app on a loopback port and launches Chromium; call only when `skip` is false. */
export async function startConsoleHarness(options: TestAppOptions = {}): Promise<ConsoleHarness> {
  const t = await createTestApp(options);
  let browser: Browser | undefined;
  try {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true });
  } catch (error) {
    await t.close();
    throw error;
  }
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const problems: string[] = [];
  const launched = browser;
  return {
    t,
    browser: launched,
    base,
    problems,
    async newPage() {
      problems.length = 0;
      const page = await (await launched.newContext({ acceptDownloads: true })).newPage();
      // Scenarios take a few seconds: a wait that has not ended after 10 s has failed.
      page.setDefaultTimeout(10_000);
      page.on('console', (m) => {
        // Failed loads are reported below with their URL (the browser's own favicon request excepted).
        if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
      });
      page.on('response', (r) => {
        if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) problems.push(`${r.status()} ${r.url()}`);
      });
      page.on('pageerror', (e) => problems.push(e.message));
      return page;
    },
    async signIn(page, email) {
      await page.goto(`${base}/console/login`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
    },
    async addSeller(accountId, email, role = 'OWNER') {
      const res = await admin(t, 'POST', `/admin/accounts/${accountId}/users`, { email, password: PASSWORD, role });
      assert.equal(res.statusCode, 201, res.body);
    },
    async finish(page) {
      await page.context().close();
      assert.deepEqual(problems, []);
    },
    async close() {
      await launched.close();
      await t.close();
    },
  };
}
