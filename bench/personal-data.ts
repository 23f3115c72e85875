/**
 * `npm run bench:personal-data`: what the personal-data retention sweep costs (issue 29 "Done when": 100,000
 * closed orders redacted without a /healthz answer over 100 ms). Never run by `npm test`.
 *
 * One account holds BENCH_ORDERS 2-line orders with a buyer's name and ship-to address (bench/seed.ts
 * seedOrderAccount: one through HTTP, the rest cloned), all made closed (SHIPPED) 40 days ago, past the
 * default retention of 30 days. The service runs in this process with its job worker on the same event loop,
 * as `npm start` runs them: the worker runs the recurring `personal-data.retention-sweep` job while a poller
 * in another process GETs /healthz every 20 ms (bench/stall-poller.ts). Measured: the time until every order
 * is redacted, the worst and p99 /healthz latency meanwhile; then checked: no order keeps a name, an email or
 * a street, and the search terms hold no buyer's name.
 *
 * Knobs: BENCH_ORDERS (100000), BENCH_OUTPUT (default bench/RESULTS.md, where the "## Personal data benchmark"
 * section is replaced; "-" prints only). BENCH_DB=postgres runs on PostgreSQL (bench/harness.ts).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { PERSONAL_DATA_SWEEP } from '../src/jobs/handlers/personal-data-sweep.js';
import { RECURRING_JOBS } from '../src/jobs/schedules.js';
import { JobWorker } from '../src/jobs/worker.js';
import { envInt, machineLines } from './common.js';
import { runMain, withBenchService, writeSection } from './harness.js';
import { seedOrderAccount } from './seed.js';
import { startPoller } from './stall-processes.js';

const ORDERS = envInt('BENCH_ORDERS', 100_000, 100);
const HEADING = 'Personal data benchmark';
const DAY_MS = 86_400_000;

async function main() {
  await withBenchService('personal-data', async (deps, base, bench) => {
    const db = deps.db.db;
    const loadBefore = os.loadavg()[0]!;
    const seedStarted = performance.now();
    const { accountId } = await seedOrderAccount(deps, base, { orders: ORDERS, clones: { customerName: (i) => `Buyer Number${i}` } });
    // Every order shipped 40 days ago: closed, past the default retention (30 days).
    const closedTs = new Date(deps.clock.now().getTime() - 40 * DAY_MS).toISOString();
    await db.updateTable('sales_orders').set({ status: 'SHIPPED', closed_ts: closedTs }).where('account_id', '=', accountId).execute();
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const poller = startPoller();
    await poller.start(`${base}/healthz`, 20);
    const sweepStarted = performance.now();
    const schedules = RECURRING_JOBS.filter((j) => j.type === PERSONAL_DATA_SWEEP);
    const worker = new JobWorker(deps, { schedules });
    await worker.runSchedules();
    const jobs = await worker.runUntilIdle();
    const sweepSeconds = (performance.now() - sweepStarted) / 1000;
    const healthz = await poller.stop(5000);
    await poller.close();

    const count = async (redacted: boolean) =>
      Number(
        (
          await db
            .selectFrom('sales_orders')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('account_id', '=', accountId)
            .where('personal_data_redacted_ts', redacted ? 'is not' : 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const redacted = await count(true);
    const left = await count(false);
    if (redacted !== ORDERS || left !== 0) throw new Error(`${redacted} orders redacted, ${left} not: expected all ${ORDERS}`);
    const named = await db
      .selectFrom('sales_orders')
      .select('id')
      .where('account_id', '=', accountId)
      .where((eb) => eb.or([eb('customer_name', 'is not', null), eb('customer_email', 'is not', null), eb('shipping_address', 'like', '%Main St%')]))
      .limit(1)
      .execute();
    if (named.length > 0) throw new Error(`order ${named[0]!.id} still holds personal data`);
    const terms = await db.selectFrom('sales_order_search_terms').select('term').where('account_id', '=', accountId).where('term', 'in', ['buyer', 'number1', 'ada']).limit(1).execute();
    if (terms.length > 0) throw new Error(`the search index still holds "${terms[0]!.term}"`);

    const lines = [
      `## ${HEADING}`,
      '',
      `Written by \`npm run bench:personal-data\` (bench/personal-data.ts) on ${new Date().toISOString()}.`,
      '',
      ...machineLines(`one account, ${ORDERS} closed 2-line orders with a buyer's name and address, closed 40 days ago (retention 30 days); seeded in ${seedSeconds.toFixed(1)} s`, loadBefore, bench.run()),
      `- The job worker runs in the service's process (one event loop, as \`npm start\`); /healthz polled every 20 ms from another process during the sweep`,
      '',
      '| Step | Figure |',
      '|---|---:|',
      `| the retention sweep redacts every order (${jobs} job run, ${redacted} orders) | ${sweepSeconds.toFixed(1)} s (${Math.round(redacted / sweepSeconds)} orders/s) |`,
      `| worst /healthz during the sweep (p99, polls) | ${healthz.worstMs.toFixed(0)} ms (${healthz.p99Ms.toFixed(0)} ms, ${healthz.polls}) |`,
      '',
      `**Target:** ${ORDERS} closed orders redacted with no /healthz answer over 100 ms: ${healthz.worstMs < 100 ? '**met**' : '**NOT met**'} (worst ${healthz.worstMs.toFixed(0)} ms).`,
      '',
    ];
    writeSection(lines.join('\n'), 'bench/RESULTS.md', HEADING, `${HEADING} notes`);
  });
}

runMain(main);
