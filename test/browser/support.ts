import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

/** axe-core's browser bundle, evaluated in each audited page (through the driver, so the console's CSP stays on). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The impacts that fail a page (the quality bar: no serious or critical violation). */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

/**
 * One key per kind of page: numbers in the path (an order, a report) and the query string (filters, paging)
 * do not make another kind, so a scenario that pages through a list audits the list once.
 */
function pageKind(url: URL): string {
  return url.pathname.replace(/\/\d+(?=\/|$)/g, '/:n');
}

/**
 * Runs axe-core on the page as it is and answers its serious and critical violations, one line each (rule,
 * impact, what to fix, where).
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact !== null && FAILING_IMPACTS.has(v.impact)).map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
}

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
  /**
   * Runs axe-core on every kind of console page the scenario visited (opened again at its first URL, at
   * desktop width), closes the page's context and asserts the browser reported no problem and axe no
   * serious or critical violation.
   */
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
  // The console pages each scenario's page visited, by kind (pageKind), at the first URL seen.
  const visited = new WeakMap<Page, Map<string, string>>();
  let auditing = false;
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
      const seen = new Map<string, string>();
      visited.set(page, seen);
      page.on('framenavigated', (frame) => {
        if (frame !== page.mainFrame() || auditing) return;
        const url = new URL(frame.url());
        if (url.origin !== base || !url.pathname.startsWith('/console') || url.pathname === '/console/logout') return;
        const kind = pageKind(url);
        if (!seen.has(kind)) seen.set(kind, url.href);
      });
      page.on('response', (r) => {
        if (auditing) return;
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
      auditing = true;
      try {
        await page.setViewportSize({ width: 1280, height: 800 });
        for (const [kind, url] of visited.get(page) ?? []) {
          // A download or a one-time page (an invitation already used) is not a page to audit.
          const answer = await page.goto(url).catch(() => null);
          if (!answer || answer.status() >= 400 || !(answer.headers()['content-type'] ?? '').includes('text/html')) continue;
          for (const violation of await axeViolations(page)) problems.push(`axe on ${kind}: ${violation}`);
        }
      } finally {
        auditing = false;
      }
      await page.context().close();
      assert.deepEqual(problems, []);
    },
    async close() {
      await launched.close();
      await t.close();
    },
  };
}
