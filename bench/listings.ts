/**
 * `npm run bench:listings`: what the storefront sync routes cost on a big storefront (issue 4 item 7).
 * Never run by `npm test`.
 *
 * Same harness as bench/orders.ts: the service runs in this process over the database BENCH_DB selects
 * (embedded SQLite by default, or PostgreSQL: bench/harness.ts) with a temporary DATA_DIR (rate limiting off, logging silent), autocannon in a child process (bench/load.ts).
 * One storefront holds BENCH_VARIANTS variants, BENCH_VARIANTS_PER_LISTING per listing, every variant live on
 * the channel (a channel id) with stock in the warehouse "Main". Listings carry a title and a description,
 * variants a color and a price. Everything is
 * written with multi-row INSERTs (products, inventory, listings, variants, attribute values) in a few big
 * transactions. BENCH_DRIFTING of the variants have a last inventory submission that differs from their stock
 * (the rest were sent exactly their stock), all stable for longer than stableFor. Scenarios:
 *   drift      GET /v2/storefront/listing/variant/inventory/drift/skus (defaults: stableFor 15m, failureBackoff
 *              24h): the capped level check a channel runs in a loop
 *   pd-first   GET /v2/storefront/listing/product_data/updated?since=<before the seed>, first page (25 listings)
 *   pd-deep    the same poll at the page that holds the middle of the storefront (cursor found by walking)
 * plus a full walk: every page of product_data/updated from the beginning, one client, timed page by page.
 *
 * Knobs (environment): BENCH_DURATION seconds per run (8), BENCH_RUNS (2), BENCH_CONNECTIONS (10),
 * BENCH_VARIANTS (100000), BENCH_VARIANTS_PER_LISTING (5), BENCH_DRIFTING (5000), BENCH_SCENARIOS (comma list,
 * default all), BENCH_OUTPUT (default bench/RESULTS.md, where the "## Listings benchmark" section is replaced
 * and everything else kept; "-" prints only).
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAccount } from '../src/domain/accounts/accounts.js';
import { createWarehouse } from '../src/domain/accounts/warehouses.js';
import { envInt, machineLines, median } from './common.js';
import { expectOk, installPartner, resultRows, runMain, runScenarios, selectedScenarios, targetLine, type Scenario as HarnessScenario, withBenchService, writeSection } from './harness.js';
import { seedListings } from './seed.js';

const here = path.dirname(fileURLToPath(import.meta.url));

const DURATION = envInt('BENCH_DURATION', 8, 1);
const RUNS = envInt('BENCH_RUNS', 2, 1);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 10, 1);
const VARIANTS = envInt('BENCH_VARIANTS', 100_000, 100);
const PER_LISTING = envInt('BENCH_VARIANTS_PER_LISTING', 5, 1);
const DRIFTING = Math.min(envInt('BENCH_DRIFTING', 5000, 0), VARIANTS);
const WARMUP_SECONDS = 2;
const LISTING_PAGE = 25;
const DRIFT_CAP = 1000;
const ALL_SCENARIOS = ['drift', 'pd-first', 'pd-deep', 'walk'] as const;
type ScenarioName = (typeof ALL_SCENARIOS)[number];
type Scenario = HarnessScenario<Exclude<ScenarioName, 'walk'>>;

interface PollPage {
  listings: { variants: unknown[] }[];
  nextPageCursor: string;
}

async function main() {
  const selected = selectedScenarios(ALL_SCENARIOS);
  const listingCount = Math.ceil(VARIANTS / PER_LISTING);

  await withBenchService('listings', async (deps, base, bench) => {
    const db = deps.db.db;
    const now = deps.clock.now();
    const { accountId } = await createAccount(db, { name: 'Bench seller' }, now);
    const main = (await createWarehouse(db, accountId, { name: 'Main' }, now)).warehouseId;
    const channel = await installPartner(deps, base, accountId, 'SALES_CHANNEL', ['listing:self'], { name: 'Bench channel', storefrontName: 'Shop One' });
    const headers = { authorization: `Bearer ${channel.token}` };

    // Seeded rows sit one day back, so they are stable for any stableFor the drift scenario uses.
    const seededAt = new Date(now.getTime() - 86_400_000);
    const since = new Date(seededAt.getTime() - 1000).toISOString();
    const seedStarted = performance.now();
    await seedListings(db, accountId, channel.installationId, main, listingCount, seededAt, { perListing: PER_LISTING, drifting: DRIFTING });
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const variantCount = Number((await db.selectFrom('listing_variants').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow()).n);
    process.stdout.write(`seeded ${listingCount} listings, ${variantCount} variants in ${seedSeconds.toFixed(1)} s\n`);

    // The drift route answers the capped level check.
    const driftPath = '/v2/storefront/listing/variant/inventory/drift/skus';
    const drift = (await expectOk(await fetch(`${base}${driftPath}`, { headers }), 'GET drift')) as { skus: string[]; driftListings: unknown[] };
    const expectedDrift = Math.min(DRIFTING, DRIFT_CAP);
    if (drift.skus.length !== expectedDrift || drift.driftListings.length !== expectedDrift) {
      throw new Error(`drift answered ${drift.skus.length} skus, expected ${expectedDrift}`);
    }

    // Full walk of product_data/updated, one client, page by page.
    const pollPath = (cursor: string) => `/v2/storefront/listing/product_data/updated?since=${encodeURIComponent(since)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const pageMs: number[] = [];
    let cursor = '';
    let pages = 0;
    let listingsSeen = 0;
    let variantsSeen = 0;
    let deepCursor = '';
    const middlePage = Math.floor(listingCount / LISTING_PAGE / 2);
    const walkStarted = performance.now();
    const walk = selected.includes('walk') || selected.includes('pd-deep');
    while (walk) {
      const started = performance.now();
      const page = (await expectOk(await fetch(`${base}${pollPath(cursor)}`, { headers }), `product_data/updated page ${pages + 1}`)) as PollPage;
      pageMs.push(performance.now() - started);
      pages++;
      listingsSeen += page.listings.length;
      variantsSeen += page.listings.reduce((n, l) => n + l.variants.length, 0);
      if (pages === middlePage) deepCursor = page.nextPageCursor;
      if (page.nextPageCursor === '') break;
      cursor = page.nextPageCursor;
    }
    const walkSeconds = (performance.now() - walkStarted) / 1000;
    if (walk && (listingsSeen !== listingCount || variantsSeen !== variantCount)) {
      throw new Error(`the walk saw ${listingsSeen} listings / ${variantsSeen} variants, expected ${listingCount} / ${variantCount}`);
    }

    const common = { connections: CONNECTIONS, durationSeconds: DURATION, url: base, method: 'GET' as const, headers, bodies: null };
    const defined: Scenario[] = [
      { name: 'drift', title: `(a) GET …/variant/inventory/drift/skus (${DRIFTING.toLocaleString('en-US')} drifting of ${variantCount.toLocaleString('en-US')}; answers ${expectedDrift})`, job: { ...common, paths: [driftPath] } },
      { name: 'pd-first', title: `(b1) GET …/product_data/updated, page 1 (${LISTING_PAGE} listings × ${PER_LISTING} variants)`, job: { ...common, paths: [pollPath('')] } },
      { name: 'pd-deep', title: `(b2) GET …/product_data/updated, page ${middlePage.toLocaleString('en-US')} (cursor)`, job: { ...common, paths: [pollPath(deepCursor)] } },
    ];
    const scenarios = defined.filter((s) => selected.includes(s.name));
    const loadBefore = os.loadavg()[0]!;
    bench.rss.markRuns();
    const summary = await runScenarios(scenarios, RUNS, WARMUP_SECONDS);

    const sortedMs = [...pageMs].sort((a, b) => a - b);
    const pct = (p: number) => (sortedMs.length === 0 ? 0 : sortedMs[Math.min(sortedMs.length - 1, Math.floor((p / 100) * sortedMs.length))]!);
    const lines = [
      '## Listings benchmark',
      '',
      `Written by \`npm run bench:listings\` (bench/listings.ts) on ${new Date().toISOString()}.`,
      '',
      ...machineLines('service in this process, autocannon in a child process, loopback only; rate limiting off, log level silent', loadBefore, bench.run()),
      `- Data: one storefront with ${listingCount.toLocaleString('en-US')} listings and ${variantCount.toLocaleString('en-US')} variants (${PER_LISTING} per listing), every variant ` +
        `with a channel id, its own catalog product and stock in Main; 2 attribute values per listing and 2 per variant; ${DRIFTING.toLocaleString('en-US')} variants drifting. ` +
        `Seeded with multi-row INSERTs: **${seedSeconds.toFixed(1)} s**`,
      `- ${CONNECTIONS} connections, ${DURATION} s per run after a ${WARMUP_SECONDS} s warm-up, ${RUNS} runs per scenario (round-robin); medians`,
      '',
      ...resultRows(summary),
      '',
    ];
    // Issue 13's targets on SQLite (a PostgreSQL section shows them for comparison).
    const driftRun = summary.find((s) => s.scenario.name === 'drift');
    if (driftRun) lines.push(targetLine('the drift check ≥ 1,500 req/s', `${Math.round(driftRun.rps)} req/s`, driftRun.rps >= 1500), '');
    const pdFirst = summary.find((s) => s.scenario.name === 'pd-first');
    if (pdFirst) lines.push(targetLine(`a product_data page of ${LISTING_PAGE} listings ≥ 500 req/s`, `${Math.round(pdFirst.rps)} req/s`, pdFirst.rps >= 500), '');
    if (walk) {
      lines.push(
        `**Full product_data/updated walk** (one client, every page from \`since\` before the seed): ${pages.toLocaleString('en-US')} pages, ` +
          `${listingsSeen.toLocaleString('en-US')} listings, ${variantsSeen.toLocaleString('en-US')} variants in **${walkSeconds.toFixed(1)} s** ` +
          `(${Math.round(variantsSeen / walkSeconds).toLocaleString('en-US')} variants/s). Per page: median ${median(pageMs).toFixed(1)} ms, p90 ${pct(90).toFixed(1)} ms, ` +
          `p99 ${pct(99).toFixed(1)} ms, max ${pct(100).toFixed(1)} ms; first page ${pageMs[0]!.toFixed(1)} ms, last page ${pageMs[pageMs.length - 1]!.toFixed(1)} ms.`,
        '',
      );
    }
    writeSection(lines.join('\n'), path.join(here, 'RESULTS.md'), 'Listings benchmark', 'Listings notes');
  });
}

runMain(main);
