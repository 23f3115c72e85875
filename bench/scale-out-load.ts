/**
 * The load generator of bench/scale-out.ts, run in a child process of its own (like bench/load.ts) so the
 * client never competes with the benchmark's own event loop. It receives one MixedLoadJob over IPC, runs one
 * autocannon instance per request type at the same time, each spreading its connections round-robin over
 * every API process (autocannon gives connection i the URL i mod N), and sends back per-type and overall
 * figures. Latencies are exact across types: the raw histograms of the instances are merged
 * (autocannon's aggregateResult), not their percentiles averaged.
 */
import { createRequire } from 'node:module';

export interface MixedLoadType {
  name: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Rotated request by request: one path per request, or one body per request (first path). */
  paths: string[];
  bodies: string[] | null;
  /** Connections of this type in total (spread over the URLs: a multiple of their number keeps it even). */
  connections: number;
  /** Every "[<id>]" in a body becomes an id unique to that request (unique channelOrderIds). */
  uniqueIds?: boolean;
  /**
   * Each request takes a random body of `bodies` instead of the next one: autocannon starts every
   * connection at the first request, so in order they would all write the same SKU rows in lockstep, a hot
   * spot real partners do not make.
   */
  randomBodies?: boolean;
}

export interface MixedLoadJob {
  /** The base URL of every API process. */
  urls: string[];
  durationSeconds: number;
  types: MixedLoadType[];
}

export interface LoadFigures {
  requests: number;
  /** Requests sent but not answered when the run stopped (autocannon drops their connections). */
  cutOff: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Responses by status code. */
  statusCodes: Record<string, number>;
}

export interface MixedLoadResult {
  byType: Record<string, LoadFigures>;
  total: LoadFigures;
}

/** The part of autocannon's API used here, typed locally (bench/autocannon.d.ts covers only bench/load.ts's part). */
interface RequestData {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}
interface RawResult {
  totalCompletedRequests: number;
  duration: number;
}
interface AggregatedResult {
  latency: { p50: number; p99: number };
  requests: { total: number; sent: number };
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
interface Autocannon {
  (options: {
    url: string[];
    connections: number;
    duration: number;
    requests: (RequestData & { setupRequest?: (request: RequestData) => RequestData })[];
    skipAggregateResult: true;
  }): Promise<RawResult>;
  aggregateResult(results: RawResult[], options: { url: string[] }): AggregatedResult;
}

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

// Unique across load processes too: the pid and start time prefix a per-process counter.
const idPrefix = `${process.pid.toString(36)}${Date.now().toString(36)}`;
let idCounter = 0;
function withUniqueId(request: RequestData): RequestData {
  return { ...request, body: request.body?.replace(/\[<id>\]/g, () => `${idPrefix}-${(idCounter++).toString(36)}`) };
}

function figures(result: AggregatedResult, durationSeconds: number): LoadFigures {
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats)) statusCodes[code] = stat.count;
  return {
    requests: result.requests.total,
    cutOff: Math.max(0, result.requests.sent - result.requests.total),
    requestsPerSecond: result.requests.total / durationSeconds,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
}

export async function runMixedLoad(job: MixedLoadJob): Promise<MixedLoadResult> {
  const raws = await Promise.all(
    job.types.map((type) => {
      // The requests are listed up front (autocannon builds each once), as in bench/load.ts.
      const count = Math.max(type.paths.length, type.bodies?.length ?? 0);
      const requests = Array.from({ length: count }, (_, i) => ({
        method: type.method,
        headers: type.headers,
        path: type.paths[i % type.paths.length]!,
        ...(type.bodies ? { body: type.bodies[i % type.bodies.length]! } : {}),
      }));
      const bodies = type.bodies;
      const setup = (request: RequestData): RequestData => {
        const picked = type.randomBodies && bodies ? { ...request, body: bodies[Math.floor(Math.random() * bodies.length)]! } : request;
        return type.uniqueIds ? withUniqueId(picked) : picked;
      };
      // A random body per request: one request whose setupRequest picks it. Otherwise the list, in order.
      const withSetup = type.randomBodies
        ? requests.slice(0, 1).map((r) => ({ ...r, setupRequest: setup }))
        : type.uniqueIds
          ? requests.map((r) => ({ ...r, setupRequest: setup }))
          : requests;
      return autocannon({ url: job.urls, connections: type.connections, duration: job.durationSeconds, requests: withSetup, skipAggregateResult: true });
    }),
  );
  const byType: Record<string, LoadFigures> = {};
  job.types.forEach((type, i) => {
    byType[type.name] = figures(autocannon.aggregateResult([raws[i]!], { url: job.urls }), job.durationSeconds);
  });
  return { byType, total: figures(autocannon.aggregateResult(raws, { url: job.urls }), job.durationSeconds) };
}

// Child-process entry: one job in, one result out, then exit.
if (process.send) {
  process.once('message', (job: MixedLoadJob) => {
    runMixedLoad(job).then(
      (result) => process.send!({ ok: true, result }, () => process.exit(0)),
      (error: unknown) => process.send!({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () => process.exit(1)),
    );
  });
}
