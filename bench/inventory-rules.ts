/**
 * `npm run bench:inventory-rules`: what a change of a storefront's inventory rules costs (issue 28 "Measure").
 * Never run by `npm test`.
 *
 * One storefront holds BENCH_VARIANTS variants (5 per listing), each with 10–99 units in Main
 * (bench/seed.ts seedListings). The service runs in this process with its job worker on the same event loop,
 * as `npm start` runs them (one process): the API answers while the worker moves the variants.
 *
 * 1. The storefront polls without rules: GET variant/inventory/updated (first page of 100) and the drift
 *    route, BENCH_REQUESTS sequential requests each, mean latency.
 * 2. The rule change: PUT …/inventory-rules {percent: 50}; then the worker runs the move while a poller in
 *    another process GETs /healthz every 20 ms (bench/stall-poller.ts). Measured: the time until the job is
 *    done, then the time to walk `variant/inventory/updated?since=<before the change>` to the end, and that
 *    the walk reports exactly the variants whose ruled quantity changed (every one: floor(q / 2) ≠ q for
 *    q ≥ 1); the worst and p99 /healthz latency during the move.
 * 3. The same polls with the rules in place (target: within 10 % of step 1).
 *
 * Knobs: BENCH_VARIANTS (100000), BENCH_REQUESTS (200), BENCH_OUTPUT (default bench/RESULTS.md, where the
 * "## Inventory rules benchmark" section is replaced; "-" prints only). BENCH_DB=postgres runs on PostgreSQL
 * (bench/harness.ts).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createAccount } from '../src/domain/accounts/accounts.js';
import { createWarehouse } from '../src/domain/accounts/warehouses.js';
import { JobWorker } from '../src/jobs/worker.js';
import { envInt, machineLines } from './common.js';
import { expectOk, installPartner, runMain, withBenchService, writeSection } from './harness.js';
import { seedListings } from './seed.js';
import { startPoller } from './stall-processes.js';

const VARIANTS = envInt('BENCH_VARIANTS', 100_000, 100);
const REQUESTS = envInt('BENCH_REQUESTS', 200, 10);
const PER_LISTING = 5;
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const HEADING = 'Inventory rules benchmark';

async function meanLatency(url: string, headers: Record<string, string>): Promise<number> {
  await expectOk(await fetch(url, { headers }), url);
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const res = await fetch(url, { headers });
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  }
  return (performance.now() - started) / REQUESTS;
}

async function main() {
  await withBenchService(
    'inventory-rules',
    async (deps, base, bench) => {
      const db = deps.db.db;
      const now = deps.clock.now();
      const loadBefore = os.loadavg()[0]!;
      const { accountId } = await createAccount(db, { name: 'Bench seller' }, now);
      const main = (await createWarehouse(db, accountId, { name: 'Main' }, now)).warehouseId;
      const channel = await installPartner(deps, base, accountId, 'SALES_CHANNEL', ['listing:self'], { name: 'Bench channel', storefrontName: 'Shop One' });
      const headers = { authorization: `Bearer ${channel.token}` };
      const seededAt = new Date(now.getTime() - 86_400_000);
      const seedStarted = performance.now();
      await seedListings(db, accountId, channel.installationId, main, Math.ceil(VARIANTS / PER_LISTING), seededAt, { perListing: PER_LISTING, drifting: 1000 });
      const seedSeconds = (performance.now() - seedStarted) / 1000;

      const pollUrl = `${base}/v2/storefront/listing/variant/inventory/updated?since=${encodeURIComponent(new Date(seededAt.getTime() - 1000).toISOString())}`;
      const driftUrl = `${base}/v2/storefront/listing/variant/inventory/drift/skus`;
      const before = { poll: await meanLatency(pollUrl, headers), drift: await meanLatency(driftUrl, headers) };

      const changedAt = new Date();
      const put = await fetch(`${base}/admin/accounts/${accountId}/storefronts/${channel.installationId}/inventory-rules`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ percent: 50 }),
      });
      await expectOk(put, 'PUT inventory-rules');

      const poller = startPoller();
      await poller.start(`${base}/healthz`, 20);
      const moveStarted = performance.now();
      const jobs = await new JobWorker(deps, { schedules: [] }).runUntilIdle();
      const moveSeconds = (performance.now() - moveStarted) / 1000;
      const healthz = await poller.stop(5000);
      await poller.close();

      // Every changed variant is in the poll since the change.
      const walkStarted = performance.now();
      let reported = 0;
      let cursor = '';
      const since = encodeURIComponent(new Date(changedAt.getTime() - 1).toISOString());
      for (;;) {
        const page = (await expectOk(
          await fetch(`${base}/v2/storefront/listing/variant/inventory/updated?since=${since}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers }),
          'GET variant/inventory/updated',
        )) as { variants: { inventory: { merchantFulfillableQuantity: string } }[]; nextPageCursor: string };
        reported += page.variants.length;
        if (!page.nextPageCursor) break;
        cursor = page.nextPageCursor;
      }
      const walkSeconds = (performance.now() - walkStarted) / 1000;
      const variantCount = Number(
        (await db.selectFrom('listing_variants').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow()).n,
      );
      if (reported !== variantCount) throw new Error(`the poll reported ${reported} changed variants, expected ${variantCount}`);

      const after = { poll: await meanLatency(pollUrl, headers), drift: await meanLatency(driftUrl, headers) };
      const pct = (a: number, b: number) => `${(((b - a) / a) * 100).toFixed(1)} %`;
      const lines = [
        `## ${HEADING}`,
        '',
        `Written by \`npm run bench:inventory-rules\` (bench/inventory-rules.ts) on ${new Date().toISOString()}.`,
        '',
        ...machineLines(`one storefront, ${variantCount} variants (5 per listing) with 10–99 units each in Main, seeded in ${seedSeconds.toFixed(1)} s`, loadBefore, bench.run()),
        `- The job worker runs in the service's process (one event loop, as \`npm start\`); /healthz polled every 20 ms from another process during the move`,
        '',
        '| Step | Figure |',
        '|---|---:|',
        `| PUT rules {percent: 50} → every variant moved (${jobs} job run) | ${moveSeconds.toFixed(1)} s |`,
        `| then walking variant/inventory/updated since the change (${reported} variants reported, all changed) | ${walkSeconds.toFixed(1)} s |`,
        `| worst /healthz during the move (p99, polls) | ${healthz.worstMs.toFixed(0)} ms (${healthz.p99Ms.toFixed(0)} ms, ${healthz.polls}) |`,
        `| variant/inventory/updated first page, mean of ${REQUESTS}: without rules → with rules | ${before.poll.toFixed(2)} → ${after.poll.toFixed(2)} ms (${pct(before.poll, after.poll)}) |`,
        `| drift/skus, mean of ${REQUESTS}: without rules → with rules | ${before.drift.toFixed(2)} → ${after.drift.toFixed(2)} ms (${pct(before.drift, after.drift)}) |`,
        '',
        `**Target:** worst /healthz under 100 ms during the move: ${healthz.worstMs < 100 ? '**met**' : '**NOT met**'} (${healthz.worstMs.toFixed(0)} ms).`,
        '',
        `**Target:** polls and drift within 10 % of their figures without rules: ${after.poll <= before.poll * 1.1 && after.drift <= before.drift * 1.1 ? '**met**' : '**NOT met**'}.`,
        '',
      ];
      writeSection(lines.join('\n'), 'bench/RESULTS.md', HEADING, `${HEADING} notes`);
    },
    { ADMIN_TOKEN },
  );
}

runMain(main);
