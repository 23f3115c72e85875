import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Logger } from 'pino';

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

/** What a collector registers its metrics with. */
export interface MetricsScope {
  registry: Registry;
  /**
   * A read the collector's metrics take at scrape time, made once per scrape however many metrics share it.
   * A failed read is counted (metrics_collection_errors_total) and logged, and gives null: the metrics that
   * need it are then absent, not stale, and the rest of the scrape is intact.
   */
  scrapeRead<T>(what: string, load: () => Promise<T>): () => Promise<T | null>;
}

/**
 * Registers metrics that know the service's data (the database pool, the job queue, callback deliveries).
 * lib/ knows none of it: the composition (src/create-deps.ts) hands the collectors in from above.
 */
export type MetricsCollector = (scope: MetricsScope) => void;

export interface MetricsCollectors {
  /**
   * Sample this process's own state (the PostgreSQL pool, SQLite's group commit). Registered before the
   * readers: prom-client reads metrics in registration order, so the pool is sampled before this scrape's
   * own queries take (or wait for) a connection.
   */
  samplers?: readonly MetricsCollector[];
  /** Read the database at scrape time, through scope.scrapeRead. */
  readers?: readonly MetricsCollector[];
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

export function createMetrics(log: Logger, { samplers = [], readers = [] }: MetricsCollectors = {}): Metrics {
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

  const collectionErrors = new Counter({
    name: 'metrics_collection_errors_total',
    help: 'Scrapes whose database-derived metrics (jobs, callback deliveries) could not be read; those metrics are then absent',
    registers: [],
  });
  const scope: MetricsScope = {
    registry,
    scrapeRead: <T>(what: string, load: () => Promise<T>) =>
      perScrape(async (): Promise<T | null> => {
        try {
          return await load();
        } catch (error) {
          collectionErrors.inc();
          log.warn({ err: error }, `metrics: could not read ${what}`);
          return null;
        }
      }),
  };
  for (const collect of samplers) collect(scope);
  // Registered here, between the samplers and the readers, where it has always appeared in a scrape.
  registry.registerMetric(collectionErrors);
  for (const collect of readers) collect(scope);

  return { registry, httpRequests, httpDuration, rateLimitRefusals, callbackAttempts };
}
