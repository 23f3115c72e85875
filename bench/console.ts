/**
 * Console benchmark (issues 12 and 24): the server time of every console page at 100,000 orders and 100,000
 * listing variants (catalog products with titles and brands) in one account. The service is built as `serve` builds it (the database BENCH_DB selects:
 * embedded SQLite by default, or PostgreSQL, see bench/harness.ts; temporary DATA_DIR); each page is requested BENCH_CONSOLE_REQUESTS times (default 40) one after another through
 * Fastify's inject (no network: what is measured is the server's own time, routing to the last byte), with a
 * signed-in seller or operator session. Target: every page < 50 ms (p50 and p99 reported).
 *
 * Environment: BENCH_OPEN_ORDERS (100000), BENCH_VARIANTS (100000), BENCH_VARIANTS_PER_LISTING (5),
 * BENCH_CONSOLE_REQUESTS (40), BENCH_OUTPUT (default bench/RESULTS.md, section "## Console"; "-" prints only).
 *
 *   npm run bench:console
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Deps } from '../src/deps.js';
import { buildApp } from '../src/app.js';
import { signIn } from '../src/domain/users/sign-in.js';
import { createOperatorUser, createSellerUser } from '../src/domain/users/users.js';
import { envInt, machineLines } from './common.js';
import { runMain, withBenchService, writeSection, type BenchContext } from './harness.js';
import { catalogText, seedListings, seedOrderAccount } from './seed.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const OPEN_ORDERS = envInt('BENCH_OPEN_ORDERS', 100_000, 100);
const VARIANTS = envInt('BENCH_VARIANTS', 100_000, 100);
const PER_LISTING = envInt('BENCH_VARIANTS_PER_LISTING', 5, 1);
const REQUESTS = envInt('BENCH_CONSOLE_REQUESTS', 40, 5);
const TARGET_MS = 50;
const PASSWORD = 'bench console password';

interface PageResult {
  page: string;
  who: 'seller' | 'operator';
  status: number;
  bytes: number;
  p50: number;
  p99: number;
  max: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function seed(deps: Deps, base: string) {
  const db = deps.db.db;
  const now = deps.clock.now();
  // Orders spread over the home chart's 30 days, 10,000 customers with 10 orders each.
  const spacingMs = Math.max(1000, Math.floor((29 * 86_400_000) / OPEN_ORDERS));
  const { accountId, mainId: main, channel, templateOrderNumber } = await seedOrderAccount(deps, base, {
    orders: OPEN_ORDERS,
    clones: { spacingMs, customerName },
  });
  process.stdout.write(`seeded ${OPEN_ORDERS} orders\n`);
  const listings = Math.ceil(VARIANTS / PER_LISTING);
  // Each variant a catalog product with a title ("Blue Teapot 4242"), one of 50 brands and a price.
  await seedListings(db, accountId, channel.installationId, main, listings, new Date(now.getTime() - 86_400_000), { perListing: PER_LISTING, drifting: 0, catalog: true });
  const someListing = await db.selectFrom('listings').select('id').where('account_id', '=', accountId).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
  // A product in the middle of the catalog: searched by its SKU, and by its title's second word and number.
  const sample = { i: Math.min(4242, listings - 1), k: PER_LISTING - 1 };
  const sampleSku = `LST-${sample.i}-${sample.k}`;
  const sampleTitle = catalogText(sample.i, sample.k).title.split(' ').slice(1).join(' ');
  const someProduct = await db.selectFrom('products').select('id').where('account_id', '=', accountId).where('sku', '=', sampleSku).executeTakeFirstOrThrow();
  await createSellerUser(db, accountId, { email: 'owner@bench.example', password: PASSWORD, role: 'OWNER' }, now);
  await createOperatorUser(db, { email: 'ops@bench.example', password: PASSWORD }, now);
  return { accountId, storefrontId: channel.installationId, orderNumber: templateOrderNumber, listingId: someListing.id, productId: someProduct.id, sampleSku, sampleTitle };
}

const FIRST_NAMES = ['Ada', 'Jane', 'Omar', 'Mei', 'Lars', 'Priya', 'Kofi', 'Ana', 'Yuki', 'Tom', 'Eva', 'Raj', 'Lina', 'Sam', 'Ines', 'Hugo', 'Noor', 'Ivan', 'Zoe', 'Femi'];
// 500 one-word last names ("Okaberg", "Tanwood"…): 25 stems × 20 endings.
const LAST_NAMES = Array.from(
  { length: 500 },
  (_, i) =>
    `${['Oka', 'Tan', 'Nov', 'Sil', 'Kha', 'Ber', 'Ros', 'Dub', 'Gar', 'Smi', 'Lee', 'Mos', 'Har', 'Woo', 'Hil', 'For', 'Lan', 'Row', 'Par', 'Sha', 'Ade', 'Bru', 'Cal', 'Dev', 'Eng'][i % 25]}${['berg', 'wood', 'field', 'ton', 'ley', 'son', 'man', 'ford', 'well', 'stone', 'more', 'dale', 'by', 'ham', 'ard', 'ini', 'ez', 'ova', 'enko', 'ura'][Math.floor(i / 25)]}`,
);
/** Clone i's customer: 20 first names × 500 last names, so a full name has 10 orders and a last name 200. */
function customerName(i: number): string {
  const n = i % (FIRST_NAMES.length * LAST_NAMES.length);
  return `${FIRST_NAMES[n % FIRST_NAMES.length]} ${LAST_NAMES[Math.floor(n / FIRST_NAMES.length)]}`;
}

