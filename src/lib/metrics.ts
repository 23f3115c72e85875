import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Logger } from 'pino';
import type { DbHandle } from '../db/connect.js';
import { jobQueueCounts, type JobTypeCounts } from '../jobs/metrics.js';
import { deliveryStateCounts, GAUGED_DELIVERY_STATES } from '../domain/callbacks/metrics.js';
import type { Clock } from './clock.js';

/**
 * The Prometheus metrics of one service instance (docs/operators/monitoring.md). Each Deps has its own
 * registry, never prom-client's global one: tests build many apps in one process, and each must count
 * only its own requests.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  rateLimitRefusals: Counter;
  /** Callback delivery attempts this process's worker made, by the state the delivery ended in. */
  callbackAttempts: Counter<'result'>;
}

export interface MetricsSources {
  db: DbHandle;
  clock: Clock;
  log: Logger;
}

/** Request latencies are mostly milliseconds here: finer low buckets than prom-client's defaults. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * One database read per scrape shared by every gauge that needs it: prom-client asks each metric's
 * collect() in the same tick, so the first starts the read and the others join it.
 */
function perScrape<T>(load: () => Promise<T>): () => Promise<T> {
  let inflight: Promise<T> | null = null;
  return () => {
    inflight ??= load().finally(() => {
      inflight = null;
    });
    return inflight;
  };
}

export function createMetrics({ db, clock, log }: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template ("unmatched" when no route matched) and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to sending its response, by method, route template and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const rateLimitRefusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused with 429 by the per-token rate limit (RATE_LIMIT_RPS, RATE_LIMIT_BURST)',
    registers: [registry],
  });
  const callbackAttempts = new Counter({
    name: 'callback_delivery_attempts_total',
    help: 'Callback delivery attempts made by this process\'s worker, by the state the delivery is left in (SUCCEEDED, PENDING: retry scheduled, DEAD)',
    labelNames: ['result'] as const,
    registers: [registry],
  });

  // Registered before the gauges that query the database: prom-client reads metrics in registration order,
  // so the pool is sampled before this scrape's own queries take (or wait for) a connection.
  if ('pool' in db.raw) {
    const pool = db.raw.pool;
    new Gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL connections of this process: total open, idle, and requests waiting for a free one',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }
  if (db.groupCommit) {
    const stats = db.groupCommit;
    const fromStats = (name: string, help: string, value: () => number) =>
      new Counter({
        name,
        help,
        registers: [registry],
        collect() {
          this.reset();
          this.inc(value());
        },
      });
    // Group commit (src/db/group-commit.ts): transactions / commits is how many transactions a COMMIT carried.
    fromStats('sqlite_commits_total', 'COMMITs of the embedded database', () => stats.commits);
    fromStats('sqlite_committed_transactions_total', 'Transactions those COMMITs carried (group commit: one COMMIT for every transaction that finished in the same turn)', () => stats.members);
  }
  const collectionErrors = new Counter({
    name: 'metrics_collection_errors_total',
    help: 'Scrapes whose database-derived metrics (jobs, callback deliveries) could not be read; those metrics are then absent',
    registers: [registry],
  });
  /** A failed read leaves the gauges empty (absent, not stale) and the rest of the scrape intact. */
  const guarded = <T>(what: string, load: () => Promise<T>) =>
    perScrape(async (): Promise<T | null> => {
      try {
        return await load();
      } catch (error) {
        collectionErrors.inc();
        log.warn({ err: error }, `metrics: could not read ${what}`);
        return null;
      }
    });

  const jobs = guarded('the job queue', () => jobQueueCounts(db.db, clock.now()));
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

  const deliveries = guarded('callback deliveries', () => deliveryStateCounts(db.db));
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

  return { registry, httpRequests, httpDuration, rateLimitRefusals, callbackAttempts };
}
