import { sql } from 'kysely';
import { Gauge } from 'prom-client';
import type { Db } from '../db/tx.js';
import { deliveryStateCounts, GAUGED_DELIVERY_STATES } from '../domain/callbacks/metrics.js';
import type { Clock } from '../lib/clock.js';
import type { MetricsCollector } from '../lib/metrics.js';
import { defaultJobRegistry } from './registry.js';
import type { JobStatus } from './types.js';

/**
 * Rows each status's scrape reads at most (the metrics of docs/operators/monitoring.md). A backlog past it
 * is reported as this many, split by type in index order: the alert fires all the same, and a scrape
 * every 15 s never turns into a full read of a million-row backlog on the API's event loop.
 */
export const JOB_METRICS_CAP = 100_000;

export interface JobTypeCounts {
  type: string;
  /** PENDING and due now (run_at reached): waiting for a worker. */
  due: number;
  /** PENDING with run_at in the future (retry backoff, scheduled expiries). */
  scheduled: number;
  running: number;
  dead: number;
  /** Seconds since the oldest due PENDING job became due; 0 when none is due. */
  oldestDueAgeSeconds: number;
}

interface GroupRow {
  type: string;
  n: number | string;
  due: number | string | null;
  oldest_due: string | null;
}

/** One status grouped by type, a capped index-only read of jobs_status_type (migration 021). */
async function groupByType(db: Db, status: JobStatus, nowIso: string): Promise<GroupRow[]> {
  const capped = db.selectFrom('jobs').select(['type', 'run_at']).where('status', '=', status).limit(JOB_METRICS_CAP);
  return db
    .selectFrom(capped.as('j'))
    .select((eb) => [
      'j.type',
      eb.fn.countAll<number | string>().as('n'),
      sql<number | string | null>`sum(case when j.run_at <= ${nowIso} then 1 else 0 end)`.as('due'),
      sql<string | null>`min(case when j.run_at <= ${nowIso} then j.run_at end)`.as('oldest_due'),
    ])
    .groupBy('j.type')
    .execute();
}

/**
 * The job queue by type, read at scrape time. Every type the service runs is listed (zeros included), so
 * a series drops to 0 instead of vanishing when its queue empties; unknown types found in the table too.
 */
export async function jobQueueCounts(db: Db, now: Date): Promise<JobTypeCounts[]> {
  const nowIso = now.toISOString();
  const byType = new Map<string, JobTypeCounts>();
  const entry = (type: string): JobTypeCounts => {
    let counts = byType.get(type);
    if (!counts) {
      counts = { type, due: 0, scheduled: 0, running: 0, dead: 0, oldestDueAgeSeconds: 0 };
      byType.set(type, counts);
    }
    return counts;
  };
  for (const type of defaultJobRegistry().types()) entry(type);
  for (const row of await groupByType(db, 'PENDING', nowIso)) {
    const counts = entry(row.type);
    const due = Number(row.due ?? 0);
    counts.due = due;
    counts.scheduled = Number(row.n) - due;
    if (row.oldest_due !== null) counts.oldestDueAgeSeconds = Math.max(0, (now.getTime() - Date.parse(row.oldest_due)) / 1000);
  }
  for (const row of await groupByType(db, 'RUNNING', nowIso)) entry(row.type).running = Number(row.n);
  for (const row of await groupByType(db, 'DEAD', nowIso)) entry(row.type).dead = Number(row.n);
  return [...byType.values()];
}

/** The job queue's gauges, read once per scrape (docs/operators/monitoring.md). */
export function jobQueueMetrics(db: Db, clock: Clock): MetricsCollector {
  return ({ registry, scrapeRead }) => {
    const jobs = scrapeRead('the job queue', () => jobQueueCounts(db, clock.now()));
    const jobGauge = (name: string, help: string, labelNames: readonly string[], fill: (gauge: Gauge, counts: JobTypeCounts) => void) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers: [registry],
        async collect() {
          this.reset();
          for (const counts of (await jobs()) ?? []) fill(this, counts);
        },
      });
    jobGauge('jobs_queue_depth', 'Unfinished jobs by type and status: due (PENDING, run_at reached), scheduled (PENDING, later), running', ['type', 'status'], (g, c) => {
      g.set({ type: c.type, status: 'due' }, c.due);
      g.set({ type: c.type, status: 'scheduled' }, c.scheduled);
      g.set({ type: c.type, status: 'running' }, c.running);
    });
    jobGauge('jobs_oldest_due_age_seconds', 'Seconds the oldest due PENDING job of a type has waited for a worker (0: none due)', ['type'], (g, c) =>
      g.set({ type: c.type }, c.oldestDueAgeSeconds),
    );
    jobGauge('jobs_dead', 'DEAD jobs by type (attempts exhausted; retry with POST /admin/jobs/{jobId}/retry)', ['type'], (g, c) => g.set({ type: c.type }, c.dead));
  };
}

/** The callback deliveries the worker has yet to send or gave up on, read once per scrape. */
export function deliveryMetrics(db: Db): MetricsCollector {
  return ({ registry, scrapeRead }) => {
    const deliveries = scrapeRead('callback deliveries', () => deliveryStateCounts(db));
    new Gauge({
      name: 'callback_deliveries',
      help: 'Callback deliveries by state: PENDING (being retried or about to be sent) and DEAD (given up; replayable)',
      labelNames: ['state'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const counts = await deliveries();
        if (counts) for (const state of GAUGED_DELIVERY_STATES) this.set({ state }, counts[state]);
      },
    });
  };
}