/** The pages measured: every console page that lists or shows data (forms alone are trivial). */
function pages(s: Awaited<ReturnType<typeof seed>>): { page: string; who: 'seller' | 'operator' }[] {
  const seller = [
    // Home: the counts and the 30-day sales and orders chart.
    '/console/home',
    '/console/orders',
    // The orders search: a channel order id, a customer's full name, a last name, an SKU, a word every order has.
    '/console/orders?q=SEED-4242',
    `/console/orders?q=${encodeURIComponent(customerName(4242))}`,
    `/console/orders?q=${encodeURIComponent(customerName(4242).split(' ')[1]!)}`,
    '/console/orders?q=ORD-0042',
    '/console/orders?q=seed&sort=total-desc',
    // Every tab, every sort.
    ...['to-ship', 'backordered', 'awaiting-payment', 'shipped', 'cancelled', 'returns'].map((tab) => `/console/orders?tab=${tab}`),
    ...['newest', 'oldest', 'total-desc', 'total-asc'].map((sort) => `/console/orders?sort=${sort}`),
    '/console/orders?tab=to-ship&sort=total-asc',
    // The home page's links.
    ...['overdue', 'unroutable', 'returns', 'alert', 'rejected', 'late'].map((needs) => `/console/orders?needs=${needs}`),
    `/console/orders/${s.orderNumber}`,
    `/console/orders/${s.orderNumber}/packing-slip`,
    // The manual order form (its datalist's first SKUs) and its SKU lookup as you type: a prefix, one SKU, nothing.
    '/console/orders/new',
    `/console/orders/sku-suggestions?line_sku=${encodeURIComponent(s.sampleSku.slice(0, 4).toLowerCase())}`,
    `/console/orders/sku-suggestions?line_sku=${encodeURIComponent(s.sampleSku)}`,
    '/console/orders/sku-suggestions?line_sku=zzz-nothing',
    // The catalog: plain, and searched by a SKU, a title word and number, a brand, two common words, no match.
    '/console/catalog',
    `/console/catalog?q=${encodeURIComponent(s.sampleSku)}`,
    `/console/catalog?q=${encodeURIComponent(s.sampleTitle.toLowerCase())}`,
    `/console/catalog?q=${encodeURIComponent('Northwind Kitchen')}`,
    `/console/catalog?q=${encodeURIComponent('blue teapot')}`,
    '/console/catalog?q=mug',
    '/console/catalog?q=nothing-like-this',
    `/console/catalog/${s.productId}`,
    '/console/apps',
    '/console/apps/callbacks',
    '/console/inventory',
    '/console/inventory/low-stock',
    '/console/inventory/kits',
    '/console/inventory/vendors',
    '/console/inventory/inbound',
    `/console/listings?storefrontId=${s.storefrontId}`,
    `/console/listings/${s.listingId}`,
    '/console/listings/ingestions',
    '/console/reports',
    '/console/reports/formats',
    '/console/reports/validation',
    '/console/users',
  ];
  const operator = [
    '/console/operator',
    '/console/operator/accounts',
    `/console/operator/accounts/${s.accountId}`,
    '/console/operator/apps',
    '/console/operator/jobs',
    '/console/operator/deliveries',
    '/console/operator/operators',
  ];
  return [...seller.map((page) => ({ page, who: 'seller' as const })), ...operator.map((page) => ({ page, who: 'operator' as const }))];
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  const results: PageResult[] = [];
  let seedSeconds = 0;
  let run: ReturnType<BenchContext['run']> | null = null;
  await withBenchService('console', async (deps, base, bench) => {
    const started = performance.now();
    const s = await seed(deps, base);
    seedSeconds = (performance.now() - started) / 1000;
    bench.rss.markRuns();
    // A second app instance on the same deps, for inject: the listening one keeps serving the seeding calls.
    const app = await buildApp(deps);
    try {
      const cookieOf = async (email: string) => {
        const session = await signIn(deps.db.db, email, PASSWORD, '127.0.0.1', deps.clock.now());
        if (!session.ok) throw new Error(`cannot sign in ${email}`);
        return `mcs_session=${session.token}`;
      };
      const cookies = { seller: await cookieOf('owner@bench.example'), operator: await cookieOf('ops@bench.example') };
      for (const { page, who } of pages(s)) {
        const times: number[] = [];
        let status = 0;
        let bytes = 0;
        for (let i = 0; i < REQUESTS + 3; i++) {
          const t0 = performance.now();
          const res = await app.inject({ method: 'GET', url: page, headers: { cookie: cookies[who] } });
          const ms = performance.now() - t0;
          // The first three warm the code paths and statement caches.
          if (i >= 3) times.push(ms);
          status = res.statusCode;
          bytes = res.rawPayload.length;
        }
        times.sort((a, b) => a - b);
        const result = { page, who, status, bytes, p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1)! };
        process.stdout.write(`${page} (${who}): ${status}, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms\n`);
        results.push(result);
      }
    } finally {
      await app.close();
    }
    run = bench.run();
  });
  if (run === null) throw new Error('the benchmark did not run');
  const missed = results.filter((r) => r.p99 >= TARGET_MS || r.status !== 200);
  const text = [
    '## Console',
    '',
    '`npm run bench:console` (bench/console.ts): server time of each console page (Fastify inject: routing, session, domain',
    `reads, rendering, to the last byte; no network), ${REQUESTS} requests per page one after another after 3 warm-up requests,`,
    'temporary DATA_DIR (the database is named below).',
    '',
    ...machineLines('one process', loadBefore, run),
    `- Data: one account with ${OPEN_ORDERS.toLocaleString('en-US')} open 2-line orders (one through HTTP, the rest cloned by multi-row INSERTs; ` +
      `placed over the last 29 days, 10,000 customers) and ${VARIANTS.toLocaleString('en-US')} listing variants (${PER_LISTING} per listing) on one storefront, ` +
      `each a catalog product with a title, one of 50 brands and a price; seeding took ${seedSeconds.toFixed(1)} s`,
    `- Target (issues 12 and 24): every page < ${TARGET_MS} ms. ${missed.length === 0 ? 'Met by every page (p99).' : `Missed (p99 ≥ ${TARGET_MS} ms or not 200): ${missed.map((r) => r.page).join(', ')}.`}`,
    '',
    '| Page | as | status | bytes | p50 | p99 | max |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...results.map((r) => `| \`${r.page}\` | ${r.who} | ${r.status} | ${r.bytes.toLocaleString('en-US')} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.max.toFixed(1)} ms |`),
    '',
  ].join('\n');
  writeSection(text, path.join(here, 'RESULTS.md'), 'Console', 'Console notes');
}

runMain(main);
